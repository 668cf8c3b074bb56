/**
 * The webhook lane of the delivery worker (issue 27; docs/rules/alerts.md §4.9 "Webhooks"). The evaluator
 * commits one 'webhook' delivery per endpoint that takes the alert's type (alert-store.ts); this lane
 * claims them apart from SMS and e-mail (a slow endpoint never holds those up) and sends up to
 * WEBHOOK_MAX_IN_FLIGHT at once:
 *
 * - checks: account deactivated, alerts paused, rule off, endpoint deleted or off, type no longer
 *   taken → suppressed. Quiet hours do not apply: a receiver is a program, and it gets `fired_at`.
 * - send (webhook-send.ts): 'sending' is committed first; a 2xx is 'delivered'; 408/429/5xx and no
 *   answer retry with exponential backoff and jitter (Retry-After honoured) until the delivery
 *   expires, 24 hours after the alert; any other answer, or a URL the rules now refuse, fails it.
 * - the endpoint keeps its last answer; one that failed for WEBHOOK_DISABLE_AFTER_DAYS without a
 *   success is turned off and its user told by e-mail.
 */
import { ALERT_TYPES, WEBHOOK_DISABLE_AFTER_DAYS, type AlertType } from '@signalboard/core';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../../config';
import type { Database } from '../../../db/client';
import { alertDeliverySettings, alertEvents, alertRules, users } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { Resolver } from '../../../lib/outbound/url-guard';
import type { SecretBox } from '../../../lib/secret-box';
import type { Mailer } from '../../../providers/mail';
import { createAlertDeliveryRepo, type DeliveryRow, type DeliveryStatus } from '../delivery/delivery.repo';
import { webhookEventId, webhookPayload } from './webhook-payload';
import { sendWebhook } from './webhook-send';
import { createWebhooksRepo } from './webhooks.repo';

/** Requests in flight at once per process (the bound). */
export const WEBHOOK_MAX_IN_FLIGHT = 50;
/** A lane's hold on a row while it sends: far past the 5 s timeout. */
export const WEBHOOK_LEASE_MS = 60_000;
/** Backoff before attempt n+1: 30 s × 2^(n−1), at most an hour, with jitter (half fixed, half random). */
export const WEBHOOK_RETRY_BASE_MS = 30_000;
export const WEBHOOK_RETRY_MAX_MS = 3_600_000;

export const WEBHOOK_REASONS = {
  userInactive: 'account deactivated',
  paused: 'paused',
  ruleOff: 'rule off',
  deleted: 'webhook deleted',
  off: 'webhook turned off',
  typeOff: 'alert type not sent to this webhook',
  stale: 'not delivered within 24 hours',
  staleAfterCrash: 'not confirmed before a crash and now stale (possibly sent)',
  possiblyDuplicate: 'possibly sent twice',
} as const;

export const webhookDisabledReason = (days: number) => `Turned off after ${days} days of failed deliveries.`;

export interface WebhookLaneDeps {
  db: Database;
  box: SecretBox;
  mailer: Mailer;
  clock: Clock;
  config: Pick<Config, 'PUBLIC_URL' | 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_ALLOW_HOSTS'>;
  log: { info(message: string): void; warn(message: string): void };
  random?: () => number;
  /** DNS (tests pass their own). */
  resolve?: Resolver;
}

export function webhookRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), WEBHOOK_RETRY_MAX_MS);
  return base / 2 + random() * (base / 2);
}

const isRuleType = (type: string): type is AlertType => (ALERT_TYPES as readonly string[]).includes(type);

export function createWebhookLane(deps: WebhookLaneDeps) {
  const { db, box, mailer, clock, config, log } = deps;
  const random = deps.random ?? Math.random;
  const repo = createAlertDeliveryRepo(db);
  const webhooks = createWebhooksRepo(db);
  const rules = { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowHosts: config.WEBHOOK_ALLOW_HOSTS };
  const now = () => new Date(clock.nowMs());
  const settle = (row: DeliveryRow, status: DeliveryStatus, reason: string) => repo.move(db, row.id, ['queued', 'sending'], status, reason, now(), { claimedUntil: null });

  async function context(row: DeliveryRow) {
    const [event] = await db.select().from(alertEvents).where(eq(alertEvents.id, row.eventId));
    const [user] = await db.select({ email: users.email, isActive: users.isActive }).from(users).where(eq(users.id, row.userId));
    const [settings] = await db.select({ paused: alertDeliverySettings.paused }).from(alertDeliverySettings).where(eq(alertDeliverySettings.userId, row.userId));
    const [rule] = event ? await db.select({ isActive: alertRules.isActive }).from(alertRules).where(and(eq(alertRules.userId, row.userId), eq(alertRules.alertType, event.alertType))) : [];
    const endpoint = await webhooks.get(row.userId, row.endpointId);
    return { event, user, settings, rule, endpoint };
  }

  /** Tells the user once that an endpoint was turned off; a mail failure is logged, the endpoint stays off. */
  async function tellDisabled(email: string, name: string, url: string, lastAnswer: string) {
    try {
      await mailer.send({
        to: email,
        subject: `Signalboard turned off your webhook "${name}"`,
        text: [
          `Alerts to your webhook "${name}" (${url}) failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days, so Signalboard turned it off.`,
          `The last answer was: ${lastAnswer}`,
          '',
          `Fix the receiver, then turn the webhook on again under Alert System → Channels: ${config.PUBLIC_URL}/dashboard/alert`,
        ].join('\n'),
      });
    } catch (error) {
      log.warn(`webhook ${name}: the e-mail saying it was turned off could not be sent: ${(error as Error).message}`);
    }
  }

  async function handle(row: DeliveryRow): Promise<void> {
    const recovering = row.status === 'sending';
    const started = now();
    if (started.getTime() >= row.expiresAt.getTime()) {
      await settle(row, 'expired', recovering ? WEBHOOK_REASONS.staleAfterCrash : WEBHOOK_REASONS.stale);
      return;
    }
    const { event, user, settings, rule, endpoint } = await context(row);
    if (!event) return;
    if (!user || !user.isActive) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.userInactive));
    if (settings?.paused) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.paused));
    if (isRuleType(event.alertType) && !rule?.isActive) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.ruleOff));
    if (!endpoint) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.deleted));
    if (!endpoint.enabled) return void (await settle(row, 'suppressed', endpoint.disabledReason ?? WEBHOOK_REASONS.off));
    if (!endpoint.alertTypes.includes(event.alertType)) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.typeOff));

    const moved = await repo.move(db, row.id, [row.status as DeliveryStatus], 'sending', recovering ? WEBHOOK_REASONS.possiblyDuplicate : null, started, {
      attempts: row.attempts + 1,
      claimedUntil: new Date(started.getTime() + WEBHOOK_LEASE_MS),
      ...(recovering ? { possiblyDuplicate: true } : {}),
    });
    if (!moved) return;

    const id = webhookEventId(event.id, endpoint.id);
    const payload = webhookPayload(event, id, config.PUBLIC_URL, 'alert.fired', started);
    const { outcome } = await sendWebhook({ url: endpoint.url, secret: box.open(endpoint.secretSealed) }, payload, { rules, ...(deps.resolve ? { resolve: deps.resolve } : {}) }, started);
    const at = now();
    if (outcome.kind === 'delivered') {
      await repo.move(db, row.id, ['sending'], 'delivered', null, at, { providerId: outcome.answer, claimedUntil: null });
      await webhooks.succeeded(endpoint.id, at, outcome.answer);
      return;
    }
    const failingSince = await webhooks.failed(endpoint.id, at, outcome.answer);
    if (outcome.kind === 'retry') {
      const next = new Date(at.getTime() + Math.max(webhookRetryDelayMs(row.attempts + 1, random), outcome.retryAfterMs ?? 0));
      if (next.getTime() >= row.expiresAt.getTime()) await repo.move(db, row.id, ['sending'], 'expired', `${WEBHOOK_REASONS.stale} (${outcome.answer})`, at, { claimedUntil: null });
      else await repo.move(db, row.id, ['sending'], 'queued', `attempt ${row.attempts + 1} failed: ${outcome.answer}`, at, { nextAttemptAt: next, claimedUntil: null });
    } else {
      await repo.move(db, row.id, ['sending'], 'failed', outcome.answer, at, { claimedUntil: null });
    }
    if (failingSince && at.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000) {
      if (await webhooks.disable(endpoint.id, webhookDisabledReason(WEBHOOK_DISABLE_AFTER_DAYS), at)) {
        log.warn(`webhook ${endpoint.id} of user ${row.userId} turned off after ${WEBHOOK_DISABLE_AFTER_DAYS} days of failures`);
        await tellDisabled(user.email, endpoint.name, endpoint.url, outcome.answer);
      }
    }
  }

  /** One pass: claims up to WEBHOOK_MAX_IN_FLIGHT due deliveries and sends them concurrently; answers how many. */
  async function runOnce(): Promise<number> {
    const at = now();
    const claimed = await repo.claim(at, new Date(at.getTime() + WEBHOOK_LEASE_MS), WEBHOOK_MAX_IN_FLIGHT, 'webhook');
    await Promise.all(
      claimed.map(async (row) => {
        try {
          await handle(row);
        } catch (error) {
          // The lease runs out and a later pass tries again.
          log.warn(`webhook delivery ${row.id} failed in the worker: ${(error as Error).message}`);
        }
      }),
    );
    return claimed.length;
  }

  return { runOnce };
}

export type WebhookLane = ReturnType<typeof createWebhookLane>;
