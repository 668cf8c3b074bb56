import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, UnknownSymbolError } from '../types';
import { createBinanceAdapter } from './binance';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());

const binance = () => createBinanceAdapter({ baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2025-01-03T06:00:00Z')), sleep: async () => undefined, timeoutMs: 300 });

describe('Binance', () => {
  it('reads daily klines (strings to numbers, UTC days) and the 24-hour ticker', async () => {
    server.on('/api/v3/klines', { fixture: 'binance-klines-1d.json' });
    server.on('/api/v3/ticker/24hr', { fixture: 'binance-ticker-btc.json' });
    const bars = await binance().dailyBars('btc');
    expect(Array.from(bars.close)).toEqual([94591.79, 96984.79]);
    expect(new Date(bars.time[1]! * 1000).toISOString()).toBe('2025-01-02T00:00:00.000Z');
    expect(server.requests.at(-1)!.url).toContain('symbol=BTCUSDT');
    expect(await binance().quote('BTC')).toMatchObject({ price: 96900.12, previousClose: 95400, percentChange: 1.573, timestamp: 1735886399 });
  });

  it('asks for today\'s 5-minute klines from midnight UTC', async () => {
    server.on('/api/v3/klines', { fixture: 'binance-klines-1d.json' });
    await binance().intradayBars('ETH');
    const url = server.requests.at(-1)!.url;
    expect(url).toContain('interval=5m');
    expect(url).toContain(`startTime=${Date.parse('2025-01-03T00:00:00Z')}`);
  });

  it('maps an invalid pair, the US geo-block and malformed klines', async () => {
    server.on('/api/v3/ticker/24hr', { status: 400, body: '{"code":-1121,"msg":"Invalid symbol."}' });
    await expect(binance().quote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
    server.on('/api/v3/klines', { status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location"}' });
    await expect(binance().dailyBars('BTC')).rejects.toBeInstanceOf(CapabilityUnavailableError);
    server.on('/api/v3/klines', { body: '[[1, "x", "1", "1", "1", "1"]]' });
    await expect(binance().dailyBars('BTC')).rejects.toThrow(/Binance: unexpected klines/);
  });
});
