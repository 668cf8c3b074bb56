import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { DropScanResponse } from '@signalboard/core';
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
  datasetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-scans-'));
  await writeScanDataset(datasetDir);
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW: SCAN_NOW });
  userA = await newUser('scan-a', ['SMALL', 'NOBARS', 'DROP', 'ZZZZ', 'UP']);
  userB = await newUser('scan-b', ['UP']);
});
afterAll(async () => {
  await t.close();
  await fs.rm(datasetDir, { recursive: true, force: true });
});

const newUser = (label: string, favorites: string[]) => userWithFavorites(t, label, favorites);

async function scanDrops(headers: Partial<Headers>, payload?: unknown) {
  const response = await t.app.inject({ method: 'POST', url: '/api/scan/drops', headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(response.statusCode, `answered 500: ${response.body}`).not.toBe(500);
  return response;
}
async function flagsOf(headers: Headers, payload: unknown): Promise<Array<[string, string, number | null, number | null, string]>> {
  const response = await scanDrops(headers, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<DropScanResponse>().results.map((flag) => [flag.symbol, flag.percentageChange.toFixed(2), flag.selectedHigh, flag.selectedLow, flag.calculationType]);
}

const FAILED_A = [
  { symbol: 'NOBARS', msg: 'No price history for NOBARS' },
  { symbol: 'ZZZZ', msg: 'Unknown symbol: ZZZZ' },
];

describe('POST api/scan/drops', () => {
  it('checks every favourite against its live quote and 1-month high by default (10 %), skipping the ones without data', async () => {
    const response = await scanDrops(userA);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      results: [{ symbol: 'DROP', currentPrice: 105, selectedHigh: 120, selectedLow: null, percentageChange: 12.5, calculationType: 'drop' }],
      scanned: 3,
      failed: FAILED_A,
      stale: false,
      as_of: SCAN_NOW_SECONDS,
    });
  });

  it('answers the same with an explicit body, and reads the price from the quote, not the last bar', async () => {
    const response = await scanDrops(userA, { threshold: 0, selection: '30DayHigh' });
    expect(response.json<DropScanResponse>().results).toEqual([
      { symbol: 'DROP', currentPrice: 105, selectedHigh: 120, selectedLow: null, percentageChange: 12.5, calculationType: 'drop' },
      { symbol: 'UP', currentPrice: 92, selectedHigh: 100, selectedLow: null, percentageChange: 8, calculationType: 'drop' },
      // SMALL's last bar closed at 97; its quote says 96.
      { symbol: 'SMALL', currentPrice: 96, selectedHigh: 100, selectedLow: null, percentageChange: 4, calculationType: 'drop' },
    ]);
    expect(response.json<DropScanResponse>().scanned).toBe(3);
    expect(response.json<DropScanResponse>().failed).toEqual(FAILED_A);
  });

  it('uses the 6-month high for 60 Day High', async () => {
    expect(await flagsOf(userA, { selection: '60DayHigh' })).toEqual([['DROP', '34.38', 160, null, 'drop']]);
    expect(await flagsOf(userA, { selection: '60DayHigh', threshold: 0 })).toEqual([
      ['DROP', '34.38', 160, null, 'drop'],
      ['UP', '8.00', 100, null, 'drop'],
      ['SMALL', '4.00', 100, null, 'drop'],
    ]);
  });

  it('uses the 6-month low for 60 Day Low, increases sorted largest first', async () => {
    expect(await flagsOf(userA, { selection: '60DayLow', threshold: 10 })).toEqual([
      ['DROP', '25.00', null, 84, 'increase'],
      ['UP', '15.00', null, 80, 'increase'],
    ]);
  });

  it('uses the 1-month low for 30 Day Low; a price below the low never flags, even at 0', async () => {
    expect(await flagsOf(userA, { selection: '30DayLow', threshold: 4 })).toEqual([
      ['DROP', '5.00', null, 100, 'increase'],
      ['UP', '4.55', null, 88, 'increase'],
    ]);
    expect(await flagsOf(userA, { selection: '30DayLow', threshold: 0 })).toEqual([
      ['DROP', '5.00', null, 100, 'increase'],
      ['UP', '4.55', null, 88, 'increase'],
    ]);
  });

  it('flags a percentage exactly at the threshold and not above it', async () => {
    expect(await flagsOf(userA, { threshold: 12.5 })).toEqual([['DROP', '12.50', 120, null, 'drop']]);
    expect(await flagsOf(userA, { threshold: '12.5' })).toEqual([['DROP', '12.50', 120, null, 'drop']]);
    expect(await flagsOf(userA, { threshold: 12.51 })).toEqual([]);
    expect(await flagsOf(userA, { selection: '60DayLow', threshold: 15 })).toEqual([
      ['DROP', '25.00', null, 84, 'increase'],
      ['UP', '15.00', null, 80, 'increase'],
    ]);
    expect(await flagsOf(userA, { selection: '60DayLow', threshold: 15.01 })).toEqual([['DROP', '25.00', null, 84, 'increase']]);
    expect(await flagsOf(userA, { threshold: 100 })).toEqual([]);
  });

  it('answers 400 with a msg for a bad threshold or selection, never 500', async () => {
    const THRESHOLD = 'threshold must be a number from 0 to 100';
    const SELECTION = 'selection must be one of 30DayHigh, 60DayHigh, 60DayLow, 30DayLow';
    const cases: Array<[unknown, string]> = [
      [{ threshold: -1 }, THRESHOLD],
      [{ threshold: 101 }, THRESHOLD],
      [{ threshold: 'abc' }, THRESHOLD],
      [{ threshold: '' }, THRESHOLD],
      [{ threshold: null }, THRESHOLD],
      [{ threshold: true }, THRESHOLD],
      [{ threshold: [5] }, THRESHOLD],
      [{ selection: '90DayHigh' }, SELECTION],
      [{ selection: '30 Day High' }, SELECTION],
      [{ threshold: 5, selection: 3 }, SELECTION],
      [[1, 2], 'The request body must be a JSON object with the fields of this call.'],
    ];
    for (const [payload, msg] of cases) {
      const response = await scanDrops(userA, payload);
      expect([response.statusCode, response.json()], JSON.stringify(payload)).toEqual([400, { msg }]);
    }
  });

  it("scans only the signed-in user's favourites", async () => {
    const response = await scanDrops(userB, { selection: '60DayLow', threshold: 0 });
    expect(response.json()).toEqual({
      results: [{ symbol: 'UP', currentPrice: 92, selectedHigh: null, selectedLow: 80, percentageChange: 15, calculationType: 'increase' }],
      scanned: 1,
      failed: [],
      stale: false,
      as_of: SCAN_NOW_SECONDS,
    });
  });

  it('answers an empty scan for a user without favourites', async () => {
    const response = await scanDrops(await newUser('scan-empty', []), { threshold: 0 });
    expect(response.json()).toEqual({ results: [], scanned: 0, failed: [], stale: false, as_of: SCAN_NOW_SECONDS });
  });
});

describe('the drop scan needs the token', () => {
  it('answers 401 without it or with a bad one', async () => {
    const call = { method: 'POST' as const, url: '/api/scan/drops' };
    const missing = await t.app.inject(call);
    expect([missing.statusCode, missing.json()], call.url).toEqual([401, { msg: 'Auth token missing' }]);
    const bad = await t.app.inject({ ...call, headers: { authorization: 'Bearer not-a-token' } });
    expect([bad.statusCode, bad.json()], call.url).toEqual([401, { msg: 'Auth token invalid' }]);
  });
});
