/**
 * Two API processes of one installation (two apps on one Redis prefix) answering the same quote:
 * one upstream call in all. Runs when REDIS_URL is set:
 * `REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server src/features/market/market.shared.test.ts`
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import type { Config } from '../../config';
import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import { MarketCache } from '../../providers/market/cache';
import { createCachedMarket } from '../../providers/market/cached-market';
import { createSimulatedMarket } from '../../providers/market/simulated/simulated-market';

describe.skipIf(!testRedisUrl())('quotes across two API processes on Redis', () => {
  const upstream = { quoteCalls: 0 };
  let settings: ReturnType<typeof testRedisSettings>;
  let apps: TestApp[];
  let headers: Array<{ authorization: string }>;
  beforeAll(async () => {
    settings = testRedisSettings('quotes');
    const options = {
      redis: settings,
      market: (_config: Config, clock: Clock, store: CacheStore | undefined) => {
        const source = createSimulatedMarket({ clock });
        const counted = {
          ...source,
          getQuote: (symbol: string) => {
            upstream.quoteCalls += 1;
            return source.getQuote(symbol);
          },
        };
        return createCachedMarket(counted, clock, new MarketCache(clock, { store }));
      },
    };
    apps = [await createTestApp({}, options), await createTestApp({}, options)];
    headers = [];
    for (const t of apps) {
      const email = uniqueEmail('quotes');
      await createUser(t.db, email, 'pw');
      headers.push(await login(t.app, email, 'pw'));
    }
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await settings?.clear();
  });

  it('makes 1 upstream call for 1,000 concurrent identical quote requests spread over both', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, index) => apps[index % 2]!.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers: headers[index % 2]! })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 1000 }, () => 200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(upstream.quoteCalls).toBe(1);
  });
});
