import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

const UPDATED = { msg: 'Password updated successfully!' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PASSWORD_CHANGE_MAX_PER_USER: '3', PASSWORD_CHANGE_WINDOW_SECONDS: '3600' });
});
afterAll(async () => t.close());

// First-login accounts: each change needs no current password, so the tests count changes only.
async function signedIn(label: string, password = 'pw') {
  const email = uniqueEmail(label);
  await createUser(t.db, email, password, { firstLogin: true });
  return { email, headers: await login(t.app, email, password) };
}
const change = (headers: { authorization: string }, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/update-password', headers, payload: payload as Record<string, unknown> });

describe('api/update-password per user', () => {
  it('answers the 4th change of an hour 429 with a msg and retry-after, changing nothing; another user is not affected; after the hour it works again', async () => {
    const { email, headers } = await signedIn('password-limit');
    let current: string | undefined;
    for (const password of ['first password', 'second password', 'third password']) {
      expect((await change(headers, { new_password: password, ...(current ? { current_password: current } : {}) })).json()).toEqual(UPDATED);
      current = password;
    }
    t.clock.advance(15 * 60 * 1000);
    const limited = await change(headers, { new_password: 'fourth password', current_password: 'third password' });
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many password changes (at most 3 every hour). Please try again in 45 minutes.' }]);
    expect(limited.headers['retry-after']).toBe(String(45 * 60));
    // The refused change changed nothing.
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'fourth password' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'third password' } })).statusCode).toBe(200);

    const other = await signedIn('password-other');
    expect((await change(other.headers, { new_password: 'mine, all mine' })).json()).toEqual(UPDATED);

    t.clock.advance(45 * 60 * 1000);
    const again = await login(t.app, email, 'third password');
    expect((await change(again, { new_password: 'fourth password', current_password: 'third password' })).json()).toEqual(UPDATED);
  });

  it('counts refused attempts too: a wrong current password or a too-short new one is a hashed guess or a try', async () => {
    const { email, headers } = await signedIn('password-refused');
    expect((await change(headers, { new_password: 'a long new password' })).json()).toEqual(UPDATED);
    expect((await change(headers, { new_password: 'another long one', current_password: 'a wrong guess' })).json()).toEqual({ msg: 'Current password is incorrect' });
    expect((await change(headers, { new_password: 'short', current_password: 'a long new password' })).json()).toEqual({ msg: 'New password must be at least 10 characters' });
    expect((await change(headers, { new_password: 'another long one', current_password: 'a long new password' })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'a long new password' } })).statusCode).toBe(200);
  });

  it('does not count a malformed request (nothing to hash), only well-formed attempts', async () => {
    const { headers } = await signedIn('password-malformed');
    for (let index = 0; index < 5; index += 1) expect((await change(headers, { new_password: '' })).statusCode).toBe(400);
    let current: string | undefined;
    for (const password of ['a password!', 'b password!', 'c password!']) {
      expect((await change(headers, { new_password: password, ...(current ? { current_password: current } : {}) })).json()).toEqual(UPDATED);
      current = password;
    }
    expect((await change(headers, { new_password: 'd password!', current_password: current })).statusCode).toBe(429);
  });
});
