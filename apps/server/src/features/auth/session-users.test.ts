import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, createTestDatabase, createUser, FakeClock, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { createSessionUsers, MISS, type SessionChange } from './session-users';
import { createSessionsRepo } from './sessions.repo';

const silent = { warn: () => undefined };

describe('session cache', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  /** A user with one session; answers both ids. */
  async function signedIn(label: string) {
    const userId = await createUser(database.db, uniqueEmail(label), 'pw');
    const now = new Date();
    const id = await createSessionsRepo(database.db).create({ userId, expiresAt: new Date(now.getTime() + 3_600_000), restricted: false, userAgent: 'test', address: '127.0.0.1', now });
    return { userId, id };
  }

  it('serves repeated reads from memory and drops a session the moment its user or its row changes', async () => {
    const repo = createSessionsRepo(database.db);
    const spy = { findAuth: vi.fn(repo.findAuth), touch: repo.touch };
    const cache = createSessionUsers({ sessions: spy, pool: database.pool, clock: new FakeClock(), log: silent });
    const changes: SessionChange[] = [];
    cache.onChange((changed) => changes.push(changed));
    await cache.start();
    try {
      const { userId, id } = await signedIn('cache');
      expect(await cache.get(id)).toMatchObject({ sessionId: id, userId, isActive: true, ended: false, restricted: false });
      await cache.get(id);
      expect(spy.findAuth).toHaveBeenCalledTimes(1);

      // Another process (the admin CLI, plain SQL) deactivates the account.
      await database.pool.query('update users set is_active = false where id = $1', [userId]);
      await expect.poll(async () => (await cache.get(id))?.isActive, { timeout: 2000, interval: 20 }).toBe(false);
      // Its holders (open live streams) are told which user changed.
      await expect.poll(() => changes.filter((changed) => changed !== null && 'userId' in changed && changed.userId === userId).length, { timeout: 2000, interval: 20 }).toBeGreaterThan(0);

      // …and ends a session: announced by its id.
      const other = await signedIn('ended');
      expect((await cache.get(other.id))?.ended).toBe(false);
      await database.pool.query("update sessions set ended_at = now(), ended_reason = 'admin' where id = $1", [other.id]);
      await expect.poll(async () => (await cache.get(other.id))?.ended, { timeout: 2000, interval: 20 }).toBe(true);
      expect(changes).toContainEqual({ sessionId: other.id });
      expect(changes).not.toContain(null);

      // Its last use is written, not announced, and at most once a minute.
      const before = changes.length;
      await repo.touch(other.id, new Date());
      await cache.get(other.id);
      expect(changes.length).toBe(before);
    } finally {
      await cache.close();
    }
  });

  it("writes a session's last use at most once a minute per process", async () => {
    const clock = new FakeClock();
    const repo = createSessionsRepo(database.db);
    const touch = vi.fn(repo.touch);
    const cache = createSessionUsers({ sessions: { findAuth: repo.findAuth, touch }, pool: database.pool, clock, log: silent });
    const { id } = await signedIn('seen');
    // Signed in before the test clock's now (the writes only move it forward).
    await database.pool.query('update sessions set last_seen_at = to_timestamp(0) where id = $1', [id]);
    cache.seen(id);
    cache.seen(id);
    clock.advance(59_000);
    cache.seen(id);
    expect(touch).toHaveBeenCalledTimes(1);
    clock.advance(1_000);
    cache.seen(id);
    expect(touch).toHaveBeenCalledTimes(2);
    await expect.poll(async () => (await database.pool.query('select last_seen_at from sessions where id = $1', [id])).rows[0].last_seen_at.getTime(), { timeout: 2000 }).toBe(clock.nowMs());
  });

  it('answers from memory without waiting only what get would serve from memory', async () => {
    const repo = createSessionsRepo(database.db);
    const clock = new FakeClock();
    const cache = createSessionUsers({ sessions: repo, pool: database.pool, clock, log: silent, ttlMs: 1000 });
    const { userId, id } = await signedIn('peek');
    // Not listening yet: nothing may be trusted from memory.
    expect(cache.peek(id)).toBe(MISS);
    await cache.start();
    try {
      expect(cache.peek(id)).toBe(MISS);
      await cache.get(id);
      expect(cache.peek(id)).toMatchObject({ sessionId: id, userId, isActive: true });
      expect(cache.peek('no-such-session')).toBe(MISS);
      await cache.get('no-such-session');
      expect(cache.peek('no-such-session')).toBeUndefined(); // known: no such session
      clock.advance(1001);
      expect(cache.peek(id)).toBe(MISS);
      await cache.get(id);
      await database.pool.query('update users set is_active = false where id = $1', [userId]);
      await expect.poll(() => cache.peek(id), { timeout: 2000, interval: 20 }).toBe(MISS);
      expect((await cache.get(id))?.isActive).toBe(false);
      expect(cache.peek(id)).toMatchObject({ sessionId: id, isActive: false });
    } finally {
      await cache.close();
    }
    expect(cache.peek(id)).toBe(MISS);
  });

  it('re-reads after the TTL and bypasses itself while the listener is down', async () => {
    const repo = createSessionsRepo(database.db);
    const spy = { findAuth: vi.fn(repo.findAuth), touch: repo.touch };
    const clock = new FakeClock();
    const cache = createSessionUsers({ sessions: spy, pool: database.pool, clock, log: silent, ttlMs: 1000 });
    const changes: SessionChange[] = [];
    cache.onChange((changed) => changes.push(changed));
    await cache.start();
    try {
      const { id } = await signedIn('ttl');
      await cache.get(id);
      clock.advance(1001);
      await cache.get(id);
      expect(spy.findAuth).toHaveBeenCalledTimes(2);

      await database.pool.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'",
      );
      await expect.poll(() => cache.isListening(), { timeout: 5000, interval: 20 }).toBe(false);
      const before = spy.findAuth.mock.calls.length;
      await cache.get(id);
      await cache.get(id);
      expect(spy.findAuth.mock.calls.length).toBe(before + 2);
      await expect.poll(() => cache.isListening(), { timeout: 10_000, interval: 50 }).toBe(true);
      // Back: what changed meanwhile is unknown, so every holder checks its users again.
      expect(changes).toEqual([null]);
    } finally {
      await cache.close();
    }
  });
});

describe('tokens of an account changed outside the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('stop working as soon as their session is ended by SQL (another process, the CLI)', async () => {
    const email = uniqueEmail('ended-outside');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    const other = await login(t.app, email, 'pw');
    expect((await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).statusCode).toBe(200);
    const sid = JSON.parse(Buffer.from(headers.authorization.split('.')[1]!, 'base64url').toString()).sid as string;
    await t.pool.query("update sessions set ended_at = now(), ended_reason = 'admin' where id = $1", [sid]);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).json(), { timeout: 2000, interval: 20 })
      .toEqual({ msg: 'This session has ended. Please sign in again.' });
    expect((await t.app.inject({ method: 'GET', url: '/api/getemail', headers: other })).statusCode).toBe(200);
  });

  it('stop working as soon as the account is deactivated by SQL', async () => {
    const email = uniqueEmail('outside');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    expect((await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).statusCode).toBe(200);
    await t.db.update(users).set({ isActive: false }).where(eq(users.email, email));
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).statusCode, { timeout: 2000, interval: 20 })
      .toBe(401);
  });
});
