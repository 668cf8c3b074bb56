/**
 * Request ids: a well-formed incoming `x-request-id` (from the reverse proxy or a caller) is kept,
 * anything else gets a fresh random id. The id is echoed in the `x-request-id` answer header, is
 * every log line's `reqId`, and travels with the jobs a request starts (`requestIdOf`), so one id
 * follows a request from the proxy through the API into the worker.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Letters, digits, `.`, `_` and `-`, 1–64 characters: safe in a header, a log line and job data. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Fastify's genReqId: the caller's id when it is well formed, else a new UUID. */
export function requestIdFromHeaders(request: Pick<IncomingMessage, 'headers'>): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

/** The id of a request, for job data and messages to other processes. */
export function requestIdOf(request: { id: string }): string {
  return request.id;
}
