import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { createRedisStore } from '../../lib/cache-store.redis';
import { AnalysisCache } from './analysis-cache';

const counting = () => {
  let calls = 0;
  const compute = (value: string) => async () => {
    calls += 1;
    return value;
  };
  return { compute, calls: () => calls };
};

describe('AnalysisCache', () => {
  it('reuses an answer until it expires', async () => {
    const clock = new FakeClock();
    const cache = new AnalysisCache<string>({ ttlMs: 1_000, maxEntries: 10, clock });
    const { compute, calls } = counting();
    expect(await cache.getOrCompute('a', compute('first'))).toBe('first');
    clock.advance(999);
    expect(await cache.getOrCompute('a', compute('second'))).toBe('first');
    clock.advance(1);
    expect(await cache.getOrCompute('a', compute('third'))).toBe('third');
    expect(calls()).toBe(2);
  });

  it('shares one computation between concurrent callers of a key', async () => {
    const cache = new AnalysisCache<string>({ ttlMs: 1_000, maxEntries: 10, clock: new FakeClock() });
    let release: (value: string) => void = () => undefined;
    let calls = 0;
    const compute = () => {
      calls += 1;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const both = Promise.all([cache.getOrCompute('k', compute), cache.getOrCompute('k', compute)]);
    release('shared');
    expect(await both).toEqual(['shared', 'shared']);
    expect(calls).toBe(1);
  });

  it('keeps no failure, and drops the least recently used entry beyond its bound', async () => {
    const cache = new AnalysisCache<string>({ ttlMs: 60_000, maxEntries: 2, clock: new FakeClock() });
    await expect(cache.getOrCompute('x', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrCompute('x', async () => 'up')).toBe('up');
    await cache.getOrCompute('y', async () => 'y');
    await cache.getOrCompute('x', async () => 'not called'); // x is now the most recent
    await cache.getOrCompute('z', async () => 'z');
    expect(cache.size).toBe(2);
    expect(await cache.getOrCompute('x', async () => 'recomputed')).toBe('up');
    expect(await cache.getOrCompute('y', async () => 'recomputed')).toBe('recomputed');
  });
});

describe.skipIf(!testRedisUrl())('AnalysisCache shared through Redis', () => {
  it('reuses an answer another process computed, until it expires on the clock', async () => {
    const settings = testRedisSettings('analysis');
    const stores = [createRedisStore(settings, { connectionName: 'cache-1' }), createRedisStore(settings, { connectionName: 'cache-2' })];
    try {
      const clock = new FakeClock();
      const [first, second] = stores.map((store) => new AnalysisCache<string>({ ttlMs: 1_000, maxEntries: 10, clock, store }));
      const { compute, calls } = counting();
      expect(await first!.getOrCompute('a', compute('first'))).toBe('first');
      expect(await second!.getOrCompute('a', compute('second'))).toBe('first');
      expect(calls()).toBe(1);
      clock.advance(1_000);
      expect(await second!.getOrCompute('a', compute('third'))).toBe('third');
      expect(await first!.getOrCompute('a', compute('fourth'))).toBe('third');
      expect(calls()).toBe(2);
    } finally {
      for (const store of stores) await store.close();
      await settings.clear();
    }
  });
});
