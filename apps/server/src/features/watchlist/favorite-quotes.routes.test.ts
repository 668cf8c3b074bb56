import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FavoriteQuotesResponse } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { SCAN_NOW, SCAN_NOW_SECONDS, writeScanDataset } from '../../../test/scan-fixtures';

type Headers = { authorization: string };

let t: TestApp;
let datasetDir: string;
/** Favourites, in this order: a 4 % dip, a listed symbol with no bars, a 12.5 % drop, an unknown one, a 15 % recovery. */
let userA: Headers;
/** Only UP. */
let userB: Headers;

beforeAll(async () => {
  datasetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-favorite-quotes-'));
  await writeScanDataset(datasetDir);
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW: SCAN_NOW });
  userA = await newUser('quotes-a', ['SMALL', 'NOBARS', 'DROP', 'ZZZZ', 'UP']);
  userB = await newUser('quotes-b', ['UP']);
});
afterAll(async () => {
  await t.close();
  await fs.rm(datasetDir, { recursive: true, force: true });
});

const newUser = (label: string, favorites: string[]) => userWithFavorites(t, label, favorites);

const FAILED_A = [
  { symbol: 'NOBARS', msg: 'No price history for NOBARS' },
  { symbol: 'ZZZZ', msg: 'Unknown symbol: ZZZZ' },
];

describe('GET api/favorites/quotes', () => {
  it('answers the last price and day change of each favourite, in the favourites order, failures apart', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/favorites/quotes', headers: userA });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<FavoriteQuotesResponse>()).toEqual({
      quotes: [
        { symbol: 'SMALL', current_price: 96, change: -4, percent_change: -4, timestamp: SCAN_NOW_SECONDS - 60, stale: false },
        { symbol: 'DROP', current_price: 105, change: 5, percent_change: 5, timestamp: SCAN_NOW_SECONDS, stale: false },
        { symbol: 'UP', current_price: 92, change: -8, percent_change: -8, timestamp: SCAN_NOW_SECONDS, stale: false },
      ],
      failed: FAILED_A,
    });
  });

  it("answers only the signed-in user's favourites", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/favorites/quotes', headers: userB });
    expect(response.json<FavoriteQuotesResponse>().quotes.map((quote) => quote.symbol)).toEqual(['UP']);
    expect(response.json<FavoriteQuotesResponse>().failed).toEqual([]);
  });
});

describe('the favourite quotes need the token', () => {
  it('answers 401 without it or with a bad one', async () => {
    const call = { method: 'GET' as const, url: '/api/favorites/quotes' };
    const missing = await t.app.inject(call);
    expect([missing.statusCode, missing.json()], call.url).toEqual([401, { msg: 'Auth token missing' }]);
    const bad = await t.app.inject({ ...call, headers: { authorization: 'Bearer not-a-token' } });
    expect([bad.statusCode, bad.json()], call.url).toEqual([401, { msg: 'Auth token invalid' }]);
  });
});
