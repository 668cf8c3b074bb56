import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

// POST api/watchlist/import_preview per user (docs/data-in-and-out.md "Watchlist import and export"):
// each preview may look up 2,000 symbols, so at most WATCHLIST_IMPORT_MAX_PER_USER previews every
// WATCHLIST_IMPORT_WINDOW_SECONDS, on the shared user-limit machinery (lib/user-limit.ts). Here 3 every
// 10 minutes, on the test app's clock.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WATCHLIST_IMPORT_MAX_PER_USER: '3', WATCHLIST_IMPORT_WINDOW_SECONDS: '600' });
});
afterAll(async () => t?.close());

async function signedIn(label: string): Promise<{ authorization: string }> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}
const preview = (headers: { authorization: string }, payload: Record<string, unknown> = { text: 'AAPL' }) =>
  t.app.inject({ method: 'POST', url: '/api/watchlist/import_preview', headers, payload });

describe('watchlist import previews per user', () => {
  it('answers the 4th preview of 10 minutes 429 with a msg naming the limit and retry-after; another user is not affected; after the window it works again', async () => {
    const user = await signedIn('import-limit');
    for (let index = 0; index < 3; index += 1) expect((await preview(user)).statusCode).toBe(200);
    t.clock.advance(60_000);
    const limited = await preview(user);
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many watchlist import previews (at most 3 every 10 minutes). Please try again in 9 minutes.' }]);
    expect(limited.headers['retry-after']).toBe('540');
    // A body that is no preview is still answered for what it is (400, not counted as a limit answer).
    expect((await preview(user, {})).statusCode).toBe(400);

    expect((await preview(await signedIn('import-limit-other'))).statusCode).toBe(200);

    t.clock.advance(540_000);
    expect((await preview(user)).statusCode).toBe(200);
  });
});
