/** The support request (a multipart form). */
import { z } from 'zod';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from '../constants';
import { contactSupportFields, msgBody } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

/**
 * The support form as documented: the contract's fields, and the file (its name follows
 * supportAttachmentName's rules). Documentation only: the server reads the multipart form itself.
 */
const supportForm = contactSupportFields.extend({
  file: z
    .file()
    .max(SUPPORT_ATTACHMENT_MAX_BYTES)
    .describe('At most 10 MB; its file name is one line of at most 255 characters, without control characters.')
    .optional(),
});

export const supportEndpoints = endpointGroup({
  contactSupport: defineEndpoint({ operationId: 'contactSupport', method: 'post', path: '/api/contact-support', summary: 'Send a support request: an optional attachment that is PNG, JPEG, GIF, WebP, PDF or UTF-8 text by its bytes (else 415); at most SUPPORT_MAX_PER_USER per SUPPORT_WINDOW_SECONDS (429); 503 while SUPPORT_MAX_CONCURRENT_UPLOADS uploads are being received', body: supportForm, bodyType: 'multipart', response: msgBody, errors: [429, 502, 503] }),
});
