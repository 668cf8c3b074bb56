/**
 * CoinGecko's free limit (docs/rules/data-needs.md §7; issue 13): a coin's price is asked at most once every
 * 10 minutes, whatever the callers (the crypto marks run every minute); its market_chart bars say
 * they are close-only with volume summed across venues. A recorded response, a fake clock, never
 * the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { COINGECKO_QUOTE_INTERVAL_MS, createCoinGeckoAdapter } from './coingecko';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());

const priceRequests = () => server.requests.filter((request) => request.url.startsWith('/simple/price')).length;

describe('CoinGecko', () => {
  it('asks for a coin’s price at most once every 10 minutes; other coins are asked on their own', async () => {
    expect(COINGECKO_QUOTE_INTERVAL_MS).toBe(10 * 60_000);
    server.on('/simple/price', { fixture: 'coingecko-price.json' });
    const clock = new FakeClock(Date.parse('2026-11-20T16:00:00Z'));
    const coinGecko = createCoinGeckoAdapter({ baseUrl: server.baseUrl, clock, sleep: async () => undefined, timeoutMs: 300 });
    const before = priceRequests();
    const first = await coinGecko.quote('BTC');
    expect(first).toMatchObject({ symbol: 'BTC', price: 67187.33, timestamp: 1747407859 });
    // The marks every minute for 9 minutes 59 seconds: the same answer, no request.
    for (let minute = 1; minute < 10; minute += 1) {
      clock.advance(60_000);
      expect(await coinGecko.quote('btc')).toEqual(first);
    }
    clock.advance(59_000);
    expect(await coinGecko.quote('BTC')).toEqual(first);
    expect(priceRequests() - before).toBe(1);
    // 10 minutes after the first request: asked again.
    clock.advance(1_000);
    await coinGecko.quote('BTC');
    expect(priceRequests() - before).toBe(2);
    // Another coin has its own 10 minutes (the recorded body has no ethereum: unknown, and not held).
    await expect(coinGecko.quote('ETH')).rejects.toThrow(/Unknown symbol: ETH/);
    await expect(coinGecko.quote('ETH')).rejects.toThrow(/Unknown symbol: ETH/);
    expect(priceRequests() - before).toBe(4);
  });

  it('does not hold a failed answer: the rate-limit body is asked again at the next call', async () => {
    const clock = new FakeClock(Date.parse('2026-11-20T16:00:00Z'));
    const coinGecko = createCoinGeckoAdapter({ baseUrl: server.baseUrl, clock, sleep: async () => undefined, timeoutMs: 300 });
    server.on('/simple/price', { fixture: 'coingecko-rate-limit.json' });
    const before = priceRequests();
    await expect(coinGecko.quote('BTC')).rejects.toThrow(/CoinGecko/);
    server.on('/simple/price', { fixture: 'coingecko-price.json' });
    expect(await coinGecko.quote('BTC')).toMatchObject({ price: 67187.33 });
    expect(priceRequests() - before).toBeGreaterThanOrEqual(2);
  });

  it('marks market_chart bars close-only, their volume summed across venues', async () => {
    server.on('/coins/bitcoin/market_chart', { fixture: 'coingecko-chart.json' });
    const coinGecko = createCoinGeckoAdapter({ baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2024-04-02T06:00:00Z')), sleep: async () => undefined, timeoutMs: 300 });
    const bars = await coinGecko.dailyBars('BTC');
    expect(bars.candles).toEqual({ provider: 'CoinGecko', range: 'close_only', volume: 'aggregate' });
    expect(Array.from(bars.close)).toEqual([69702.31, 71246.95, 65400.1]);
  });
});
