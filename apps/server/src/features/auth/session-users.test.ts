import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, createTestDatabase, createUser, FakeClock, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { createSessionUsers, MISS } from './session-users';
import { createUsersRepo } from './users.repo';

const silent = { warn: () => undefined };

describe('session user cache', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  it('serves repeated reads from memory and drops a user the moment the row changes', async () => {
    const repo = createUsersRepo(database.db);
    const spy = { findSessionUser: vi.fn(repo.findSessionUser) };
    const cache = createSessionUsers({ users: spy, pool: database.pool, clock: new FakeClock(), log: silent });
    const changes: Array<number | null> = [];
    cache.onChange((changed) => changes.push(changed));
    await cache.start();
    try {
      const id = await createUser(database.db, uniqueEmail('cache'), 'pw');
      expect((await cache.get(id))?.isActive).toBe(true);
      await cache.get(id);
      expect(spy.findSessionUser).toHaveBeenCalledTimes(1);

      // Another process (the admin CLI, plain SQL) deactivates the account.
      await database.pool.query('update users set is_active = false where id = $1', [id]);
      await expect.poll(async () => (await cache.get(id))?.isActive, { timeout: 2000, interval: 20 }).toBe(false);
      // Its holders (open live streams) are told which user changed.
      await expect.poll(() => changes.filter((changed) => changed === id).length, { timeout: 2000, interval: 20 }).toBeGreaterThan(0);
      expect(changes).not.toContain(null);
    } finally {
      await cache.close();
    }
  });

  it('answers from memory without waiting only what get would serve from memory', async () => {
    const repo = createUsersRepo(database.db);
    const clock = new FakeClock();
    const cache = createSessionUsers({ users: repo, pool: database.pool, clock, log: silent, ttlMs: 1000 });
    const id = await createUser(database.db, uniqueEmail('peek'), 'pw');
    // Not listening yet: nothing may be trusted from memory.
    expect(cache.peek(id)).toBe(MISS);
    await cache.start();
    try {
      expect(cache.peek(id)).toBe(MISS);
      await cache.get(id);
      expect(cache.peek(id)).toMatchObject({ id, isActive: true });
      expect(cache.peek(987_654_321)).toBe(MISS);
      await cache.get(987_654_321);
      expect(cache.peek(987_654_321)).toBeUndefined(); // known: no such user
      clock.advance(1001);
      expect(cache.peek(id)).toBe(MISS);
      await cache.get(id);
      await database.pool.query('update users set is_active = false where id = $1', [id]);
      await expect.poll(() => cache.peek(id), { timeout: 2000, interval: 20 }).toBe(MISS);
      expect((await cache.get(id))?.isActive).toBe(false);
      expect(cache.peek(id)).toMatchObject({ id, isActive: false });
    } finally {
      await cache.close();
    }
    expect(cache.peek(id)).toBe(MISS);
  });

  it('re-reads after the TTL and bypasses itself while the listener is down', async () => {
    const repo = createUsersRepo(database.db);
    const spy = { findSessionUser: vi.fn(repo.findSessionUser) };
    const clock = new FakeClock();
    const cache = createSessionUsers({ users: spy, pool: database.pool, clock, log: silent, ttlMs: 1000 });
    const changes: Array<number | null> = [];
    cache.onChange((changed) => changes.push(changed));
    await cache.start();
    try {
      const id = await createUser(database.db, uniqueEmail('ttl'), 'pw');
      await cache.get(id);
      clock.advance(1001);
      await cache.get(id);
      expect(spy.findSessionUser).toHaveBeenCalledTimes(2);

      await database.pool.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'",
      );
      await expect.poll(() => cache.isListening(), { timeout: 5000, interval: 20 }).toBe(false);
      const before = spy.findSessionUser.mock.calls.length;
      await cache.get(id);
      await cache.get(id);
      expect(spy.findSessionUser.mock.calls.length).toBe(before + 2);
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
