/**
 * The user's webhook endpoints (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): add (at most five), change,
 * delete, rotate the signing secret, send a test. A URL is checked by the outbound rules when saved
 * (and again at every send); the secret is sealed at rest and answered only by create and rotate.
 */
import { createHash } from 'node:crypto';
import {
  ADDED_WEBHOOK_KINDS,
  WEBHOOK_KIND_NAMES,
  PUSH_MAX_DEVICES,
  QUIET_HOURS_KINDS,
  pushDeviceAddedMessage,
  pushLimitMessage,
  WEBHOOK_ALERT_TYPES,
  type CreatePushSubscriptionRequest,
  DISCORD_URL_MESSAGE,
  DISCORD_WEBHOOK_PATTERN,
  NTFY_TOPIC_MESSAGE,
  NTFY_TOPIC_PATTERN,
  WEBHOOK_MAX_PER_USER,
  WEBHOOK_NO_SECRET_MESSAGE,
  WEBHOOK_NOT_FOUND_MESSAGE,
  webhookCreatedMessage,
  webhookDeletedMessage,
  webhookLimitMessage,
  webhookSavedMessage,
  webhookSecretRotatedMessage,
  type CreateWebhookRequest,
  type ListWebhooksResponse,
  type TestWebhookResponse,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookAlertType,
  type WebhookKind,
  type WebhookWithSecretResponse,
} from '@signalboard/core';
import type { Config } from '../../../config';
import type { CacheStore } from '../../../lib/cache-store';
import type { Clock } from '../../../lib/clock';
import { HttpError } from '../../../lib/errors';
import { checkOutboundUrl, OutboundUrlError, type Resolver } from '../../../lib/outbound/url-guard';
import { RateLimiter } from '../../../lib/rate-limiter';
import type { SecretBox } from '../../../lib/secret-box';
import { waitText } from '../../../lib/user-limit';
import { testAlertEvent, webhookPayload } from './webhook-payload';
import { generateWebhookSecret } from './webhook-signature';
import { maskDiscordUrl, sendWebhook, targetOf, type WebhookSendOptions } from './webhook-send';
import type { TelegramBotApi } from './telegram/bot-api';
import type { VapidKeys } from '../../../lib/webpush/vapid';
import type { WebhookRow, WebhooksRepo } from './webhooks.repo';

/** Test sends per endpoint per hour. */
export const WEBHOOK_TEST_MAX_PER_HOUR = 3;

export const webhookTestLimitMessage = (name: string, wait: string) =>
  `You have sent ${WEBHOOK_TEST_MAX_PER_HOUR} tests to "${name}" in the last hour, the most allowed. Please try again in ${wait}.`;

export interface WebhooksServiceDeps {
  repo: WebhooksRepo;
  box: SecretBox;
  clock: Clock;
  store: CacheStore;
  config: Pick<Config, 'PUBLIC_URL' | 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_ALLOW_HOSTS' | 'DISCORD_BASE_URL'>;
  resolve?: Resolver;
  /** The bot Telegram messages go out through (null: none). */
  telegram?: TelegramBotApi | null;
  /** Browser push: the VAPID keys and contact (null: not set up). */
  push?: { vapid: VapidKeys; subject: string } | null;
}

/** A push device's lookup hash: its endpoint's SHA-256 (the browser computes the same to find itself). */
export const pushDeviceKey = (endpoint: string) => createHash('sha256').update(endpoint).digest('base64url');

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** An ntfy server as stored: the checked URL without a trailing slash. */
const ntfyServer = (url: string) => url.replace(/\/+$/, '');

/** An ntfy topic (400 with the contract's message when it is not one). */
function ntfyTopic(raw: string | undefined): string {
  const topic = (raw ?? '').trim();
  if (!NTFY_TOPIC_PATTERN.test(topic)) throw new HttpError(400, NTFY_TOPIC_MESSAGE);
  return topic;
}

type CreateWebhookInput = Omit<CreateWebhookRequest, 'alert_types' | 'kind'> & { kind?: WebhookKind | undefined; alert_types: WebhookAlertType[] };
type UpdateWebhookInput = Omit<UpdateWebhookRequest, 'alert_types'> & { alert_types?: WebhookAlertType[] | undefined };

export function toWebhook(row: WebhookRow, box: SecretBox): Webhook {
  const kind = targetOf(row, box).kind;
  return {
    id: row.id,
    kind,
    name: row.name,
    url: row.url,
    topic: kind === 'ntfy' ? row.topic : null,
    has_token: kind === 'ntfy' && box.open(row.secretSealed) !== '',
    alert_types: row.alertTypes as WebhookAlertType[],
    enabled: row.enabled,
    state: !row.enabled ? 'disabled' : row.failingSince ? 'failing' : 'active',
    disabled_reason: row.enabled ? null : row.disabledReason,
    failing_since: iso(row.failingSince),
    last_success_at: iso(row.lastSuccessAt),
    last_answer: row.lastAnswer,
    also_quiet_hours: QUIET_HOURS_KINDS.includes(kind) && row.alsoQuietHours,
    device_key: kind === 'push' ? row.lookupHash : null,
    created_at: row.createdAt.toISOString(),
  };
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { repo, box, clock, config } = deps;
  const rules = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowHosts: config.WEBHOOK_ALLOW_HOSTS };
  const tests = new RateLimiter(WEBHOOK_TEST_MAX_PER_HOUR, 3_600_000, clock, { store: deps.store, name: 'webhook-test' });
  const now = () => new Date(clock.nowMs());
  const sendOptions: WebhookSendOptions = { rules, discordBaseUrl: config.DISCORD_BASE_URL, telegram: deps.telegram ?? null, push: deps.push ?? null, ...(deps.resolve ? { resolve: deps.resolve } : {}) };

  /** The URL as the rules accept it (400 with the rule's msg otherwise). */
  async function checkedUrl(url: string): Promise<string> {
    try {
      return (await checkOutboundUrl(url.trim(), rules, deps.resolve)).url.href;
    } catch (error) {
      if (error instanceof OutboundUrlError) throw new HttpError(400, error.message);
      throw error;
    }
  }

  /** A Discord channel webhook URL (its pattern), checked by the rules as any URL (DISCORD_BASE_URL's in tests). */
  async function discordUrl(raw: string): Promise<string> {
    const url = raw.trim();
    if (!DISCORD_WEBHOOK_PATTERN.test(url)) throw new HttpError(400, DISCORD_URL_MESSAGE);
    await checkedUrl(config.DISCORD_BASE_URL ? `${config.DISCORD_BASE_URL.replace(/\/$/, '')}${new URL(url).pathname}` : url);
    return url.replace(/\/$/, '');
  }

  async function owned(userId: number, id: number): Promise<WebhookRow> {
    const row = await repo.get(userId, id);
    if (!row) throw new HttpError(404, WEBHOOK_NOT_FOUND_MESSAGE);
    return row;
  }

  return {
    async list(userId: number): Promise<ListWebhooksResponse> {
      return { webhooks: (await repo.list(userId)).map((row) => toWebhook(row, box)), max: WEBHOOK_MAX_PER_USER };
    },

    async create(userId: number, input: CreateWebhookInput): Promise<WebhookWithSecretResponse> {
      if ((await repo.list(userId)).filter((row) => (ADDED_WEBHOOK_KINDS as readonly string[]).includes(row.kind)).length >= WEBHOOK_MAX_PER_USER) throw new HttpError(400, webhookLimitMessage(WEBHOOK_MAX_PER_USER));
      const kind = input.kind ?? 'webhook';
      const at = now();
      let stored: { url: string; topic: string | null; sealed: string; secret?: string };
      if (kind === 'discord') {
        const url = await discordUrl(input.url);
        stored = { url: maskDiscordUrl(url), topic: null, sealed: box.seal(url) };
      } else if (kind === 'ntfy') {
        stored = { url: ntfyServer(await checkedUrl(input.url)), topic: ntfyTopic(input.topic), sealed: box.seal(input.token?.trim() ?? '') };
      } else {
        const secret = generateWebhookSecret();
        stored = { url: await checkedUrl(input.url), topic: null, sealed: box.seal(secret), secret };
      }
      const row = await repo.insert(
        { userId, kind, name: input.name.trim(), url: stored.url, topic: stored.topic, alertTypes: input.alert_types, secretSealed: stored.sealed, enabled: true, createdAt: at, updatedAt: at },
        WEBHOOK_MAX_PER_USER,
        ADDED_WEBHOOK_KINDS,
      );
      if (!row) throw new HttpError(400, webhookLimitMessage(WEBHOOK_MAX_PER_USER));
      if (stored.secret === undefined) return { msg: webhookSavedMessage(row.name), webhook: toWebhook(row, box) };
      return { msg: webhookCreatedMessage(row.name), webhook: toWebhook(row, box), secret: stored.secret };
    },

    async update(userId: number, id: number, input: UpdateWebhookInput): Promise<WebhookWithSecretResponse> {
      const current = await owned(userId, id);
      const kind = targetOf(current, box).kind;
      const at = now();
      const set: Parameters<WebhooksRepo['update']>[2] = { updatedAt: at };
      if (input.name !== undefined) set.name = input.name.trim();
      if (input.url !== undefined && input.url.trim() !== '' && (ADDED_WEBHOOK_KINDS as readonly string[]).includes(kind)) {
        if (kind === 'discord') {
          const url = await discordUrl(input.url);
          Object.assign(set, { url: maskDiscordUrl(url), secretSealed: box.seal(url) });
        } else if (kind === 'ntfy') {
          set.url = ntfyServer(await checkedUrl(input.url));
        } else if (input.url.trim() !== current.url) {
          set.url = await checkedUrl(input.url);
        }
      }
      if (kind === 'ntfy' && input.topic !== undefined) set.topic = ntfyTopic(input.topic);
      if (kind === 'ntfy' && input.token !== undefined) set.secretSealed = box.seal(input.token.trim());
      if (input.alert_types !== undefined) set.alertTypes = input.alert_types;
      if (QUIET_HOURS_KINDS.includes(kind) && input.also_quiet_hours !== undefined) set.alsoQuietHours = input.also_quiet_hours;
      if (input.enabled === true && !current.enabled) Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
      if (input.enabled === false && current.enabled) Object.assign(set, { enabled: false, disabledReason: 'Turned off by you.' });
      const row = await repo.update(userId, id, set);
      if (!row) throw new HttpError(404, WEBHOOK_NOT_FOUND_MESSAGE);
      return { msg: webhookSavedMessage(row.name), webhook: toWebhook(row, box) };
    },

    /**
     * This browser's push subscription: its endpoint is checked by the URL rules; the same endpoint
     * again refreshes its keys and name (one row per device).
     */
    async addPushDevice(userId: number, input: CreatePushSubscriptionRequest & { name?: string | undefined }): Promise<WebhookWithSecretResponse> {
      const endpoint = await checkedUrl(input.endpoint);
      const at = now();
      const name = input.name?.trim() || 'This browser';
      const key = pushDeviceKey(endpoint);
      const sealed = box.seal(JSON.stringify({ endpoint, keys: { p256dh: input.keys.p256dh.trim(), auth: input.keys.auth.trim() } }));
      const shownUrl = new URL(endpoint).origin;
      const existing = await repo.byLookup(userId, key);
      if (existing) {
        const row = await repo.update(userId, existing.id, { name, url: shownUrl, secretSealed: sealed, enabled: true, disabledReason: null, failingSince: null, updatedAt: at });
        if (!row) throw new HttpError(404, WEBHOOK_NOT_FOUND_MESSAGE);
        return { msg: pushDeviceAddedMessage(row.name), webhook: toWebhook(row, box) };
      }
      const row = await repo.insert(
        { userId, kind: 'push', name, url: shownUrl, topic: null, lookupHash: key, alertTypes: [...WEBHOOK_ALERT_TYPES], secretSealed: sealed, enabled: true, createdAt: at, updatedAt: at },
        PUSH_MAX_DEVICES,
        ['push'],
      );
      if (!row) throw new HttpError(400, pushLimitMessage(PUSH_MAX_DEVICES));
      return { msg: pushDeviceAddedMessage(row.name), webhook: toWebhook(row, box) };
    },

    /** The VAPID public key browsers subscribe with. */
    pushKey(): { public_key: string } {
      if (!deps.push) throw new HttpError(404, 'Browser push is not set up on this installation.');
      return { public_key: deps.push.vapid.publicKey };
    },

    async remove(userId: number, id: number): Promise<{ msg: string }> {
      const row = await repo.remove(userId, id);
      if (!row) throw new HttpError(404, WEBHOOK_NOT_FOUND_MESSAGE);
      return { msg: webhookDeletedMessage(row.name) };
    },

    async rotate(userId: number, id: number): Promise<WebhookWithSecretResponse> {
      const current = await owned(userId, id);
      if (targetOf(current, box).kind !== 'webhook') throw new HttpError(400, WEBHOOK_NO_SECRET_MESSAGE);
      const secret = generateWebhookSecret();
      const row = await repo.update(userId, id, { secretSealed: box.seal(secret), updatedAt: now() });
      if (!row) throw new HttpError(404, WEBHOOK_NOT_FOUND_MESSAGE);
      return { msg: webhookSecretRotatedMessage(row.name), webhook: toWebhook(row, box), secret };
    },

    /** A signed 'alert.test' delivery now; the endpoint keeps the answer (a success also clears a failure). */
    async test(userId: number, id: number): Promise<TestWebhookResponse> {
      const row = await owned(userId, id);
      const verdict = await tests.hit(`${userId}:${id}`);
      if (!verdict.allowed) {
        throw new HttpError(429, webhookTestLimitMessage(row.name, waitText(verdict.retryAfterSeconds)), { headers: { 'retry-after': String(verdict.retryAfterSeconds) } });
      }
      const at = now();
      const target = targetOf(row, box);
      const event = testAlertEvent(WEBHOOK_KIND_NAMES[target.kind], row.name, at);
      const payload = webhookPayload(event, `test_${id}_${at.getTime()}`, config.PUBLIC_URL, 'alert.test', at);
      const { request, outcome } = await sendWebhook(target, payload, sendOptions, at);
      const done = now();
      // A chat or device that is gone (blocked bot, expired subscription) is removed, as a delivery would.
      if (outcome.kind === 'failed' && outcome.gone) await repo.remove(userId, id);
      else if (outcome.kind === 'delivered') await repo.update(userId, id, { lastSuccessAt: done, failingSince: null, lastAnswer: outcome.answer, updatedAt: done });
      else await repo.update(userId, id, { lastAnswer: outcome.answer, updatedAt: done });
      const ok = outcome.kind === 'delivered';
      return {
        msg: ok ? `Test delivered to "${row.name}": ${outcome.answer}.` : `Test to "${row.name}" failed: ${outcome.answer}.`,
        ok,
        request,
        response: outcome.response ? { status: outcome.response.status, headers: outcome.response.headers, body: outcome.response.body, duration_ms: Math.round(outcome.response.durationMs) } : null,
        error: ok ? null : outcome.answer,
      };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
