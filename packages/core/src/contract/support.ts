import { z } from 'zod';
import { multiLineText, singleLineText } from '../validation/text';

/**
 * POST api/contact-support, multipart form: header (one line), body (multi-line), optional file (at
 * most SUPPORT_ATTACHMENT_MAX_BYTES). Answers `msgBody`.
 */
export const contactSupportFields = z.object({
  header: singleLineText('Header', { required: true, max: 200, examples: ['Alerts did not fire'] }),
  body: multiLineText('Body', { required: true, max: 20_000, examples: ['Nothing arrived.\nWhat can I check?'] }),
});
export type ContactSupportFields = z.infer<typeof contactSupportFields>;

/** The attached file's name, as the form sends it (a name, not a path). */
export const supportAttachmentName = singleLineText('File name', { required: true, max: 255, examples: ['screenshot.png'] });
