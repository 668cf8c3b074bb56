import { z } from 'zod';
import { requiredString } from './common';

/**
 * POST api/contact-support, multipart form: header, body, optional file (at most
 * SUPPORT_ATTACHMENT_MAX_BYTES). Answers `msgBody`.
 */
export const contactSupportFields = z.object({
  header: requiredString('Header', 200),
  body: requiredString('Body', 20_000),
});
export type ContactSupportFields = z.infer<typeof contactSupportFields>;
