/**
 * Twelve Data /rsi against a recorded AAPL response (fixtures/twelvedata-rsi-aapl.json: strings for
 * numbers, newest first), its errors (in HTTP 200 bodies or not), and how the live market serves it
 * to api/rsi_td (getProviderDailyRsi).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError, type MarketData } from '../types';
import { createLiveMarketData } from './composite';
import { startRecordedServer, type RecordedServer } from './recorded-server';
import { createTwelveDataAdapter } from './twelvedata';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

const KEY = 'td-SECRET-4567';
const twelve = () => createTwelveDataAdapter({ apiKey: KEY, baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2024-08-20T21:00:00Z')), sleep: async () => undefined, timeoutMs: 300 });
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('Twelve Data RSI (/rsi)', () => {
  it('parses the string values and answers oldest first', async () => {
    server.on('/rsi', { fixture: 'twelvedata-rsi-aapl.json' });
    const series = await twelve().rsi('AAPL');
    expect(series.symbol).toBe('AAPL');
    expect(series.interval).toBe('1day');
    expect(series.timePeriod).toBe(14);
    expect(series.values).toHaveLength(30);
    expect(series.values[0]).toEqual({ time: day('2024-07-10'), rsi: 76.52981 });
    expect(series.values.at(-2)).toEqual({ time: day('2024-08-19'), rsi: 61.03345 });
    expect(series.values.at(-1)).toEqual({ time: day('2024-08-20'), rsi: 58.2147 });
    const times = series.values.map((value) => value.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('asks for daily RSI(14) on closes, with the key in a header only', async () => {
    server.on('/rsi', { fixture: 'twelvedata-rsi-aapl.json' });
    await twelve().rsi('AAPL');
    const request = server.requests[0]!;
    const params = new URL(request.url, server.baseUrl).searchParams;
    expect(Object.fromEntries(params)).toEqual({ symbol: 'AAPL', interval: '1day', time_period: '14', series_type: 'close', outputsize: '30' });
    expect(request.headers.authorization).toBe(`apikey ${KEY}`);
    expect(request.url).not.toContain(KEY);
  });

  it('reads an unknown symbol in an HTTP 200 body, or as HTTP 404', async () => {
    const notFound = '{"code":404,"message":"**symbol** not found: ZZZZ. Please specify it correctly according to API Documentation.","status":"error"}';
    server.on('/rsi', { body: notFound });
    await expect(twelve().rsi('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
    server.on('/rsi', { status: 404, body: notFound });
    await expect(twelve().rsi('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('reads the credit limit in an HTTP 200 body as a retryable 429', async () => {
    server.on('/rsi', { fixture: 'twelvedata-credits-error.json' });
    const error = await failure(twelve().rsi('AAPL'));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toMatch(/^Twelve Data: You have run out of API credits for the current minute\./);
    expect((error as ProviderError).options).toMatchObject({ status: 429, retryable: true });
  });

  it('explains a refused key without repeating it', async () => {
    server.on('/rsi', {
      body: '{"code":401,"message":"**apikey** parameter is incorrect or not specified. You can get your free API key instantly following this link: https://twelvedata.com/pricing. If you believe that everything is correct, you can contact us at https://twelvedata.com/contact/customer","status":"error"}',
    });
    const error = await failure(twelve().rsi('AAPL'));
    expect((error as ProviderError).message).toBe('Twelve Data: the API key was refused (code 401: check TWELVEDATA_API_KEY)');
    expect((error as ProviderError).options).toMatchObject({ status: 401, retryable: false });
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('passes other errors on with their code', async () => {
    server.on('/rsi', { body: '{"code":400,"message":"No data is available on the specified dates. Try setting different start/end dates.","status":"error"}' });
    const error = await failure(twelve().rsi('AAPL'));
    expect((error as ProviderError).options).toMatchObject({ status: 400, retryable: false });
    expect((error as Error).message).toContain('No data is available on the specified dates');
  });

  it.each([
    ['a value that is not a number', '{"status":"ok","values":[{"datetime":"2024-08-20","rsi":"n/a"}]}', /unexpected RSI \(values\.0\.rsi/],
    ['a value outside 0–100', '{"status":"ok","values":[{"datetime":"2024-08-20","rsi":"158.21470"}]}', /out of range/],
    ['a date it cannot read', '{"status":"ok","values":[{"datetime":"yesterday","rsi":"58.21470"}]}', /out of range/],
    [
      'another period than asked',
      '{"meta":{"symbol":"AAPL","interval":"1day","indicator":{"name":"RSI - Relative Strength Index","series_type":"close","time_period":9}},"values":[{"datetime":"2024-08-20","rsi":"58.21470"}],"status":"ok"}',
      /RSI over 9 periods, asked for 14/,
    ],
  ])('refuses %s', async (_case, body, message) => {
    server.on('/rsi', { body });
    const error = await failure(twelve().rsi('AAPL'));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options.retryable).toBe(false);
    expect((error as Error).message).toMatch(message);
  });
});

describe('provider RSI through the live market (api/rsi_td)', () => {
  const market = (twelveDataApiKey?: string): MarketData =>
    createLiveMarketData({ twelveDataApiKey, baseUrls: { twelveData: server.baseUrl }, clock: new FakeClock(), sleep: async () => undefined, timeoutMs: 300, yahoo: false });
  const providerRsi = (source: MarketData, symbol: string) => {
    if (!source.getProviderDailyRsi) throw new Error('the live market should offer provider RSI');
    return source.getProviderDailyRsi(symbol);
  };

  it("answers Twelve Data's latest daily value", async () => {
    server.on('/rsi', { fixture: 'twelvedata-rsi-aapl.json' });
    expect(await providerRsi(market('td'), 'aapl')).toEqual({ symbol: 'AAPL', provider: 'Twelve Data', time: day('2024-08-20'), rsi: 58.2147 });
    expect(new URL(server.requests[0]!.url, server.baseUrl).searchParams.get('symbol')).toBe('AAPL');
  });

  it('names the setting when Twelve Data is not configured, so callers compute RSI from bars', async () => {
    const error = await failure(providerRsi(market(), 'AAPL'));
    expect(error).toBeInstanceOf(CapabilityUnavailableError);
    expect((error as Error).message).toBe('live market does not provide provider RSI: set TWELVEDATA_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('leaves crypto and TSX symbols to the computed RSI without asking Twelve Data', async () => {
    for (const symbol of ['BTC', 'RY.TO']) {
      await expect(providerRsi(market('td'), symbol)).rejects.toBeInstanceOf(CapabilityUnavailableError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('fails clearly on an empty series', async () => {
    server.on('/rsi', { body: '{"meta":{"symbol":"AAPL","interval":"1day"},"values":[],"status":"ok"}' });
    await expect(providerRsi(market('td'), 'AAPL')).rejects.toThrow('Twelve Data: no RSI values for AAPL');
  });
});
