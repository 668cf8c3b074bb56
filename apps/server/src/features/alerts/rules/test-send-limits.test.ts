import { testAlertSentMessage } from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails, outboxSms, userPhones } from '../../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';

type Headers = { authorization: string };
const MINUTE = 60_000;

const testSend = (t: TestApp, headers: Headers, channel: 'sms' | 'email') => t.app.inject({ method: 'POST', url: '/api/send_test_alert', headers, payload: { channel } });

/** A signed-in user with a verified number on file. */
async function userWithPhone(t: TestApp, label: string, phone: string): Promise<{ headers: Headers; email: string }> {
  const email = uniqueEmail(label);
  const userId = await createUser(t.db, email, 'pw');
  await t.db.insert(userPhones).values({ userId, phoneNumber: phone, smsEnabled: true, verifiedAt: new Date(t.clock.nowMs()) });
  return { headers: await login(t.app, email, 'pw'), email };
}

describe('POST /api/send_test_alert: at most 3 per user and channel per hour (TEST_ALERT_MAX_PER_HOUR)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers the 4th test SMS 429 with a msg and retry-after, sends nothing for it, and leaves the other channel and other users alone; an hour after the first it works again', async () => {
    const a = await userWithPhone(t, 'test-limit-a', '+12025550301');
    const b = await userWithPhone(t, 'test-limit-b', '+12025550302');
    for (let index = 0; index < 3; index += 1) {
      const sent = await testSend(t, a.headers, 'sms');
      expect([sent.statusCode, sent.json().msg]).toEqual([200, testAlertSentMessage('sms', '+12025550301')]);
      t.clock.advance(MINUTE);
    }
    const fourth = await testSend(t, a.headers, 'sms');
    expect([fourth.statusCode, fourth.json()]).toEqual([429, { msg: 'You have sent 3 test SMS in the last hour, the most allowed. Please try again in 57 minutes.' }]);
    expect(fourth.headers['retry-after']).toBe(String(57 * 60));
    expect(await t.db.select().from(outboxSms).where(eq(outboxSms.toNumber, '+12025550301'))).toHaveLength(3);

    // The e-mail channel of the same user has its own 3; another user's SMS is not held up.
    for (let index = 0; index < 3; index += 1) expect((await testSend(t, a.headers, 'email')).statusCode).toBe(200);
    const fourthMail = await testSend(t, a.headers, 'email');
    expect([fourthMail.statusCode, fourthMail.json()]).toEqual([429, { msg: 'You have sent 3 test e-mails in the last hour, the most allowed. Please try again in 60 minutes.' }]);
    expect(await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, a.email))).toHaveLength(3);
    expect((await testSend(t, b.headers, 'sms')).statusCode).toBe(200);

    // One second before the hour is over it is still refused; at the hour it goes again.
    t.clock.advance(57 * MINUTE - 1000);
    const early = await testSend(t, a.headers, 'sms');
    expect([early.statusCode, early.headers['retry-after']]).toEqual([429, '1']);
    t.clock.advance(1000);
    expect((await testSend(t, a.headers, 'sms')).statusCode).toBe(200);
    expect(await t.db.select().from(outboxSms).where(eq(outboxSms.toNumber, '+12025550301'))).toHaveLength(4);
  });

  it('holds under concurrent clicks: of 6 at once, exactly 3 go out', async () => {
    const c = await userWithPhone(t, 'test-limit-race', '+12025550303');
    const answers = await Promise.all(Array.from({ length: 6 }, () => testSend(t, c.headers, 'sms')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    expect(await t.db.select().from(outboxSms).where(eq(outboxSms.toNumber, '+12025550303'))).toHaveLength(3);
  });
});
