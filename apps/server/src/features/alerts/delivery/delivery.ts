/**
 * The alert delivery worker (issue 15; docs/rules/alerts.md §4 "Delivery"). The evaluator commits an
 * alert event with one 'queued' delivery per channel; this worker takes them from there:
 *
 * - claim: due queued rows, and 'sending' rows whose lease ran out (a crash between the provider's
 *   acceptance and our commit: sent again once, marked possibly_duplicate, "possibly sent twice");
 * - checks, in order: stale → expired; user deactivated, alerts paused, channel opted out, rule off
 *   or channel off on the rule, SMS without a verified number → suppressed; channel flagged by a
 *   permanent error → failed; quiet hours → held for the morning digest; SMS caps → suppressed('cap')
 *   and counted in a later "N more alerts" digest; the installation's daily SMS budget spent or the
 *   number outside SMS_ALLOWED_COUNTRIES (refused by the SMS guard) → suppressed;
 * - send: 'sending' is committed before the provider is called, 'sent' with the provider's id after;
 *   transient errors go back to 'queued' with exponential backoff and jitter (at most 5 attempts,
 *   never past expires_at: then 'expired'); permanent errors fail the delivery and flag the channel.
 *
 * Every status change writes a step (the history's timeline). Several processes may run passes at
 * once: claims skip locked rows and hold a lease; each SMS decision of a user runs under a lock.
 * Webhooks (issue 27) are a lane of their own (channels/webhook-lane.ts), passed in `webhooks`.
 */
import {
  ALERT_DEFAULT_TIME_ZONE,
  ALERT_TYPE_NAMES,
  ALERT_TYPES,
  EMAIL_QUIET_HOURS_DEFAULT,
  SMS_QUIET_HOURS_DEFAULT,
  isDeliveryHeld,
  localTimeIn,
  type AlertChannel,
  type AlertType,
} from '@signalboard/core';
import { quietHoursEnd } from './quiet-hours';
import { sql } from 'drizzle-orm';
import type { Config } from '../../../config';
import type { Database } from '../../../db/client';
import { alertEvents } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { MailError, type Mailer, type MailMessage } from '../../../providers/mail';
import { SmsError, type Sms } from '../../../providers/sms';
import { attachToDigest, digestTexts, SMS_CAP_PER_DAY, SMS_CAP_PER_HOUR, type DigestData } from './delivery.digest';
import { createAlertDeliveryRepo, DIGEST_ALERT_TYPE, type DeliveryLane, type DeliveryRow, type DeliveryStatus, type EventRow } from './delivery.repo';
import { deliveryLane } from './delivery-lane';
import { unsubscribeKeyOf, unsubscribeLink } from './unsubscribe-token';
import { WEBHOOK_MAX_IN_FLIGHT, type WebhookLane } from '../channels/webhook-lane';

export { autoPauseIfRunaway } from './auto-pause';

/** A worker's hold on a row while it sends: longer than any provider call (Twilio 15 s, SMTP 30 s). */
export const DELIVERY_LEASE_MS = 2 * 60_000;
export const DELIVERY_MAX_ATTEMPTS = 5;
export const DELIVERY_BATCH = 25;
export const DEFAULT_POLL_MS = 2_000;
/** Backoff before attempt n+1: 30 s × 2^(n−1), at most 5 minutes, with jitter (half fixed, half random). */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 5 * 60_000;

export const STOP_FOOTER = 'Reply STOP to opt out.';

/** The reasons a delivery records (shown in the history). */
export const REASONS = {
  stale: 'not sent within its freshness window',
  staleAfterCrash: 'not confirmed before a crash and now stale (possibly sent)',
  userInactive: 'account deactivated',
  paused: 'paused',
  unsubscribed: 'unsubscribed',
  ruleOff: 'rule off',
  channelOff: 'channel off on the rule',
  noPhone: 'no verified phone number',
  quietHours: 'quiet_hours',
  cap: 'cap',
  possiblyDuplicate: 'possibly sent twice',
  inDigest: 'in the morning digest',
  digestStale: 'every held alert went stale during quiet hours',
  smsBudget: 'sms budget: the daily SMS budget of this installation (SMS_DAILY_LIMIT) is spent',
} as const;

export interface AlertDeliveryDeps {
  db: Database;
  sms: Sms;
  mailer: Mailer;
  clock: Clock;
  config: Config;
  log: { info(message: string): void; warn(message: string): void };
  /** The secret the unsubscribe links' key derives from (default: config.JWT_SECRET). */
  jwtSecret?: string;
  /** Jitter source (tests pin it). */
  random?: () => number;
  /** The webhook lane (channels/webhook-lane.ts), run beside SMS and e-mail with its own claims. */
  webhooks?: WebhookLane;
}

export interface AlertDelivery {
  /** Runs a pass soon (the evaluator calls it after a commit); only once start() was called. */
  kick(): void;
  /** One pass of each lane (SMS and e-mail, then webhooks): the deliveries handled. */
  runOnce(): Promise<number>;
  /** One pass of one lane (the workers' jobs run each lane as a job of its own, so neither waits for the other). */
  runLane(lane: DeliveryLane): Promise<number>;
  /** Passes every `pollMs` (default 2 s); several processes may run it. */
  start(pollMs?: number): void;
  stop(): Promise<void>;
}

export { quietHoursEnd };

export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_MS);
  return base / 2 + random() * (base / 2);
}

type Failure = { permanent: boolean; reason: string };

function classify(error: unknown): Failure {
  if (error instanceof SmsError) {
    return { permanent: error.kind === 'invalid_number' || error.kind === 'blocked' || error.kind === 'max_attempts', reason: error.message };
  }
  if (error instanceof MailError) return { permanent: error.permanent, reason: error.message };
  return { permanent: false, reason: (error as Error)?.message ?? String(error) };
}

const isRuleType = (type: string): type is AlertType => (ALERT_TYPES as readonly string[]).includes(type);

export function createAlertDelivery(deps: AlertDeliveryDeps): AlertDelivery {
  const { db, sms, mailer, clock, config, log } = deps;
  const random = deps.random ?? Math.random;
  const repo = createAlertDeliveryRepo(db);
  const secret = deps.jwtSecret ?? config.JWT_SECRET;
  if (!secret) throw new Error('createAlertDelivery needs the JWT secret (jwtSecret or JWT_SECRET) to sign unsubscribe links');
  const linkKey = unsubscribeKeyOf(secret);
  const now = () => new Date(clock.nowMs());

  /** A final or waiting status without a send; the lease is given back. */
  const settle = (row: DeliveryRow, status: DeliveryStatus, reason: string) =>
    repo.move(db, row.id, ['queued', 'sending'], status, reason, now(), { claimedUntil: null });

  function settingsOf(ctx: Awaited<ReturnType<typeof repo.context>>) {
    const s = ctx.settings;
    return s
      ? {
          time_zone: s.timeZone,
          sms_quiet_hours: { enabled: s.smsQuietEnabled, start: s.smsQuietStart, end: s.smsQuietEnd },
          email_quiet_hours: { enabled: s.emailQuietEnabled, start: s.emailQuietStart, end: s.emailQuietEnd },
          paused: false,
        }
      : { time_zone: ALERT_DEFAULT_TIME_ZONE, sms_quiet_hours: { ...SMS_QUIET_HOURS_DEFAULT }, email_quiet_hours: { ...EMAIL_QUIET_HOURS_DEFAULT }, paused: false };
  }

  /** Why the delivery must not go out at all (checked again on every attempt), or null. */
  function refusal(row: DeliveryRow, ctx: Awaited<ReturnType<typeof repo.context>>, digest: boolean): { status: DeliveryStatus; reason: string } | null {
    if (!ctx.user || !ctx.user.isActive) return { status: 'suppressed', reason: REASONS.userInactive };
    if (ctx.settings?.paused) return { status: 'suppressed', reason: REASONS.paused };
    if (ctx.channel?.optedOutAt) return { status: 'suppressed', reason: REASONS.unsubscribed };
    if (ctx.channel?.problem) return { status: 'failed', reason: ctx.channel.problem };
    if (!digest && ctx.event && isRuleType(ctx.event.alertType)) {
      if (!ctx.rule || !ctx.rule.isActive) return { status: 'suppressed', reason: REASONS.ruleOff };
      if (!(row.channel === 'sms' ? ctx.rule.enableSms : ctx.rule.enableEmail)) return { status: 'suppressed', reason: REASONS.channelOff };
    }
    if (row.channel === 'sms' && !(ctx.phone && ctx.phone.smsEnabled)) return { status: 'suppressed', reason: REASONS.noPhone };
    return null;
  }

  /** When the user may get another SMS (null: now). */
  async function smsSlotAt(tx: Parameters<typeof repo.smsSentTimes>[0], row: DeliveryRow, at: Date): Promise<Date | null> {
    const { times, sending } = await repo.smsSentTimes(tx, row.userId, new Date(at.getTime() - 24 * 3_600_000), row.id);
    const hour = times.filter((time) => time.getTime() >= at.getTime() - 3_600_000);
    let slot: number | null = null;
    if (hour.length + sending >= SMS_CAP_PER_HOUR) slot = (hour[Math.max(0, hour.length + sending - SMS_CAP_PER_HOUR)]?.getTime() ?? at.getTime()) + 3_600_000;
    if (times.length + sending >= SMS_CAP_PER_DAY) {
      const day = (times[Math.max(0, times.length + sending - SMS_CAP_PER_DAY)]?.getTime() ?? at.getTime()) + 24 * 3_600_000;
      slot = Math.max(slot ?? 0, day);
    }
    return slot === null ? null : new Date(Math.max(slot, at.getTime() + 60_000));
  }

  function emailOf(ctx: Awaited<ReturnType<typeof repo.context>>, userId: number, subject: string, text: string): MailMessage {
    const at = clock.nowMs();
    const type = ctx.event?.alertType ?? '';
    const all = unsubscribeLink(config.PUBLIC_URL, linkKey, userId, 'all', at);
    const rule = isRuleType(type) ? unsubscribeLink(config.PUBLIC_URL, linkKey, userId, type, at) : null;
    const footer = [
      '',
      '--',
      ...(rule ? [`Stop ${ALERT_TYPE_NAMES[type as AlertType]} e-mails: ${rule}`] : []),
      `Stop all Signalboard alert e-mails: ${all}`,
    ].join('\n');
    return {
      to: ctx.user!.email,
      subject,
      text: `${text.trimEnd()}\n${footer}\n`,
      headers: { 'List-Unsubscribe': `<${rule ?? all}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  }

  async function handle(row: DeliveryRow): Promise<void> {
    const recovering = row.status === 'sending';
    const started = now();
    if (started.getTime() >= row.expiresAt.getTime()) {
      await settle(row, 'expired', recovering ? REASONS.staleAfterCrash : REASONS.stale);
      return;
    }
    const ctx = await repo.context(row);
    if (!ctx.event) return;
    const event = ctx.event;
    const digest = event.alertType === DIGEST_ALERT_TYPE ? (event.data as DigestData) : null;
    const refused = refusal(row, ctx, digest !== null);
    if (refused) {
      await settle(row, refused.status, refused.reason);
      return;
    }
    const channel = row.channel as AlertChannel;
    const settings = settingsOf(ctx);
    if (!recovering && !digest && isDeliveryHeld(settings, channel, started)) {
      // Held for the morning digest; due again only at its own expiry (then it is stale).
      const hours = channel === 'sms' ? settings.sms_quiet_hours : settings.email_quiet_hours;
      const end = quietHoursEnd(hours, settings.time_zone, started);
      await db.transaction(async (tx) => {
        await repo.lockUserChannel(tx, row.userId, channel);
        await attachToDigest(tx, { userId: row.userId, channel, kind: 'quiet', deliveryId: row.id, symbol: event.symbol, dueAt: end, now: started });
        await repo.reschedule(tx, row.id, row.expiresAt, started, REASONS.quietHours);
        await repo.step(tx, row.id, 'queued', `held: quiet hours until ${localTimeIn(end, settings.time_zone)}`, started);
      });
      return;
    }

    // Decide and commit 'sending' under the user's channel lock (the caps count 'sending' rows).
    const prepared = await db.transaction(async (tx) => {
      await repo.lockUserChannel(tx, row.userId, channel);
      if (channel === 'sms' && !recovering) {
        const slot = await smsSlotAt(tx, row, started);
        if (slot) {
          if (digest) {
            await repo.reschedule(tx, row.id, slot, started);
          } else {
            await attachToDigest(tx, { userId: row.userId, channel, kind: 'cap', deliveryId: row.id, symbol: event.symbol, dueAt: slot, now: started });
            await repo.move(tx, row.id, ['queued'], 'suppressed', REASONS.cap, started, { claimedUntil: null });
          }
          return null;
        }
      }
      let items: Array<{ delivery: DeliveryRow; event: EventRow }> = [];
      if (digest?.kind === 'quiet') {
        const held = (await repo.deliveriesWithEvents(digest.deliveryIds)).filter((item) => item.delivery.status === 'queued' && item.delivery.reason === REASONS.quietHours);
        for (const item of held.filter((candidate) => candidate.delivery.expiresAt.getTime() <= started.getTime())) {
          await repo.move(tx, item.delivery.id, ['queued'], 'expired', REASONS.stale, started, { claimedUntil: null });
        }
        items = held.filter((item) => item.delivery.expiresAt.getTime() > started.getTime());
        if (items.length === 0) {
          await repo.move(tx, row.id, ['queued', 'sending'], 'expired', REASONS.digestStale, started, { claimedUntil: null });
          return null;
        }
      }
      const moved = await repo.move(tx, row.id, [row.status as DeliveryStatus], 'sending', recovering ? REASONS.possiblyDuplicate : null, started, {
        attempts: row.attempts + 1,
        claimedUntil: new Date(started.getTime() + DELIVERY_LEASE_MS),
        ...(recovering ? { possiblyDuplicate: true } : {}),
      });
      return moved ? { items } : null;
    });
    if (!prepared) return;

    const texts = digest?.kind === 'quiet' ? digestTexts('quiet', prepared.items.map((item) => item.event)) : event;
    let providerId: string;
    let answer: string;
    try {
      if (channel === 'sms') {
        const first = !ctx.last || (ctx.phone !== undefined && ctx.last.lastDeliveredAt.getTime() < ctx.phone.verifiedAt.getTime());
        const body = first ? `${texts.smsText}\n${STOP_FOOTER}` : texts.smsText;
        ({ id: providerId } = await sms.send({ to: ctx.phone!.phoneNumber, body }));
        answer = sms.kind === 'outbox' ? `Stored in the SMS outbox (message ${providerId}).` : `Accepted by Twilio (message ${providerId}).`;
      } else {
        ({ id: providerId } = await mailer.send(emailOf(ctx, row.userId, texts.emailSubject, texts.emailText)));
        answer = mailer.kind === 'outbox' ? `Stored in the e-mail outbox (message ${providerId}).` : `Accepted by the SMTP server (${providerId}).`;
      }
    } catch (error) {
      // Refused before any provider was asked (providers/sms/guard.ts): not sent, and not retried.
      if (error instanceof SmsError && (error.kind === 'budget_spent' || error.kind === 'country_not_allowed')) {
        await repo.move(db, row.id, ['sending'], 'suppressed', error.kind === 'budget_spent' ? REASONS.smsBudget : error.message, now(), { claimedUntil: null });
        return;
      }
      await failed(row, channel, row.attempts + 1, classify(error));
      return;
    }

    const done = now();
    await db.transaction(async (tx) => {
      const moved = await repo.move(tx, row.id, ['sending'], 'sent', null, done, { providerId, claimedUntil: null });
      if (!moved) {
        log.warn(`alert delivery ${row.id}: sent, but another worker had taken it over`);
        return;
      }
      await repo.recordChannelDelivery(tx, row.userId, channel, done, answer);
      if (digest?.kind === 'quiet') {
        for (const item of prepared.items) await repo.move(tx, item.delivery.id, ['queued'], 'sent', REASONS.inDigest, done, { providerId, claimedUntil: null });
        await tx.execute(sqlUpdateEventTexts(event.id, texts));
      }
    });
  }

  async function failed(row: DeliveryRow, channel: AlertChannel, attempts: number, failure: Failure) {
    const at = now();
    if (failure.permanent) {
      await db.transaction(async (tx) => {
        await repo.move(tx, row.id, ['sending'], 'failed', failure.reason, at, { claimedUntil: null });
        await repo.flagProblem(tx, row.userId, channel, failure.reason, at);
      });
      return;
    }
    if (attempts >= DELIVERY_MAX_ATTEMPTS) {
      await repo.move(db, row.id, ['sending'], 'failed', `gave up after ${attempts} attempts: ${failure.reason}`, at, { claimedUntil: null });
      return;
    }
    const next = new Date(at.getTime() + retryDelayMs(attempts, random));
    if (next.getTime() >= row.expiresAt.getTime()) {
      await repo.move(db, row.id, ['sending'], 'expired', `${REASONS.stale} (${failure.reason})`, at, { claimedUntil: null });
      return;
    }
    await repo.move(db, row.id, ['sending'], 'queued', `attempt ${attempts} failed: ${failure.reason}`, at, { nextAttemptAt: next, claimedUntil: null });
  }

  async function runOnce(): Promise<number> {
    const at = now();
    const claimed = await repo.claim(at, new Date(at.getTime() + DELIVERY_LEASE_MS), DELIVERY_BATCH);
    for (const row of claimed) {
      try {
        await handle(row);
      } catch (error) {
        // The lease runs out and a later pass tries again.
        log.warn(`alert delivery ${row.id} failed in the worker: ${(error as Error).message}`);
      }
    }
    return claimed.length;
  }

  let timer: NodeJS.Timeout | undefined;
  const webhooks = deps.webhooks;
  const going = () => timer !== undefined;
  const lanes = [
    deliveryLane({ name: 'sms and e-mail', once: runOnce, batch: DELIVERY_BATCH, going, log }),
    ...(webhooks ? [deliveryLane({ name: 'webhooks', once: webhooks.runOnce, batch: WEBHOOK_MAX_IN_FLIGHT, going, log })] : []),
  ];
  const pass = () => {
    for (const each of lanes) each.pass();
  };

  return {
    kick() {
      if (timer) setImmediate(pass);
    },
    async runOnce() {
      return (await runOnce()) + (webhooks ? await webhooks.runOnce() : 0);
    },
    async runLane(lane) {
      if (lane === 'messages') return runOnce();
      return webhooks ? webhooks.runOnce() : 0;
    },
    start(pollMs = DEFAULT_POLL_MS) {
      if (timer) return;
      timer = setInterval(pass, pollMs);
      timer.unref();
      setImmediate(pass);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.all(lanes.map((each) => each.idle()));
    },
  };
}

/** A digest's event keeps the texts that were sent. */
function sqlUpdateEventTexts(eventId: number, texts: { smsText: string; emailSubject: string; emailText: string }) {
  return sql`update ${alertEvents} set sms_text = ${texts.smsText}, email_subject = ${texts.emailSubject}, email_text = ${texts.emailText} where id = ${eventId}`;
}
