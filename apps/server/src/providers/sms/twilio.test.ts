import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_ACCOUNT_SID,
  FAKE_AUTH_TOKEN,
  FAKE_CODE,
  FAKE_FRAUD_NUMBER,
  FAKE_FROM,
  FAKE_INVALID_NUMBER,
  FAKE_RATE_LIMITED_NUMBER,
  FAKE_VERIFY_SID,
  startFakeTwilio,
} from '../../../test/fake-twilio';
import { createTwilioSms } from './twilio';
import { SmsError, type Sms } from './types';

describe('the Twilio SMS provider (official SDK against a local fake Twilio)', () => {
  let fake: Awaited<ReturnType<typeof startFakeTwilio>>;
  let sms: Sms;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    sms = createTwilioSms({ accountSid: FAKE_ACCOUNT_SID, auth: { authToken: FAKE_AUTH_TOKEN }, verifyServiceSid: FAKE_VERIFY_SID, from: FAKE_FROM, baseUrl: fake.url });
  });
  afterAll(async () => fake.close());

  const rejection = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(SmsError);
    return error as SmsError;
  };

  it('starts a verification by SMS and approves the right code (Verify v2, form-encoded, basic auth)', async () => {
    await sms.sendVerification('+15551230001');
    const start = fake.requests.at(-1)!;
    expect(start).toMatchObject({ method: 'POST', path: `/v2/Services/${FAKE_VERIFY_SID}/Verifications`, form: { To: '+15551230001', Channel: 'sms' } });
    expect(start.authorization).toBe(`Basic ${Buffer.from(`${FAKE_ACCOUNT_SID}:${FAKE_AUTH_TOKEN}`).toString('base64')}`);
    expect(await sms.checkVerification('+15551230001', '000000')).toBe('wrong');
    expect(await sms.checkVerification('+15551230001', FAKE_CODE)).toBe('approved');
    expect(fake.requests.at(-1)).toMatchObject({ path: `/v2/Services/${FAKE_VERIFY_SID}/VerificationCheck`, form: { To: '+15551230001', Code: FAKE_CODE } });
    // Twilio deletes an approved verification: a further check is 404/20404, i.e. expired.
    expect(await sms.checkVerification('+15551230001', FAKE_CODE)).toBe('expired');
  });

  it('maps an invalid number (60200) to invalid_number', async () => {
    const error = await rejection(sms.sendVerification(FAKE_INVALID_NUMBER));
    expect(error).toMatchObject({ kind: 'invalid_number', providerCode: 60200 });
  });

  it('maps max send attempts (60203) to rate_limited and a fraud block (60410) to blocked', async () => {
    expect(await rejection(sms.sendVerification(FAKE_RATE_LIMITED_NUMBER))).toMatchObject({ kind: 'rate_limited', providerCode: 60203 });
    expect(await rejection(sms.sendVerification(FAKE_FRAUD_NUMBER))).toMatchObject({ kind: 'blocked', providerCode: 60410 });
  });

  it('maps max check attempts (60202) to max_attempts', async () => {
    await sms.sendVerification('+15551230002');
    for (let check = 0; check < 5; check += 1) expect(await sms.checkVerification('+15551230002', '000000')).toBe('wrong');
    expect(await rejection(sms.checkVerification('+15551230002', FAKE_CODE))).toMatchObject({ kind: 'max_attempts', providerCode: 60202 });
  });

  it('sends a plain message through the Messages API, and maps an invalid number (21211)', async () => {
    expect(await sms.send({ to: '+15551230003', body: 'NVDA crossed above 150.00' })).toEqual({ id: `SM${'d'.repeat(32)}` });
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages.json`,
      form: { To: '+15551230003', From: FAKE_FROM, Body: 'NVDA crossed above 150.00' },
    });
    expect(await rejection(sms.send({ to: FAKE_INVALID_NUMBER, body: 'x' }))).toMatchObject({ kind: 'invalid_number', providerCode: 21211 });
    expect(fake.requests.at(-1)!.form.StatusCallback).toBeUndefined();
  });

  it('asks for status callbacks at the given address', async () => {
    const withReceipts = createTwilioSms({
      accountSid: FAKE_ACCOUNT_SID,
      auth: { authToken: FAKE_AUTH_TOKEN },
      verifyServiceSid: FAKE_VERIFY_SID,
      from: FAKE_FROM,
      baseUrl: fake.url,
      statusCallback: 'https://alerts.example.org/api/twilio/status',
    });
    await withReceipts.send({ to: '+15551230005', body: 'AAPL −5.3%' });
    expect(fake.requests.at(-1)!.form).toMatchObject({ To: '+15551230005', StatusCallback: 'https://alerts.example.org/api/twilio/status' });
  });

  it('reports wrong credentials (20003) and an unreachable service as unavailable', async () => {
    const badKey = createTwilioSms({ accountSid: FAKE_ACCOUNT_SID, auth: { authToken: 'wrong' }, verifyServiceSid: FAKE_VERIFY_SID, from: FAKE_FROM, baseUrl: fake.url });
    expect(await rejection(badKey.sendVerification('+15551230004'))).toMatchObject({ kind: 'unavailable', providerCode: 20003 });
    const down = createTwilioSms({ accountSid: FAKE_ACCOUNT_SID, auth: { authToken: FAKE_AUTH_TOKEN }, verifyServiceSid: FAKE_VERIFY_SID, from: FAKE_FROM, baseUrl: 'http://127.0.0.1:1', timeoutMs: 2000 });
    expect(await rejection(down.sendVerification('+15551230004'))).toMatchObject({ kind: 'unavailable' });
  });
});
