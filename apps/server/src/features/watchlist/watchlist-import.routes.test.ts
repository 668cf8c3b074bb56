import { parseCsv, watchlistCsv, watchlistTradingViewText, WATCHLIST_IMPORT_MAX_BYTES } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

type Headers = { authorization: string };

// The simulated market's embedded universe: T (AT&T, NYSE) and T.TO (TELUS, TSX) share a ticker, as
// do K, L and PPL; AAPL and MSFT are NASDAQ only, RY.TO is TSX only, SPY is NYSE Arca.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function newUser(label: string): Promise<Headers> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}
async function preview(headers: Headers, payload: unknown) {
  const response = await t.app.inject({ method: 'POST', url: '/api/watchlist/import_preview', headers, payload: payload as object });
  expect(response.statusCode, response.body).not.toBe(500);
  return response;
}

describe('POST api/watchlist/import_preview', () => {
  it('looks up each TradingView entry: found, ambiguous (US and Toronto), unknown with the reason, duplicates and saved ones marked', async () => {
    const user = await newUser('import-tv');
    await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: user, payload: { stocks: [{ symbol: 'MSFT', description: 'Microsoft' }] } });
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
    const huge = await t.app.inject({ method: 'POST', url: '/api/watchlist/import_preview', headers: { ...user, 'content-type': 'application/json' }, payload: JSON.stringify({ text: 'A'.repeat(2_000_000) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toHaveProperty('msg');
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/watchlist/import_preview', payload: { text: 'AAPL' } });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET api/watchlist/export', () => {
  it('answers the saved favourites with their exchange, which the CSV and TradingView writers turn into files that read back', async () => {
    const user = await newUser('export');
    await t.app.inject({
      method: 'POST',
      url: '/api/batch_update_favorite_stocks',
      headers: user,
      payload: { stocks: [{ symbol: 'AAPL', description: 'Apple Inc.' }, { symbol: 'T.TO', description: 'TELUS Corporation' }, { symbol: 'SPY', description: 'SPDR' }, { symbol: 'ZZZZ', description: 'Gone' }] },
    });
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
