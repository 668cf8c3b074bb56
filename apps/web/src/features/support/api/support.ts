import { supportEndpoints } from '@signalboard/core';
import { apiCall } from '../../../lib/client';

export function contactSupport(values: { header: string; body: string; file: File | null }) {
  // A multipart form: header, body, then the file (with its name) when one is attached.
  return apiCall(supportEndpoints.contactSupport, { body: { header: values.header, body: values.body, file: values.file ?? undefined } });
}
