import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

const UPDATED = { msg: 'Password updated successfully!' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PASSWORD_CHANGE_MAX_PER_USER: '3', PASSWORD_CHANGE_WINDOW_SECONDS: '3600' });
});
afterAll(async () => t.close());

async function signedIn(label: string, password = 'pw') {
  const email = uniqueEmail(label);
  await createUser(t.db, email, password);
  return { email, headers: await login(t.app, email, password) };
}
const change = (headers: { authorization: string }, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/update-password', headers, payload: payload as Record<string, unknown> });

describe('api/update-password per user', () => {
  it('answers the 4th change of an hour 429 with a msg and retry-after, changing nothing; another user is not affected; after the hour it works again', async () => {
    const { email, headers } = await signedIn('password-limit');
    for (const password of ['first pw', 'second pw', 'third pw']) expect((await change(headers, { new_password: password })).json()).toEqual(UPDATED);
    t.clock.advance(15 * 60 * 1000);
    const limited = await change(headers, { new_password: 'fourth pw' });
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many password changes (at most 3 every hour). Please try again in 45 minutes.' }]);
    expect(limited.headers['retry-after']).toBe(String(45 * 60));
    // The refused change changed nothing.
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'fourth pw' } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'third pw' } })).statusCode).toBe(200);

    const other = await signedIn('password-other');
    expect((await change(other.headers, { new_password: 'mine' })).json()).toEqual(UPDATED);

    t.clock.advance(45 * 60 * 1000);
    expect((await change(await login(t.app, email, 'third pw'), { new_password: 'fourth pw' })).json()).toEqual(UPDATED);
  });

  it('does not count a malformed request (nothing to hash), only well-formed attempts', async () => {
    const { headers } = await signedIn('password-malformed');
    for (let index = 0; index < 5; index += 1) expect((await change(headers, { new_password: '' })).statusCode).toBe(400);
    for (const password of ['a pw', 'b pw', 'c pw']) expect((await change(headers, { new_password: password })).json()).toEqual(UPDATED);
    expect((await change(headers, { new_password: 'd pw' })).statusCode).toBe(429);
  });
});
