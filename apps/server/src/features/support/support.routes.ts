import type { FastifyInstance } from 'fastify';
import { contactSupportFields, SUPPORT_ATTACHMENT_MAX_BYTES, supportAttachmentName, type MsgBody } from '@signalboard/core';
import { HttpError, parseInput, parseValue } from '../../lib/errors';
import { readMultipart } from '../../lib/multipart';
import type { Mailer, MailAttachment } from '../../providers/mail';

/** The part's declared type when it is a plain `type/subtype`, else a neutral one (it goes into the mail's headers). */
const mediaType = (declared: string) => (/^[\w.+-]+\/[\w.+-]+$/.test(declared) ? declared : 'application/octet-stream');

const ATTACHMENT_TOO_LARGE_MSG = `The attachment is larger than ${SUPPORT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`;

/** api/contact-support: multipart header, body, optional file; mailed to SUPPORT_EMAIL, reply-to the user. */
export async function supportRoutes(app: FastifyInstance, options: { mailer: Pick<Mailer, 'send'>; supportEmail: string }) {
  app.post('/contact-support', async (request): Promise<MsgBody> => {
    if (!request.isMultipart()) {
      throw new HttpError(400, 'Send the support request as multipart/form-data with header and body fields.');
    }
    const { fields, files } = await readMultipart(request, { fileSize: SUPPORT_ATTACHMENT_MAX_BYTES, files: 1, tooLargeMsg: ATTACHMENT_TOO_LARGE_MSG });
    const upload = files[0];
    // The form's fields and the file's name go through the contract's text rules before anything is sent.
    const { header, body } = parseInput(contactSupportFields, fields);
    const attachment: MailAttachment | undefined = upload
      ? { filename: parseValue(supportAttachmentName, upload.filename), content: upload.content, contentType: mediaType(upload.mimetype) }
      : undefined;
    const from = request.user.email;
    try {
      await options.mailer.send({
        to: options.supportEmail,
        replyTo: from,
        subject: `[Support] ${header}`,
        text: `${body}\n\n-- \nSent from Signalboard by ${from}`,
        attachments: attachment ? [attachment] : [],
      });
    } catch (error) {
      request.log.error({ err: error }, 'support request could not be sent');
      throw new HttpError(502, 'The support request could not be sent: the mail service is unavailable.');
    }
    return { msg: 'Support request sent successfully!' };
  });
}
