/**
 * A provider's token bucket shared by the processes of one installation (Redis), and the provider
 * error metrics. The Redis part runs when REDIS_URL is set:
 * `REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server src/providers/market/live/http.shared.test.ts`
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../../test/redis';
import type { CacheStore } from '../../../lib/cache-store';
import { createRedisStore } from '../../../lib/cache-store.redis';
import { metrics } from '../../../lib/metrics';
import { createHttpClient, LocalRateLimitError } from './http';

const okFetch = async () => new Response('{"ok":true}', { status: 200 });

async function providerErrors(provider: string, kind: string): Promise<number> {
  const found = (await metrics.providerErrors.get()).values.find((value) => value.labels.provider === provider && value.labels.kind === kind);
  return found?.value ?? 0;
}

/** Two clients of one provider: two processes' adapters (burst 2, 60 a minute, no queueing). */
function twoClients(clock: FakeClock, provider: string, stores: Array<CacheStore | undefined>) {
  return stores.map((store) =>
    createHttpClient({ provider, fetchImpl: okFetch, ratePerMinute: 60, burst: 2, clock, maxQueueMs: 0, ...(store ? { store } : {}) }),
  );
}

describe('provider token buckets', () => {
  it('are per process without a shared store', async () => {
    const [first, second] = twoClients(new FakeClock(), 'Solo', [undefined, undefined]);
    for (let i = 0; i < 2; i += 1) await first!.getJson('http://x/a');
    for (let i = 0; i < 2; i += 1) await second!.getJson('http://x/a');
    await expect(first!.getJson('http://x/a')).rejects.toBeInstanceOf(LocalRateLimitError);
  });

  it('count our own limiter and HTTP failures in the provider error metric', async () => {
    const before = { limit: await providerErrors('Counted', 'rate_limit'), http: await providerErrors('Counted', 'http') };
    const client = createHttpClient({ provider: 'Counted', fetchImpl: async () => new Response('no', { status: 404 }), ratePerMinute: 60, burst: 1, clock: new FakeClock(), maxQueueMs: 0 });
    await expect(client.getJson('http://x/a')).rejects.toThrow('HTTP 404');
    await expect(client.getJson('http://x/a')).rejects.toBeInstanceOf(LocalRateLimitError);
    expect(await providerErrors('Counted', 'http')).toBe(before.http + 1);
    expect(await providerErrors('Counted', 'rate_limit')).toBe(before.limit + 1);
  });

  describe.skipIf(!testRedisUrl())('on Redis', () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    it('are one bucket per provider for the whole installation', async () => {
      const settings = testRedisSettings('bucket');
      const stores = [createRedisStore(settings, { connectionName: 'cache-1' }), createRedisStore(settings, { connectionName: 'cache-2' })];
      cleanups.push(async () => {
        for (const store of stores) await store.close();
        await settings.clear();
      });
      const clock = new FakeClock();
      const [first, second] = twoClients(clock, 'Shared', stores);
      await first!.getJson('http://x/a');
      await second!.getJson('http://x/a');
      // The burst of 2 is spent by the two processes together.
      await expect(first!.getJson('http://x/a')).rejects.toBeInstanceOf(LocalRateLimitError);
      await expect(second!.getJson('http://x/a')).rejects.toBeInstanceOf(LocalRateLimitError);
      clock.advance(1_000);
      expect(await second!.getJson('http://x/a')).toEqual({ ok: true });
      await expect(first!.getJson('http://x/a')).rejects.toBeInstanceOf(LocalRateLimitError);
      // Another provider has its own bucket.
      const [other] = twoClients(clock, 'Other', [stores[0]]);
      expect(await other!.getJson('http://x/a')).toEqual({ ok: true });
    });
  });
});
