import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createTestApp, createUser, login, signJwt, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_ADDRESS: '8', LOGIN_WINDOW_SECONDS: '60', FORGOT_PASSWORD_MAX_PER_EMAIL: '2', FORGOT_PASSWORD_MAX_PER_ADDRESS: '50' });
});
afterAll(async () => t.close());

// Each test signs in from its own address, so the per-address limit stays out of the way.
let address = 0;
const post = (url: string, payload: unknown, headers: Record<string, string> = {}, remoteAddress = `10.0.0.${++address % 250}`) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress });
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('api/login', () => {
  it('signs in and tells a first login apart', async () => {
    const returning = uniqueEmail('returning');
    const fresh = uniqueEmail('fresh');
    await createUser(t.db, returning, 'pw-1');
    await createUser(t.db, fresh, 'pw-2', { firstLogin: true });
    const a = await post('/api/login', { email: returning, password: 'pw-1' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ access_token: expect.any(String), first_login: false });
    expect((await post('/api/login', { email: fresh, password: 'pw-2' })).json().first_login).toBe(true);
  });

  it('answers the same for an unknown e-mail and a wrong password', async () => {
    const email = uniqueEmail('known');
    await createUser(t.db, email, 'right');
    const wrong = await post('/api/login', { email, password: 'wrong' });
    const unknown = await post('/api/login', { email: uniqueEmail('nobody'), password: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ msg: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('trims and lower-cases the e-mail', async () => {
    const email = uniqueEmail('casing');
    await createUser(t.db, email, 'pw');
    expect((await post('/api/login', { email: `  ${email.toUpperCase()} `, password: 'pw' })).statusCode).toBe(200);
  });

  it('answers 400 with a clear msg for bad input, never 500', async () => {
    expect((await post('/api/login', {})).json()).toEqual({ msg: 'Email is required' });
    expect((await post('/api/login', { email: 'a@b.c' })).json()).toEqual({ msg: 'Password is required' });
    expect((await post('/api/login', { email: 42, password: 'x' })).json()).toEqual({ msg: 'Email must be text' });
    expect((await post('/api/login', { email: 'a@b.c', password: ['x'] })).json()).toEqual({ msg: 'Password must be text' });
    const badJson = await t.app.inject({ method: 'POST', url: '/api/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ msg: 'The request body is not valid JSON.' });
    const text = await t.app.inject({ method: 'POST', url: '/api/login', payload: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ msg: 'The request body must be a JSON object with the fields of this call.' });
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: '[1,2]', headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
  });

  it('limits attempts per e-mail, says when to retry, and forgets after the window', async () => {
    const email = uniqueEmail('limited');
    await createUser(t.db, email, 'right');
    for (let i = 0; i < 3; i += 1) expect((await post('/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    const limited = await post('/api/login', { email, password: 'right' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toBe('Too many login attempts. Please try again in 60 seconds.');
    expect(limited.headers['retry-after']).toBe('60');
    t.clock.advance(61_000);
    expect((await post('/api/login', { email, password: 'right' })).statusCode).toBe(200);
  });

  it('limits attempts per address across e-mails', async () => {
    const from = '192.0.2.77';
    for (let i = 0; i < 8; i += 1) await post('/api/login', { email: uniqueEmail('spray'), password: 'x' }, {}, from);
    const blocked = await post('/api/login', { email: uniqueEmail('spray'), password: 'x' }, {}, from);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().msg).toMatch(/^Too many login attempts\. Please try again in \d+ seconds\.$/);
    t.clock.advance(61_000);
  });
});

describe('tokens', () => {
  it('carries sub and exp in seconds, valid for the configured lifetime', async () => {
    const email = uniqueEmail('token');
    const id = await createUser(t.db, email, 'pw');
    const { authorization } = await login(t.app, email, 'pw');
    const payload = JSON.parse(Buffer.from(authorization.split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number };
    expect(payload.sub).toBe(String(id));
    expect(Math.abs(payload.exp - (Math.floor(Date.now() / 1000) + 12 * 3600))).toBeLessThan(5);
  });

  it('refuses missing, malformed, expired, foreign and orphan tokens with a msg', async () => {
    expect((await get('/api/getemail')).json()).toEqual({ msg: 'Auth token missing' });
    expect((await get('/api/getemail')).statusCode).toBe(401);
    expect((await get('/api/getemail', { authorization: 'Basic abc' })).json()).toEqual({ msg: 'Auth token missing' });
    expect((await get('/api/getemail', { authorization: 'Bearer abc' })).json()).toEqual({ msg: 'Auth token invalid' });
    const id = await createUser(t.db, uniqueEmail('expired'), 'pw');
    const expired = signJwt({ sub: String(id), iat: 1000, exp: 2000 });
    const answer = await get('/api/getemail', { authorization: `Bearer ${expired}` });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().msg).toMatch(/expired/);
    const foreign = signJwt({ sub: String(id), exp: 4_000_000_000 }, `${TEST_JWT_SECRET}-other`);
    expect((await get('/api/getemail', { authorization: `Bearer ${foreign}` })).json()).toEqual({ msg: 'Auth token invalid' });
    const orphan = signJwt({ sub: '987654', exp: 4_000_000_000 });
    expect((await get('/api/getemail', { authorization: `Bearer ${orphan}` })).json()).toEqual({ msg: 'Auth token invalid' });
  });

  it('answers getemail for the signed-in user', async () => {
    const email = uniqueEmail('me');
    await createUser(t.db, email, 'pw');
    expect((await get('/api/getemail', await login(t.app, email, 'pw'))).json()).toEqual({ email });
  });
});

describe('api/update-password', () => {
  it('needs the token and a new password', async () => {
    expect((await post('/api/update-password', { new_password: 'x' })).json()).toEqual({ msg: 'Auth token missing' });
    const email = uniqueEmail('update');
    await createUser(t.db, email, 'old', { firstLogin: true });
    const headers = await login(t.app, email, 'old');
    expect((await post('/api/update-password', {}, headers)).json()).toEqual({ msg: 'New password is required' });
    expect((await post('/api/update-password', { new_password: '' }, headers)).json()).toEqual({ msg: 'New password is required' });
  });

  it('replaces the password and ends the first login', async () => {
    const email = uniqueEmail('update');
    await createUser(t.db, email, 'old', { firstLogin: true });
    const headers = await login(t.app, email, 'old');
    const answer = await post('/api/update-password', { new_password: 'new secret' }, headers);
    expect(answer.json()).toEqual({ msg: 'Password updated successfully!' });
    expect((await post('/api/login', { email, password: 'old' })).statusCode).toBe(401);
    expect((await post('/api/login', { email, password: 'new secret' })).json().first_login).toBe(false);
  });
});

describe('api/forgot-password and the temporary password', () => {
  const mailTo = async (email: string) => {
    await t.app.drainBackgroundWork();
    return t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email));
  };

  it('answers the same for unknown and known e-mails, mailing only the known one', async () => {
    const email = uniqueEmail('forgot');
    await createUser(t.db, email, 'original');
    const known = await post('/api/forgot-password', { email });
    const unknown = await post('/api/forgot-password', { email: uniqueEmail('ghost') });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const rows = await mailTo(email);
    expect(rows).toHaveLength(1);
    const eml = readdirSync(path.join(t.dataDir, 'outbox')).map((file) => readFileSync(path.join(t.dataDir, 'outbox', file), 'utf8'));
    expect(eml.some((text) => text.includes(`To: ${email}`) && text.includes('Temporary password:'))).toBe(true);
  });

  it('keeps the old password until the temporary one is used, which forces a password change', async () => {
    const email = uniqueEmail('temp');
    await createUser(t.db, email, 'original');
    await post('/api/forgot-password', { email });
    const [row] = await mailTo(email);
    const temporary = /Temporary password: (\S+)/.exec(row!.textBody)![1]!;
    expect((await post('/api/login', { email, password: 'original' })).statusCode).toBe(200);
    const withTemporary = await post('/api/login', { email, password: temporary });
    expect(withTemporary.json().first_login).toBe(true);
    expect((await post('/api/login', { email, password: 'original' })).statusCode).toBe(401);
  });

  it('expires the temporary password after an hour', async () => {
    const email = uniqueEmail('late');
    await createUser(t.db, email, 'original');
    await post('/api/forgot-password', { email });
    const [row] = await mailTo(email);
    const temporary = /Temporary password: (\S+)/.exec(row!.textBody)![1]!;
    t.clock.advance(3601_000);
    expect((await post('/api/login', { email, password: temporary })).statusCode).toBe(401);
    expect((await post('/api/login', { email, password: 'original' })).statusCode).toBe(200);
  });

  it('carries msg and error on failures', async () => {
    const bad = await post('/api/forgot-password', { email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ msg: 'Email must be an e-mail address', error: 'Email must be an e-mail address' });
    expect((await post('/api/forgot-password', {})).json()).toEqual({ msg: 'Email is required', error: 'Email is required' });
    const email = uniqueEmail('spam');
    await post('/api/forgot-password', { email });
    await post('/api/forgot-password', { email });
    const limited = await post('/api/forgot-password', { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many password reset attempts\. Please try again in \d+ minutes\.$/);
    expect(limited.json().msg).toBe(limited.json().error);
  });
});

describe('api/deactivate_user', () => {
  it('stops the token at once and refuses sign-in with a msg; no reset e-mail either', async () => {
    const email = uniqueEmail('leaving');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    expect((await post('/api/deactivate_user', undefined, headers)).json()).toEqual({ msg: 'Your account has been deactivated.' });
    const after = await get('/api/getemail', headers);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ msg: 'This account has been deactivated.' });
    const again = await post('/api/login', { email, password: 'pw' });
    expect(again.statusCode).toBe(403);
    expect(again.json().msg).toMatch(/deactivated/);
    expect((await post('/api/login', { email, password: 'wrong' })).json()).toEqual({ msg: 'Invalid email or password' });
    await post('/api/forgot-password', { email });
    await t.app.drainBackgroundWork();
    expect(await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, email))).toHaveLength(0);
  });
});
