import type { LightMyRequestResponse } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileScan, dayNumber, isoFromDayNumber, parseFormula, saveScanResponse, scanBacktestResponse, type ScanBacktestResponse } from '@signalboard/core';
import { customScanBacktests } from '../../db/schema';
import { createMarket } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { dataVersionOf } from '../../providers/market/imported/data-version';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { createImportedPricesRepo, type ImportedBarColumns, type ImportedPricesRepo } from '../data-import/imported-prices.repo';
import { BACKTEST_MAX_WINDOW_DAYS, BACKTEST_WINDOW_DAYS } from './backtest-input';
import { lookbackDays } from './scan-run.service';
import { createGate } from '../../../test/gate';

// Custom-scan backtests over imported prices (issue 29; docs/custom-scans.md "The data it ran on"): the
// data version a backtest ran on, its replay when its universe's imported prices change, never mixed
// with the earlier result, and the range it covers when the imported history is older than two years.
// The test app's clock is 2026-11-02 15:00 UTC; its market is the simulated one under the imported
// prices stored in the test's database. The benchmark's bars (SPY, read after the members') can be
// held, so an import can land while a backtest runs.

type Headers = { authorization: string };

const { hold, release, passed } = createGate();
function gated(market: CachedMarket): CachedMarket {
  return {
    ...market,
    async getDailyBars(symbol, from, to) {
      if (symbol === 'SPY') await passed();
      return market.getDailyBars(symbol, from, to);
    },
  };
}

let t: TestApp;
let imported: ImportedPricesRepo;
let user: Headers;
const FORMULA = 'close crosses above sma(20)';
const IMPORTED_FROM = '2021-01-04';

/** Every weekday from `from` through 2026-10-30. */
function weekdays(from: string): string[] {
  const days: string[] = [];
  for (let day = dayNumber(from); day <= dayNumber('2026-10-30'); day += 1) {
    const weekday = new Date(day * 86_400_000).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(isoFromDayNumber(day));
  }
  return days;
}
/** A wavy rising series; `shape` changes its waves (another file of the symbol). */
function series(from: string, shape: number): ImportedBarColumns {
  const day = weekdays(from);
  const close = day.map((_, i) => Math.round((100 + 12 * Math.sin(i / (7 + shape)) + 6 * Math.sin(i / 23) + i * 0.02) * 100) / 100);
  return { day, open: close.map((c) => c - 0.3), high: close.map((c) => c + 1), low: close.map((c) => c - 1), close, adjClose: close.map(() => null), volume: close.map(() => 50_000) };
}
/** Imports a file of `symbol` and tells the market, as the price import does. */
async function importFile(symbol: string, shape: number, from = IMPORTED_FROM) {
  const bars = series(from, shape);
  await imported.importFile({ name: `${symbol}.csv`, sha256: String(shape).repeat(64).slice(0, 64), importedBy: null }, [{ listing: { symbol, description: `${symbol} Holdings`, market: 'US', exchange: 'NYSE', sector: null }, bars }], new Date(t.clock.nowMs()));
  await t.market.importChanged!([symbol]);
}
const versionNow = async (symbols: string[]) => dataVersionOf(symbols, await t.market.importedDigests!());

beforeAll(async () => {
  t = await createTestApp({}, { market: (config, clock, store) => gated(createMarket(config, clock, store, { listings: () => imported.listings(), bars: (symbol) => imported.bars(symbol) })) });
  imported = createImportedPricesRepo(t.db);
  await importFile('ZZDATA', 0);
  user = await userWithFavorites(t, 'backtest-data', ['AAPL', 'MSFT', 'ZZDATA']);
});
afterAll(async () => {
  release();
  await t?.close();
});

async function call(method: 'GET' | 'POST', url: string, headers: Headers, payload?: object): Promise<LightMyRequestResponse> {
  const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
  return response;
}
const saveScan = async (headers: Headers, name: string) => saveScanResponse.parse((await call('POST', '/api/scans', headers, { name, universe: 'favorites', formula: FORMULA })).json()).scan;
const start = async (headers: Headers, id: number) => scanBacktestResponse.parse((await call('POST', `/api/scans/${id}/backtest`, headers)).json());
const read = async (headers: Headers, id: number) => scanBacktestResponse.parse((await call('GET', `/api/scans/${id}/backtest`, headers)).json());
const waitFor = (headers: Headers, id: number, until: (answer: ScanBacktestResponse) => boolean) =>
  vi.waitFor(
    async () => {
      const answer = await read(headers, id);
      if (!until(answer)) throw new Error(`still ${answer.status} ${answer.done}/${answer.total}`);
      return answer;
    },
    { timeout: 60_000, interval: 20 },
  );
const rowOf = async (id: number) => (await t.db.select().from(customScanBacktests).where(eq(customScanBacktests.scanId, id)))[0]!;
/** What a result says of the scan's own entries (the random draws, entries' and bootstrap's, depend on the scan's id). */
const scanSide = (answer: ScanBacktestResponse) => {
  const result = answer.result!;
  return { from: result.from, to: result.to, sessions: result.sessions, entries: result.entries, equity: result.equity, worst: result.worst, scan: result.horizons.map(({ scan }) => ({ n: scan.n, mean: scan.mean, median: scan.median, positive: scan.positive })) };
};

describe('custom-scan backtests over imported prices', () => {
  let scanId: number;
  let first: ScanBacktestResponse;

  it('stores the data version of the bars it read, and covers the imported history older than its two years', async () => {
    const scan = await saveScan(user, 'Imported');
    scanId = scan.id;
    await start(user, scan.id);
    first = await waitFor(user, scan.id, (answer) => answer.status === 'done');
    const version = await versionNow(['ZZDATA']);
    expect(version).toMatch(/^[0-9a-f]{8}$/);
    expect(first).toMatchObject({ data_version: version, data_changed: false, current: true });
    expect((await rowOf(scan.id)).dataVersion).toBe(version);

    // The window reaches back to ZZDATA's first day after the scan's warm-up: the sessions before the
    // simulated SPY's history are the days the members have bars.
    const todayDay = Math.floor(t.clock.nowMs() / 86_400_000);
    const days = async (symbol: string) => Array.from((await t.market.getDailyBars(symbol, 0, todayDay * 86_400)).value.time, (time) => Math.round(time / 86_400));
    const spy = await days('SPY');
    const before = new Set([...(await days('AAPL')), ...(await days('MSFT')), ...(await days('ZZDATA'))].filter((day) => day < spy[0]!));
    const calendar = [...[...before].sort((a, b) => a - b), ...spy];
    const startDay = dayNumber(IMPORTED_FROM) + lookbackDays(compileScan(parseFormula(FORMULA)));
    const sessions = calendar.filter((day) => day >= startDay && day <= todayDay);
    expect(startDay).toBeLessThan(todayDay - BACKTEST_WINDOW_DAYS);
    expect(first.result).toMatchObject({ from: isoFromDayNumber(sessions[0]!), to: '2026-11-02', sessions: sessions.length, symbols: 3 });
    expect(first.total).toBe(sessions.length);
  });

  it('keeps the result when another symbol is imported, or the same file again', async () => {
    const attempt = (await rowOf(scanId)).attempt;
    await importFile('ZZOTHER', 5);
    expect(await read(user, scanId)).toEqual(first);
    await importFile('ZZDATA', 0);
    expect(await read(user, scanId)).toEqual(first);
    expect(await start(user, scanId)).toEqual(first);
    expect((await rowOf(scanId)).attempt).toBe(attempt);
    // A universe without imported prices: data version '', untouched by any import.
    const plain = await userWithFavorites(t, 'backtest-data-plain', ['AAPL', 'MSFT']);
    const scan = await saveScan(plain, 'Plain');
    await start(plain, scan.id);
    const done = await waitFor(plain, scan.id, (answer) => answer.status === 'done');
    expect(done).toMatchObject({ data_version: '', data_changed: false });
    expect(done.result!.from >= '2024-11-03').toBe(true);
    await importFile('ZZDATA', 1);
    expect(await read(plain, scan.id)).toEqual(done);
  });

  it('replays a result whose universe gained new imported prices, says why while it runs, and never mixes it with the earlier one', async () => {
    // The import just above changed ZZDATA: the stored result is of the earlier prices.
    const attempt = (await rowOf(scanId)).attempt;
    hold();
    const rerun = await read(user, scanId);
    expect(rerun).toMatchObject({ status: 'queued', data_changed: true, result: null, data_version: null, done: 0, total: 0 });
    expect((await rowOf(scanId)).attempt).toBe(attempt + 1);
    const running = await waitFor(user, scanId, (answer) => answer.status === 'running');
    expect(running).toMatchObject({ data_changed: true, result: null });
    release();
    const done = await waitFor(user, scanId, (answer) => answer.status === 'done');
    const version = await versionNow(['ZZDATA']);
    expect(done).toMatchObject({ data_version: version, data_changed: false });
    expect(version).not.toBe(first.data_version);
    expect(scanSide(done)).not.toEqual(scanSide(first));
    // A new scan of the same conditions on the same prices: the same entries and returns.
    const fresh = await saveScan(user, 'Imported, fresh');
    await start(user, fresh.id);
    expect(scanSide(await waitFor(user, fresh.id, (answer) => answer.status === 'done'))).toEqual(scanSide(done));
    first = done;
  });

  it('stores the version of the bars it read when an import lands while it runs, and is then replayed for the new prices', async () => {
    const before = await versionNow(['ZZDATA']);
    hold();
    const scan = await saveScan(user, 'Mid-run');
    await start(user, scan.id);
    // Held in its read of SPY: ZZDATA's bars are read.
    await waitFor(user, scan.id, (answer) => answer.status === 'running');
    await importFile('ZZDATA', 2);
    release();
    await t.app.scanBacktests.idle();
    expect(await rowOf(scan.id)).toMatchObject({ status: 'done', dataVersion: before });
    expect(await read(user, scan.id)).toMatchObject({ status: 'queued', data_changed: true, result: null });
    expect(await waitFor(user, scan.id, (answer) => answer.status === 'done')).toMatchObject({ data_version: await versionNow(['ZZDATA']), data_changed: false });
  });

  it('waits while another backtest of the user runs: the earlier prices\' result is answered as such, then replayed', async () => {
    // The import of the test before changed its prices too: read, it is replayed first.
    const earlier = await waitFor(user, scanId, (answer) => answer.status === 'done');
    await importFile('ZZDATA', 3);
    hold();
    const other = await saveScan(user, 'Other');
    await start(user, other.id);
    await waitFor(user, other.id, (answer) => answer.status === 'running');
    expect(await read(user, scanId)).toEqual({ ...earlier, data_changed: true });
    release();
    await t.app.scanBacktests.idle();
    expect(await read(user, scanId)).toMatchObject({ status: 'queued', data_changed: true, result: null });
    expect(await waitFor(user, scanId, (answer) => answer.status === 'done')).toMatchObject({ data_version: await versionNow(['ZZDATA']), data_changed: false });
  });

  it(`covers at most ${BACKTEST_MAX_WINDOW_DAYS} calendar days of an older imported history`, async () => {
    await importFile('ZZOLD', 4, '2009-01-05');
    const old = await userWithFavorites(t, 'backtest-data-old', ['AAPL', 'ZZOLD']);
    const scan = await saveScan(old, 'Old');
    await start(old, scan.id);
    const done = await waitFor(old, scan.id, (answer) => answer.status === 'done');
    const todayDay = Math.floor(t.clock.nowMs() / 86_400_000);
    const first = weekdays('2009-01-05').find((day) => dayNumber(day) >= todayDay - BACKTEST_MAX_WINDOW_DAYS + 1);
    expect(done.result).toMatchObject({ from: first, to: '2026-11-02' });
    expect(done.data_version).toBe(await versionNow(['ZZOLD']));
  });
});
