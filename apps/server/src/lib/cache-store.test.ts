/**
 * One conformance suite for both CacheStore implementations: the Redis part runs when REDIS_URL is
 * set (`REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server src/lib/cache-store.test.ts`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRedisSettings, testRedisUrl } from '../../test/redis';
import { createMemoryStore, type CacheStore } from './cache-store';
import { createRedisStore } from './cache-store.redis';

const T0 = Date.UTC(2026, 10, 2, 15, 0, 0);

function conformance(make: () => { store: CacheStore; second: () => CacheStore; cleanup: () => Promise<void> }) {
  let store: CacheStore;
  let opened: CacheStore[];
  let cleanup: () => Promise<void>;
  let second: () => CacheStore;
  beforeEach(() => {
    const made = make();
    store = made.store;
    cleanup = made.cleanup;
    opened = [store];
    second = () => {
      const other = made.second();
      opened.push(other);
      return other;
    };
  });
  afterEach(async () => {
    for (const each of opened) await each.close();
    await cleanup();
  });

  it('keeps bytes until deleted, and answers undefined for a missing key', async () => {
    expect(await store.getBytes('a')).toBeUndefined();
    await store.setBytes('a', new Uint8Array([1, 2, 3]), 60_000);
    expect([...(await store.getBytes('a'))!]).toEqual([1, 2, 3]);
    // A view is stored as its own bytes, not its buffer's.
    await store.setBytes('b', new Uint8Array([9, 8, 7, 6]).subarray(1, 3), 60_000);
    expect([...(await store.getBytes('b'))!]).toEqual([8, 7]);
    await store.deleteBytes('a');
    expect(await store.getBytes('a')).toBeUndefined();
  });

  it('counts a fixed window on the caller clock and refuses without extending it', async () => {
    expect(await store.hit('k', 2, 10_000, T0)).toEqual({ allowed: true });
    expect(await store.hit('k', 2, 10_000, T0 + 1)).toEqual({ allowed: true });
    expect(await store.hit('k', 2, 10_000, T0 + 2_000)).toEqual({ allowed: false, retryAfterMs: 8_000 });
    expect(await store.hit('k', 2, 10_000, T0 + 9_999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(await store.hit('other', 2, 10_000, T0 + 9_999)).toEqual({ allowed: true });
    expect(await store.hit('k', 2, 10_000, T0 + 10_000)).toEqual({ allowed: true });
    await store.resetHits('k');
    expect(await store.hit('k', 1, 10_000, T0 + 10_001)).toEqual({ allowed: true });
    expect(await store.hit('k', 1, 10_000, T0 + 10_002)).toEqual({ allowed: false, retryAfterMs: 9_999 });
  });

  it('takes tokens from a bucket and answers the wait when empty, refilling on the caller clock', async () => {
    expect(await store.take('p', 60, 2, T0)).toBe(0);
    expect(await store.take('p', 60, 2, T0)).toBe(0);
    expect(await store.take('p', 60, 2, T0)).toBe(1_000);
    expect(await store.take('p', 60, 2, T0 + 500)).toBe(500);
    expect(await store.take('p', 60, 2, T0 + 1_000)).toBe(0);
    // A clock behind the bucket's (another process) never refills it backwards.
    expect(await store.take('p', 60, 2, T0)).toBe(1_000);
    expect(await store.take('p', 60, 2, T0 + 60_000)).toBe(0);
    expect(await store.take('p', 60, 2, T0 + 60_000)).toBe(0);
    expect(await store.take('p', 60, 2, T0 + 60_000)).toBe(1_000);
  });

  it('gives a lock to one holder at a time, released only by its token', async () => {
    const token = await store.tryLock('l', 60_000);
    expect(token).toBeTypeOf('string');
    expect(await store.tryLock('l', 60_000)).toBeUndefined();
    await store.unlock('l', 'not-the-token');
    expect(await store.tryLock('l', 60_000)).toBeUndefined();
    await store.unlock('l', token!);
    expect(await store.tryLock('l', 60_000)).toBeTypeOf('string');
  });

  it('lets a lock expire after its ttl', async () => {
    expect(await store.tryLock('short', 20)).toBeTypeOf('string');
    await expect.poll(() => store.tryLock('short', 60_000), { interval: 10, timeout: 2_000 }).toBeTypeOf('string');
  });

  it('answers one lock among many concurrent tries (across connections when shared)', async () => {
    const other = store.shared ? second() : store;
    const tries = await Promise.all(Array.from({ length: 50 }, (_, index) => (index % 2 ? other : store).tryLock('race', 60_000)));
    expect(tries.filter((token) => token !== undefined)).toHaveLength(1);
  });

  it('shares windows and buckets between connections of one installation', async () => {
    const other = second();
    if (!store.shared) {
      // Two memory stores are two processes: nothing is shared.
      expect(await store.hit('s', 1, 10_000, T0)).toEqual({ allowed: true });
      expect(await other.hit('s', 1, 10_000, T0)).toEqual({ allowed: true });
      return;
    }
    expect(await store.hit('s', 1, 10_000, T0)).toEqual({ allowed: true });
    expect(await other.hit('s', 1, 10_000, T0 + 1_000)).toEqual({ allowed: false, retryAfterMs: 9_000 });
    expect(await other.take('b', 60, 1, T0)).toBe(0);
    expect(await store.take('b', 60, 1, T0)).toBe(1_000);
  });
}

describe('memory CacheStore', () => {
  conformance(() => ({ store: createMemoryStore(), second: () => createMemoryStore(), cleanup: async () => undefined }));

  it('stays within its key bound, dropping the oldest first', async () => {
    const store = createMemoryStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) expect(await store.hit(key, 1, 60_000, T0)).toEqual({ allowed: true });
    expect(await store.hit('a', 1, 60_000, T0)).toEqual({ allowed: true }); // 'a' was dropped
    expect(await store.hit('d', 1, 60_000, T0)).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });
});

describe.skipIf(!testRedisUrl())('Redis CacheStore', () => {
  conformance(() => {
    const settings = testRedisSettings('store');
    return { store: createRedisStore(settings), second: () => createRedisStore(settings, { connectionName: 'cache-2' }), cleanup: () => settings.clear() };
  });
});
