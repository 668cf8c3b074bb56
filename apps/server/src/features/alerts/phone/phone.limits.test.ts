import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxSms, phoneVerificationRequests } from '../../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';

type Headers = { authorization: string };
const MINUTE = 60_000;

async function newUser(t: TestApp, label: string): Promise<Headers> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}

const send = (t: TestApp, headers: Headers, phoneNumber: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/send_verification_code', headers, payload: { phone_number: phoneNumber }, remoteAddress });

describe('verification codes per client address and per installation per 24 hours', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ VERIFICATION_MAX_PER_ADDRESS_PER_DAY: '4', VERIFICATION_MAX_PER_DAY: '6' });
  });
  afterAll(async () => t.close());

  it('refuses the 5th code from one address (other addresses go on), then the 7th of the installation, each 429 with msg and retry-after; 24 hours later codes go again', async () => {
    // Every code to a new number and from a new user: only the address and installation limits apply.
    let serial = 0;
    const fresh = async () => {
      serial += 1;
      return { headers: await newUser(t, `limits-${serial}`), number: `+1404555${String(serial).padStart(4, '0')}` };
    };
    for (let index = 0; index < 4; index += 1) {
      const { headers, number } = await fresh();
      expect((await send(t, headers, number, '198.51.100.7')).statusCode).toBe(200);
      t.clock.advance(MINUTE);
    }
    const fifth = await fresh();
    const byAddress = await send(t, fifth.headers, fifth.number, '198.51.100.7');
    expect([byAddress.statusCode, byAddress.json()]).toEqual([429, { msg: 'Too many verification codes were asked for from your network address (at most 4 in 24 hours). Please try again in 24 hours.' }]);
    expect(byAddress.headers['retry-after']).toBe(String(24 * 3600 - 4 * 60));
    expect((await send(t, fifth.headers, fifth.number, '198.51.100.8')).statusCode).toBe(200);
    const sixth = await fresh();
    expect((await send(t, sixth.headers, sixth.number, '198.51.100.9')).statusCode).toBe(200);

    const seventh = await fresh();
    const byInstallation = await send(t, seventh.headers, seventh.number, '198.51.100.10');
    expect([byInstallation.statusCode, byInstallation.json()]).toEqual([
      429,
      { msg: 'This installation has sent the most verification codes it may send in 24 hours (6). Please try again in 24 hours.' },
    ]);
    expect(Number(byInstallation.headers['retry-after'])).toBe(24 * 3600 - 4 * 60);
    // The refused ones were neither sent nor counted.
    expect(await t.db.select().from(outboxSms)).toHaveLength(6);
    expect((await t.db.select().from(phoneVerificationRequests)).map((row) => row.clientAddress).sort()).toEqual([
      '198.51.100.7',
      '198.51.100.7',
      '198.51.100.7',
      '198.51.100.7',
      '198.51.100.8',
      '198.51.100.9',
    ]);

    t.clock.advance(24 * 60 * MINUTE - 4 * MINUTE);
    expect((await send(t, seventh.headers, seventh.number, '198.51.100.7')).statusCode).toBe(200);
  });
});

describe('SMS_ALLOWED_COUNTRIES on sending a verification code', () => {
  let usOnly: TestApp;
  let usAndUk: TestApp;
  beforeAll(async () => {
    usOnly = await createTestApp();
    usAndUk = await createTestApp({ SMS_ALLOWED_COUNTRIES: '1, +44' });
  });
  afterAll(async () => {
    await usOnly.close();
    await usAndUk.close();
  });

  it('refuses a +44 number by default with a 400 naming the rule, sends nothing and counts nothing; +1 goes', async () => {
    const headers = await newUser(usOnly, 'country');
    const refused = await send(usOnly, headers, '+447700900123');
    expect([refused.statusCode, refused.json()]).toEqual([400, { msg: 'SMS is not available for this country. Allowed calling codes: +1 (the US and Canada).' }]);
    expect(await usOnly.db.select().from(outboxSms)).toEqual([]);
    expect(await usOnly.db.select().from(phoneVerificationRequests)).toEqual([]);
    expect((await send(usOnly, headers, '+12025550401')).statusCode).toBe(200);
  });

  it('takes +1 as the US and Canada only: a Jamaican (+1 876) or premium-rate (+1 900) number is refused, a Canadian one goes', async () => {
    const headers = await newUser(usOnly, 'nanp');
    for (const caribbeanOrPremium of ['+18765550100', '+19005550100']) {
      const refused = await send(usOnly, headers, caribbeanOrPremium);
      expect([refused.statusCode, refused.json()]).toEqual([400, { msg: 'SMS is not available for this country. Allowed calling codes: +1 (the US and Canada).' }]);
    }
    expect((await send(usOnly, headers, '+14165550100')).statusCode).toBe(200);
    expect((await usOnly.db.select().from(outboxSms)).map((row) => row.toNumber)).not.toContain('+18765550100');
  });

  it('with SMS_ALLOWED_COUNTRIES=1,44 sends to both, and names both when refusing another', async () => {
    const headers = await newUser(usAndUk, 'countries');
    expect((await send(usAndUk, headers, '+447700900123')).statusCode).toBe(200);
    expect((await send(usAndUk, headers, '+12025550402')).statusCode).toBe(200);
    const refused = await send(usAndUk, headers, '+33612345678');
    expect([refused.statusCode, refused.json()]).toEqual([400, { msg: 'SMS is not available for this country. Allowed calling codes: +1 (the US and Canada), +44.' }]);
    expect((await usAndUk.db.select().from(outboxSms)).map((row) => row.toNumber).sort()).toEqual(['+12025550402', '+447700900123']);
  });
});
