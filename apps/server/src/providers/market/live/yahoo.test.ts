import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { ProviderError, UnknownSymbolError } from '../types';
import { startRecordedServer, type RecordedServer } from './recorded-server';
import { createYahooAdapter } from './yahoo';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
  // The crumb handshake the library performs before options().
  server.on('/quote/AAPL', { body: '<html>ok</html>', headers: { 'content-type': 'text/html', 'set-cookie': 'A3=d=test; Path=/; Domain=.yahoo.com' } });
  server.on('/v1/test/getcrumb', { body: 'testCrumb', headers: { 'content-type': 'text/plain' } });
});
afterAll(async () => server.close());

const yahoo = (timeoutMs = 2000) => createYahooAdapter({ baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2025-01-07T16:10:00Z')), timeoutMs });

describe('Yahoo (yahoo-finance2 against recorded responses)', () => {
  it('reads daily bars, skipping null gaps, with days at 00:00 UTC', async () => {
    server.on('/v8/finance/chart/AAPL', { fixture: 'yahoo-chart-daily.json' });
    const bars = await yahoo().dailyBars('AAPL', Date.parse('2025-01-01') / 1000, Date.parse('2025-01-08') / 1000);
    expect(Array.from(bars.close)).toEqual([243.85, 243.36, 242.21]);
    expect(Array.from(bars.time, (t) => new Date(t * 1000).toISOString())).toEqual([
      '2025-01-02T00:00:00.000Z',
      '2025-01-03T00:00:00.000Z',
      '2025-01-07T00:00:00.000Z',
    ]);
    const request = server.requests.find((r) => r.url.startsWith('/v8/finance/chart/AAPL'))!;
    expect(request.url).toContain('interval=1d');
  });

  it('keeps only the last session of the 5-minute bars', async () => {
    server.on('/v8/finance/chart/AAPL', { fixture: 'yahoo-chart-5m.json' });
    const bars = await yahoo().intradayBars('AAPL');
    expect(bars.close.length).toBe(20);
    expect(new Date(bars.time[0]! * 1000).toISOString()).toBe('2025-01-07T14:30:00.000Z');
  });

  it('puts the previous session first while the last has fewer than 15 bars', async () => {
    const recorded = JSON.parse(readFileSync(new URL('./fixtures/yahoo-chart-5m.json', import.meta.url), 'utf8')) as {
      chart: { result: Array<{ timestamp: number[]; indicators: { quote: Array<Record<string, unknown[]>> } }> };
    };
    // Keep Monday's last bar and Tuesday's first 5.
    const result = recorded.chart.result[0]!;
    const keep = (values: unknown[]) => values.slice(0, 6);
    result.timestamp = keep(result.timestamp) as number[];
    for (const [field, values] of Object.entries(result.indicators.quote[0]!)) result.indicators.quote[0]![field] = keep(values);
    server.on('/v8/finance/chart/AAPL', { body: JSON.stringify(recorded), headers: { 'content-type': 'application/json' } });
    const bars = await yahoo().intradayBars('AAPL');
    expect(bars.close.length).toBe(6);
    expect(new Date(bars.time[0]! * 1000).toISOString()).toBe('2025-01-06T20:55:00.000Z');
  });

  it('searches, keeping US and Toronto equities and ETFs that Yahoo can quote', async () => {
    server.on('/v1/finance/search', { fixture: 'yahoo-search-apple.json' });
    const results = await yahoo().search('apple');
    // APC.F (Frankfurt) and the non-Yahoo hit are dropped.
    expect(results.map((r) => [r.symbol, r.description, r.country])).toEqual([['AAPL', 'Apple Inc.', 'United States']]);
  });

  it('reads an option chain after the crumb handshake', async () => {
    server.on('/v7/finance/options/AAPL', { fixture: 'yahoo-options-aapl.json' });
    const chain = await yahoo().optionChain('AAPL');
    expect(chain.underlyingPrice).toBe(242.21);
    expect(chain.expirations).toEqual(['2025-01-17', '2025-01-24']);
    expect(chain.contracts).toHaveLength(4);
    expect(chain.contracts[0]).toMatchObject({ contractSymbol: 'AAPL250117C00240000', type: 'call', strike: 240, expiration: '2025-01-17', openInterest: 15000 });
    expect(server.requests.some((r) => r.url.startsWith('/v7/finance/options/AAPL') && r.url.includes('crumb=testCrumb'))).toBe(true);
  });

  it('quotes after the crumb handshake', async () => {
    server.on('/v7/finance/quote', { fixture: 'yahoo-quote-aapl.json' });
    expect(await yahoo().quote('AAPL')).toEqual({
      symbol: 'AAPL', price: 226.51, change: 0.62, percentChange: 0.2745, previousClose: 225.89, open: 225.77, high: 227.17, low: 225.45, volume: 30299033, timestamp: 1724184001,
    });
    server.on('/v7/finance/quote', { body: '{"quoteResponse":{"result":[],"error":null}}' });
    await expect(yahoo().quote('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('turns failures into our errors', async () => {
    server.on('/v8/finance/chart/NOPE', { status: 404, body: '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}' });
    await expect(yahoo().dailyBars('NOPE', 0, 1)).rejects.toBeInstanceOf(UnknownSymbolError);
    server.on('/v8/finance/chart/AAPL', { status: 500, body: 'oops' });
    await expect(yahoo().dailyBars('AAPL', 0, 1)).rejects.toBeInstanceOf(ProviderError);
    server.on('/v8/finance/chart/AAPL', { hang: true });
    await expect(yahoo(200).dailyBars('AAPL', 0, 1)).rejects.toThrow(/Yahoo/);
    server.on('/v8/finance/chart/AAPL', { body: '{"chart":{"result":[{"meta":{"symbol":"AAPL"},"timestamp":[1],"indicators":{"quote":"broken"}}],"error":null}}' });
    await expect(yahoo().dailyBars('AAPL', 0, 1)).rejects.toThrow(/Yahoo: unexpected chart/);
  });
});
