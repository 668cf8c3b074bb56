/**
 * The failure matrix of every fetch-based adapter against a loopback server: 401, 429 with
 * Retry-After, 500, a server that never answers, malformed JSON and an unexpected shape, with the
 * retries running on a clock that advances as they wait (so the per-provider rate limiters see real
 * time). Secrets must never reach an error. Provider quirks not covered in adapters.test.ts too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError } from '../types';
import { createBinanceAdapter } from './binance';
import { createCoinGeckoAdapter } from './coingecko';
import { createFinnhubAdapter } from './finnhub';
import { createFredAdapter } from './fred';
import { startRecordedServer, type RecordedServer, type Reply } from './recorded-server';
import { createTwelveDataAdapter } from './twelvedata';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

const TIMEOUT_MS = 200;
const SECRETS = { finnhub: 'fh-SECRET-0123', twelve: 'td-SECRET-4567', fred: 'secretfredkey0123456789abcdefghi', coinGecko: 'CG-SECRET-89ab' };

/** A clock that moves forward by whatever the client sleeps, as real time would. */
function realTime() {
  const clock = new FakeClock(Date.parse('2025-01-06T15:00:00Z'));
  return { clock, sleep: async (ms: number) => clock.advance(ms), timeoutMs: TIMEOUT_MS };
}

interface AdapterCase {
  name: string;
  /** The endpoint the call reads. */
  path: string;
  /** One call through a fresh adapter (fresh rate limiter). */
  call: (baseUrl: string) => Promise<unknown>;
  /** Valid JSON the adapter must refuse. */
  wrongShape: string;
  /** Attempts the provider's rate allows in one burst (Twelve Data: 2), when under the default 3. */
  burst?: number;
}

const ADAPTERS: AdapterCase[] = [
  {
    name: 'Finnhub',
    path: '/quote',
    call: (baseUrl) => createFinnhubAdapter({ apiKey: SECRETS.finnhub, baseUrl, ...realTime() }).quote('AAPL'),
    wrongShape: '{"c":"227.48","h":228}',
  },
  {
    name: 'Twelve Data',
    path: '/quote',
    call: (baseUrl) => createTwelveDataAdapter({ apiKey: SECRETS.twelve, baseUrl, ...realTime() }).quote('AAPL'),
    wrongShape: '{"symbol":"AAPL","close":"226.51"}',
    // Burst 2 at 8/min: a third attempt would wait for a token past the queue limit, so the caller
    // sees the failure that caused the retries, not our limiter's refusal.
    burst: 2,
  },
  {
    name: 'FRED',
    path: '/series/observations',
    call: (baseUrl) => createFredAdapter({ apiKey: SECRETS.fred, baseUrl, ...realTime() }).series('UNRATE'),
    wrongShape: '{"observations":[{"date":"2026-08-01"}]}',
  },
  {
    name: 'CoinGecko',
    path: '/simple/price',
    call: (baseUrl) => createCoinGeckoAdapter({ apiKey: SECRETS.coinGecko, baseUrl, ...realTime() }).quote('BTC'),
    wrongShape: '{"bitcoin":{"usd":"67187.33"}}',
  },
  {
    name: 'Binance',
    path: '/api/v3/klines',
    call: (baseUrl) => createBinanceAdapter({ baseUrl, ...realTime() }).dailyBars('BTC'),
    wrongShape: '{"rows":[]}',
  },
];

interface FailureCase {
  id: string;
  reply: Reply;
  expected: { status?: number; retryable: boolean; retryAfterSeconds?: number; message: RegExp };
  /** Requests the server should see: one, or three when retried. */
  requests: number;
}

const FAILURES = (wrongShape: string): FailureCase[] => [
  { id: '401', reply: { status: 401, body: '{"error":"Invalid API key."}' }, expected: { status: 401, retryable: false, message: /HTTP 401/ }, requests: 1 },
  {
    id: '429',
    reply: { status: 429, headers: { 'retry-after': '2' }, body: '{"error":"API limit reached. Please try again later. Remaining Limit: 0"}' },
    expected: { status: 429, retryable: true, retryAfterSeconds: 2, message: /HTTP 429/ },
    requests: 3,
  },
  {
    // Longer than the client waits (MAX_RETRY_AFTER_MS): no early retry, the hint goes to the cache.
    id: '429 with a long Retry-After',
    reply: { status: 429, headers: { 'retry-after': '120' }, body: '{"error":"API limit reached. Please try again later. Remaining Limit: 0"}' },
    expected: { status: 429, retryable: true, retryAfterSeconds: 120, message: /HTTP 429/ },
    requests: 1,
  },
  { id: '500', reply: { status: 500, body: '<html>Internal Server Error</html>' }, expected: { status: 500, retryable: true, message: /HTTP 500/ }, requests: 3 },
  { id: 'timeout', reply: { hang: true }, expected: { retryable: true, message: new RegExp(`timed out: no answer within ${TIMEOUT_MS} ms`) }, requests: 3 },
  { id: 'malformed JSON', reply: { body: '{"c": 227.48,' }, expected: { retryable: false, message: /not valid JSON/ }, requests: 1 },
  { id: 'unexpected shape', reply: { body: wrongShape }, expected: { retryable: false, message: /unexpected/ }, requests: 1 },
];

describe.each(ADAPTERS)('$name failures', (adapter) => {
  for (const failure of FAILURES(adapter.wrongShape)) {
    it(failure.id, async () => {
      server.on(adapter.path, failure.reply);
      const error = await adapter.call(server.baseUrl).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProviderError);
      const { options, message } = error as ProviderError;
      expect(message.startsWith(`${adapter.name}: `)).toBe(true);
      expect(message).toMatch(failure.expected.message);
      expect(options.retryable === true).toBe(failure.expected.retryable);
      if (failure.expected.status !== undefined) expect(options.status).toBe(failure.expected.status);
      if (failure.expected.retryAfterSeconds !== undefined) expect(options.retryAfterSeconds).toBe(failure.expected.retryAfterSeconds);
      // A Retry-After wait refills a small burst; without one, the burst caps the attempts.
      const attempts = server.requests.filter((request) => request.url.startsWith(adapter.path)).length;
      expect(attempts).toBeLessThanOrEqual(failure.requests);
      expect(attempts).toBeGreaterThanOrEqual(Math.min(failure.requests, adapter.burst ?? 3));
      for (const secret of Object.values(SECRETS)) expect(`${message} ${JSON.stringify(options)}`).not.toContain(secret);
    });
  }
});

describe('provider quirks', () => {
  it('Finnhub: a non-US symbol on a free key (403) is a missing capability, not an outage', async () => {
    server.on('/quote', { status: 403, body: '{"error":"You don\'t have access to this resource."}' });
    const error = await createFinnhubAdapter({ apiKey: SECRETS.finnhub, baseUrl: server.baseUrl, ...realTime() })
      .quote('RY.TO')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityUnavailableError);
    expect(String((error as Error).message)).not.toContain(SECRETS.finnhub);
    expect(server.requests).toHaveLength(1);
  });

  it('Finnhub: an all-zero quote is an unknown symbol, never a price of 0', async () => {
    server.on('/quote', { fixture: 'finnhub-quote-unknown.json' });
    await expect(createFinnhubAdapter({ apiKey: SECRETS.finnhub, baseUrl: server.baseUrl, ...realTime() }).quote('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('Twelve Data: a credit-limit error inside an HTTP 200 body is a retryable 429', async () => {
    server.on('/time_series', { fixture: 'twelvedata-credits-error.json' });
    const error = await createTwelveDataAdapter({ apiKey: SECRETS.twelve, baseUrl: server.baseUrl, ...realTime() })
      .dailyBars('AAPL')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options).toMatchObject({ status: 429, retryable: true });
  });

  it('Twelve Data: a plan-restricted symbol in an HTTP 200 body is a provider error', async () => {
    server.on('/quote', { body: '{"code":403,"message":"SPX is available starting with the Grow or Venture plan.","status":"error"}' });
    const error = await createTwelveDataAdapter({ apiKey: SECRETS.twelve, baseUrl: server.baseUrl, ...realTime() })
      .quote('SPX')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options).toMatchObject({ status: 403, retryable: false });
  });

  it('FRED: sends file_type=json and the key only as api_key, skips "." values, answers newest first', async () => {
    server.on('/series/observations', { fixture: 'fred-unrate.json' });
    const series = await createFredAdapter({ apiKey: SECRETS.fred, baseUrl: server.baseUrl, ...realTime() }).series('UNRATE');
    expect(series.observations.map((o) => o.date)).toEqual(['2026-08-01', '2026-06-01', '2026-05-01']);
    expect(series.observations.every((o) => Number.isFinite(o.value))).toBe(true);
    const url = new URL(server.requests[0]!.url, server.baseUrl);
    expect(url.searchParams.get('file_type')).toBe('json');
    expect(url.searchParams.get('api_key')).toBe(SECRETS.fred);
  });

  it('FRED: an error body never carries the key into the message', async () => {
    server.on('/series/observations', { status: 400, body: '{"error_code":400,"error_message":"Bad Request.  The value for variable api_key is not registered."}' });
    const error = await createFredAdapter({ apiKey: SECRETS.fred, baseUrl: server.baseUrl, ...realTime() })
      .series('UNRATE')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(String((error as Error).message)).not.toContain(SECRETS.fred);
  });

  it('CoinGecko: sends a Demo key as a header, never in the URL', async () => {
    server.on('/simple/price', { fixture: 'coingecko-price.json' });
    await createCoinGeckoAdapter({ apiKey: SECRETS.coinGecko, baseUrl: server.baseUrl, ...realTime() }).quote('BTC');
    expect(server.requests[0]!.headers['x-cg-demo-api-key']).toBe(SECRETS.coinGecko);
    expect(server.requests[0]!.url).not.toContain(SECRETS.coinGecko);
    expect(server.requests[0]!.url).toContain('ids=bitcoin');
  });

  it('Binance: the US geo-block (451) is a missing capability and is not retried', async () => {
    server.on('/api/v3/ticker/24hr', { status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location according to \'b. Eligibility\' in https://www.binance.com/en/terms."}' });
    await expect(createBinanceAdapter({ baseUrl: server.baseUrl, ...realTime() }).quote('BTC')).rejects.toBeInstanceOf(CapabilityUnavailableError);
    expect(server.requests).toHaveLength(1);
  });
});
