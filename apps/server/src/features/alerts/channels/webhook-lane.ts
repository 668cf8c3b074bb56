/**
 * The webhook lane of the delivery worker (issue 27; docs/rules/alerts.md §4.9 "Webhooks"). The evaluator
 * commits one 'webhook' delivery per endpoint that takes the alert's type (alert-store.ts); this lane
 * claims them apart from SMS and e-mail (a slow endpoint never holds those up) and keeps up to
 * WEBHOOK_MAX_IN_FLIGHT requests going at once, claiming another row as each one ends:
 *
 * - checks: account deactivated, alerts paused, rule off, endpoint deleted or off, type no longer
 *   taken → suppressed. For a webhook, Discord or ntfy endpoint quiet hours do not apply (a receiver
 *   is a program, and it gets `fired_at`); a Telegram chat or a push device keeps the SMS quiet hours
 *   (held until they end, unless marked "also during quiet hours") and the SMS caps (suppressed).
 * - send (webhook-send.ts): 'sending' is committed first; a 2xx is 'delivered'; 408/429/5xx and no
 *   answer retry with exponential backoff and jitter (Retry-After honoured) until the delivery
 *   expires, 24 hours after the alert; any other answer, or a URL the rules now refuse, fails it.
 * - the endpoint keeps its last answer; one that failed for WEBHOOK_DISABLE_AFTER_DAYS without a
 *   success is turned off and its user told by e-mail.
 */
import { ALERT_DEFAULT_TIME_ZONE, ALERT_TYPES, QUIET_HOURS_KINDS, SMS_QUIET_HOURS_DEFAULT, WEBHOOK_DISABLE_AFTER_DAYS, inQuietHours, localTimeIn, type AlertType, type WebhookKind } from '@signalboard/core';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Config } from '../../../config';
import type { Database } from '../../../db/client';
import { alertDeliveries, alertDeliverySettings, alertEvents, alertRules, alertWebhooks, users } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { Resolver } from '../../../lib/outbound/url-guard';
import type { SecretBox } from '../../../lib/secret-box';
import type { Mailer } from '../../../providers/mail';
import { SMS_CAP_PER_DAY, SMS_CAP_PER_HOUR } from '../delivery/delivery.digest';
import { quietHoursEnd } from '../delivery/quiet-hours';
import { createAlertDeliveryRepo, type DeliveryRow, type DeliveryStatus } from '../delivery/delivery.repo';
import type { VapidKeys } from '../../../lib/webpush/vapid';
import type { TelegramBotApi } from './telegram/bot-api';
import { webhookEventId, webhookPayload } from './webhook-payload';
import { sendWebhook, targetOf } from './webhook-send';
import { createWebhooksRepo } from './webhooks.repo';

/** Requests in flight at once per process (the bound). */
export const WEBHOOK_MAX_IN_FLIGHT = 50;
/** Rows one pass takes at most (a stop waits for the pass under way: about four timeouts at worst). */
const PASS_MAX = 200;
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
  gone: 'removed: the chat or device is gone',
  cap: `over the limit of ${SMS_CAP_PER_HOUR} an hour and ${SMS_CAP_PER_DAY} a day for this chat or device`,
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
  config: Pick<Config, 'PUBLIC_URL' | 'WEBHOOK_ALLOW_HTTP' | 'WEBHOOK_ALLOW_HOSTS' | 'DISCORD_BASE_URL'>;
  log: { info(message: string): void; warn(message: string): void };
  random?: () => number;
  /** DNS (tests pass their own). */
  resolve?: Resolver;
  /** The bot Telegram messages go out through (null: none configured). */
  telegram?: TelegramBotApi | null;
  /** Browser push: the installation's VAPID keys and contact (null: push not set up). */
  push?: { vapid: VapidKeys; subject: string } | null;
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
  const sendOptions = { rules, discordBaseUrl: config.DISCORD_BASE_URL, telegram: deps.telegram ?? null, push: deps.push ?? null, ...(deps.resolve ? { resolve: deps.resolve } : {}) };
  const settle = (row: DeliveryRow, status: DeliveryStatus, reason: string) => repo.move(db, row.id, ['queued', 'sending'], status, reason, now(), { claimedUntil: null });

  /** Everything the checks need, in one read. */
  async function context(row: DeliveryRow) {
    const [found] = await db
      .select({ event: alertEvents, email: users.email, isActive: users.isActive, settings: alertDeliverySettings, ruleActive: alertRules.isActive, endpoint: alertWebhooks })
      .from(alertEvents)
      .innerJoin(users, eq(users.id, alertEvents.userId))
      .leftJoin(alertDeliverySettings, eq(alertDeliverySettings.userId, alertEvents.userId))
      .leftJoin(alertRules, and(eq(alertRules.userId, alertEvents.userId), eq(alertRules.alertType, alertEvents.alertType)))
      .leftJoin(alertWebhooks, and(eq(alertWebhooks.id, row.endpointId), eq(alertWebhooks.userId, alertEvents.userId)))
      .where(eq(alertEvents.id, row.eventId));
    return found;
  }

  /** Whether the endpoint had SMS_CAP_PER_HOUR sends in the last hour or SMS_CAP_PER_DAY in the last day (after taking its lock). */
  async function overCap(tx: Parameters<Parameters<Database['transaction']>[0]>[0], row: DeliveryRow, endpointId: number, at: Date): Promise<boolean> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('alert-endpoint-cap'), ${endpointId})`);
    const hourAgo = new Date(at.getTime() - 3_600_000);
    const [counts] = await tx
      .select({ hour: sql<number>`count(*) filter (where ${alertDeliveries.createdAt} >= ${hourAgo})::int`, day: sql<number>`count(*)::int` })
      .from(alertDeliveries)
      .where(
        and(
          eq(alertDeliveries.userId, row.userId),
          gte(alertDeliveries.createdAt, new Date(at.getTime() - 24 * 3_600_000)),
          eq(alertDeliveries.channel, 'webhook'),
          eq(alertDeliveries.endpointId, endpointId),
          inArray(alertDeliveries.status, ['sending', 'delivered']),
        ),
      );
    return (counts?.hour ?? 0) >= SMS_CAP_PER_HOUR || (counts?.day ?? 0) >= SMS_CAP_PER_DAY;
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
    const found = await context(row);
    if (!found) return;
    const { event, endpoint } = found;
    if (!found.isActive) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.userInactive));
    if (found.settings?.paused) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.paused));
    if (isRuleType(event.alertType) && !found.ruleActive) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.ruleOff));
    if (!endpoint) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.deleted));
    if (!endpoint.enabled) return void (await settle(row, 'suppressed', endpoint.disabledReason ?? WEBHOOK_REASONS.off));
    if (!endpoint.alertTypes.includes(event.alertType)) return void (await settle(row, 'suppressed', WEBHOOK_REASONS.typeOff));
    // Telegram and push reach a person: held through the SMS quiet hours unless the user wants them then too.
    if (!recovering && QUIET_HOURS_KINDS.includes(endpoint.kind as WebhookKind) && !endpoint.alsoQuietHours) {
      const timeZone = found.settings?.timeZone ?? ALERT_DEFAULT_TIME_ZONE;
      const hours = found.settings ? { enabled: found.settings.smsQuietEnabled, start: found.settings.smsQuietStart, end: found.settings.smsQuietEnd } : SMS_QUIET_HOURS_DEFAULT;
      if (hours.enabled && inQuietHours(hours, localTimeIn(started, timeZone))) {
        const end = quietHoursEnd(hours, timeZone, started);
        if (end.getTime() >= row.expiresAt.getTime()) return void (await settle(row, 'expired', WEBHOOK_REASONS.stale));
        await db.transaction((tx) => repo.move(tx, row.id, ['queued'], 'queued', `held: quiet hours until ${localTimeIn(end, timeZone)}`, started, { nextAttemptAt: end, claimedUntil: null }));
        return;
      }
    }

    // Each status change and its step commit together (one commit before the request, one after). A
    // person's chat or device keeps the SMS caps, counted under a lock on the endpoint (so two sends at
    // once cannot both take the last place).
    const capped = QUIET_HOURS_KINDS.includes(endpoint.kind as WebhookKind) && !recovering;
    const moved = await db.transaction(async (tx) => {
      if (capped && (await overCap(tx, row, endpoint.id, started))) {
        await repo.move(tx, row.id, [row.status as DeliveryStatus], 'suppressed', WEBHOOK_REASONS.cap, started, { claimedUntil: null });
        return false;
      }
      return repo.move(tx, row.id, [row.status as DeliveryStatus], 'sending', recovering ? WEBHOOK_REASONS.possiblyDuplicate : null, started, {
        attempts: row.attempts + 1,
        claimedUntil: new Date(started.getTime() + WEBHOOK_LEASE_MS),
        ...(recovering ? { possiblyDuplicate: true } : {}),
      });
    });
    if (!moved) return;

    const id = webhookEventId(event.id, endpoint.id);
    const payload = webhookPayload(event, id, config.PUBLIC_URL, 'alert.fired', started);
    const { outcome } = await sendWebhook(targetOf(endpoint, box), payload, sendOptions, started);
    const at = now();
    if (outcome.kind === 'delivered') {
      await db.transaction(async (tx) => {
        if (await repo.move(tx, row.id, ['sending'], 'delivered', null, at, { providerId: outcome.answer, claimedUntil: null })) await webhooks.succeeded(tx, endpoint.id, at, outcome.answer);
      });
      return;
    }
    const failingSince = await db.transaction(async (tx) => {
      if (outcome.kind === 'retry') {
        const next = new Date(at.getTime() + Math.max(webhookRetryDelayMs(row.attempts + 1, random), outcome.retryAfterMs ?? 0));
        if (next.getTime() >= row.expiresAt.getTime()) await repo.move(tx, row.id, ['sending'], 'expired', `${WEBHOOK_REASONS.stale} (${outcome.answer})`, at, { claimedUntil: null });
        else await repo.move(tx, row.id, ['sending'], 'queued', `attempt ${row.attempts + 1} failed: ${outcome.answer}`, at, { nextAttemptAt: next, claimedUntil: null });
      } else {
        await repo.move(tx, row.id, ['sending'], 'failed', outcome.answer, at, { claimedUntil: null });
      }
      return webhooks.failed(tx, endpoint.id, at, outcome.answer);
    });
    if (outcome.kind === 'failed' && outcome.gone) {
      // A blocked bot or a chat that is gone (Telegram), an expired subscription (push 404/410): removed.
      await webhooks.removeById(endpoint.id);
      log.info(`${endpoint.kind} endpoint ${endpoint.id} of user ${row.userId} removed: ${outcome.answer}`);
      return;
    }
    if (failingSince && at.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000) {
      if (await webhooks.disable(endpoint.id, webhookDisabledReason(WEBHOOK_DISABLE_AFTER_DAYS), at)) {
        log.warn(`webhook ${endpoint.id} of user ${row.userId} turned off after ${WEBHOOK_DISABLE_AFTER_DAYS} days of failures`);
        await tellDisabled(found.email, endpoint.name, endpoint.url, outcome.answer);
      }
    }
  }

  /**
   * One pass: keeps up to WEBHOOK_MAX_IN_FLIGHT sends going, claiming as many due rows as slots free
   * up (a slow endpoint holds one slot, not a batch), until nothing is due or PASS_MAX rows were
   * taken; answers how many it handled (the worker runs another pass at once when that is
   * WEBHOOK_MAX_IN_FLIGHT or more).
   */
  async function runOnce(): Promise<number> {
    const inFlight = new Set<Promise<void>>();
    let handled = 0;
    for (;;) {
      const free = Math.min(WEBHOOK_MAX_IN_FLIGHT - inFlight.size, PASS_MAX - handled);
      if (free > 0) {
        const at = now();
        const claimed = await repo.claim(at, new Date(at.getTime() + WEBHOOK_LEASE_MS), free, 'webhook');
        handled += claimed.length;
        for (const row of claimed) {
          const sending: Promise<void> = handle(row)
            // The lease runs out and a later pass tries again.
            .catch((error: unknown) => log.warn(`webhook delivery ${row.id} failed in the worker: ${(error as Error).message}`))
            .finally(() => inFlight.delete(sending));
          inFlight.add(sending);
        }
        if (claimed.length < free) break;
      } else if (inFlight.size === 0) {
        break;
      }
      await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    return handled;
  }

  return { runOnce };
}

export type WebhookLane = ReturnType<typeof createWebhookLane>;
