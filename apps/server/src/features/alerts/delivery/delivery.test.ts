import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertChannelStatus, alertDeliveries, alertDeliverySettings, alertEvents, alertRules, outboxEmails, outboxSms, users } from '../../../db/schema';
import { MailError, type Mailer } from '../../../providers/mail';
import { createOutboxSms } from '../../../providers/sms/outbox';
import { SmsError, type Sms } from '../../../providers/sms';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../../../../test/helpers';
import { deliveryOf, deliveryUser, insertAlert, stepsOf } from '../../../../test/alert-delivery-fixtures';
import { autoPauseIfRunaway, createAlertDelivery, quietHoursEnd, REASONS, retryDelayMs, STOP_FOOTER, type AlertDelivery } from './delivery';
import { DIGEST_ALERT_TYPE } from './delivery.repo';

/** Providers the test can break: `fail` decides per call (null: pass through). */
const faults: { sms: ((to: string) => Error | null) | null; mail: (() => Error | null) | null } = { sms: null, mail: null };
let smsCalls = 0;
let mailCalls = 0;

let t: TestApp;
let sms: Sms;
let mailer: Mailer;
const workers: AlertDelivery[] = [];
const newWorker = () => {
  const worker = createAlertDelivery({ db: t.db, sms, mailer, clock: t.clock, config: t.config, log: { info: () => undefined, warn: () => undefined }, jwtSecret: TEST_JWT_SECRET, random: () => 0.5 });
  workers.push(worker);
  return worker;
};
let worker: AlertDelivery;
const now = () => new Date(t.clock.nowMs());

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://signalboard.example' });
  const outbox = createOutboxSms({ db: t.db, dir: path.join(t.dataDir, 'sms-outbox'), clock: t.clock, hashKey: 'k' });
  sms = {
    ...outbox,
    send: async (message) => {
      smsCalls += 1;
      const error = faults.sms?.(message.to);
      if (error) throw error;
      return outbox.send(message);
    },
  };
  mailer = {
    kind: 'outbox',
    close: () => undefined,
    send: async (message) => {
      mailCalls += 1;
      const error = faults.mail?.();
      if (error) throw error;
      return t.mailer.send(message);
    },
  };
  worker = newWorker();
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await t.close();
});

beforeEach(() => {
  faults.sms = null;
  faults.mail = null;
  smsCalls = 0;
  mailCalls = 0;
});

const smsTo = (phone: string) => t.db.select().from(outboxSms).where(eq(outboxSms.toNumber, phone)).orderBy(outboxSms.id);
const mailTo = (email: string) => t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email)).orderBy(outboxEmails.id);
/** Runs passes until none handles anything. */
async function drain(w: AlertDelivery = worker) {
  for (let i = 0; i < 20 && (await w.runOnce()) > 0; i += 1) {
    /* again */
  }
}

describe('timing rules', () => {
  it('backs off 30 s, 1, 2, 4, 5 minutes, each between half and all of it', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(attempt, () => 1))).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
    expect(retryDelayMs(1, () => 0)).toBe(15_000);
  });

  it('ends quiet hours at the first minute outside them in the user\'s zone, across a daylight-saving change', () => {
    const hours = { enabled: true, start: '21:00', end: '08:00' };
    expect(quietHoursEnd(hours, 'America/New_York', new Date('2026-11-10T08:00:30Z')).toISOString()).toBe('2026-11-10T13:00:00.000Z');
    expect(quietHoursEnd(hours, 'Europe/Berlin', new Date('2026-11-10T21:15:00Z')).toISOString()).toBe('2026-11-11T07:00:00.000Z');
    // New York leaves daylight saving at 02:00 on 1 November 2026: 08:00 EST is 13:00 UTC.
    expect(quietHoursEnd(hours, 'America/New_York', new Date('2026-11-01T05:00:00Z')).toISOString()).toBe('2026-11-01T13:00:00.000Z');
  });
});

describe('sending', () => {
  it('sends through the outbox SMS and mail: queued → sending → sent, with the provider id, the STOP line once, and the unsubscribe headers', async () => {
    const user = await deliveryUser(t.db, now());
    const first = await insertAlert(t.db, { userId: user.userId, now: now() });
    await drain();
    const smsRow = await deliveryOf(t.db, first.deliveries.sms!);
    const mailRow = await deliveryOf(t.db, first.deliveries.email!);
    expect([smsRow.status, smsRow.attempts, smsRow.possiblyDuplicate, smsRow.claimedUntil]).toEqual(['sent', 1, false, null]);
    expect(mailRow.status).toBe('sent');
    expect(await stepsOf(t.db, smsRow.id)).toEqual(['queued', 'sending', 'sent']);
    const sent = await smsTo(user.phone);
    expect(sent).toHaveLength(1);
    expect(smsRow.providerId).toBe(String(sent[0]!.id));
    expect(sent[0]!.body).toMatch(/^AAPL −5\.3% to 212\.40 .*\nReply STOP to opt out\.$/);

    const mails = await mailTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mailRow.providerId).toBe(String(mails[0]!.id));
    const eml = await fs.readFile(mails[0]!.emlPath, 'utf8');
    expect(eml).toMatch(/^List-Unsubscribe:\s+<https:\/\/signalboard\.example\/api\/alerts\/unsubscribe\?token=[^>]+>$/m);
    expect(eml).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(mails[0]!.textBody).toContain('Stop Percent Drop e-mails: https://signalboard.example/api/alerts/unsubscribe?token=');
    expect(mails[0]!.textBody).toContain('Stop all Signalboard alert e-mails: https://signalboard.example/api/alerts/unsubscribe?token=');

    // The second SMS to the number has no STOP line.
    await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await drain();
    const again = await smsTo(user.phone);
    expect(again).toHaveLength(2);
    expect(again[1]!.body).not.toContain(STOP_FOOTER);
  });

  it('retries a failing provider with backoff and, once it recovers within freshness, sends each alert exactly once', async () => {
    const user = await deliveryUser(t.db, now());
    const alerts = [];
    for (let i = 0; i < 5; i += 1) alerts.push(await insertAlert(t.db, { userId: user.userId, now: now() }));
    faults.sms = () => new SmsError('unavailable', 'Twilio is down');
    faults.mail = () => new MailError('connect ECONNREFUSED');
    const start = t.clock.nowMs();
    // Down for 4 minutes: passes every 20 s.
    while (t.clock.nowMs() - start < 4 * 60_000) {
      await worker.runOnce();
      t.clock.advance(20_000);
    }
    const during = await deliveryOf(t.db, alerts[0]!.deliveries.sms!);
    expect(during.status).toBe('queued');
    expect(during.attempts).toBeGreaterThanOrEqual(2);
    expect(during.reason).toMatch(/^attempt \d failed: Twilio is down$/);
    faults.sms = null;
    faults.mail = null;
    while (t.clock.nowMs() - start < 12 * 60_000) {
      await worker.runOnce();
      t.clock.advance(20_000);
    }
    const ids = alerts.flatMap((alert) => Object.values(alert.deliveries));
    const rows = await t.db.select().from(alertDeliveries).where(inArray(alertDeliveries.id, ids));
    expect(rows.map((row) => row.status)).toEqual(ids.map(() => 'sent'));
    // 0 lost, 0 doubled.
    expect(await smsTo(user.phone)).toHaveLength(5);
    expect(await mailTo(user.email)).toHaveLength(5);
    const steps = await stepsOf(t.db, alerts[0]!.deliveries.sms!);
    expect(steps[0]).toBe('queued');
    expect(steps.at(-1)).toBe('sent');
    expect(steps.filter((step) => step.startsWith('queued: attempt'))).toHaveLength(during.attempts);
  });

  it('expires an alert the provider could not take within its freshness window, and never sends it late', async () => {
    const user = await deliveryUser(t.db, now());
    const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'], freshMs: 2 * 60_000 });
    faults.sms = () => new SmsError('rate_limited', 'The SMS service is busy.');
    const start = t.clock.nowMs();
    while (t.clock.nowMs() - start < 5 * 60_000) {
      await worker.runOnce();
      t.clock.advance(10_000);
    }
    const row = await deliveryOf(t.db, alert.deliveries.sms!);
    expect(row.status).toBe('expired');
    expect(row.reason).toBe('not sent within its freshness window (The SMS service is busy.)');
    expect(row.attempts).toBeLessThan(5);
    faults.sms = null;
    await drain();
    expect(await smsTo(user.phone)).toHaveLength(0);

    // Already stale when first seen.
    const late = await insertAlert(t.db, { userId: user.userId, now: new Date(t.clock.nowMs() - 16 * 60_000), channels: ['email'] });
    await drain();
    expect((await deliveryOf(t.db, late.deliveries.email!)).status).toBe('expired');
    expect(await mailTo(user.email)).toHaveLength(0);
  });

  it('fails on a permanent error, flags the channel with the reason, and fails the next alert on it without calling the provider', async () => {
    const user = await deliveryUser(t.db, now());
    const alert = await insertAlert(t.db, { userId: user.userId, now: now() });
    faults.sms = () => new SmsError('invalid_number', 'This phone number cannot receive SMS. Please check the number.', 21211);
    faults.mail = () => new MailError('SMTP delivery failed: 550 5.1.1 no such user', true, 550);
    await drain();
    const smsRow = await deliveryOf(t.db, alert.deliveries.sms!);
    expect([smsRow.status, smsRow.reason]).toEqual(['failed', 'This phone number cannot receive SMS. Please check the number.']);
    expect((await deliveryOf(t.db, alert.deliveries.email!)).status).toBe('failed');
    const status = await t.db.select().from(alertChannelStatus).where(eq(alertChannelStatus.userId, user.userId)).orderBy(alertChannelStatus.channel);
    expect(status.map((row) => [row.channel, row.problem])).toEqual([
      ['email', 'SMTP delivery failed: 550 5.1.1 no such user'],
      ['sms', 'This phone number cannot receive SMS. Please check the number.'],
    ]);
    const calls = smsCalls;
    const next = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await drain();
    expect(smsCalls).toBe(calls);
    expect(await deliveryOf(t.db, next.deliveries.sms!)).toMatchObject({ status: 'failed', reason: 'This phone number cannot receive SMS. Please check the number.' });
  });

  it('gives up after 5 attempts', async () => {
    const user = await deliveryUser(t.db, now());
    const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['email'], freshMs: 6 * 3_600_000 });
    faults.mail = () => new MailError('connect ETIMEDOUT');
    for (let i = 0; i < 12; i += 1) {
      await worker.runOnce();
      t.clock.advance(5 * 60_000);
    }
    expect(await deliveryOf(t.db, alert.deliveries.email!)).toMatchObject({ status: 'failed', attempts: 5, reason: 'gave up after 5 attempts: connect ETIMEDOUT' });
    expect(mailCalls).toBe(5);
  });
});

describe('several workers and crashes', () => {
  it('two workers running passes at once send each delivery once', async () => {
    const user = await deliveryUser(t.db, now());
    const other = newWorker();
    const alerts = [];
    for (let i = 0; i < 8; i += 1) alerts.push(await insertAlert(t.db, { userId: user.userId, now: now() }));
    await Promise.all([drain(worker), drain(other), drain(worker), drain(other)]);
    expect(await smsTo(user.phone)).toHaveLength(8);
    expect(await mailTo(user.email)).toHaveLength(8);
    const rows = await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.userId, user.userId));
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it("resends a delivery left 'sending' by a crash once its lease ran out, marked possibly sent twice; a live lease is left alone", async () => {
    const user = await deliveryUser(t.db, now());
    const crashed = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
    const busy = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['email'] });
    // The provider accepted, then the process died before 'sent' was committed.
    await t.db.update(alertDeliveries).set({ status: 'sending', attempts: 1, claimedUntil: new Date(t.clock.nowMs() - 1000) }).where(eq(alertDeliveries.id, crashed.deliveries.sms!));
    await t.db.update(alertDeliveries).set({ status: 'sending', attempts: 1, claimedUntil: new Date(t.clock.nowMs() + 60_000) }).where(eq(alertDeliveries.id, busy.deliveries.email!));
    await drain();
    const row = await deliveryOf(t.db, crashed.deliveries.sms!);
    expect([row.status, row.possiblyDuplicate, row.attempts]).toEqual(['sent', true, 2]);
    expect(await stepsOf(t.db, row.id)).toEqual(['queued', `sending: ${REASONS.possiblyDuplicate}`, 'sent']);
    expect(await smsTo(user.phone)).toHaveLength(1);
    expect((await deliveryOf(t.db, busy.deliveries.email!)).status).toBe('sending');
    expect(mailCalls).toBe(0);
  });
});

describe('noise control', () => {
  it('holds SMS in quiet hours and sends the fresh ones as one morning digest; the stale ones expire', async () => {
    // 03:00 in New York (08:00 UTC); SMS quiet hours by default 21:00–08:00.
    t.clock.advance(Date.UTC(2026, 10, 10, 8, 0) - t.clock.nowMs());
    const user = await deliveryUser(t.db, now());
    const news1 = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'], symbol: 'NVDA', freshMs: 8 * 3_600_000 });
    const news2 = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'], symbol: 'TSLA', freshMs: 8 * 3_600_000 });
    const price = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms', 'email'], symbol: 'AAPL' });
    await drain();
    expect(await smsTo(user.phone)).toHaveLength(0);
    expect((await deliveryOf(t.db, price.deliveries.email!)).status).toBe('sent'); // e-mail has no quiet hours by default
    const held = await deliveryOf(t.db, news1.deliveries.sms!);
    expect([held.status, held.reason]).toEqual(['queued', REASONS.quietHours]);
    expect(await stepsOf(t.db, held.id)).toEqual(['queued', 'queued: held: quiet hours until 08:00']);

    // 08:00 in New York.
    t.clock.advance(5 * 3_600_000);
    await drain();
    const sent = await smsTo(user.phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatch(/^Signalboard: 2 alerts from your quiet hours:\nNVDA .*\nTSLA .*\nReply STOP to opt out\.$/);
    expect(await deliveryOf(t.db, news1.deliveries.sms!)).toMatchObject({ status: 'sent', reason: REASONS.inDigest, providerId: String(sent[0]!.id) });
    expect((await deliveryOf(t.db, news2.deliveries.sms!)).status).toBe('sent');
    expect((await deliveryOf(t.db, price.deliveries.sms!)).status).toBe('expired');
    const digests = await t.db.select().from(alertEvents).where(and(eq(alertEvents.userId, user.userId), eq(alertEvents.alertType, DIGEST_ALERT_TYPE)));
    expect(digests).toHaveLength(1);
  });

  it('caps SMS at 10 an hour: the rest are suppressed and one later SMS says how many more', async () => {
    t.clock.advance(Date.UTC(2026, 10, 11, 15, 0) - t.clock.nowMs());
    const user = await deliveryUser(t.db, now());
    const alerts = [];
    for (let i = 0; i < 13; i += 1) alerts.push(await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'], symbol: i < 11 ? 'AAPL' : 'MSFT' }));
    await drain();
    expect(await smsTo(user.phone)).toHaveLength(10);
    const rows = await t.db.select().from(alertDeliveries).where(and(eq(alertDeliveries.userId, user.userId), eq(alertDeliveries.channel, 'sms')));
    const suppressed = rows.filter((row) => row.status === 'suppressed');
    expect(suppressed.map((row) => row.reason)).toEqual(['cap', 'cap', 'cap']);
    // An hour later the digest goes out.
    t.clock.advance(30 * 60_000);
    await drain();
    expect(await smsTo(user.phone)).toHaveLength(10);
    t.clock.advance(31 * 60_000);
    await drain();
    const sent = await smsTo(user.phone);
    expect(sent).toHaveLength(11);
    // The 13 alerts share one instant, so which 3 the cap suppressed is the queue's pick among equals: the
    // digest names exactly their symbols (11 AAPL and 2 MSFT were inserted).
    const events = await t.db.select().from(alertEvents).where(inArray(alertEvents.id, suppressed.map((row) => row.eventId)));
    const named = /^Signalboard: 3 more alerts were not sent by SMS \(limit 10 an hour, 50 a day\): ([A-Z, ]+)\. See them in Signalboard\.$/.exec(sent[10]!.body);
    expect(named, sent[10]!.body).not.toBeNull();
    expect(new Set(named![1]!.split(', '))).toEqual(new Set(events.map((event) => event.symbol)));
  });

  it('caps SMS at 50 a day: the 51st waits for its digest until a day after the first', async () => {
    t.clock.advance(Date.UTC(2026, 10, 12, 13, 0) - t.clock.nowMs());
    const first = t.clock.nowMs();
    const user = await deliveryUser(t.db, now());
    for (let hour = 0; hour < 5; hour += 1) {
      for (let i = 0; i < 10; i += 1) await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
      await drain();
      t.clock.advance(61 * 60_000);
    }
    expect(await smsTo(user.phone)).toHaveLength(50);
    const over = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'], symbol: 'NVDA' });
    await drain();
    expect(await deliveryOf(t.db, over.deliveries.sms!)).toMatchObject({ status: 'suppressed', reason: 'cap' });
    const [digest] = await t.db
      .select({ nextAttemptAt: alertDeliveries.nextAttemptAt })
      .from(alertDeliveries)
      .innerJoin(alertEvents, eq(alertEvents.id, alertDeliveries.eventId))
      .where(and(eq(alertEvents.userId, user.userId), eq(alertEvents.alertType, DIGEST_ALERT_TYPE)));
    expect(digest!.nextAttemptAt.getTime()).toBe(first + 24 * 3_600_000);
  });

  it('suppresses when paused, opted out, deactivated, the rule or its channel is off, or there is no verified number', async () => {
    const at = now();
    const paused = await deliveryUser(t.db, at);
    await t.db.insert(alertDeliverySettings).values({
      userId: paused.userId,
      timeZone: 'UTC',
      smsQuietEnabled: false,
      smsQuietStart: '21:00',
      smsQuietEnd: '08:00',
      emailQuietEnabled: false,
      emailQuietStart: '21:00',
      emailQuietEnd: '08:00',
      paused: true,
      updatedAt: at,
    });
    const optedOut = await deliveryUser(t.db, at);
    await t.db.insert(alertChannelStatus).values({ userId: optedOut.userId, channel: 'sms', optedOutAt: at, updatedAt: at });
    const inactive = await deliveryUser(t.db, at);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, inactive.userId));
    const ruleOff = await deliveryUser(t.db, at);
    await t.db.update(alertRules).set({ isActive: false }).where(eq(alertRules.userId, ruleOff.userId));
    const emailOff = await deliveryUser(t.db, at);
    await t.db.update(alertRules).set({ enableEmail: false }).where(eq(alertRules.userId, emailOff.userId));
    const noPhone = await deliveryUser(t.db, at, { phone: false });
    const cases = [
      [paused, 'sms', REASONS.paused],
      [optedOut, 'sms', REASONS.unsubscribed],
      [inactive, 'email', REASONS.userInactive],
      [ruleOff, 'sms', REASONS.ruleOff],
      [emailOff, 'email', REASONS.channelOff],
      [noPhone, 'sms', REASONS.noPhone],
    ] as const;
    const ids = [];
    for (const [user, channel] of cases) ids.push((await insertAlert(t.db, { userId: user.userId, now: at, channels: [channel] })).deliveries[channel]!);
    await drain();
    for (const [i, [, , reason]] of cases.entries()) {
      expect(await deliveryOf(t.db, ids[i]!)).toMatchObject({ status: 'suppressed', reason });
      expect(await stepsOf(t.db, ids[i]!)).toEqual(['queued', `suppressed: ${reason}`]);
    }
    expect(smsCalls + mailCalls).toBe(0);
  });

  it('pauses a rule that fired more than 15 times in 3 minutes', async () => {
    const user = await deliveryUser(t.db, now());
    for (let i = 0; i < 15; i += 1) await insertAlert(t.db, { userId: user.userId, now: new Date(t.clock.nowMs() - i * 10_000), channels: [] });
    expect(await autoPauseIfRunaway(t.db, user.userId, 'PERCENT_DROP', now())).toBe(false);
    await insertAlert(t.db, { userId: user.userId, now: now(), channels: [] });
    expect(await autoPauseIfRunaway(t.db, user.userId, 'PERCENT_DROP', now())).toBe(true);
    const [rule] = await t.db.select().from(alertRules).where(eq(alertRules.userId, user.userId));
    expect([rule!.isActive, rule!.autoPausedAt?.getTime()]).toEqual([false, t.clock.nowMs()]);
    // Once paused, not again.
    expect(await autoPauseIfRunaway(t.db, user.userId, 'PERCENT_DROP', now())).toBe(false);
  });
});
