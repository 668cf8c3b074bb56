import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createUsersRepo } from './users.repo';
import { createTestApp, createUser, login, signJwt, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../test/helpers';

const INVALID = { msg: 'Invalid email or password' };
const MISSING = { msg: 'Auth token missing' };
const TOKEN_INVALID = { msg: 'Auth token invalid' };
const DEACTIVATED = { msg: 'This account has been deactivated. Contact support to restore it.' };
const FORGOT_MSG = { msg: 'If an account exists for that e-mail, a temporary password is on its way.' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    LOGIN_MAX_PER_EMAIL: '3',
    LOGIN_MAX_PER_ADDRESS: '8',
    LOGIN_WINDOW_SECONDS: '60',
    FORGOT_PASSWORD_MAX_PER_EMAIL: '2',
    FORGOT_PASSWORD_MAX_PER_ADDRESS: '50',
    PASSWORD_CHANGE_MAX_PER_USER: '20',
  });
});
afterAll(async () => t.close());

// Every call comes from its own address unless a test names one, so the per-address limit stays out of the way.
let calls = 0;
const freshAddress = () => `10.${Math.floor(++calls / 250) % 250}.${calls % 250}.1`;
async function call(method: 'GET' | 'POST', url: string, payload?: InjectOptions['payload'], headers: Record<string, string> = {}, remoteAddress = freshAddress()) {
  const response = await t.app.inject({ method, url, payload, headers, remoteAddress });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
const post = (url: string, payload?: InjectOptions['payload'], headers: Record<string, string> = {}, from?: string) => call('POST', url, payload, headers, from);
const get = (url: string, headers: Record<string, string> = {}) => call('GET', url, undefined, headers);
const raw = (payload: string, contentType = 'application/json') => post('/api/login', payload, { 'content-type': contentType });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The session id (`sid`) a token carries. */
const sessionOf = (headers: { authorization: string }) => JSON.parse(Buffer.from(headers.authorization.split('.')[1]!, 'base64url').toString()).sid as string;
async function account(label: string, password = 'pw', options: { firstLogin?: boolean } = {}) {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, password, options);
  return { email, id };
}
async function mailTo(email: string) {
  await t.app.drainBackgroundWork();
  return t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email));
}
/** From the delivered mail (the .eml): the outbox row keeps the password masked. */
async function temporaryPasswordOf(email: string): Promise<string> {
  const last = (await mailTo(email)).at(-1);
  const match = /^Temporary password: (\S+)$/m.exec(last ? readFileSync(last.emlPath, 'utf8') : '');
  if (!match) throw new Error(`no temporary password mailed to ${email}`);
  return match[1]!;
}

describe('api/login', () => {
  it('signs in a returning account and a first-login account', async () => {
    const returning = await account('returning', 'pw-1');
    const fresh = await account('fresh', 'pw-2', { firstLogin: true });
    const a = await post('/api/login', { email: returning.email, password: 'pw-1' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), first_login: false });
    const b = await post('/api/login', { email: fresh.email, password: 'pw-2' });
    expect(b.statusCode).toBe(200);
    expect(b.json().first_login).toBe(true);
  });

  it('answers the same 401 for an unknown e-mail and a wrong password', async () => {
    const { email } = await account('known', 'right');
    const wrong = await post('/api/login', { email, password: 'wrong' });
    const unknown = await post('/api/login', { email: uniqueEmail('nobody'), password: 'right' });
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual(INVALID);
    expect(unknown.json()).toEqual(INVALID);
  });

  it('trims and lower-cases the e-mail, but not the password', async () => {
    const { email } = await account('casing', 'Secret');
    expect((await post('/api/login', { email: `  ${email.toUpperCase()}\t`, password: 'Secret' })).statusCode).toBe(200);
    expect((await post('/api/login', { email, password: 'secret' })).json()).toEqual(INVALID);
  });

  it('answers a control character in the e-mail or password with 400 and a msg, not a database error', async () => {
    const { email } = await account('nul', 'pw');
    const emailMsg = { msg: 'Email must not contain line breaks or other control characters' };
    const passwordMsg = { msg: 'Password must not contain line breaks or other control characters' };
    for (const [payload, body] of [
      [{ email: `${email}\u0000`, password: 'pw' }, emailMsg],
      [{ email: `a\u0000b@example.com`, password: 'pw' }, emailMsg],
      [{ email: email.replace('@', '\n@'), password: 'pw' }, emailMsg],
      [{ email, password: 'pw\u0000' }, passwordMsg],
      [{ email, password: ' pw\t' }, passwordMsg],
    ] as const) {
      const answer = await post('/api/login', payload);
      expect([answer.statusCode, answer.json()], JSON.stringify(payload)).toEqual([400, body]);
    }
  });

  it('answers 400 with a clear msg for missing, non-text and non-JSON input', async () => {
    const cases: Array<[InjectOptions['payload'], string]> = [
      [{}, 'Email is required'],
      [{ password: 'x' }, 'Email is required'],
      [{ email: '   ', password: 'x' }, 'Email is required'],
      [{ email: 'a@b.c' }, 'Password is required'],
      [{ email: 42, password: 'x' }, 'Email must be text'],
      [{ email: 'a@b.c', password: ['x'] }, 'Password must be text'],
      [{ email: 'not-an-address', password: 'x' }, 'Email must be an e-mail address'],
    ];
    for (const [payload, msg] of cases) {
      const answer = await post('/api/login', payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json()).toEqual({ msg });
    }
    const noBody = await post('/api/login');
    expect([noBody.statusCode, noBody.json()]).toEqual([400, { msg: 'Email is required' }]);
    const badJson = await raw('{"email":');
    expect([badJson.statusCode, badJson.json()]).toEqual([400, { msg: 'The request body is not valid JSON.' }]);
    const empty = await raw('');
    expect([empty.statusCode, empty.json()]).toEqual([400, { msg: 'The request body is empty; send a JSON object.' }]);
    const notObject = { msg: 'The request body must be a JSON object with the fields of this call.' };
    for (const payload of ['[1,2]', '"a@b.c"', '42']) expect((await raw(payload)).json(), payload).toEqual(notObject);
    const text = await raw('hello', 'text/plain');
    expect([text.statusCode, text.json()]).toEqual([400, notObject]);
  });

  it('limits attempts per e-mail (in any casing), says when to retry, and forgets after the window', async () => {
    const { email } = await account('limited', 'right');
    for (let i = 0; i < 3; i += 1) expect((await post('/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    const limited = await post('/api/login', { email, password: 'right' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ msg: 'Too many login attempts. Please try again in 60 seconds.', error: expect.any(String) });
    expect(limited.json().msg).toContain('try again');
    expect(limited.headers['retry-after']).toBe('60');
    t.clock.advance(30_000);
    const shouted = await post('/api/login', { email: email.toUpperCase(), password: 'right' });
    expect(shouted.statusCode).toBe(429);
    expect(shouted.headers['retry-after']).toBe('30');
    t.clock.advance(31_000);
    expect((await post('/api/login', { email, password: 'right' })).statusCode).toBe(200);
  });

  it('starts the per-e-mail count afresh after a successful sign-in', async () => {
    const { email } = await account('reset-count', 'right');
    for (let i = 0; i < 2; i += 1) await post('/api/login', { email, password: 'wrong' });
    expect((await post('/api/login', { email, password: 'right' })).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await post('/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    expect((await post('/api/login', { email, password: 'wrong' })).statusCode).toBe(429);
  });

  it('limits attempts per address across e-mails, only for that address, until the window passes', async () => {
    const from = '192.0.2.77';
    const { email } = await account('victim', 'right');
    for (let i = 0; i < 8; i += 1) expect((await post('/api/login', { email: uniqueEmail('spray'), password: 'x' }, {}, from)).statusCode).toBe(401);
    const blocked = await post('/api/login', { email, password: 'right' }, {}, from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().msg).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/api/login', { email, password: 'right' }, {}, '192.0.2.78')).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await post('/api/login', { email, password: 'right' }, {}, from)).statusCode).toBe(200);
  });

  it("answers 403 with a msg for a deactivated account's correct password, 401 for a wrong one", async () => {
    const { email, id } = await account('inactive', 'right');
    await t.pool.query('update users set is_active = false where id = $1', [id]);
    const answer = await post('/api/login', { email, password: 'right' });
    expect([answer.statusCode, answer.json()]).toEqual([403, DEACTIVATED]);
    expect((await post('/api/login', { email, password: 'wrong' })).json()).toEqual(INVALID);
  });
});

describe('access tokens', () => {
  it('carries sub and exp in seconds, about ACCESS_TOKEN_TTL_SECONDS (12 h) from now', async () => {
    const { email, id } = await account('token');
    const { authorization } = await login(t.app, email, 'pw');
    const payload = JSON.parse(Buffer.from(authorization.split('.')[1]!, 'base64url').toString()) as { sub: unknown; exp: unknown };
    expect(payload.sub).toBe(String(id));
    expect(Number.isInteger(payload.exp)).toBe(true);
    expect(t.config.ACCESS_TOKEN_TTL_SECONDS).toBe(12 * 3600);
    expect(Math.abs((payload.exp as number) - (Math.floor(Date.now() / 1000) + 12 * 3600))).toBeLessThanOrEqual(5);
  });

  it('refuses missing, malformed, expired, foreign, forged and orphan tokens with 401 and a msg', async () => {
    const { id, email } = await account('victim');
    const { id: otherId } = await account('bystander');
    // A real session of the victim's, so the tokens below differ from a valid one in one respect only.
    const sid = sessionOf(await login(t.app, email, 'pw'));
    const far = Math.floor(Date.now() / 1000) + 3600;
    const expect401 = async (headers: Record<string, string>, body: unknown) => {
      const answer = await get('/api/getemail', headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(401);
      expect(answer.json(), JSON.stringify(headers)).toEqual(body);
    };
    expect((await get('/api/getemail', bearer(signJwt({ sub: String(id), sid, exp: far })))).statusCode).toBe(200);
    await expect401({}, MISSING);
    await expect401({ authorization: 'Basic abc' }, MISSING);
    await expect401({ authorization: 'Bearer ' }, MISSING);
    await expect401(bearer('abc'), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: String(id), sid, iat: 1000, exp: 2000 })), { msg: 'Auth token expired. Please sign in again.' });
    await expect401(bearer(signJwt({ sub: String(id), sid, exp: far }, `${TEST_JWT_SECRET}-other`)), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: '987654', sid, exp: far })), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: 'admin', sid, exp: far })), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: String(id), sid })), TOKEN_INVALID);
    // Signed, but without a session (a token from before sessions), with an unknown one, or with another user's.
    await expect401(bearer(signJwt({ sub: String(id), exp: far })), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: String(id), sid: 'no-such-session', exp: far })), TOKEN_INVALID);
    await expect401(bearer(signJwt({ sub: String(otherId), sid, exp: far })), TOKEN_INVALID);
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: String(id), sid, exp: far })).toString('base64url')}.`;
    await expect401(bearer(unsigned), TOKEN_INVALID);
    const [header, , signature] = signJwt({ sub: '1', sid, exp: far }).split('.');
    await expect401(bearer(`${header}.${Buffer.from(JSON.stringify({ sub: String(id), sid, exp: far })).toString('base64url')}.${signature}`), TOKEN_INVALID);
  });

  it('answers api/getemail with the signed-in e-mail', async () => {
    const { email } = await account('me');
    const answer = await get('/api/getemail', await login(t.app, email, 'pw'));
    expect([answer.statusCode, answer.json()]).toEqual([200, { email, role: 'member' }]);
  });
});

describe('api/update-password', () => {
  it('needs the token and a non-empty new password', async () => {
    expect((await post('/api/update-password', { new_password: 'x' })).json()).toEqual(MISSING);
    const { email } = await account('update', 'old', { firstLogin: true });
    const headers = await login(t.app, email, 'old');
    for (const [payload, msg] of [
      [{}, 'New password is required'],
      [{ new_password: '' }, 'New password is required'],
      [{ new_password: '   ' }, 'New password is required'],
      [{ new_password: 12345678 }, 'New password must be text'],
      [{ new_password: 'long enough now', current_password: '' }, 'Current password is required'],
    ] as const) {
      const answer = await post('/api/update-password', payload, headers);
      expect([answer.statusCode, answer.json()], JSON.stringify(payload)).toEqual([400, { msg }]);
    }
    expect((await post('/api/login', { email, password: 'old' })).statusCode).toBe(200);
  });

  it('replaces the password and ends the first login', async () => {
    const { email } = await account('update', 'old', { firstLogin: true });
    const answer = await post('/api/update-password', { new_password: 'new secret phrase' }, await login(t.app, email, 'old'));
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Password updated successfully!' }]);
    expect((await post('/api/login', { email, password: 'old' })).json()).toEqual(INVALID);
    const again = await post('/api/login', { email, password: 'new secret phrase' });
    expect([again.statusCode, again.json().first_login]).toEqual([200, false]);
  });

  it('refuses a new password under 10 characters or among the 10,000 most common, counting characters not bytes', async () => {
    const { email } = await account('rules', 'old', { firstLogin: true });
    const headers = await login(t.app, email, 'old');
    for (const [password, msg] of [
      ['nine char', 'New password must be at least 10 characters'],
      ['📈📈📈📈📈📈📈📈📈', 'New password must be at least 10 characters'],
      ['1234567890', 'New password is one of the most common passwords: please choose another'],
      ['QwertyUiop', 'New password is one of the most common passwords: please choose another'],
      ['Password123', 'New password is one of the most common passwords: please choose another'],
    ] as const) {
      const answer = await post('/api/update-password', { new_password: password }, headers);
      expect([answer.statusCode, answer.json()], password).toEqual([400, { msg }]);
    }
    // Still the old password, still the first login.
    const stillOld = await post('/api/login', { email, password: 'old' });
    expect([stillOld.statusCode, stillOld.json().first_login]).toEqual([200, true]);
    // Ten emoji are ten characters (twenty UTF-16 units would already pass a naive check at five).
    expect((await post('/api/update-password', { new_password: '📈📈📈📈📈📈📈📈📈📈' }, headers)).statusCode).toBe(200);
  });

  it('asks for the current password outside the first login, with a 400 (a 401 would sign the app out)', async () => {
    const { email } = await account('current', 'my current password');
    const headers = await login(t.app, email, 'my current password');
    const missing = await post('/api/update-password', { new_password: 'a brand new password' }, headers);
    expect([missing.statusCode, missing.json()]).toEqual([400, { msg: 'Current password is required' }]);
    const wrong = await post('/api/update-password', { new_password: 'a brand new password', current_password: 'not my password' }, headers);
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { msg: 'Current password is incorrect' }]);
    expect((await post('/api/login', { email, password: 'a brand new password' })).json()).toEqual(INVALID);
    const right = await post('/api/update-password', { new_password: 'a brand new password', current_password: 'my current password' }, headers);
    expect([right.statusCode, right.json()]).toEqual([200, { msg: 'Password updated successfully!' }]);
    expect((await post('/api/login', { email, password: 'a brand new password' })).statusCode).toBe(200);
    expect((await post('/api/login', { email, password: 'my current password' })).json()).toEqual(INVALID);
  });
});

describe('api/forgot-password and the temporary password', () => {
  it('answers unknown and known e-mails alike, and mails only the known one its temporary password', async () => {
    const { email } = await account('forgot', 'original');
    const known = await post('/api/forgot-password', { email });
    const ghost = uniqueEmail('ghost');
    const unknown = await post('/api/forgot-password', { email: ghost });
    expect([known.statusCode, known.json()]).toEqual([200, FORGOT_MSG]);
    expect([unknown.statusCode, unknown.json()]).toEqual([200, FORGOT_MSG]);
    const rows = await mailTo(email);
    expect(rows).toHaveLength(1);
    expect(await mailTo(ghost)).toHaveLength(0);
    const temporary = await temporaryPasswordOf(email);
    expect(temporary).toMatch(/^[A-Za-z0-9]{14}$/);
    expect(path.dirname(rows[0]!.emlPath)).toBe(path.join(t.dataDir, 'outbox'));
    const eml = readFileSync(rows[0]!.emlPath, 'utf8');
    expect(eml).toMatch(new RegExp(`^To: ${email.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(eml).toContain(`Temporary password: ${temporary}`);
    // The row the app keeps has it masked, as outbox_sms keeps codes.
    expect(rows[0]!.textBody).toContain(`Temporary password: ${'•'.repeat(14)}\n`);
    expect(rows[0]!.textBody).not.toContain(temporary);
  });

  it('keeps the old password until the temporary one is used; using it forces a password change', async () => {
    const { email } = await account('temp', 'original');
    await post('/api/forgot-password', { email: `  ${email.toUpperCase()} ` });
    const temporary = await temporaryPasswordOf(email);
    expect((await post('/api/login', { email, password: 'original' })).json().first_login).toBe(false);
    const withTemporary = await post('/api/login', { email, password: temporary });
    expect([withTemporary.statusCode, withTemporary.json().first_login]).toEqual([200, true]);
    expect((await post('/api/login', { email, password: 'original' })).json()).toEqual(INVALID);
    // A temporary password is a first login: no current password asked.
    const changed = await post('/api/update-password', { new_password: 'chosen at last' }, bearer(withTemporary.json().access_token));
    expect(changed.statusCode).toBe(200);
    expect((await post('/api/login', { email, password: 'chosen at last' })).json().first_login).toBe(false);
  });

  it('honours only the latest temporary password, and none once a new password is set', async () => {
    const { email } = await account('twice', 'original');
    await post('/api/forgot-password', { email });
    const first = await temporaryPasswordOf(email);
    await post('/api/forgot-password', { email });
    const second = await temporaryPasswordOf(email);
    expect(second).not.toBe(first);
    expect((await post('/api/login', { email, password: first })).json()).toEqual(INVALID);
    const changed = await post('/api/update-password', { new_password: 'chosen at last', current_password: 'original' }, await login(t.app, email, 'original'));
    expect(changed.statusCode).toBe(200);
    expect((await post('/api/login', { email, password: second })).json()).toEqual(INVALID);
  });

  it('expires the temporary password after one hour', async () => {
    const early = await account('early', 'original');
    const late = await account('late', 'original');
    await post('/api/forgot-password', { email: early.email });
    await post('/api/forgot-password', { email: late.email });
    const [earlyTemp, lateTemp] = [await temporaryPasswordOf(early.email), await temporaryPasswordOf(late.email)];
    t.clock.advance(3599_000);
    expect((await post('/api/login', { email: early.email, password: earlyTemp })).statusCode).toBe(200);
    t.clock.advance(2_000);
    expect((await post('/api/login', { email: late.email, password: lateTemp })).json()).toEqual(INVALID);
    expect((await post('/api/login', { email: late.email, password: 'original' })).statusCode).toBe(200);
  });

  it('carries both msg and error on 400 and 429 answers', async () => {
    for (const [payload, msg] of [
      [{}, 'Email is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-email' }, 'Email must be an e-mail address'],
      [{ email: ['a@b.c'] }, 'Email must be text'],
    ] as const) {
      const answer = await post('/api/forgot-password', payload);
      expect([answer.statusCode, answer.json()], JSON.stringify(payload)).toEqual([400, { msg, error: msg }]);
    }
    // A NUL reached the database in the background, after a 200.
    const { email: nul } = await account('forgot-nul');
    const controlMsg = 'Email must not contain line breaks or other control characters';
    for (const email of [`${nul}\u0000`, `\u0000${nul}`, nul.replace('@', '\u007f@')]) {
      const answer = await post('/api/forgot-password', { email });
      expect([answer.statusCode, answer.json()], JSON.stringify(email)).toEqual([400, { msg: controlMsg, error: controlMsg }]);
    }
    expect(await mailTo(nul)).toHaveLength(0);
    const badJson = await post('/api/forgot-password', '{', { 'content-type': 'application/json' });
    expect(badJson.statusCode).toBe(400);
    expect(typeof badJson.json().msg).toBe('string');
    const { email } = await account('spam');
    for (let i = 0; i < 2; i += 1) expect((await post('/api/forgot-password', { email })).statusCode).toBe(200);
    const limited = await post('/api/forgot-password', { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ msg: 'Too many password reset attempts. Please try again in 60 minutes.', error: 'Too many password reset attempts. Please try again in 60 minutes.' });
    expect(limited.headers['retry-after']).toBe('3600');
    expect(await mailTo(email)).toHaveLength(2);
  });
});

describe('api/deactivate_user', () => {
  it('stops the token at once, refuses sign-in with 403, and mails no temporary password', async () => {
    const { email } = await account('leaving');
    const headers = await login(t.app, email, 'pw');
    expect((await get('/api/getemail', headers)).statusCode).toBe(200);
    expect((await post('/api/deactivate_user', undefined, headers)).json()).toEqual({ msg: 'Your account has been deactivated.' });
    const after = await get('/api/getemail', headers);
    expect([after.statusCode, after.json()]).toEqual([401, { msg: 'This account has been deactivated.' }]);
    const again = await post('/api/login', { email, password: 'pw' });
    expect([again.statusCode, again.json()]).toEqual([403, DEACTIVATED]);
    expect(await post('/api/forgot-password', { email }).then((r) => r.json())).toEqual(FORGOT_MSG);
    expect(await mailTo(email)).toHaveLength(0);
    expect((await post('/api/deactivate_user')).json()).toEqual(MISSING);
  });

  it("answers 409 with a msg to the installation's only active admin, who stays active", async () => {
    const { email } = await account('owner');
    const repo = createUsersRepo(t.db);
    const owner = (await repo.findByEmail(email))!;
    // The only active admin of this test's database (no other test here makes admins).
    expect(await repo.setRole(owner.id, 'admin')).toBe('ok');
    const headers = await login(t.app, email, 'pw');
    const refused = await post('/api/deactivate_user', undefined, headers);
    expect([refused.statusCode, refused.json()]).toEqual([409, { msg: "You are this installation's only admin: make another account an admin before deactivating this one." }]);
    expect((await get('/api/getemail', headers)).statusCode).toBe(200);
    // With a second admin, the first may leave.
    const { email: other } = await account('second');
    expect(await repo.setRole((await repo.findByEmail(other))!.id, 'admin')).toBe('ok');
    expect((await post('/api/deactivate_user', undefined, headers)).json()).toEqual({ msg: 'Your account has been deactivated.' });
  });
});
