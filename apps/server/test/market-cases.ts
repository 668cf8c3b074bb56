/**
 * The market calls' input errors, as one table that every market source's route suite runs
 * (simulated: features/market/market.routes.test.ts; file: features/market/market-file.routes.test.ts).
 * Every call that takes a symbol answers an unknown one with 404 and a malformed one with 400; bad
 * dates, ranges and numbers answer 400 with a msg that names the problem; nothing answers 500.
 */
import type { FastifyInstance, LightMyRequestResponse as InjectResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

/** One request to a market call, sent with the bearer header by `sendMarket`. */
export interface MarketRequest {
  method: 'GET' | 'POST';
  /** Path and query string. */
  url: string;
  /** A JSON body. */
  json?: unknown;
  /** An application/x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** A multipart/form-data body exactly as a browser's FormData sends it. */
  multipart?: Record<string, string>;
}

const q = encodeURIComponent;
export const get = (url: string): MarketRequest => ({ method: 'GET', url });
export const postJson = (url: string, json: unknown): MarketRequest => ({ method: 'POST', url, json });
export const postForm = (url: string, form: Record<string, string>): MarketRequest => ({ method: 'POST', url, form });
export const postMultipart = (url: string, multipart: Record<string, string>): MarketRequest => ({ method: 'POST', url, multipart });

/** A multipart body and its content type, encoded by the platform's FormData (as a browser does). */
export async function multipartBody(fields: Record<string, string>): Promise<{ contentType: string; payload: Buffer }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { contentType: request.headers.get('content-type')!, payload: Buffer.from(await request.arrayBuffer()) };
}

export async function sendMarket(app: FastifyInstance, headers: { authorization: string }, request: MarketRequest): Promise<InjectResponse> {
  if (request.multipart) {
    const { contentType, payload } = await multipartBody(request.multipart);
    return app.inject({ method: request.method, url: request.url, headers: { ...headers, 'content-type': contentType }, payload });
  }
  if (request.form) {
    return app.inject({
      method: request.method,
      url: request.url,
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(request.form).toString(),
    });
  }
  if (request.json !== undefined) {
    return app.inject({ method: request.method, url: request.url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(request.json) });
  }
  return app.inject({ method: request.method, url: request.url, headers });
}

/** Every market call that takes a symbol (spec §7), as a valid request for `symbol`. */
export const SYMBOL_CALLS: Array<{ name: string; request: (symbol: string) => MarketRequest }> = [
  { name: 'quote', request: (s) => get(`/api/quote?symbol=${q(s)}`) },
  { name: 'quote_td', request: (s) => get(`/api/quote_td?symbol=${q(s)}`) },
  { name: 'fetch_metrics', request: (s) => get(`/api/fetch_metrics?symbol=${q(s)}`) },
  { name: 'rsi', request: (s) => get(`/api/rsi?symbol=${q(s)}`) },
  { name: 'rsi with a range', request: (s) => get(`/api/rsi?symbol=${q(s)}&from=2026-06-01&to=2026-11-01`) },
  { name: 'rsi_td', request: (s) => get(`/api/rsi_td?symbol=${q(s)}`) },
  { name: 'news-sentiment', request: (s) => get(`/api/news-sentiment?symbol=${q(s)}`) },
  { name: 'support-resistance', request: (s) => get(`/api/support-resistance?symbol=${q(s)}&resolution=W`) },
  { name: 'stock-high-low (multipart)', request: (s) => postMultipart('/api/stock-high-low', { symbol: s, days: '30' }) },
  { name: 'stock-high-low (url-encoded)', request: (s) => postForm('/api/stock-high-low', { symbol: s, days: '30' }) },
  { name: 'stock-high-td', request: (s) => postJson('/api/stock-high-td', { symbol: s, days: 30 }) },
  { name: 'trend-direction', request: (s) => postJson('/api/trend-direction', { symbol: s, days: 20, interval: '1day' }) },
  { name: 'company-news', request: (s) => get(`/api/company-news?symbol=${q(s)}&from=2026-11-01&to=2026-11-13`) },
];

export interface BadInputCase {
  name: string;
  request: MarketRequest;
  msg: string;
}

/** Bad dates, ranges, numbers and choices for a symbol that exists: each answers 400 with `msg`. */
export function badInputCases(symbol: string): BadInputCase[] {
  const s = q(symbol);
  const rsi = (query: string) => get(`/api/rsi?symbol=${s}&${query}`);
  const news = (query: string) => get(`/api/company-news?symbol=${s}&${query}`);
  const earnings = (body: unknown) => postJson('/api/earnings_calendar', body);
  return [
    { name: 'lookup without q', request: get('/api/symbol_lookup'), msg: 'q is required' },
    { name: 'lookup with a blank q', request: get('/api/symbol_lookup?q=%20%20'), msg: 'q is required' },
    { name: 'lookup with a long q', request: get(`/api/symbol_lookup?q=${'a'.repeat(51)}`), msg: 'q must be at most 50 characters' },
    { name: 'lookup on an unknown exchange', request: get('/api/symbol_lookup?q=a&exchange=XX'), msg: 'exchange must be US or TO' },
    { name: 'lookup on a lower-case exchange', request: get('/api/symbol_lookup?q=a&exchange=to'), msg: 'exchange must be US or TO' },
    { name: 'search without symbol', request: get('/api/symbol_search'), msg: 'symbol is required' },
    { name: 'search with a long symbol', request: get(`/api/symbol_search?symbol=${'a'.repeat(51)}`), msg: 'symbol must be at most 50 characters' },
    { name: 'quote with the symbol twice', request: get(`/api/quote?symbol=${s}&symbol=${s}`), msg: 'Symbol must be text' },
    { name: 'rsi from an impossible date', request: rsi('from=2026-99-99&to=2026-11-13'), msg: 'from must be Unix seconds or YYYY-MM-DD' },
    { name: 'rsi to an impossible date', request: rsi('from=2026-10-01&to=2026-02-30'), msg: 'to must be Unix seconds or YYYY-MM-DD' },
    { name: 'rsi from a word', request: rsi('from=yesterday&to=today'), msg: 'from must be Unix seconds or YYYY-MM-DD' },
    { name: 'rsi from a negative number', request: rsi('from=-86400&to=1794592800'), msg: 'from must be Unix seconds or YYYY-MM-DD' },
    { name: 'rsi from 0', request: rsi('from=0&to=1794592800'), msg: 'from must lie between 2000-01-01 and 2099-12-31' },
    { name: 'rsi to year 2100', request: rsi('from=1794592800&to=4102444800'), msg: 'to must lie between 2000-01-01 and 2099-12-31' },
    { name: 'rsi in milliseconds', request: rsi('from=1791000000000&to=1794592800000'), msg: 'from must be Unix seconds, not milliseconds' },
    { name: 'rsi from after to', request: rsi('from=2026-11-13&to=2026-06-01'), msg: 'from must be before to' },
    { name: 'rsi from equal to to', request: rsi('from=1794592800&to=1794592800'), msg: 'from must be before to' },
    { name: 'rsi over more than 5 years', request: rsi('from=2020-01-01&to=2026-11-13'), msg: 'The range may span at most 5 years' },
    { name: 'rsi with from only', request: rsi('from=2026-06-01'), msg: 'Give both from and to, or neither' },
    { name: 'rsi with to only', request: rsi('to=2026-06-01'), msg: 'Give both from and to, or neither' },
    { name: 'company news from an impossible date', request: news('from=2026-99-99&to=2026-11-13'), msg: 'from must be a date as YYYY-MM-DD' },
    { name: 'company news to 30 February', request: news('from=2026-02-01&to=2026-02-30'), msg: 'to must be a date as YYYY-MM-DD' },
    { name: 'company news from Unix seconds', request: news('from=1794592800&to=2026-11-13'), msg: 'from must be a date as YYYY-MM-DD' },
    { name: 'company news from after to', request: news('from=2026-11-13&to=2026-11-06'), msg: 'from must not be after to' },
    { name: 'company news without to', request: news('from=2026-11-06'), msg: 'to is required (YYYY-MM-DD)' },
    { name: 'company news over more than 366 days', request: news('from=2025-01-01&to=2026-11-13'), msg: 'The range may span at most 366 days' },
    { name: 'support-resistance at resolution 5', request: get(`/api/support-resistance?symbol=${s}&resolution=5`), msg: 'resolution must be D, W or M' },
    { name: 'high/low over 0 days', request: postJson('/api/stock-high-td', { symbol, days: 0 }), msg: 'days must be between 1 and 730' },
    { name: 'high/low over -5 days', request: postJson('/api/stock-high-td', { symbol, days: -5 }), msg: 'days must be between 1 and 730' },
    { name: 'high/low over 731 days', request: postJson('/api/stock-high-td', { symbol, days: 731 }), msg: 'days must be between 1 and 730' },
    { name: 'high/low over 1.5 days', request: postJson('/api/stock-high-td', { symbol, days: 1.5 }), msg: 'days must be a whole number' },
    { name: 'high/low over "many" days', request: postJson('/api/stock-high-td', { symbol, days: 'many' }), msg: 'days must be a whole number' },
    { name: 'high/low without days', request: postJson('/api/stock-high-td', { symbol }), msg: 'days is required' },
    { name: 'high/low with a JSON list', request: postJson('/api/stock-high-td', [symbol, 30]), msg: 'The request body must be a JSON object with the fields of this call.' },
    { name: 'high/low form over 0 days', request: postForm('/api/stock-high-low', { symbol, days: '0' }), msg: 'days must be between 1 and 730' },
    { name: 'high/low form with empty days', request: postForm('/api/stock-high-low', { symbol, days: '' }), msg: 'days is required' },
    { name: 'high/low multipart over "abc" days', request: postMultipart('/api/stock-high-low', { symbol, days: 'abc' }), msg: 'days must be a whole number' },
    { name: 'high/low multipart over 99999 days', request: postMultipart('/api/stock-high-low', { symbol, days: '99999' }), msg: 'days must be between 1 and 730' },
    { name: 'high/low multipart without symbol', request: postMultipart('/api/stock-high-low', { days: '30' }), msg: 'Symbol is required' },
    { name: 'trend over 4 days', request: postJson('/api/trend-direction', { symbol, days: 4 }), msg: 'days must be between 5 and 730' },
    { name: 'trend over 731 days', request: postJson('/api/trend-direction', { symbol, days: 731 }), msg: 'days must be between 5 and 730' },
    { name: 'trend hourly', request: postJson('/api/trend-direction', { symbol, days: 20, interval: 'hourly' }), msg: 'interval must be 1day or 1week' },
    { name: 'earnings from an impossible date', request: earnings({ start_date: '2026-99-99', end_date: '2026-11-30' }), msg: 'start_date must be a date as YYYY-MM-DD' },
    { name: 'earnings from a number', request: earnings({ start_date: 20261101, end_date: '2026-11-30' }), msg: 'start_date must be a date as YYYY-MM-DD' },
    { name: 'earnings without end_date', request: earnings({ start_date: '2026-11-01' }), msg: 'end_date is required (YYYY-MM-DD)' },
    { name: 'earnings ending before they start', request: earnings({ start_date: '2026-11-30', end_date: '2026-11-01' }), msg: 'end_date must not be before start_date' },
    { name: 'earnings over more than 92 days', request: earnings({ start_date: '2026-01-01', end_date: '2026-11-30' }), msg: 'The range may span at most 92 days' },
    {
      name: 'earnings (td) from an impossible date',
      request: postJson('/api/earnings_calendar_td', { start_date: '2026-13-01', end_date: '2026-11-30' }),
      msg: 'start_date must be a date as YYYY-MM-DD',
    },
  ];
}

const MALFORMED_SYMBOLS: Array<{ symbol: string; msg: string }> = [
  { symbol: '<script>', msg: 'Symbol may hold only letters, digits and . - ^ = :' },
  { symbol: 'AAPL; DROP', msg: 'Symbol may hold only letters, digits and . - ^ = :' },
  { symbol: 'A'.repeat(21), msg: 'Symbol must be at most 20 characters' },
  { symbol: '   ', msg: 'Symbol is required' },
];

/**
 * The shared error suite: `context` answers the app and a signed-in header once the suite's
 * beforeAll has run; `knownSymbol` exists in the source, `unknownSymbol` does not.
 */
export function describeMarketInputErrors(
  source: string,
  context: () => { app: FastifyInstance; headers: { authorization: string } },
  options: { knownSymbol: string; unknownSymbol: string },
): void {
  const send = (request: MarketRequest) => sendMarket(context().app, context().headers, request);

  describe(`market input errors (${source})`, () => {
    it('answers 404 with the symbol named for an unknown symbol, on every call that takes one', async () => {
      for (const call of SYMBOL_CALLS) {
        const answer = await send(call.request(options.unknownSymbol));
        expect({ call: call.name, status: answer.statusCode, body: answer.json() }).toEqual({
          call: call.name,
          status: 404,
          body: { msg: `Unknown symbol: ${options.unknownSymbol}` },
        });
      }
    });

    it('answers 400 with a msg for a malformed or missing symbol, on every call that takes one', async () => {
      for (const call of SYMBOL_CALLS) {
        for (const { symbol, msg } of MALFORMED_SYMBOLS) {
          const answer = await send(call.request(symbol));
          expect({ call: call.name, symbol, status: answer.statusCode, body: answer.json() }).toEqual({ call: call.name, symbol, status: 400, body: { msg } });
        }
      }
    });

    it('answers the known symbol on every call (the 404s above are about the symbol, not the call)', async () => {
      for (const call of SYMBOL_CALLS) {
        const answer = await send(call.request(options.knownSymbol));
        expect({ call: call.name, status: answer.statusCode }).toEqual({ call: call.name, status: 200 });
      }
    });

    it('answers 400 with a clear msg for bad dates, ranges, numbers and choices', async () => {
      for (const { name, request, msg } of badInputCases(options.knownSymbol)) {
        const answer = await send(request);
        expect({ name, status: answer.statusCode, body: answer.json() }).toEqual({ name, status: 400, body: { msg } });
      }
    });
  });
}
