/**
 * Request ids: a well-formed incoming `x-request-id` (from the reverse proxy or a caller) is kept,
 * anything else gets a new id of this process (newRequestId). The id is echoed in the `x-request-id` answer header, is
 * every log line's `reqId`, and travels with the jobs a request starts (`requestIdOf`), so one id
 * follows a request from the proxy through the API into the worker.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Letters, digits, `.`, `_` and `-`, 1–64 characters: safe in a header, a log line and job data. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A new id: this process's random prefix (48 bits, drawn at start) and a counter, e.g.
 * `3f9a0c1e52d7-1b`. Unique across the API processes and workers of an installation as a UUID per
 * request would be, without drawing random bytes for every request (the authenticated read's budget
 * is counted in microseconds: `npm run bench -- getemail`).
 */
const PROCESS_PREFIX = randomBytes(6).toString('hex');
let counter = 0;
export function newRequestId(): string {
  counter += 1;
  return `${PROCESS_PREFIX}-${counter.toString(36)}`;
}

/** Fastify's genReqId: the caller's id when it is well formed, else a new one (newRequestId). */
export function requestIdFromHeaders(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : newRequestId();
}

/** The id of a request, for job data and messages to other processes. */
export function requestIdOf(request: { id: string }): string {
  return request.id;
}
