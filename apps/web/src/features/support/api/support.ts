import { msgBody } from '@signalboard/core';
import { apiRequest } from '../../../lib/client';

export function contactSupport(values: { header: string; body: string; file: File | null }) {
  const form = new FormData();
  form.append('header', values.header);
  form.append('body', values.body);
  if (values.file) form.append('file', values.file, values.file.name);
  return apiRequest(msgBody, 'contact-support', { form });
}
