import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../test/redis';
import { createMemoryStore, type CacheStore } from './cache-store';
import { createRedisStore } from './cache-store.redis';
import { RateLimiter } from './rate-limiter';

const stores: Array<{ name: string; skip: boolean; open: () => { store: CacheStore; close: () => Promise<void> } }> = [
  { name: 'memory', skip: false, open: () => ({ store: createMemoryStore(), close: async () => undefined }) },
  {
    name: 'Redis',
    skip: !testRedisUrl(),
    open: () => {
      const settings = testRedisSettings('limiter');
      const store = createRedisStore(settings);
      return { store, close: async () => (await store.close(), await settings.clear()) };
    },
  },
];

for (const { name, skip, open } of stores) {
  describe.skipIf(skip)(`RateLimiter on the ${name} store`, () => {
    const closers: Array<() => Promise<void>> = [];
    const limiterOf = (max: number, windowMs: number, clock: FakeClock, limiterName?: string, shared?: CacheStore) => {
      let store = shared;
      if (!store) {
        const opened = open();
        closers.push(opened.close);
        store = opened.store;
      }
      return { limiter: new RateLimiter(max, windowMs, clock, { store, ...(limiterName ? { name: limiterName } : {}) }), store };
    };
    afterEach(async () => {
      for (const close of closers.splice(0)) await close();
    });

    it('allows max hits a window, then says how long to wait', async () => {
      const clock = new FakeClock();
      const { limiter } = limiterOf(2, 60_000, clock);
      expect(await limiter.hit('a')).toEqual({ allowed: true });
      expect(await limiter.hit('a')).toEqual({ allowed: true });
      expect(await limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 60 });
      clock.advance(45_000);
      expect(await limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 15 });
      expect(await limiter.hit('b')).toEqual({ allowed: true });
      clock.advance(15_000);
      expect(await limiter.hit('a')).toEqual({ allowed: true });
    });

    it('opens a new window exactly when the old one ends, and never extends it for refused hits', async () => {
      const clock = new FakeClock();
      const { limiter } = limiterOf(1, 10_000, clock);
      await limiter.hit('k');
      for (let i = 0; i < 9; i += 1) {
        clock.advance(1_000);
        expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 9 - i });
      }
      clock.advance(999);
      expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      clock.advance(1);
      expect(await limiter.hit('k')).toEqual({ allowed: true });
      expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    });

    it('rounds the wait up and never says 0 seconds', async () => {
      const clock = new FakeClock();
      const { limiter } = limiterOf(1, 60_000, clock);
      await limiter.hit('k');
      clock.advance(59_999);
      expect(await limiter.hit('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      await limiter.hit('j');
      clock.advance(500);
      expect(await limiter.hit('j')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    });

    it('counts keys independently, and limiters of one store apart by name', async () => {
      const clock = new FakeClock();
      const { limiter, store } = limiterOf(3, 60_000, clock, 'one');
      const other = new RateLimiter(1, 60_000, clock, { store, name: 'two' });
      for (let i = 0; i < 3; i += 1) expect((await limiter.hit('x@example.com')).allowed).toBe(true);
      expect((await limiter.hit('x@example.com')).allowed).toBe(false);
      for (let i = 0; i < 3; i += 1) expect((await limiter.hit('y@example.com')).allowed).toBe(true);
      expect((await limiter.hit('y@example.com')).allowed).toBe(false);
      expect((await other.hit('x@example.com')).allowed).toBe(true);
    });

    it('forgets a key on reset', async () => {
      const clock = new FakeClock();
      const { limiter } = limiterOf(1, 60_000, clock);
      await limiter.hit('a');
      expect((await limiter.hit('a')).allowed).toBe(false);
      await limiter.reset('a');
      expect(await limiter.hit('a')).toEqual({ allowed: true });
    });
  });
}

describe('RateLimiter on a bounded memory store', () => {
  it('stays within its key bound', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock, { store: createMemoryStore({ maxKeys: 3 }) });
    await limiter.hit('a');
    for (const key of ['b', 'c', 'd', 'e']) await limiter.hit(key);
    // 'a' was evicted to make room, so it starts afresh.
    expect(await limiter.hit('a')).toEqual({ allowed: true });
  });

  it('evicts expired windows before live ones when full', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1, 60_000, clock, { store: createMemoryStore({ maxKeys: 2 }) });
    await limiter.hit('old');
    clock.advance(30_000);
    await limiter.hit('live');
    clock.advance(31_000); // 'old' has expired, 'live' has not
    await limiter.hit('new');
    expect(await limiter.hit('live')).toEqual({ allowed: false, retryAfterSeconds: 29 });
  });
});

describe('RateLimiter when its store fails', () => {
  it('keeps limiting in this process meanwhile', async () => {
    const down = new Error('Redis is down');
    const failing: CacheStore = {
      ...createMemoryStore(),
      shared: true,
      hit: () => Promise.reject(down),
      resetHits: () => Promise.reject(down),
    };
    const clock = new FakeClock();
    const limiter = new RateLimiter(2, 60_000, clock, { store: failing });
    expect(await limiter.hit('a')).toEqual({ allowed: true });
    expect(await limiter.hit('a')).toEqual({ allowed: true });
    expect(await limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    await limiter.reset('a');
    expect(await limiter.hit('a')).toEqual({ allowed: true });
  });
});
