import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import { MarketCache } from './cache';
import { ProviderError, UnknownSymbolError } from './types';

describe('MarketCache', () => {
  it('makes one upstream call for 1,000 concurrent requests of one key', async () => {
    const cache = new MarketCache(new FakeClock());
    let calls = 0;
    const load = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { price: 101 };
    };
    const answers = await Promise.all(Array.from({ length: 1000 }, () => cache.get('quote:AAPL', 5000, load)));
    expect(calls).toBe(1);
    expect(answers.every((answer) => answer.value.price === 101 && !answer.stale)).toBe(true);
    expect(cache.snapshot().upstreamCalls).toBe(1);
  });

  it('serves fresh values until the TTL passes, then asks again', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock);
    let version = 0;
    const load = async () => ++version;
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.advance(999);
    expect((await cache.get('k', 1000, load)).value).toBe(1);
    clock.advance(2);
    expect((await cache.get('k', 1000, load)).value).toBe(2);
  });

  it('serves the last good value, marked stale, when the upstream fails, and backs off', async () => {
    const clock = new FakeClock();
    const cache = new MarketCache(clock, 100, 30_000);
    let fail = false;
    let calls = 0;
    const load = async () => {
      calls += 1;
      if (fail) throw new ProviderError('finnhub', 'HTTP 503', { status: 503, retryable: true });
      return 'good';
    };
    await cache.get('k', 1000, load);
    fail = true;
    clock.advance(1500);
    const stale = await cache.get('k', 1000, load);
    expect(stale).toMatchObject({ value: 'good', stale: true });
    expect(calls).toBe(2);
    clock.advance(10_000);
    expect((await cache.get('k', 1000, load)).stale).toBe(true);
    expect(calls).toBe(2); // still backing off
    clock.advance(25_000);
    fail = false;
    expect(await cache.get('k', 1000, load)).toMatchObject({ value: 'good', stale: false });
    expect(calls).toBe(3);
  });

  it('rethrows when nothing was cached, and never serves stale data for an unknown symbol', async () => {
    const cache = new MarketCache(new FakeClock());
    await expect(cache.get('k', 1000, async () => Promise.reject(new ProviderError('x', 'down')))).rejects.toThrow('x: down');
    await expect(cache.get('u', 1000, async () => Promise.reject(new UnknownSymbolError('ZZZZ')))).rejects.toThrow('Unknown symbol: ZZZZ');
  });

  it('stays within its size bound, dropping the least recently used', async () => {
    const cache = new MarketCache(new FakeClock(), 3);
    for (const key of ['a', 'b', 'c']) await cache.get(key, 10_000, async () => key);
    await cache.get('a', 10_000, async () => 'a2'); // touch a
    await cache.get('d', 10_000, async () => 'd');
    expect(cache.snapshot().entries).toBe(3);
    let reloaded = false;
    await cache.get('b', 10_000, async () => {
      reloaded = true;
      return 'b2';
    });
    expect(reloaded).toBe(true);
    expect((await cache.get('a', 10_000, async () => 'a3')).value).toBe('a');
  });
});
