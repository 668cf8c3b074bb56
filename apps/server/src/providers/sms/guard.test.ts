import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyResponse } from '@signalboard/core';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { outboxSms, userPhones } from '../../db/schema';
import { createTestApp, createTestDatabase, FakeClock, login, TEST_JWT_SECRET, type TestApp } from '../../../test/helpers';
import { deliveryOf, deliveryUser, insertAlert } from '../../../test/alert-delivery-fixtures';
import { guardSms, SMS_BUDGET_SPENT_MESSAGE } from './guard';
import { SmsError, type Sms } from './types';

type Headers = { authorization: string };
const HOUR = 3_600_000;
const BUDGET_WARNING = /^SMS stopped: the daily SMS budget \(SMS_DAILY_LIMIT=3\) of 2026-11-02 UTC is spent/;

/** A pino stream that keeps each line's msg. */
function collectingLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(String((JSON.parse(line) as { msg?: unknown }).msg));
      done();
    },
  });
  return { lines, logger: { level: 'warn', stream } };
}

const post = (app: FastifyInstance, url: string, headers: Headers, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/api/${url}`, headers, payload });
// The readiness details (sent_today, daily_limit, msg) go only to Authorization: Bearer <METRICS_TOKEN>.
const METRICS_TOKEN = 'sms-budget-readiness-token';
const smsCheck = async (app: FastifyInstance) =>
  readyResponse.parse((await app.inject({ method: 'GET', url: '/api/ready', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).json()).checks.sms!;

describe('SMS_DAILY_LIMIT: the installation-wide daily SMS budget, shared by two app processes on one database', () => {
  let a: TestApp;
  let b: FastifyInstance;
  const logA = collectingLog();
  const logB = collectingLog();
  beforeAll(async () => {
    a = await createTestApp({ SMS_DAILY_LIMIT: '3', METRICS_TOKEN }, { logger: logA.logger });
    const config = loadConfig({ SMS_DAILY_LIMIT: '3', METRICS_TOKEN, DATA_DIR: a.dataDir, LOG_LEVEL: 'silent', WEB_DIST: a.config.WEB_DIST! });
    b = await buildApp({ config, db: a.db, pool: a.pool, mailer: a.mailer, market: a.market, marketClock: a.clock, jwtSecret: TEST_JWT_SECRET, clock: a.clock, logger: logB.logger });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('counts codes, test sends and alerts of both processes; the 4th SMS of any kind is refused (429 / suppressed), not written, warned once; readiness says so; the next UTC day SMS goes again', async () => {
    const now = () => new Date(a.clock.nowMs());
    const user = await deliveryUser(a.db, now());
    const onA = await login(a.app, user.email, 'pw');
    const onB = await login(b, user.email, 'pw');
    const outbox = () => a.db.select().from(outboxSms);

    // 1: a code through A; 2: a test SMS through B; 3: an alert delivered by A's worker.
    expect((await post(a.app, 'send_verification_code', onA, { phone_number: '+12025550501' })).statusCode).toBe(200);
    expect((await post(b, 'send_test_alert', onB, { channel: 'sms' })).statusCode).toBe(200);
    const first = await insertAlert(a.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await a.app.alertDelivery.runOnce();
    expect(await deliveryOf(a.db, first.deliveries.sms!)).toMatchObject({ status: 'sent' });
    expect(await outbox()).toHaveLength(3);
    expect(await smsCheck(b)).toMatchObject({ state: 'degraded', kind: 'outbox', sent_today: 3, daily_limit: 3, msg: expect.stringMatching(/SMS_DAILY_LIMIT=3\) is spent/) });

    // The 4th of each kind, on either process: refused, nothing written.
    const code = await post(b, 'send_verification_code', onB, { phone_number: '+12025550502' });
    expect([code.statusCode, code.json()]).toEqual([429, { msg: SMS_BUDGET_SPENT_MESSAGE }]);
    expect(code.headers['retry-after']).toBe(String(9 * 3600)); // 15:00 UTC → midnight
    const test = await post(a.app, 'send_test_alert', onA, { channel: 'sms' });
    expect([test.statusCode, test.json()]).toEqual([429, { msg: `Failed to send test SMS: ${SMS_BUDGET_SPENT_MESSAGE}` }]);
    expect(test.headers['retry-after']).toBe(String(9 * 3600));
    const second = await insertAlert(a.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await b.alertDelivery.runOnce();
    expect(await deliveryOf(a.db, second.deliveries.sms!)).toMatchObject({
      status: 'suppressed',
      reason: 'sms budget: the daily SMS budget of this installation (SMS_DAILY_LIMIT) is spent',
    });
    expect(await outbox()).toHaveLength(3);
    // One warning for the day, from whichever process refused first.
    expect([...logA.lines, ...logB.lines].filter((line) => BUDGET_WARNING.test(line))).toHaveLength(1);
    expect(await smsCheck(a.app)).toMatchObject({ state: 'degraded', sent_today: 3 });

    // The next UTC day the budget is fresh.
    a.clock.advance(9 * HOUR);
    expect(await smsCheck(a.app)).toMatchObject({ state: 'up', sent_today: 0, daily_limit: 3 });
    expect((await post(b, 'send_verification_code', onB, { phone_number: '+12025550502' })).statusCode).toBe(200);
    const third = await insertAlert(a.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await b.alertDelivery.runOnce();
    expect(await deliveryOf(a.db, third.deliveries.sms!)).toMatchObject({ status: 'sent' });
    expect(await outbox()).toHaveLength(5);
  });
});

describe('SMS_ALLOWED_COUNTRIES for a stored number (verified before the setting changed)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN });
  });
  afterAll(async () => t.close());

  it('refuses the test SMS (400 naming the rule) and suppresses the alert SMS with that reason; nothing is sent or spent', async () => {
    const now = new Date(t.clock.nowMs());
    const user = await deliveryUser(t.db, now);
    await t.db.update(userPhones).set({ phoneNumber: '+447700900123' }).where(eq(userPhones.userId, user.userId));
    const headers = await login(t.app, user.email, 'pw');
    const test = await post(t.app, 'send_test_alert', headers, { channel: 'sms' });
    expect([test.statusCode, test.json()]).toEqual([400, { msg: 'Failed to send test SMS: SMS is not available for this country. Allowed calling codes: +1 (the US and Canada).' }]);
    const alert = await insertAlert(t.db, { userId: user.userId, now, channels: ['sms', 'email'] });
    await t.app.alertDelivery.runOnce();
    expect(await deliveryOf(t.db, alert.deliveries.sms!)).toMatchObject({ status: 'suppressed', reason: 'SMS is not available for this country. Allowed calling codes: +1 (the US and Canada).' });
    expect(await deliveryOf(t.db, alert.deliveries.email!)).toMatchObject({ status: 'sent' });
    expect(await t.db.select().from(outboxSms)).toEqual([]);
    expect(await smsCheck(t.app)).toMatchObject({ state: 'up', sent_today: 0, daily_limit: 200 });
  });
});

describe('guardSms around a provider', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  it("gives back the budget of a send the provider refused (nothing went out), keeps a failed one's (it may have)", async () => {
    let answer: Error | null = null;
    let sent = 0;
    const inner: Sms = {
      kind: 'twilio',
      sendVerification: async () => undefined,
      checkVerification: async () => 'wrong',
      send: async () => {
        if (answer) throw answer;
        sent += 1;
        return { id: `SM${sent}` };
      },
    };
    const warnings: string[] = [];
    const sms = guardSms(inner, { db: database.db, clock: new FakeClock(), dailyLimit: 2, allowedCountries: ['1'], log: { warn: (message) => warnings.push(message) } });
    answer = new SmsError('invalid_number', 'This phone number cannot receive SMS.');
    await expect(sms.send({ to: '+12025550601', body: 'x' })).rejects.toMatchObject({ kind: 'invalid_number' });
    expect(await sms.budgetState()).toEqual({ sent_today: 0, daily_limit: 2 });
    answer = new SmsError('unavailable', 'timeout');
    await expect(sms.send({ to: '+12025550601', body: 'x' })).rejects.toMatchObject({ kind: 'unavailable' });
    expect(await sms.budgetState()).toEqual({ sent_today: 1, daily_limit: 2 });
    answer = null;
    expect(await sms.send({ to: '+12025550601', body: 'x' })).toEqual({ id: 'SM1' });
    await expect(sms.send({ to: '+12025550601', body: 'x' })).rejects.toMatchObject({ kind: 'budget_spent', retryAfterSeconds: 9 * 3600 });
    await expect(sms.sendVerification('+12025550601')).rejects.toMatchObject({ kind: 'budget_spent' });
    expect(sent).toBe(1);
    expect(warnings).toHaveLength(1);
  });
});
