/**
 * Two-factor sign-in end to end through the API (docs/accounts.md "Two-factor sign-in"): turning it
 * on, the login challenge, the ±1 step window, replay, the lockout, recovery codes once each, the
 * login limits, the installation's requirement and the admin's reset. Codes come from lib/totp.ts,
 * itself tested on the RFCs' vectors (lib/totp.test.ts), at the app's fake clock.
 */
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, userTwoFactor, users } from '../../db/schema';
import { base32Decode, totp, TOTP_STEP_SECONDS } from '../../lib/totp';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { TWO_FACTOR_SETUP_REQUIRED_MSG } from '../../plugins/authenticate';
import { CHALLENGE_GONE_MSG, NOT_WAITING_MSG, REQUIRED_MSG, TOO_MANY_CODES_MSG, triesLeftMsg, WRONG_CODE_MSG } from './two-factor.service';

const STEP_MS = TOTP_STEP_SECONDS * 1000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '30', LOGIN_MAX_PER_ADDRESS: '1000', LOGIN_WINDOW_SECONDS: '600' });
});
afterAll(async () => t.close());

type Headers = { authorization: string };
let calls = 0;
async function call(method: 'GET' | 'POST', url: string, payload?: InjectOptions['payload'], headers: Record<string, string> = {}, remoteAddress = `10.9.${Math.floor(++calls / 250) % 250}.${calls % 250}`) {
  const response = await t.app.inject({ method, url, payload, headers, remoteAddress });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
const post = (url: string, payload: InjectOptions['payload'] | undefined, headers?: Headers, from?: string) => call('POST', url, payload, headers, from);
const get = (url: string, headers: Headers) => call('GET', url, undefined, headers);
const reply = (response: { statusCode: number; json: () => unknown }) => [response.statusCode, response.json()];

async function account(label: string, role: 'admin' | 'member' = 'member') {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'the password');
  if (role === 'admin') await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  return { email, id, headers: await login(t.app, email, 'the password') };
}

/** Sets two-factor up and confirms it with the current code; answers the key and the recovery codes. */
async function enableTwoFactor(headers: Headers) {
  const setup = await post('/api/two_factor/setup', undefined, headers);
  expect(setup.statusCode).toBe(200);
  const key = base32Decode(setup.json().manual_key)!;
  const enabled = await post('/api/two_factor/enable', { code: totp(key, t.clock.nowMs()) }, headers);
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { key, recoveryCodes: enabled.json().recovery_codes as string[] };
}
/** The password step: answers the challenge. */
async function passwordStep(email: string, from?: string): Promise<string> {
  const response = await post('/api/login', { email, password: 'the password' }, undefined, from);
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ two_factor_required: true, challenge: expect.stringMatching(/^[\w-]{22}$/), first_login: false });
  return response.json().challenge;
}
const codeStep = (challenge: string, code: string, from?: string) => post('/api/login/two_factor', { challenge, code }, undefined, from);
const nextStep = () => t.clock.advance(STEP_MS);

describe('turning two-factor on', () => {
  it('sets up a key (URI and grouped manual key), confirms it with a code and answers 10 recovery codes once', async () => {
    const { email, id, headers } = await account('enable');
    expect(reply(await get('/api/two_factor', headers))).toEqual([200, { enabled: false, since: null, recovery_codes_left: 0, required: false }]);
    const setup = await post('/api/two_factor/setup', undefined, headers);
    const { manual_key, otpauth_uri } = setup.json();
    expect(manual_key).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    const uri = new URL(otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Signalboard:${email}`);
    expect(uri.searchParams.get('secret')).toBe(manual_key.replace(/ /g, ''));
    expect(uri.searchParams.get('issuer')).toBe('Signalboard');

    // Not on until confirmed; the key is stored sealed, never in base32 or raw.
    expect((await get('/api/two_factor', headers)).json().enabled).toBe(false);
    const [stored] = await t.db.select().from(userTwoFactor).where(eq(userTwoFactor.userId, id));
    expect(stored!.secret).toMatch(/^v1\./);
    expect(stored!.secret).not.toContain(manual_key.replace(/ /g, ''));

    const key = base32Decode(manual_key)!;
    expect(reply(await post('/api/two_factor/enable', { code: '000000' === totp(key, t.clock.nowMs()) ? '111111' : '000000' }, headers))).toEqual([400, { msg: WRONG_CODE_MSG }]);
    const enabled = await post('/api/two_factor/enable', { code: totp(key, t.clock.nowMs()) }, headers);
    expect(enabled.statusCode).toBe(200);
    const codes: string[] = enabled.json().recovery_codes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(await get('/api/two_factor', headers).then((r) => r.json())).toEqual({ enabled: true, since: new Date(t.clock.nowMs()).toISOString(), recovery_codes_left: 10, required: false });
    // Once on, setup and enable are refused; the session that turned it on stays signed in.
    expect(reply(await post('/api/two_factor/setup', undefined, headers))).toEqual([409, { msg: 'Two-factor sign-in is already on.' }]);
    expect((await get('/api/getemail', headers)).statusCode).toBe(200);
  });

  it('refuses enable without a key waiting, and answers 400 with a msg for a malformed body', async () => {
    const { headers } = await account('no-setup');
    expect(reply(await post('/api/two_factor/enable', { code: '123456' }, headers))).toEqual([400, { msg: NOT_WAITING_MSG }]);
    expect(reply(await post('/api/two_factor/enable', {}, headers))).toEqual([400, { msg: 'Code is required' }]);
    expect((await post('/api/two_factor/enable', { code: 'x'.repeat(100) }, headers)).statusCode).toBe(400);
  });

  it('a new setup replaces a key that was waiting: only the newest works', async () => {
    const { headers } = await account('resetup');
    const first = base32Decode((await post('/api/two_factor/setup', undefined, headers)).json().manual_key)!;
    const second = base32Decode((await post('/api/two_factor/setup', undefined, headers)).json().manual_key)!;
    expect(first.equals(second)).toBe(false);
    expect((await post('/api/two_factor/enable', { code: totp(first, t.clock.nowMs()) }, headers)).statusCode).toBe(totp(first, t.clock.nowMs()) === totp(second, t.clock.nowMs()) ? 200 : 400);
    expect((await post('/api/two_factor/enable', { code: totp(second, t.clock.nowMs()) }, headers)).statusCode).toBe(200);
  });
});

describe('signing in with two-factor', () => {
  it('answers a challenge instead of a token; the code completes it with a session', async () => {
    const { email, headers } = await account('signin');
    const { key } = await enableTwoFactor(headers);
    nextStep();
    const challenge = await passwordStep(email);
    const done = await codeStep(challenge, totp(key, t.clock.nowMs()));
    expect(reply(done)).toEqual([200, { access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), first_login: false }]);
    expect((await get('/api/getemail', { authorization: `Bearer ${done.json().access_token}` })).json().email).toBe(email);
    // A challenge signs in once.
    nextStep();
    expect(reply(await codeStep(challenge, totp(key, t.clock.nowMs())))).toEqual([401, { msg: CHALLENGE_GONE_MSG }]);
  });

  it('accepts the code of the step before and after now, not two steps away', async () => {
    const { email, headers } = await account('window');
    const { key } = await enableTwoFactor(headers);
    t.clock.advance(10 * STEP_MS);
    const at = (steps: number) => totp(key, t.clock.nowMs() + steps * STEP_MS);
    const tooOld = await codeStep(await passwordStep(email), at(-2));
    expect(tooOld.statusCode).toBe(401);
    expect((await codeStep(await passwordStep(email), at(-1))).statusCode).toBe(200);
    expect((await codeStep(await passwordStep(email), at(2))).statusCode).toBe(401);
    expect((await codeStep(await passwordStep(email), at(1))).statusCode).toBe(200);
  });

  it('refuses a code whose step was used already (a replay), and any earlier step', async () => {
    const { email, headers } = await account('replay');
    const { key } = await enableTwoFactor(headers);
    nextStep();
    const code = totp(key, t.clock.nowMs());
    expect((await codeStep(await passwordStep(email), code)).statusCode).toBe(200);
    expect(reply(await codeStep(await passwordStep(email), code))).toEqual([401, { msg: triesLeftMsg(4) }]);
    // The previous step is still within the window, but before the one used.
    expect((await codeStep(await passwordStep(email), totp(key, t.clock.nowMs() - STEP_MS))).statusCode).toBe(401);
    nextStep();
    expect((await codeStep(await passwordStep(email), totp(key, t.clock.nowMs()))).statusCode).toBe(200);
  });

  it('locks the challenge at the fifth wrong code: even the right code is refused, a new sign-in works', async () => {
    const { email, headers } = await account('lockout');
    const { key } = await enableTwoFactor(headers);
    nextStep();
    const right = totp(key, t.clock.nowMs());
    const wrong = right === '000000' ? '111111' : '000000';
    const challenge = await passwordStep(email);
    for (const left of [4, 3, 2, 1]) expect(reply(await codeStep(challenge, wrong))).toEqual([401, { msg: triesLeftMsg(left) }]);
    expect(reply(await codeStep(challenge, wrong))).toEqual([401, { msg: TOO_MANY_CODES_MSG }]);
    expect(reply(await codeStep(challenge, right))).toEqual([401, { msg: TOO_MANY_CODES_MSG }]);
    expect((await codeStep(await passwordStep(email), right)).statusCode).toBe(200);
  });

  it('a challenge expires after five minutes; an unknown one is refused the same way', async () => {
    const { email, headers } = await account('expiry');
    const { key } = await enableTwoFactor(headers);
    const challenge = await passwordStep(email);
    t.clock.advance(5 * 60_000);
    expect(reply(await codeStep(challenge, totp(key, t.clock.nowMs())))).toEqual([401, { msg: CHALLENGE_GONE_MSG }]);
    expect(reply(await codeStep('A'.repeat(22), '123456'))).toEqual([401, { msg: CHALLENGE_GONE_MSG }]);
    expect(reply(await post('/api/login/two_factor', { code: '123456' }))).toEqual([400, { msg: 'Challenge is required' }]);
  });

  it('takes each recovery code once, typed in any case, with or without the dash', async () => {
    const { email, headers } = await account('recovery');
    const { recoveryCodes } = await enableTwoFactor(headers);
    const [first, second] = recoveryCodes as [string, string];
    expect((await codeStep(await passwordStep(email), first)).statusCode).toBe(200);
    expect(reply(await codeStep(await passwordStep(email), first))).toEqual([401, { msg: triesLeftMsg(4) }]);
    expect((await codeStep(await passwordStep(email), ` ${second.toUpperCase().replace('-', ' ')} `)).statusCode).toBe(200);
    expect((await get('/api/two_factor', headers)).json().recovery_codes_left).toBe(8);
  });

  it('counts each code against the per-e-mail login limit (429 with the login wording); a success resets it', async () => {
    const limited = await createTestApp({ LOGIN_MAX_PER_EMAIL: '4', LOGIN_MAX_PER_ADDRESS: '1000', LOGIN_WINDOW_SECONDS: '600' });
    try {
      const email = uniqueEmail('limit');
      await createUser(limited.db, email, 'the password');
      const headers = await login(limited.app, email, 'the password');
      const setup = await limited.app.inject({ method: 'POST', url: '/api/two_factor/setup', headers });
      const key = base32Decode(setup.json().manual_key)!;
      await limited.app.inject({ method: 'POST', url: '/api/two_factor/enable', headers, payload: { code: totp(key, limited.clock.nowMs()) } });
      const inject = (url: string, payload: object) => limited.app.inject({ method: 'POST', url, payload, remoteAddress: '10.1.1.1' });
      // The successful login above reset the e-mail's count: 1 (password) + 3 codes = 4 attempts; the next is over.
      const { challenge } = (await inject('/api/login', { email, password: 'the password' })).json();
      for (let i = 0; i < 3; i += 1) expect((await inject('/api/login/two_factor', { challenge, code: 'aaaaa-aaaaa' })).statusCode).toBe(401);
      const over = await inject('/api/login/two_factor', { challenge, code: totp(key, limited.clock.nowMs() + STEP_MS) });
      expect(over.statusCode).toBe(429);
      expect(over.json().msg).toMatch(/^Too many login attempts\. Please try again in \d+ (seconds|minutes)\.$/);
    } finally {
      await limited.close();
    }
  });
});

describe('turning two-factor off and new recovery codes', () => {
  it('turns off with a code (a wrong one refused); sign-in is by password alone again', async () => {
    const { email, headers } = await account('disable');
    const { key } = await enableTwoFactor(headers);
    nextStep();
    expect(reply(await post('/api/two_factor/disable', { code: 'zzzzz-zzzzz' }, headers))).toEqual([400, { msg: WRONG_CODE_MSG }]);
    expect(reply(await post('/api/two_factor/disable', { code: totp(key, t.clock.nowMs()) }, headers))).toEqual([200, { msg: 'Two-factor sign-in is off.' }]);
    expect((await get('/api/two_factor', headers)).json()).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    const signIn = await post('/api/login', { email, password: 'the password' });
    expect(signIn.json()).toEqual({ access_token: expect.any(String), first_login: false });
  });

  it('counts every code checked behind the token: past the per-account limit, 429 even for the right one', async () => {
    const { headers } = await account('code-limit');
    const { key } = await enableTwoFactor(headers);
    nextStep();
    // enableTwoFactor's code was the first of LOGIN_MAX_PER_EMAIL (30) in the window.
    for (let i = 1; i < 30; i += 1) expect((await post('/api/two_factor/disable', { code: 'zzzzz-zzzzz' }, headers)).statusCode).toBe(400);
    const over = await post('/api/two_factor/disable', { code: totp(key, t.clock.nowMs()) }, headers);
    expect(over.statusCode).toBe(429);
    expect(over.json().msg).toMatch(/^Too many two-factor codes \(at most 30 every 10 minutes\)\. Please try again in \d+ (seconds|minutes)\.$/);
    expect((await get('/api/two_factor', headers)).json().enabled).toBe(true);
  });

  it('new recovery codes need a code; the earlier ones stop working', async () => {
    const { email, headers } = await account('regenerate');
    const { recoveryCodes } = await enableTwoFactor(headers);
    const fresh = await post('/api/two_factor/recovery_codes', { code: recoveryCodes[0] }, headers);
    expect(fresh.statusCode).toBe(200);
    const newCodes: string[] = fresh.json().recovery_codes;
    expect(newCodes).toHaveLength(10);
    expect(newCodes).not.toContain(recoveryCodes[1]);
    expect((await codeStep(await passwordStep(email), recoveryCodes[1]!)).statusCode).toBe(401);
    expect((await codeStep(await passwordStep(email), newCodes[0]!)).statusCode).toBe(200);
  });
});

describe('the installation requires two-factor', () => {
  it('leads an account without it to turn it on: only the setup calls work until it does; then it cannot be turned off', async () => {
    const admin = await account('req-admin', 'admin');
    const member = await account('req-member');
    expect(reply(await get('/api/admin/settings', admin.headers))).toEqual([200, { two_factor_required: false }]);
    expect((await post('/api/admin/require_two_factor', { required: true }, admin.headers)).statusCode).toBe(200);
    expect((await get('/api/admin/settings', admin.headers)).json()).toEqual({ two_factor_required: true });

    // A session signed in before goes on; a new sign-in must turn two-factor on first.
    expect((await get('/api/get_favorite_stocks', member.headers)).statusCode).toBe(200);
    const headers = await login(t.app, member.email, 'the password');
    expect(reply(await get('/api/get_favorite_stocks', headers))).toEqual([403, { msg: TWO_FACTOR_SETUP_REQUIRED_MSG, code: 'two_factor_setup_required' }]);
    expect((await get('/api/getemail', headers)).statusCode).toBe(200);
    expect((await get('/api/two_factor', headers)).json()).toMatchObject({ enabled: false, required: true });
    const { key } = await enableTwoFactor(headers);
    expect((await get('/api/get_favorite_stocks', headers)).statusCode).toBe(200);
    nextStep();
    expect(reply(await post('/api/two_factor/disable', { code: totp(key, t.clock.nowMs()) }, headers))).toEqual([400, { msg: REQUIRED_MSG }]);

    // Stopping the requirement lifts every waiting session.
    const other = await account('req-other');
    const waiting = await login(t.app, other.email, 'the password');
    expect((await get('/api/get_favorite_stocks', waiting)).statusCode).toBe(403);
    expect((await post('/api/admin/require_two_factor', { required: false }, admin.headers)).statusCode).toBe(200);
    await expect.poll(async () => (await get('/api/get_favorite_stocks', waiting)).statusCode).toBe(200);
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.action, 'require-two-factor'));
    expect(entries.map((entry) => entry.detail)).toEqual([{ from: false, to: true }, { from: true, to: false }]);
  });
});

describe('the admin', () => {
  it("sees who has two-factor, resets a lost phone's (sessions end, logged); a member may do neither", async () => {
    const admin = await account('reset-admin', 'admin');
    const member = await account('reset-member');
    await enableTwoFactor(member.headers);
    const listed = (await get('/api/admin/users', admin.headers)).json().users;
    expect(listed.find((user: { id: number }) => user.id === member.id).two_factor).toBe(true);
    expect(listed.find((user: { id: number }) => user.id === admin.id).two_factor).toBe(false);

    for (const [url, payload] of [['/api/admin/reset_two_factor', { user_id: admin.id }], ['/api/admin/require_two_factor', { required: true }]] as const) {
      expect(reply(await post(url, payload, member.headers))).toEqual([403, { msg: 'Only an admin of this installation can do this.' }]);
    }
    expect((await get('/api/admin/settings', member.headers)).statusCode).toBe(403);

    const reset = await post('/api/admin/reset_two_factor', { user_id: member.id }, admin.headers);
    expect(reply(reset)).toEqual([200, { msg: `Two-factor sign-in of ${member.email} is off; 1 session ended.` }]);
    expect((await get('/api/getemail', member.headers)).statusCode).toBe(401);
    expect((await post('/api/login', { email: member.email, password: 'the password' })).json()).toEqual({ access_token: expect.any(String), first_login: false });
    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'reset-two-factor'));
    expect(entry).toMatchObject({ actor: admin.email, target: member.email, detail: { was_on: true, sessions_ended: 1 } });
    expect(reply(await post('/api/admin/reset_two_factor', { user_id: 999_999 }, admin.headers))).toEqual([404, { msg: 'No account has this id.' }]);
  });
});
