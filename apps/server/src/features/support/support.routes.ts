import type { FastifyInstance } from 'fastify';
import { contactSupportFields, SUPPORT_ATTACHMENT_MAX_BYTES, supportAttachmentName, supportEndpoints, type MsgBody } from '@signalboard/core';
import { ALLOWED_ATTACHMENTS_MSG, sniffAttachment } from '../../lib/content-sniff';
import { route } from '../../lib/endpoint';
import { HttpError, parseInput, parseValue } from '../../lib/errors';
import { acceptMultipart, readMultipart } from '../../lib/multipart';
import type { UserLimit } from '../../lib/user-limit';
import type { Mailer, MailAttachment } from '../../providers/mail';

const ATTACHMENT_TOO_LARGE_MSG = `The attachment is larger than ${SUPPORT_ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`;
/** Seconds a client is told to wait when every upload slot is taken (an upload takes seconds). */
const BUSY_RETRY_AFTER_SECONDS = 5;
const BUSY_MSG = 'The server is receiving too many support requests right now. Please try again in a few seconds.';

export interface SupportRoutesOptions {
  mailer: Pick<Mailer, 'send'>;
  supportEmail: string;
  /** Support requests per user (counted when received, before the body is read). */
  limit: UserLimit;
  /** Requests whose body (up to 10 MB) this process reads at once; more answer 503 before reading theirs. */
  maxConcurrentUploads: number;
  /** A body that has not arrived whole within this long answers 408 and frees its slot (UPLOAD_TIMEOUT_SECONDS). */
  uploadTimeoutMs: number;
}

/**
 * api/contact-support: multipart header, body, optional file; mailed to SUPPORT_EMAIL, reply-to the user.
 * Memory stays bounded: at most `maxConcurrentUploads` bodies are read (and held until mailed) at once,
 * each for at most `uploadTimeoutMs` (a slow client answers 408 and frees its slot).
 * The attachment must be an image, a PDF or text by its bytes; the mail says the type found there.
 */
export async function supportRoutes(app: FastifyInstance, options: SupportRoutesOptions) {
  await acceptMultipart(app);
  let uploading = 0;

  // The multipart form is read here (bounded, one upload slot each), its fields parsed after.
  route(app, supportEndpoints.contactSupport, { parse: 'none' }, async (request): Promise<MsgBody> => {
    if (!request.isMultipart()) {
      throw new HttpError(400, 'Send the support request as multipart/form-data with header and body fields.');
    }
    if (uploading >= options.maxConcurrentUploads) {
      throw new HttpError(503, BUSY_MSG, { headers: { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) } });
    }
    uploading += 1;
    try {
      // Counted on arrival, before the body is read: a user over the limit costs no upload, and a
      // refused attachment counts too (else refused uploads could be sent without end).
      await options.limit.hit(request.user.id);
      const { fields, files } = await readMultipart(request, {
        fileSize: SUPPORT_ATTACHMENT_MAX_BYTES,
        files: 1,
        tooLargeMsg: ATTACHMENT_TOO_LARGE_MSG,
        timeoutMs: options.uploadTimeoutMs,
      });
      const upload = files[0];
      // The form's fields and the file's name go through the contract's text rules before anything is sent.
      const { header, body } = parseInput(contactSupportFields, fields);
      let attachment: MailAttachment | undefined;
      if (upload) {
        const filename = parseValue(supportAttachmentName, upload.filename);
        const contentType = sniffAttachment(upload.content);
        if (!contentType) throw new HttpError(415, ALLOWED_ATTACHMENTS_MSG);
        attachment = { filename, content: upload.content, contentType };
      }
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
    } finally {
      uploading -= 1;
    }
  });
}
