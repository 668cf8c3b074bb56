import { z } from 'zod';

/** Every error answer: a human-readable `msg`, plus `error` where spec §8 reads it. */
export const errorBody = z.object({
  msg: z.string(),
  error: z.string().optional(),
  /** A machine-readable reason where a client acts on it: `password_change_required` (a 403 to a session at its first login). */
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

/** A plain acknowledgement. */
export const msgBody = z.object({ msg: z.string() });
export type MsgBody = z.infer<typeof msgBody>;

/** Turns a zod failure into the one-line `msg` a 400 answer carries. */
export function formatIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path.join('.');
  const message = issue.message;
  // Messages written in the contract already name their field; zod's defaults do not.
  const field = String(issue.path[issue.path.length - 1] ?? '');
  if (!path || /^[A-Z]/.test(message) || message.toLowerCase().startsWith(field.toLowerCase())) return message;
  return `${path}: ${message}`;
}
