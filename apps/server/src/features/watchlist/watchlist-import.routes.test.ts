import { parseCsv, watchlistCsv, watchlistTradingViewText, WATCHLIST_IMPORT_MAX_BYTES } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';

type Headers = { authorization: string };

// The simulated market's embedded universe: T (AT&T, NYSE) and T.TO (TELUS, TSX) share a ticker, as
// do K, L and PPL; AAPL and MSFT are NASDAQ only, RY.TO is TSX only, SPY is NYSE Arca. The app runs
// with the default per-user preview limit (30 every 10 minutes).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A new signed-in user with these favourites saved (none by default). */
const newUser = (label: string, favorites: Parameters<typeof userWithFavorites>[2] = []) => userWithFavorites(t, label, favorites);

/** POST api/watchlist/import_preview as `headers` ({}: no token); a string payload is sent as the JSON body as it is. Never a 500. */
async function preview(headers: Headers | Record<string, never>, payload: unknown) {
  const raw = typeof payload === 'string';
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/watchlist/import_preview',
    headers: raw ? { ...headers, 'content-type': 'application/json' } : headers,
    payload: payload as object | string,
  });
  expect(response.statusCode, response.body).not.toBe(500);
  return response;
}

describe('POST api/watchlist/import_preview', () => {
  it('looks up each TradingView entry: found, ambiguous (US and Toronto), unknown with the reason, duplicates and saved ones marked', async () => {
    const user = await newUser('import-tv', ['MSFT']);
    const text = '###Tech,NASDAQ:AAPL,NASDAQ:MSFT,\n###Mixed,T,TSX:RY,NYSE:ZZZZ,BINANCE:BTCUSDT,AAPL,bad symbol!\nSHOP.TO,AMEX:SPY';
    const response = await preview(user, { text });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      format: 'tradingview',
      entries: [
        { line: 1, raw: 'NASDAQ:AAPL', status: 'found', symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ', inFavorites: false },
        { line: 1, raw: 'NASDAQ:MSFT', status: 'found', symbol: 'MSFT', description: 'Microsoft Corporation', exchange: 'NASDAQ', inFavorites: true },
        {
          line: 2,
          raw: 'T',
          status: 'ambiguous',
          candidates: [
            { symbol: 'T', description: 'AT&T Inc.', exchange: 'NYSE', inFavorites: false },
            { symbol: 'T.TO', description: 'TELUS Corporation', exchange: 'TSX', inFavorites: false },
          ],
        },
        { line: 2, raw: 'TSX:RY', status: 'found', symbol: 'RY.TO', description: 'Royal Bank of Canada', exchange: 'TSX', inFavorites: false },
        { line: 2, raw: 'NYSE:ZZZZ', status: 'unknown', reason: 'ZZZZ is not listed on a US exchange (no exact match in the symbol lookup).' },
        { line: 2, raw: 'BINANCE:BTCUSDT', status: 'unknown', reason: 'BINANCE is not a US or Canadian (TSX) exchange; favorites are US and Canadian stocks only.' },
        { line: 2, raw: 'AAPL', status: 'found', symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ', inFavorites: false, duplicateOfLine: 1 },
        { line: 3, raw: 'SHOP.TO', status: 'found', symbol: 'SHOP.TO', description: 'Shopify Inc.', exchange: 'TSX', inFavorites: false },
        { line: 3, raw: 'AMEX:SPY', status: 'found', symbol: 'SPY', description: expect.any(String), exchange: 'NYSE Arca', inFavorites: false },
      ],
      problems: [{ line: 2, message: '"bad symbol!" is not a symbol (letters, digits and . - ^ = only).' }],
    });
  });

  it('reads a CSV with a ticker column and one symbol a line; a bare crypto ticker is unknown', async () => {
    const user = await newUser('import-csv');
    const csv = await preview(user, { text: 'Name,Ticker\r\n"Apple, Inc.",aapl\r\nTELUS,t.to\r\n,\r\n' });
    expect(csv.json()).toMatchObject({ format: 'csv', problems: [], entries: [{ line: 2, status: 'found', symbol: 'AAPL' }, { line: 3, status: 'found', symbol: 'T.TO', exchange: 'TSX' }] });
    const lines = await preview(user, { text: 'BTC\nry\n' });
    expect(lines.json()).toMatchObject({
      format: 'lines',
      entries: [
        { line: 1, status: 'unknown', reason: 'BTC is not listed in the US or on the TSX (no exact match in the symbol lookup).' },
        { line: 2, status: 'found', symbol: 'RY.TO' },
      ],
    });
  });

  it('refuses more than 1 MB with 413 and a msg, reports lines past 2,000, and answers 400 without text', async () => {
    const user = await newUser('import-limits');
    const big = await preview(user, { text: 'A'.repeat(WATCHLIST_IMPORT_MAX_BYTES + 1) });
    expect([big.statusCode, big.json()]).toEqual([413, { msg: 'The watchlist is larger than 1 MB (1,000,000 bytes). Split it into smaller files.' }]);
    const long = await preview(user, { text: 'AAPL\n'.repeat(2001) });
    expect([long.statusCode, long.json()]).toEqual([200, { format: null, entries: [], problems: [{ line: 2001, message: 'The text has 2,001 lines; an import takes at most 2,000. Split it into smaller files.' }] }]);
    const missing = await preview(user, {});
    expect([missing.statusCode, missing.json()]).toEqual([400, { msg: 'text must be the watchlist as text' }]);
    const huge = await preview(user, JSON.stringify({ text: 'A'.repeat(2_000_000) }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toHaveProperty('msg');
  });

  it('needs a token', async () => {
    expect((await preview({}, { text: 'AAPL' })).statusCode).toBe(401);
  });
});

describe('GET api/watchlist/export', () => {
  it('answers the saved favourites with their exchange, which the CSV and TradingView writers turn into files that read back', async () => {
    const user = await newUser('export', [
      { symbol: 'AAPL', description: 'Apple Inc.' },
      { symbol: 'T.TO', description: 'TELUS Corporation' },
      { symbol: 'SPY', description: 'SPDR' },
      { symbol: 'ZZZZ', description: 'Gone' },
    ]);
    const response = await t.app.inject({ method: 'GET', url: '/api/watchlist/export', headers: user });
    expect(response.statusCode, response.body).toBe(200);
    const { stocks } = response.json<{ stocks: Array<{ symbol: string; description: string; exchange: string }> }>();
    expect(stocks).toEqual([
      { symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ' },
      { symbol: 'T.TO', description: 'TELUS Corporation', exchange: 'TSX' },
      { symbol: 'SPY', description: 'SPDR', exchange: 'NYSE Arca' },
      { symbol: 'ZZZZ', description: 'Gone', exchange: '' },
    ]);
    expect(watchlistTradingViewText(stocks)).toBe('NASDAQ:AAPL,TSX:T,AMEX:SPY,ZZZZ');
    expect(parseCsv(watchlistCsv(stocks)).map((record) => record.fields)).toEqual([
      ['symbol', 'description', 'exchange'],
      ['AAPL', 'Apple Inc.', 'NASDAQ'],
      ['T.TO', 'TELUS Corporation', 'TSX'],
      ['SPY', 'SPDR', 'NYSE Arca'],
      ['ZZZZ', 'Gone', ''],
    ]);
    // And the TradingView text imports back to the same listings.
    const back = await preview(user, { text: watchlistTradingViewText(stocks) });
    expect(back.json<{ entries: Array<{ status: string; symbol?: string }> }>().entries.map((entry) => [entry.status, entry.symbol])).toEqual([
      ['found', 'AAPL'],
      ['found', 'T.TO'],
      ['found', 'SPY'],
      ['unknown', undefined],
    ]);
  });
});

// Each preview may look up 2,000 symbols: at most WATCHLIST_IMPORT_MAX_PER_USER every
// WATCHLIST_IMPORT_WINDOW_SECONDS per user (lib/user-limit.ts; on Redis every API process counts
// together). Last in the file: it moves the app's clock.
describe('watchlist import previews per user', () => {
  it('answers the 31st preview of 10 minutes 429 with a msg naming the limit and retry-after; another user is not affected; after the window it works again', async () => {
    expect([t.config.WATCHLIST_IMPORT_MAX_PER_USER, t.config.WATCHLIST_IMPORT_WINDOW_SECONDS]).toEqual([30, 600]);
    const user = await newUser('import-limit');
    for (let index = 0; index < 30; index += 1) expect((await preview(user, { text: 'AAPL' })).statusCode).toBe(200);
    t.clock.advance(60_000);
    const limited = await preview(user, { text: 'AAPL' });
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many watchlist import previews (at most 30 every 10 minutes). Please try again in 9 minutes.' }]);
    expect(limited.headers['retry-after']).toBe('540');
    // A body that is no preview is still answered for what it is.
    expect((await preview(user, {})).statusCode).toBe(400);

    expect((await preview(await newUser('import-limit-other'), { text: 'AAPL' })).statusCode).toBe(200);

    t.clock.advance(540_000);
    expect((await preview(user, { text: 'AAPL' })).statusCode).toBe(200);
  });
});
