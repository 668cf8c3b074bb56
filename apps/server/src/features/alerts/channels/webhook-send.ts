/**
 * One POST to an endpoint (issue 27; docs/rules/alerts.md §4.8 "Webhooks"), shared by the delivery lane and
 * "Send test": a webhook's signed JSON, a Discord embed, an ntfy notification. The URL is checked again
 * at send time and the request goes to the address that check resolved (lib/outbound), never
 * following a redirect; the answer is classified.
 */
import { WEBHOOK_KINDS, WEBHOOK_TIMEOUT_MS, type WebhookKind, type WebhookPayload } from '@signalboard/core';
import { pushRequest, type PushSubscriptionJson } from '../../../lib/webpush/encrypt';
import type { VapidKeys } from '../../../lib/webpush/vapid';
import { TelegramNetworkError, type TelegramBotApi } from './telegram/bot-api';
import { telegramAlertHtml } from './telegram/telegram-text';
import { checkOutboundUrl, OutboundUrlError, type OutboundUrlRules, type Resolver } from '../../../lib/outbound/url-guard';
import { OutboundNetworkError, postPinned, type OutboundResponse } from '../../../lib/outbound/post-pinned';
import type { SecretBox } from '../../../lib/secret-box';
import { webhookHeaders } from './webhook-signature';

/** An endpoint as the sender needs it: its kind, its stored URL and topic, its opened secret. */
export interface WebhookTarget {
  kind: WebhookKind;
  /** webhook: the URL; ntfy: the server; discord: unused (the URL is the secret). */
  url: string;
  topic?: string | null;
  /**
   * webhook: the whsec_ secret; discord: the whole webhook URL; ntfy: the access token ('' when none);
   * telegram: the chat id; push: the subscription as JSON ({ endpoint, keys: { p256dh, auth } }).
   */
  secret: string;
}

/** A stored endpoint as a target: its secret opened. */
export function targetOf(row: { kind: string; url: string; topic: string | null; secretSealed: string }, box: SecretBox): WebhookTarget {
  const kind: WebhookKind = (WEBHOOK_KINDS as readonly string[]).includes(row.kind) ? (row.kind as WebhookKind) : 'webhook';
  return { kind, url: row.url, topic: row.topic, secret: box.open(row.secretSealed) };
}

export interface WebhookSendOptions {
  rules: OutboundUrlRules;
  /** DISCORD_BASE_URL: Discord's requests go to this origin instead (tests). */
  discordBaseUrl?: string | undefined;
  /** DNS (tests pass their own). */
  resolve?: Resolver;
  timeoutMs?: number;
  /** The bot Telegram messages go out through (null: the installation has none). */
  telegram?: TelegramBotApi | null;
  /** The installation's VAPID keys and contact, for browser push. */
  push?: { vapid: VapidKeys; subject: string } | null;
}

/**
 * What came of a send: 'delivered' (2xx); 'retry' (408, 429, 5xx, no answer, a host that did not
 * resolve: `retryAfterMs` from a Retry-After header when there was one); 'failed' (any other answer,
 * or a URL the rules refuse).
 */
export type WebhookOutcome =
  | { kind: 'delivered'; answer: string; response: OutboundResponse }
  | { kind: 'retry'; answer: string; response: OutboundResponse | null; retryAfterMs: number | null }
  | { kind: 'failed'; answer: string; response: OutboundResponse | null; gone?: boolean };

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

/** A Discord webhook URL with its token masked, as the API shows it. */
export const maskDiscordUrl = (url: string) => url.replace(/\/webhooks\/(\d+)\/[^/?#]+/, '/webhooks/$1/••••');

/** ntfy's priority of each kind of alert: price crossings and trade events high (4), the rest default (3). */
const NTFY_HIGH = new Set(['PERCENT_DROP', 'CURRENT_PRICE', 'BITCOIN', 'LEVEL_SYSTEM', 'OPTION_ALERT', 'SAVED_OPTION_TRADE', 'SAVED_STOCK_SCANNER']);
/** Discord embed colours: drops red, the rest the app's blue. */
const DISCORD_RED = 0xe03131;
const DISCORD_BLUE = 0x4263eb;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The request an endpoint gets for `payload`, and the same as shown to its user (no token in it). */
export function endpointRequest(target: WebhookTarget, payload: WebhookPayload, now: Date, discordBaseUrl?: string) {
  const { data } = payload;
  if (target.kind === 'discord') {
    const real = discordBaseUrl ? `${discordBaseUrl.replace(/\/$/, '')}${new URL(target.secret).pathname}` : target.secret;
    const url = `${real}${real.includes('?') ? '&' : '?'}wait=true`;
    const drop = /DROP/.test(data.alert_type);
    const body = JSON.stringify({
      username: 'Signalboard',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: cut(data.subject, 256),
          description: cut(data.text, 4000),
          ...(data.links.screen ?? data.links.history ? { url: data.links.screen ?? data.links.history } : {}),
          color: drop ? DISCORD_RED : DISCORD_BLUE,
          timestamp: data.fired_at,
          footer: { text: cut(`${data.type_name} · Signalboard`, 2048) },
        },
      ],
    });
    const headers = { 'content-type': 'application/json' };
    return { url, headers, body, shown: { url: maskDiscordUrl(target.secret), headers } };
  }
  if (target.kind === 'ntfy') {
    // Published as JSON to the server's root (ntfy's JSON publishing): no header encoding of the texts.
    const url = `${target.url.replace(/\/$/, '')}/`;
    const body = JSON.stringify({
      topic: target.topic ?? '',
      title: cut(data.subject, 250),
      message: cut(data.text, 4000),
      priority: NTFY_HIGH.has(data.alert_type) ? 4 : 3,
      tags: ['chart_with_upwards_trend'],
      ...(data.links.screen ?? data.links.history ? { click: data.links.screen ?? data.links.history } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.secret ? { authorization: `Bearer ${target.secret}` } : {}) };
    return { url, headers, body, shown: { url, headers: target.secret ? { ...headers, authorization: 'Bearer ••••' } : headers } };
  }
  const body = JSON.stringify(payload);
  const headers = webhookHeaders(target.secret, payload.id, Math.floor(now.getTime() / 1000), body);
  return { url: target.url, headers: { ...headers }, body, shown: { url: target.url, headers: { ...headers } } };
}

/** What a push notification carries to the service worker (apps/web/public/sw.js): small, and a same-origin path to open. */
export function pushMessage(payload: WebhookPayload): string {
  const { data } = payload;
  const link = data.links.screen ?? data.links.history;
  const url = new URL(link, 'http://localhost');
  return JSON.stringify({ title: cut(data.subject, 120), body: cut(data.text, 1_500), url: `${url.pathname}${url.search}`, tag: payload.id, type: data.alert_type });
}

/** A Telegram sendMessage: delivered, retried after a 429's retry_after or a 5xx, or a chat that is gone (403, chat not found). */
async function sendTelegram(target: WebhookTarget, payload: WebhookPayload, api: TelegramBotApi | null | undefined): Promise<WebhookAttempt> {
  const text = telegramAlertHtml(payload);
  const request = { method: 'POST' as const, url: 'https://api.telegram.org/bot••••/sendMessage', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: '••••', text, parse_mode: 'HTML' }) };
  if (!api) return { request, outcome: { kind: 'failed', answer: 'Telegram is not set up on this installation (TELEGRAM_BOT_TOKEN)', response: null } };
  let answer;
  try {
    answer = await api.call('sendMessage', { chat_id: target.secret, text, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }, { timeoutMs: WEBHOOK_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof TelegramNetworkError) return { request, outcome: { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } };
    throw error;
  }
  const response: OutboundResponse = { status: answer.status, headers: {}, body: JSON.stringify({ ok: answer.ok, description: answer.description }), durationMs: answer.durationMs };
  const said = `${answerText(response)}${answer.description ? ` (${answer.description})` : ''}`;
  if (answer.ok) return { request, outcome: { kind: 'delivered', answer: answerText(response), response } };
  if (answer.status === 429 || answer.status >= 500) return { request, outcome: { kind: 'retry', answer: said, response, retryAfterMs: answer.retryAfterSeconds === null ? null : answer.retryAfterSeconds * 1000 } };
  // The bot was blocked or removed, or the chat is gone: the chat is disconnected.
  const gone = answer.status === 403 || /chat not found|user is deactivated|bot was kicked/i.test(answer.description ?? '');
  return { request, outcome: { kind: 'failed', answer: said, response, gone } };
}

/** A Web Push message, encrypted for the subscription and signed with the VAPID key; a 404/410 means the subscription is gone. */
async function sendPush(target: WebhookTarget, payload: WebhookPayload, options: WebhookSendOptions): Promise<WebhookAttempt> {
  const subscription = JSON.parse(target.secret) as PushSubscriptionJson;
  const message = pushMessage(payload);
  const origin = new URL(subscription.endpoint).origin;
  const shown = { method: 'POST' as const, url: `${origin}/••••`, headers: { 'content-encoding': 'aes128gcm', ttl: '86400' }, body: message };
  if (!options.push) return { request: shown, outcome: { kind: 'failed', answer: 'Browser push is not set up on this installation', response: null } };
  // The JWT's expiry is checked by the push service against its own clock: the wall clock's time, not the jobs'.
  const built = pushRequest(subscription, message, options.push.vapid, options.push.subject, new Date(), { urgency: 'high' });
  let checked;
  try {
    checked = await checkOutboundUrl(built.url, options.rules, options.resolve);
  } catch (error) {
    if (error instanceof OutboundUrlError) return { request: shown, outcome: error.transient ? { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } : { kind: 'failed', answer: error.message, response: null } };
    throw error;
  }
  try {
    const response = await postPinned(checked, built.body, built.headers, { timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS });
    const outcome = classifyAnswer(response, Date.now());
    if (outcome.kind === 'failed' && (response.status === 404 || response.status === 410)) return { request: shown, outcome: { ...outcome, gone: true } };
    return { request: shown, outcome };
  } catch (error) {
    if (error instanceof OutboundNetworkError) return { request: shown, outcome: { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } };
    throw error;
  }
}

/** Sends `payload` to the endpoint as its kind wants it (a webhook signed); never throws for the peer's faults. */
export async function sendWebhook(target: WebhookTarget, payload: WebhookPayload, options: WebhookSendOptions, now: Date): Promise<WebhookAttempt> {
  if (target.kind === 'telegram') return sendTelegram(target, payload, options.telegram);
  if (target.kind === 'push') return sendPush(target, payload, options);
  const built = endpointRequest(target, payload, now, options.discordBaseUrl);
  const request = { method: 'POST' as const, url: built.shown.url, headers: built.shown.headers, body: built.body };
  let checked;
  try {
    checked = await checkOutboundUrl(built.url, options.rules, options.resolve);
  } catch (error) {
    if (error instanceof OutboundUrlError) {
      // A host that does not resolve now may later (DNS down); a refused address or scheme will not.
      const outcome: WebhookOutcome = error.transient ? { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } : { kind: 'failed', answer: error.message, response: null };
      return { request, outcome };
    }
    throw error;
  }
  try {
    const response = await postPinned(checked, built.body, built.headers, { timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS });
    return { request, outcome: classifyAnswer(response, Date.now()) };
  } catch (error) {
    if (error instanceof OutboundNetworkError) return { request, outcome: { kind: 'retry', answer: error.message, response: null, retryAfterMs: null } };
    throw error;
  }
}
