import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { optionScanEvent, type OptionScanEvent } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { SCAN_NOW, SCAN_NOW_SECONDS, writeScanDataset } from '../../../test/scan-fixtures';
import { NDJSON_CONTENT_TYPE } from './option-signals.routes';

type Headers = { authorization: string };

let t: TestApp;
let datasetDir: string;

beforeAll(async () => {
  datasetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-scans-options-'));
  await writeScanDataset(datasetDir);
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW: SCAN_NOW });
});
afterAll(async () => {
  await t.close();
  await fs.rm(datasetDir, { recursive: true, force: true });
});

const newUser = (label: string, favorites: string[]) => userWithFavorites(t, label, favorites);

/** The scan's events, each line checked against the contract. */
async function scanOptions(headers: Headers, payload?: object): Promise<OptionScanEvent[]> {
  const response = await t.app.inject({ method: 'POST', url: '/api/scan/options', headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe(NDJSON_CONTENT_TYPE);
  expect(response.body.endsWith('\n')).toBe(true);
  return response.body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => optionScanEvent.parse(JSON.parse(line)));
}

/** Splits the events between start and end into per-symbol groups, each closed by its progress event. */
function groups(events: OptionScanEvent[]): Array<{ symbol: string; done: number; events: OptionScanEvent[] }> {
  const out: Array<{ symbol: string; done: number; events: OptionScanEvent[] }> = [];
  let current: OptionScanEvent[] = [];
  for (const event of events.slice(1, -1)) {
    if (event.type === 'progress') {
      out.push({ symbol: event.symbol, done: event.done, events: current });
      current = [];
    } else {
      current.push(event);
    }
  }
  expect(current, 'events after the last progress').toEqual([]);
  return out;
}

const CALLX_FLAGS = [
  { symbol: 'CALLX', currentPrice: 81, high: 100, low: 80, percentageChange: 19, calculationType: 'drop', tag: '1MonthHigh', action: 'CALL', timeFrame: 'short term', supportTag: 'Near Support' },
  { symbol: 'CALLX', currentPrice: 81, high: 100, low: 80, percentageChange: 19, calculationType: 'drop', tag: '6MonthHigh', action: 'CALL', timeFrame: 'long term', supportTag: 'Near Support' },
];
const PUTX_FLAGS = [
  { symbol: 'PUTX', currentPrice: 119, high: 120, low: 100, percentageChange: 19, calculationType: 'increase', tag: '1MonthLow', action: 'PUT', timeFrame: 'short term', supportTag: 'Near Resistance' },
  { symbol: 'PUTX', currentPrice: 119, high: 120, low: 100, percentageChange: 19, calculationType: 'increase', tag: '6MonthLow', action: 'PUT', timeFrame: 'long term', supportTag: 'Near Resistance' },
];
/** Percentages to 2 decimals, as the screen shows them. */
const rounded = (flags: unknown[]) => flags.map((flag) => ({ ...(flag as { percentageChange: number }), percentageChange: Number((flag as { percentageChange: number }).percentageChange.toFixed(2)) }));

describe('POST api/scan/options', () => {
  it('streams start, each symbol (flags or a skip, then progress), and end', async () => {
    const headers = await newUser('options', ['DROP', 'CALLX', 'NOBARS', 'PUTX', 'ZZZZ']);
    const events = await scanOptions(headers);
    expect(events[0]).toEqual({ type: 'start', total: 5 });
    expect(events.at(-1)).toEqual({
      type: 'end',
      scanned: 3,
      failed: [
        { symbol: 'NOBARS', msg: 'No price history for NOBARS' },
        { symbol: 'ZZZZ', msg: 'Unknown symbol: ZZZZ' },
      ],
      as_of: SCAN_NOW_SECONDS,
    });
    const bySymbol = groups(events);
    // One group per favourite, progress counting 1..5 in the order they were sent.
    expect(bySymbol.map((group) => group.done)).toEqual([1, 2, 3, 4, 5]);
    expect(bySymbol.map((group) => group.symbol).sort()).toEqual(['CALLX', 'DROP', 'NOBARS', 'PUTX', 'ZZZZ']);
    for (const event of events.filter((e) => e.type === 'progress')) expect(event).toMatchObject({ total: 5 });
    const contents = Object.fromEntries(bySymbol.map((group) => [group.symbol, group.events]));
    // A symbol's events name that symbol only, flags in core's window order.
    expect(rounded(contents.CALLX!.map((event) => (event.type === 'flag' ? event.flag : event)))).toEqual(CALLX_FLAGS);
    expect(rounded(contents.PUTX!.map((event) => (event.type === 'flag' ? event.flag : event)))).toEqual(PUTX_FLAGS);
    // DROP has no intraday bars (dailyrsi null): scanned, never flagged.
    expect(contents.DROP).toEqual([]);
    expect(contents.NOBARS).toEqual([{ type: 'skip', symbol: 'NOBARS', msg: 'No price history for NOBARS' }]);
    expect(contents.ZZZZ).toEqual([{ type: 'skip', symbol: 'ZZZZ', msg: 'Unknown symbol: ZZZZ' }]);
  });

  it('takes an empty JSON object as the body too', async () => {
    const headers = await newUser('options-body', ['PUTX']);
    const events = await scanOptions(headers, {});
    expect(events.map((event) => event.type)).toEqual(['start', 'flag', 'flag', 'progress', 'end']);
    expect(events[3]).toEqual({ type: 'progress', done: 1, total: 1, symbol: 'PUTX' });
  });

  it("scans only the signed-in user's favourites", async () => {
    await newUser('options-other', ['CALLX', 'PUTX']);
    const headers = await newUser('options-mine', ['DROP']);
    expect(await scanOptions(headers)).toEqual([
      { type: 'start', total: 1 },
      { type: 'progress', done: 1, total: 1, symbol: 'DROP' },
      { type: 'end', scanned: 1, failed: [], as_of: SCAN_NOW_SECONDS },
    ]);
  });

  it('answers start and end for a user without favourites', async () => {
    const headers = await newUser('options-empty', []);
    expect(await scanOptions(headers)).toEqual([
      { type: 'start', total: 0 },
      { type: 'end', scanned: 0, failed: [], as_of: SCAN_NOW_SECONDS },
    ]);
  });

  it('answers a bad body with an ordinary JSON 400 before any line', async () => {
    const headers = await newUser('options-bad', ['PUTX']);
    const response = await t.app.inject({ method: 'POST', url: '/api/scan/options', headers, payload: [1] });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ msg: 'The request body must be a JSON object with the fields of this call.' });
  });
});

describe('the option scan needs the token', () => {
  it('answers 401 without it or with a bad one', async () => {
    const call = { method: 'POST' as const, url: '/api/scan/options' };
    const missing = await t.app.inject(call);
    expect([missing.statusCode, missing.json()], call.url).toEqual([401, { msg: 'Auth token missing' }]);
    const bad = await t.app.inject({ ...call, headers: { authorization: 'Bearer not-a-token' } });
    expect([bad.statusCode, bad.json()], call.url).toEqual([401, { msg: 'Auth token invalid' }]);
  });
});
