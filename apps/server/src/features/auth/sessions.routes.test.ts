/**
 * Sign-in sessions (issue 28; docs/accounts.md): each sign-in is listed, can be ended by its user
 * (one, all others, Sign Out), by a password change (all others) and by deactivation; an ended
 * session's token is refused by this API process and, within a second, by another one on the same
 * database (and Redis, when the suite has one); a first-login session may only change its password.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createTestApp, createUser, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { createMarket } from '../../providers/market';

const ENDED = { msg: 'This session has ended. Please sign in again.' };
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '50', LOGIN_MAX_PER_ADDRESS: '500' });
});
afterAll(async () => t.close());

type Headers = { authorization: string };
const sessionIdOf = (headers: Headers) => JSON.parse(Buffer.from(headers.authorization.split('.')[1]!, 'base64url').toString()).sid as string;

async function signIn(app: FastifyInstance, email: string, password: string, userAgent = CHROME, remoteAddress = '203.0.113.7'): Promise<Headers & { firstLogin: boolean }> {
  const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password }, headers: { 'user-agent': userAgent }, remoteAddress });
  expect(answer.statusCode, answer.body).toBe(200);
  return { authorization: `Bearer ${answer.json().access_token}`, firstLogin: answer.json().first_login };
}
async function account(label: string, options: { firstLogin?: boolean } = {}) {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'the password', options);
  return { email, id };
}
const call = (method: 'GET' | 'POST', url: string, headers: Headers, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { authorization: headers.authorization }, ...(payload ? { payload } : {}) });
const status = async (headers: Headers, app: FastifyInstance = t.app) => (await app.inject({ method: 'GET', url: '/api/getemail', headers: { authorization: headers.authorization } })).statusCode;

describe('api/sessions', () => {
  it('lists each sign-in with its device, address and times, the asking one marked current', async () => {
    const { email } = await account('list');
    const desk = await signIn(t.app, email, 'the password', CHROME, '203.0.113.7');
    const phone = await signIn(t.app, email, 'the password', IPHONE, '198.51.100.4');
    const answer = await call('GET', '/api/sessions', phone);
    expect(answer.statusCode).toBe(200);
    const { sessions } = answer.json() as { sessions: Array<Record<string, unknown>> };
    expect(sessions).toHaveLength(2);
    const byId = new Map(sessions.map((session) => [session.id, session]));
    expect(byId.get(sessionIdOf(phone))).toMatchObject({ device: 'Safari on iPhone', address: '198.51.100.4', user_agent: IPHONE, current: true });
    expect(byId.get(sessionIdOf(desk))).toMatchObject({ device: 'Chrome on Windows', address: '203.0.113.7', current: false });
    for (const session of sessions) {
      for (const field of ['created_at', 'last_seen_at', 'expires_at']) expect(session[field]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(session.expires_at as string) - Date.parse(session.created_at as string)).toBe(t.config.ACCESS_TOKEN_TTL_SECONDS * 1000);
    }
  });

  it("never lists or ends another user's sessions", async () => {
    const mine = await account('mine');
    const theirs = await account('theirs');
    const me = await signIn(t.app, mine.email, 'the password');
    const them = await signIn(t.app, theirs.email, 'the password');
    expect((await call('GET', '/api/sessions', me)).json().sessions.map((session: { id: string }) => session.id)).toEqual([sessionIdOf(me)]);
    const refused = await call('POST', '/api/end_session', me, { id: sessionIdOf(them) });
    expect([refused.statusCode, refused.json()]).toEqual([404, { msg: 'No session of yours with this id is in use (it may have ended already).' }]);
    expect(await status(them)).toBe(200);
    expect((await call('POST', '/api/end_session', me, { id: '' })).json()).toEqual({ msg: 'Session is required' });
  });
});

describe('ending sessions', () => {
  it('Sign Out (api/logout) ends only the signing-out session', async () => {
    const { email } = await account('logout');
    const desk = await signIn(t.app, email, 'the password');
    const phone = await signIn(t.app, email, 'the password');
    const answer = await call('POST', '/api/logout', desk);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Signed out.' }]);
    const after = await call('GET', '/api/getemail', desk);
    expect([after.statusCode, after.json()]).toEqual([401, ENDED]);
    expect(await status(phone)).toBe(200);
    expect((await call('GET', '/api/sessions', phone)).json().sessions).toHaveLength(1);
  });

  it('ends one chosen session, then all the others ("Sign out other devices")', async () => {
    const { email } = await account('others');
    const [a, b, c] = [await signIn(t.app, email, 'the password'), await signIn(t.app, email, 'the password'), await signIn(t.app, email, 'the password')];
    expect((await call('POST', '/api/end_session', a, { id: sessionIdOf(b) })).json()).toEqual({ msg: 'Session ended.' });
    expect([await status(a), await status(b), await status(c)]).toEqual([200, 401, 200]);
    // Ending it twice: it is gone.
    expect((await call('POST', '/api/end_session', a, { id: sessionIdOf(b) })).statusCode).toBe(404);
    expect((await call('POST', '/api/end_other_sessions', a)).json()).toEqual({ msg: 'Signed out 1 other session.' });
    expect([await status(a), await status(c)]).toEqual([200, 401]);
    expect((await call('POST', '/api/end_other_sessions', a)).json()).toEqual({ msg: 'No other session was signed in.' });
  });

  it('a password change ends every other session and keeps the one that changed it', async () => {
    const { email } = await account('password-ends');
    const desk = await signIn(t.app, email, 'the password');
    const stolen = await signIn(t.app, email, 'the password');
    const answer = await call('POST', '/api/update-password', desk, { new_password: 'a fresh long password', current_password: 'the password' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(await status(desk)).toBe(200);
    expect((await call('GET', '/api/getemail', stolen)).json()).toEqual(ENDED);
  });

  it('deactivation ends every session of the account', async () => {
    const { email, id } = await account('deactivated');
    const desk = await signIn(t.app, email, 'the password');
    await signIn(t.app, email, 'the password');
    expect((await call('POST', '/api/deactivate_user', desk)).statusCode).toBe(200);
    const { rows } = await t.pool.query<{ ended_reason: string | null }>('select ended_reason from sessions where user_id = $1', [id]);
    expect(rows.map((row) => row.ended_reason)).toEqual(['deactivated', 'deactivated']);
  });
});

describe('a session signed in with a temporary or initial password', () => {
  it('may only change the password, read the e-mail and sign out; after the change the same token may do everything', async () => {
    const { email } = await account('first-login', { firstLogin: true });
    const first = await signIn(t.app, email, 'the password');
    expect(first.firstLogin).toBe(true);
    expect(await status(first)).toBe(200);
    for (const [method, url] of [['GET', '/api/get_favorite_stocks'], ['GET', '/api/sessions'], ['POST', '/api/end_other_sessions'], ['GET', '/api/docs']] as const) {
      const refused = await call(method, url, first);
      expect([refused.statusCode, refused.json()], url).toEqual([403, { msg: 'Please change your password before using Signalboard.', code: 'password_change_required' }]);
    }
    // A second first-login session elsewhere ends with the change; this one is lifted.
    const elsewhere = await signIn(t.app, email, 'the password');
    expect((await call('POST', '/api/update-password', first, { new_password: 'my own long password' })).statusCode).toBe(200);
    expect((await call('GET', '/api/get_favorite_stocks', first)).statusCode).toBe(200);
    expect((await call('GET', '/api/getemail', elsewhere)).json()).toEqual(ENDED);
    // Signing in with the new password is no first login.
    const next = await signIn(t.app, email, 'my own long password');
    expect([next.firstLogin, (await call('GET', '/api/sessions', next)).statusCode]).toEqual([false, 200]);
  });

  it('is what a temporary password from Forgot Password gives, even where the account has a full session', async () => {
    const { email } = await account('temporary');
    const full = await signIn(t.app, email, 'the password');
    await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email } });
    await t.app.drainBackgroundWork();
    const { rows } = await t.pool.query<{ eml_path: string }>('select eml_path from outbox_emails where to_address = $1 order by id desc limit 1', [email]);
    const temporary = /^Temporary password: (\S+)$/m.exec(readFileSync(rows[0]!.eml_path, 'utf8'))![1]!;
    const restricted = await signIn(t.app, email, temporary);
    expect(restricted.firstLogin).toBe(true);
    expect((await call('GET', '/api/get_favorite_stocks', restricted)).statusCode).toBe(403);
    // The session from before the reset is a full one until the password changes.
    expect((await call('GET', '/api/get_favorite_stocks', full)).statusCode).toBe(200);
    expect((await call('POST', '/api/update-password', restricted, { new_password: 'chosen after a reset' })).statusCode).toBe(200);
    expect((await call('GET', '/api/getemail', full)).json()).toEqual(ENDED);
  });
});

describe('an ended session on a second API process', () => {
  const settings = testRedisUrl() ? testRedisSettings('sessions') : undefined;
  let b: FastifyInstance;
  beforeAll(async () => {
    const env = settings ? { REDIS_URL: settings.url, REDIS_PREFIX: settings.prefix } : {};
    const config = loadConfig({ ...env, DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', WEB_DIST: t.config.WEB_DIST!, LOGIN_MAX_PER_EMAIL: '50', LOGIN_MAX_PER_ADDRESS: '500' });
    b = await buildApp({ config, db: t.db, pool: t.pool, mailer: t.mailer, market: createMarket(config, t.clock), marketClock: t.clock, jwtSecret: TEST_JWT_SECRET, clock: t.clock, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await settings?.clear();
  });

  it('is refused there within one second of its end, though that process had it cached', async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { email } = await account(`across-${attempt}`);
      const session = await signIn(t.app, email, 'the password');
      // B has the session cached (served from memory from now on).
      expect([await status(session, b), await status(session, b)]).toEqual([200, 200]);
      const endedAt = Date.now();
      expect((await call('POST', '/api/logout', session)).statusCode).toBe(200);
      await expect.poll(() => status(session, b), { timeout: 1_000, interval: 10 }).toBe(401);
      expect(Date.now() - endedAt).toBeLessThan(1_000);
    }
  });
});
