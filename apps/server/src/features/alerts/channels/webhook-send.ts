/**
 * One signed POST to a webhook endpoint (issue 27; docs/rules/alerts.md §4.9 "Webhooks"), shared by the
 * delivery lane and "Send test": the URL is checked again at send time and the request goes to the
 * address that check resolved (lib/outbound), never following a redirect; the answer is classified.
 */
import { WEBHOOK_TIMEOUT_MS, type WebhookPayload } from '@signalboard/core';
import { checkOutboundUrl, OutboundUrlError, type OutboundUrlRules, type Resolver } from '../../../lib/outbound/url-guard';
import { OutboundNetworkError, postPinned, type OutboundResponse } from '../../../lib/outbound/post-pinned';
import { webhookHeaders } from './webhook-signature';

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface WebhookSendOptions {
  rules: OutboundUrlRules;
  /** DNS (tests pass their own). */
  resolve?: Resolver;
  timeoutMs?: number;
}

/**
 * What came of a send: 'delivered' (2xx); 'retry' (408, 429, 5xx, no answer, a host that did not
 * resolve: `retryAfterMs` from a Retry-After header when there was one); 'failed' (any other answer,
 * or a URL the rules refuse).
 */
export type WebhookOutcome =
  | { kind: 'delivered'; answer: string; response: OutboundResponse }
  | { kind: 'retry'; answer: string; response: OutboundResponse | null; retryAfterMs: number | null }
  | { kind: 'failed'; answer: string; response: OutboundResponse | null };

export interface WebhookAttempt {
  request: { method: 'POST'; url: string; headers: Record<string, string>; body: string };
  outcome: WebhookOutcome;
}

/** Retry-After as seconds or an HTTP date, in ms from `now` (null when absent or unreadable; at most a day). */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const seconds = Number(value.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(0, ms), 24 * 3_600_000) : null;
}

const STATUS_TEXTS: Readonly<Record<number, string>> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 410: 'Gone', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** '200 OK in 84 ms'. */
export const answerText = (response: OutboundResponse) => `${response.status}${STATUS_TEXTS[response.status] ? ` ${STATUS_TEXTS[response.status]}` : ''} in ${Math.round(response.durationMs)} ms`;

export function classifyAnswer(response: OutboundResponse, now: number): WebhookOutcome {
  const answer = answerText(response);
  if (response.status >= 200 && response.status < 300) return { kind: 'delivered', answer, response };
  if (response.status === 408 || response.status === 429 || response.status >= 500) {
    return { kind: 'retry', answer, response, retryAfterMs: retryAfterMs(response.headers['retry-after'], now) };
  }
  if (response.status >= 300 && response.status < 400) return { kind: 'failed', answer: `${answer} (redirects are not followed)`, response };
  return { kind: 'failed', answer, response };
}

/** Signs `payload` with the endpoint's secret and POSTs it; never throws for the peer's faults. */
export async function sendWebhook(target: WebhookTarget, payload: WebhookPayload, options: WebhookSendOptions, now: Date): Promise<WebhookAttempt> {
  const body = JSON.stringify(payload);
  const headers = webhookHeaders(target.secret, payload.id, Math.floor(now.getTime() / 1000), body);
  const request = { method: 'POST' as const, url: target.url, headers: { ...headers }, body };
  let checked;
  try {
    checked = await checkOutboundUrl(target.url, options.rules, options.resolve);
  } catch (error) {
    if (error instanceof OutboundUrlError) {
      // A host that does not resolve now may later (DNS down); a refused address or scheme will not.
      const outcome: WebhookOutcome = error.transient ? { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } : { kind: 'failed', answer: error.message, response: null };
      return { request, outcome };
    }
    throw error;
  }
  try {
    const response = await postPinned(checked, body, headers, { timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS });
    return { request, outcome: classifyAnswer(response, Date.now()) };
  } catch (error) {
    if (error instanceof OutboundNetworkError) return { request, outcome: { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } };
    throw error;
  }
}
