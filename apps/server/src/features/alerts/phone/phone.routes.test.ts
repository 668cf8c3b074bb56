import fs from 'node:fs/promises';
import path from 'node:path';
import {
  PHONE_NUMBER_FORMAT_MESSAGE,
  PHONE_NUMBER_REQUIRED_MESSAGE,
  VERIFICATION_CODE_FORMAT_MESSAGE,
  VERIFICATION_CODE_REQUIRED_MESSAGE,
  VERIFICATION_PHONE_MISSING_MESSAGE,
} from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertChannelStatus, phoneVerificationRequests, smsVerificationCodes, userPhones, users } from '../../../db/schema';
import { FAKE_CODE, FAKE_INVALID_NUMBER, FAKE_RATE_LIMITED_NUMBER, startFakeTwilio } from '../../../../test/fake-twilio';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { EXPIRED_CODE_MESSAGE, MAX_CHECKS_MESSAGE, NO_CODE_SENT_MESSAGE, SEND_SUCCESS_MESSAGE, VERIFY_SUCCESS_MESSAGE, WRONG_CODE_MESSAGE } from './phone.service';

type Headers = { authorization: string };
const MINUTE = 60_000;

async function newUser(t: TestApp, label: string): Promise<Headers> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}

// Each send from an address of its own: the per-address and installation limits are phone.limits.test.ts's.
let sends = 0;
const send = (t: TestApp, headers: Headers | undefined, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/send_verification_code',
    ...(headers ? { headers } : {}),
    payload: payload as Record<string, unknown>,
    remoteAddress: `10.${Math.floor(++sends / 250) % 250}.${sends % 250}.1`,
  });
const verify = (t: TestApp, headers: Headers | undefined, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/verify_code', ...(headers ? { headers } : {}), payload: payload as Record<string, unknown> });
const phone = (t: TestApp, headers?: Headers) => t.app.inject({ method: 'GET', url: '/api/get_user_phone_number', ...(headers ? { headers } : {}) });

/** The code of the newest verification SMS to `to` in the app's SMS outbox (what the phone shows). */
async function outboxCode(t: TestApp, to: string): Promise<string> {
  const dir = path.join(t.dataDir, 'sms-outbox');
  for (const name of (await fs.readdir(dir)).sort().reverse()) {
    const text = await fs.readFile(path.join(dir, name), 'utf8');
    const match = /code is (\d{6})\./.exec(text);
    if (text.startsWith(`To: ${to}\n`) && match) return match[1]!;
  }
  throw new Error(`no verification SMS to ${to}`);
}
const otherThan = (code: string) => (code === '000000' ? '000001' : '000000');

describe('SMS verification on the outbox provider (the embedded default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers 401 without a token on every call', async () => {
    for (const response of [await send(t, undefined, { phone_number: '+12223334444' }), await verify(t, undefined, { phone_number: '+12223334444', verification_code: '123456' }), await phone(t)]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ msg: 'Auth token missing' });
    }
  });

  it('refuses a missing or malformed phone number or code with the spec messages (400)', async () => {
    const headers = await newUser(t, 'bad-input');
    const cases: Array<[typeof send, unknown, string]> = [
      [send, {}, PHONE_NUMBER_REQUIRED_MESSAGE],
      [send, { phone_number: '   ' }, PHONE_NUMBER_REQUIRED_MESSAGE],
      [send, { phone_number: '12223334444' }, PHONE_NUMBER_FORMAT_MESSAGE],
      [send, { phone_number: '+02223334444' }, PHONE_NUMBER_FORMAT_MESSAGE],
      [send, { phone_number: '+1' }, PHONE_NUMBER_FORMAT_MESSAGE],
      [send, { phone_number: '+1234567890123456' }, PHONE_NUMBER_FORMAT_MESSAGE],
      [send, { phone_number: '+1 222 333 4444' }, PHONE_NUMBER_FORMAT_MESSAGE],
      [send, { phone_number: 12223334444 }, PHONE_NUMBER_FORMAT_MESSAGE],
      [verify, { verification_code: '123456' }, VERIFICATION_PHONE_MISSING_MESSAGE],
      [verify, { phone_number: '+12223334444' }, VERIFICATION_CODE_REQUIRED_MESSAGE],
      [verify, { phone_number: '+12223334444', verification_code: '' }, VERIFICATION_CODE_REQUIRED_MESSAGE],
      [verify, { phone_number: '+12223334444', verification_code: '12345' }, VERIFICATION_CODE_FORMAT_MESSAGE],
      [verify, { phone_number: '+12223334444', verification_code: 'abcdef' }, VERIFICATION_CODE_FORMAT_MESSAGE],
      [verify, { phone_number: 'nope', verification_code: '123456' }, PHONE_NUMBER_FORMAT_MESSAGE],
    ];
    for (const [call, payload, msg] of cases) {
      const response = await call(t, headers, payload);
      expect({ payload, status: response.statusCode, body: response.json() }).toEqual({ payload, status: 400, body: { msg } });
    }
    const notJson = await t.app.inject({ method: 'POST', url: '/api/send_verification_code', headers: { ...headers, 'content-type': 'application/json' }, payload: '[1' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toHaveProperty('msg');
  });

  it('sends a code to the outbox, verifies it and saves the number to the user (the 15.5-digit max accepted)', async () => {
    const headers = await newUser(t, 'happy');
    expect((await phone(t, headers)).json()).toEqual({});
    const number = '+123456789012345';
    const sent = await send(t, headers, { phone_number: ` ${number} ` });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ msg: SEND_SUCCESS_MESSAGE, expires_in_seconds: 600 });
    const code = await outboxCode(t, number);
    const wrong = await verify(t, headers, { phone_number: number, verification_code: otherThan(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ msg: WRONG_CODE_MESSAGE });
    expect((await phone(t, headers)).json()).toEqual({});
    const right = await verify(t, headers, { phone_number: number, verification_code: code });
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ msg: VERIFY_SUCCESS_MESSAGE, phoneNumber: number, smsEnabled: true });
    expect((await phone(t, headers)).json()).toEqual({ phoneNumber: number, smsEnabled: true });
  });

  it("a new verification clears the SMS channel's problem, and a STOP only when the number changed", async () => {
    const email = uniqueEmail('reverify');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const verifyNumber = async (number: string) => {
      expect((await send(t, headers, { phone_number: number })).statusCode).toBe(200);
      expect((await verify(t, headers, { phone_number: number, verification_code: await outboxCode(t, number) })).statusCode).toBe(200);
    };
    await verifyNumber('+15557770001');
    const at = new Date(t.clock.nowMs());
    await t.db.insert(alertChannelStatus).values({ userId: user!.id, channel: 'sms', optedOutAt: at, problem: 'Twilio: failed (error 21610)', problemAt: at, updatedAt: at });
    t.clock.advance(11 * MINUTE);
    await verifyNumber('+15557770001');
    const state = async () => (await t.db.select().from(alertChannelStatus).where(eq(alertChannelStatus.userId, user!.id)))[0]!;
    expect([(await state()).problem, (await state()).optedOutAt?.getTime()]).toEqual([null, at.getTime()]);
    t.clock.advance(11 * MINUTE);
    await verifyNumber('+15557770002');
    expect((await state()).optedOutAt).toBeNull();
  });

  it('keeps no plain code in the database', async () => {
    const headers = await newUser(t, 'hashed');
    expect((await send(t, headers, { phone_number: '+12025550101' })).statusCode).toBe(200);
    const code = await outboxCode(t, '+12025550101');
    const { rows } = await t.pool.query<{ dump: string }>(
      `select string_agg(row_to_json(x)::text, ' ') as dump from (
         select 'c' as t, to_jsonb(c) as r from sms_verification_codes c
         union all select 'o', to_jsonb(o) from outbox_sms o
         union all select 'p', to_jsonb(p) from phone_verification_requests p) x`,
    );
    expect(rows[0]!.dump).toContain('+12025550101');
    expect(rows[0]!.dump).not.toContain(code);
    const codes = await t.db.select().from(smsVerificationCodes);
    expect(codes.every((row) => /^[0-9a-f]{64}$/.test(row.codeHash))).toBe(true);
  });

  it('a code expires after 10 minutes (fake clock), and then a check says so', async () => {
    const headers = await newUser(t, 'expiry');
    await send(t, headers, { phone_number: '+12025550102' });
    const code = await outboxCode(t, '+12025550102');
    t.clock.advance(10 * MINUTE - 1000);
    await send(t, headers, { phone_number: '+12025550103' });
    const other = await outboxCode(t, '+12025550103');
    t.clock.advance(1000);
    const late = await verify(t, headers, { phone_number: '+12025550102', verification_code: code });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({ msg: EXPIRED_CODE_MESSAGE });
    // The other code, sent a second before, is still good.
    expect((await verify(t, headers, { phone_number: '+12025550103', verification_code: other })).statusCode).toBe(200);
  });

  it('an approved code cannot be used twice', async () => {
    const headers = await newUser(t, 'twice');
    await send(t, headers, { phone_number: '+12025550104' });
    const code = await outboxCode(t, '+12025550104');
    expect((await verify(t, headers, { phone_number: '+12025550104', verification_code: code })).statusCode).toBe(200);
    const again = await verify(t, headers, { phone_number: '+12025550104', verification_code: code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ msg: EXPIRED_CODE_MESSAGE });
  });

  it('allows 5 checks per code, then answers 429 (even for the right code) until a new code is sent', async () => {
    const headers = await newUser(t, 'checks');
    await send(t, headers, { phone_number: '+12025550105' });
    const code = await outboxCode(t, '+12025550105');
    for (let check = 0; check < 5; check += 1) {
      expect((await verify(t, headers, { phone_number: '+12025550105', verification_code: otherThan(code) })).statusCode).toBe(400);
    }
    const locked = await verify(t, headers, { phone_number: '+12025550105', verification_code: code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ msg: MAX_CHECKS_MESSAGE });
    await send(t, headers, { phone_number: '+12025550105' });
    expect((await verify(t, headers, { phone_number: '+12025550105', verification_code: await outboxCode(t, '+12025550105') })).statusCode).toBe(200);
  });

  it('sends at most 3 codes per number per 10 minutes, whoever asks (429 with retry-after)', async () => {
    const [a, b] = [await newUser(t, 'number-a'), await newUser(t, 'number-b')];
    expect((await send(t, a, { phone_number: '+12025550106' })).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await send(t, a, { phone_number: '+12025550106' })).statusCode).toBe(200);
    expect((await send(t, b, { phone_number: '+12025550106' })).statusCode).toBe(200);
    const fourth = await send(t, b, { phone_number: '+12025550106' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ msg: 'Too many verification codes were sent to this number (at most 3 in 10 minutes). Please wait 9 minutes and try again.' });
    expect(fourth.headers['retry-after']).toBe('540');
    // Another number is not held up.
    expect((await send(t, b, { phone_number: '+12025550107' })).statusCode).toBe(200);
    // Once the first send is 10 minutes old, one more may go.
    t.clock.advance(9 * MINUTE);
    expect((await send(t, a, { phone_number: '+12025550106' })).statusCode).toBe(200);
    expect((await send(t, a, { phone_number: '+12025550106' })).statusCode).toBe(429);
  });

  it('holds the limits under concurrent sends: of 6 at once to one number, exactly 3 go out', async () => {
    const users = await Promise.all([0, 1, 2].map((index) => newUser(t, `race-${index}`)));
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => send(t, users[index % 3], { phone_number: '+12025550110' })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const files = await fs.readdir(path.join(t.dataDir, 'sms-outbox'));
    const texts = await Promise.all(files.map((name) => fs.readFile(path.join(t.dataDir, 'sms-outbox', name), 'utf8')));
    expect(texts.filter((text) => text.startsWith('To: +12025550110\n'))).toHaveLength(3);
  });

  it('sends at most 10 codes per user per day (429), other users unaffected', async () => {
    const [heavy, other] = [await newUser(t, 'daily'), await newUser(t, 'daily-other')];
    for (let index = 0; index < 10; index += 1) {
      expect((await send(t, heavy, { phone_number: `+1303555${String(index).padStart(4, '0')}` })).statusCode).toBe(200);
      t.clock.advance(MINUTE);
    }
    const eleventh = await send(t, heavy, { phone_number: '+13035559999' });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().msg).toMatch(/^You have asked for 10 verification codes in the last 24 hours, the most allowed\. Please try again in 24 hours\.$/);
    expect((await send(t, other, { phone_number: '+13035559999' })).statusCode).toBe(200);
    t.clock.advance(24 * 60 * MINUTE - 10 * MINUTE + 1);
    expect((await send(t, heavy, { phone_number: '+13035559998' })).statusCode).toBe(200);
  });

  it("keeps users apart: a code asked for by one user cannot verify another's, and each sees only their own number", async () => {
    const [a, b] = [await newUser(t, 'iso-a'), await newUser(t, 'iso-b')];
    await send(t, a, { phone_number: '+12025550108' });
    const code = await outboxCode(t, '+12025550108');
    const stolen = await verify(t, b, { phone_number: '+12025550108', verification_code: code });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual({ msg: NO_CODE_SENT_MESSAGE });
    expect((await verify(t, a, { phone_number: '+12025550108', verification_code: code })).statusCode).toBe(200);
    expect((await phone(t, a)).json()).toEqual({ phoneNumber: '+12025550108', smsEnabled: true });
    expect((await phone(t, b)).json()).toEqual({});
    // B verifies a number of its own; A's stays.
    await send(t, b, { phone_number: '+12025550109' });
    expect((await verify(t, b, { phone_number: '+12025550109', verification_code: await outboxCode(t, '+12025550109') })).statusCode).toBe(200);
    expect((await phone(t, a)).json()).toEqual({ phoneNumber: '+12025550108', smsEnabled: true });
    expect((await phone(t, b)).json()).toEqual({ phoneNumber: '+12025550109', smsEnabled: true });
    expect((await t.db.select().from(userPhones)).length).toBeGreaterThanOrEqual(2);
  });
});

describe('SMS verification on Twilio (SMS_PROVIDER=twilio, the SDK against a local fake Twilio)', () => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeTwilio>>;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await createTestApp(fake.env(fake.url));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends through Verify and saves the number once the code is right', async () => {
    const headers = await newUser(t, 'tw-happy');
    expect((await send(t, headers, { phone_number: '+12025550201' })).json()).toEqual({ msg: SEND_SUCCESS_MESSAGE, expires_in_seconds: 600 });
    expect(fake.requests.at(-1)).toMatchObject({ path: expect.stringMatching(/\/Verifications$/), form: { To: '+12025550201', Channel: 'sms' } });
    const wrong = await verify(t, headers, { phone_number: '+12025550201', verification_code: '000000' });
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { msg: WRONG_CODE_MESSAGE }]);
    const right = await verify(t, headers, { phone_number: '+12025550201', verification_code: FAKE_CODE });
    expect([right.statusCode, right.json()]).toEqual([200, { msg: VERIFY_SUCCESS_MESSAGE, phoneNumber: '+12025550201', smsEnabled: true }]);
    const gone = await verify(t, headers, { phone_number: '+12025550201', verification_code: FAKE_CODE });
    expect([gone.statusCode, gone.json()]).toEqual([400, { msg: EXPIRED_CODE_MESSAGE }]);
  });

  it("maps Twilio's refusals: invalid number 400, max send attempts 429 (neither counts against our limits), max checks 429", async () => {
    const headers = await newUser(t, 'tw-errors');
    const invalid = await send(t, headers, { phone_number: FAKE_INVALID_NUMBER });
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { msg: 'This phone number cannot receive SMS. Please check the number.' }]);
    const limited = await send(t, headers, { phone_number: FAKE_RATE_LIMITED_NUMBER });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toMatch(/^Too many verification codes were sent to this number/);
    expect((await t.db.select().from(phoneVerificationRequests)).filter((row) => row.phoneNumber === FAKE_INVALID_NUMBER || row.phoneNumber === FAKE_RATE_LIMITED_NUMBER)).toEqual([]);
    await send(t, headers, { phone_number: '+12025550202' });
    for (let check = 0; check < 5; check += 1) expect((await verify(t, headers, { phone_number: '+12025550202', verification_code: '000000' })).statusCode).toBe(400);
    const locked = await verify(t, headers, { phone_number: '+12025550202', verification_code: FAKE_CODE });
    expect([locked.statusCode, locked.json()]).toEqual([429, { msg: MAX_CHECKS_MESSAGE }]);
  });

  it('answers 502 with a msg when Twilio cannot be reached', async () => {
    const down = await createTestApp({ ...fake.env('http://127.0.0.1:1') });
    try {
      const headers = await newUser(down, 'tw-down');
      const response = await send(down, headers, { phone_number: '+12025550203' });
      expect([response.statusCode, response.json()]).toEqual([502, { msg: 'The SMS service is unavailable right now. Please try again later.' }]);
    } finally {
      await down.close();
    }
  });
});
