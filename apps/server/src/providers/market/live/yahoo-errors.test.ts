/**
 * Yahoo's failure matrix (through yahoo-finance2 against a loopback server), held to the same
 * contract as the fetch adapters in adapter-errors.test.ts. The library turns HTTP failures into its
 * own HTTPError (status in `code`), which yahoo.ts maps the same way.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { ProviderError, UnknownSymbolError } from '../types';
import { startRecordedServer, type RecordedServer, type Reply } from './recorded-server';
import { createYahooAdapter } from './yahoo';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
  // The cookie and crumb handshake the library performs before options().
  server.on('/quote/AAPL', { body: '<html>ok</html>', headers: { 'content-type': 'text/html', 'set-cookie': 'A3=d=test; Path=/; Domain=.yahoo.com' } });
  server.on('/v1/test/getcrumb', { body: 'testCrumb', headers: { 'content-type': 'text/plain' } });
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

const TIMEOUT_MS = 200;
const CHART = '/v8/finance/chart/AAPL';
const yahoo = () => createYahooAdapter({ baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2025-01-07T16:10:00Z')), timeoutMs: TIMEOUT_MS });

interface Row {
  id: string;
  reply: Reply;
  expected: { status?: number; retryable: boolean; retryAfterSeconds?: number; message?: RegExp };
}

const ROWS: Row[] = [
  {
    id: '401',
    reply: { status: 401, body: '{"finance":{"result":null,"error":{"code":"Unauthorized","description":"Invalid Crumb"}}}' },
    expected: { status: 401, retryable: false },
  },
  {
    id: '429 with Retry-After',
    reply: { status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '7' }, body: 'Too Many Requests' },
    expected: { status: 429, retryable: true, retryAfterSeconds: 7 },
  },
  { id: '500', reply: { status: 500, body: 'oops' }, expected: { status: 500, retryable: true } },
  { id: 'timeout', reply: { hang: true }, expected: { retryable: true, message: new RegExp(`no answer within ${TIMEOUT_MS} ms`) } },
  {
    id: 'malformed JSON',
    reply: { body: '{"chart": {"result": [' },
    expected: { retryable: false },
  },
  {
    id: 'unexpected shape',
    reply: { body: '{"chart":{"result":[{"meta":{"symbol":"AAPL"},"timestamp":"soon","indicators":{"quote":[]}}],"error":null}}' },
    expected: { retryable: false, message: /unexpected chart/ },
  },
];

describe('Yahoo failures (chart)', () => {
  for (const row of ROWS) {
    it(`${row.id} becomes a Yahoo provider error`, async () => {
      server.on(CHART, row.reply);
      const error = await yahoo()
        .dailyBars('AAPL', 0, 1)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as Error).message.startsWith('Yahoo: ')).toBe(true);
      if (row.expected.message) expect((error as Error).message).toMatch(row.expected.message);
    });

    it(`${row.id} carries the fetch adapters' status and retry hints`, async () => {
      server.on(CHART, row.reply);
      const error = (await yahoo()
        .dailyBars('AAPL', 0, 1)
        .catch((e: unknown) => e)) as ProviderError;
      expect(error.options.retryable === true).toBe(row.expected.retryable);
      if (row.expected.status !== undefined) expect(error.options.status).toBe(row.expected.status);
      if (row.expected.retryAfterSeconds !== undefined) expect(error.options.retryAfterSeconds).toBe(row.expected.retryAfterSeconds);
      expect(error.message.length).toBeLessThan(120);
      expect(server.requests.filter((request) => request.url.startsWith(CHART))).toHaveLength(1);
    });
  }
});

describe('Yahoo quirks', () => {
  it('a delisted or unknown symbol (404 "No data found") is an unknown symbol, for chart and options alike', async () => {
    const notFound: Reply = { status: 404, body: '{"chart":{"result":null,"error":{"code":"Not Found","description":"No data found, symbol may be delisted"}}}' };
    server.on('/v8/finance/chart/XXXX', notFound);
    server.on('/v7/finance/options/XXXX', { status: 404, body: '{"optionChain":{"result":null,"error":{"code":"Not Found","description":"No data found"}}}' });
    await expect(yahoo().dailyBars('XXXX', 0, 1)).rejects.toBeInstanceOf(UnknownSymbolError);
    await expect(yahoo().optionChain('XXXX')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('an option chain of the wrong shape is refused, not passed on', async () => {
    server.on('/v7/finance/options/AAPL', { body: '{"optionChain":{"result":[{"underlyingSymbol":"AAPL","expirationDates":"soon"}],"error":null}}' });
    await expect(yahoo().optionChain('AAPL')).rejects.toThrow(/^Yahoo: unexpected option chain/);
  });

  it('asks for one expiry by its date (Unix seconds at 00:00 UTC)', async () => {
    server.on('/v7/finance/options/AAPL', { fixture: 'yahoo-options-aapl.json' });
    await yahoo().optionChain('AAPL', '2025-01-24');
    const request = server.requests.find((r) => r.url.startsWith('/v7/finance/options/AAPL'))!;
    expect(new URL(request.url, server.baseUrl).searchParams.get('date')).toBe(String(Date.parse('2025-01-24T00:00:00Z') / 1000));
  });
});
