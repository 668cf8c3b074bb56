import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileScan, createBacktest, isoFromDayNumber, parseFormula, saveScanResponse, scanBacktestResponse, sha256, type BacktestSymbol, type ScanBacktestResponse } from '@signalboard/core';
import { customScanBacktests } from '../../db/schema';
import { createMarket } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { ProviderError } from '../../providers/market/types';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { backtestResultBody } from './backtest-result';
import { BACKTEST_WINDOW_DAYS } from './backtest-input';
import { NO_BACKTEST, NO_SUCH_SCAN, NOT_RUNNING, STALE_MESSAGES } from './backtest.service';
import { lookbackDays } from './scan-run.service';
import { createGate } from '../../../test/gate';

// POST/GET/DELETE api/scans/{id}/backtest without REDIS_URL (docs/custom-scans.md "Backtest jobs"): the
// job runs in the app's background on the simulated market. The test app's clock is 2026-11-02
// 15:00 UTC. The market's daily bars can be held (a gate: the job waits in its read, status running)
// or fail (a provider outage), so the tests see each state without racing the job; and its history
// can be cut short (a source that keeps about two years).

type Headers = { authorization: string };

const gate = { failure: null as Error | null, historyFromDay: null as number | null };
const { hold, release, passed } = createGate();

/** The app's market, whose daily bars wait while the gate is held and fail while a failure is set. */
function gated(market: CachedMarket): CachedMarket {
  return {
    ...market,
    async getDailyBars(symbol, from, to) {
      await passed();
      if (gate.failure) throw gate.failure;
      return market.getDailyBars(symbol, gate.historyFromDay === null ? from : Math.max(from, gate.historyFromDay * 86_400), to);
    },
  };
}

let t: TestApp;
let owner: Headers;
const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'JPM', 'XOM'];
const FORMULA = 'close crosses above sma(20)';

beforeAll(async () => {
  t = await createTestApp({}, { market: (config, clock, store) => gated(createMarket(config, clock, store)) });
  owner = await userWithFavorites(t, 'backtest', SYMBOLS);
});
afterAll(async () => {
  release();
  await t?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Partial<Headers>, payload?: InjectOptions['payload']): Promise<LightMyRequestResponse> {
  const response = await t.app.inject({ method, url, headers: headers.authorization ? { authorization: headers.authorization } : {}, ...(payload === undefined ? {} : { payload }) });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
function expectStatus(response: LightMyRequestResponse, status: number, msg?: string | RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  if (typeof msg === 'string') expect(response.json()).toEqual({ msg });
  else if (msg) expect(response.json().msg).toMatch(msg);
}
async function saveScan(headers: Headers, name: string, formula = FORMULA, universe = 'favorites') {
  const response = await call('POST', '/api/scans', headers, { name, universe, formula });
  expectStatus(response, 200);
  return saveScanResponse.parse(response.json()).scan;
}
async function start(headers: Headers, id: number): Promise<ScanBacktestResponse> {
  const response = await call('POST', `/api/scans/${id}/backtest`, headers);
  expectStatus(response, 200);
  return scanBacktestResponse.parse(response.json());
}
async function read(headers: Headers, id: number): Promise<ScanBacktestResponse> {
  const response = await call('GET', `/api/scans/${id}/backtest`, headers);
  expectStatus(response, 200);
  return scanBacktestResponse.parse(response.json());
}
/** Reads the backtest until `until` holds (a hang guard only: the states come within seconds); answers every status seen. */
async function waitFor(headers: Headers, id: number, until: (answer: ScanBacktestResponse) => boolean): Promise<{ answer: ScanBacktestResponse; seen: Set<string> }> {
  const seen = new Set<string>();
  const answer = await vi.waitFor(
    async () => {
      const current = await read(headers, id);
      seen.add(current.status);
      if (current.status !== 'queued' && current.status !== 'running') seen.add(`${current.status} ${current.done}/${current.total}`);
      else if (current.done > 0 && current.done < current.total) seen.add('part-way');
      if (!until(current)) throw new Error(`still ${current.status} ${current.done}/${current.total}`);
      return current;
    },
    { timeout: 60_000, interval: 20 },
  );
  return { answer, seen };
}
const attemptOf = async (id: number) => (await t.db.select({ attempt: customScanBacktests.attempt }).from(customScanBacktests).where(eq(customScanBacktests.scanId, id)))[0]?.attempt;

/** The replay computed here from the same market, as the job's rules say (backtest-input.ts), with core's createBacktest. */
async function replayedHere(id: number, version: number, formula: string) {
  const compiled = compileScan(parseFormula(formula));
  const todayDay = Math.floor(t.clock.nowMs() / 86_400_000);
  const windowStart = todayDay - BACKTEST_WINDOW_DAYS + 1;
  const warmUp = lookbackDays(compiled);
  const read = async (symbol: string) => (await t.market.getDailyBars(symbol, (windowStart - warmUp) * 86_400, todayDay * 86_400)).value;
  const symbols: BacktestSymbol[] = [];
  for (const symbol of SYMBOLS) {
    const bars = await read(symbol);
    symbols.push({ symbol, bars, day: Int32Array.from(bars.time, (time) => Math.round(time / 86_400)), facts: {} });
  }
  const spy = await read('SPY');
  const spyDays = Int32Array.from(spy.time, (time) => Math.round(time / 86_400));
  // The simulated history covers the warm-up: the window's sessions are all replayed.
  const first = windowStart;
  const backtest = createBacktest({
    compiled,
    symbols,
    sessions: spyDays.filter((day) => day >= first && day <= todayDay),
    benchmark: { symbol: 'SPY', day: spyDays, open: spy.open, close: spy.close },
    seed: sha256(`custom-scan-backtest|${id}|${version}`).slice(0, 8),
  });
  while (!backtest.step(50));
  return JSON.parse(JSON.stringify(backtestResultBody(backtest.result(), 'favorites'))) as unknown;
}

describe('api/scans/{id}/backtest', () => {
  it('answers 401 without a token and 400 for an id that is none', async () => {
    for (const method of ['POST', 'GET', 'DELETE'] as const) {
      expect((await call(method, '/api/scans/1/backtest', {})).statusCode).toBe(401);
      expectStatus(await call(method, '/api/scans/abc/backtest', owner), 400, 'id must be a scan id');
    }
  });

  it('starts at once, runs in the background, and stores the replay of the scan: that of createBacktest over the same bars', async () => {
    const scan = await saveScan(owner, 'Crosses');
    expectStatus(await call('GET', `/api/scans/${scan.id}/backtest`, owner), 404, NO_BACKTEST);
    hold();
    const started = await start(owner, scan.id);
    expect(started).toMatchObject({ scan_id: scan.id, version: scan.version, current: true, status: 'queued', done: 0, total: 0, finished_at: null, error: null, result: null });
    // Held in its read of the bars: running, nothing replayed yet.
    const running = await waitFor(owner, scan.id, (answer) => answer.status === 'running');
    expect(running.answer).toMatchObject({ done: 0, total: 0, result: null });
    release();
    const { answer, seen } = await waitFor(owner, scan.id, (current) => current.status === 'done');
    const statuses = new Set([started.status, ...running.seen, ...seen].filter((status) => !status.includes(' ') && status !== 'part-way'));
    expect([...statuses]).toEqual(['queued', 'running', 'done']);
    expect(answer.total).toBeGreaterThan(450);
    expect(answer).toMatchObject({ current: true, done: answer.total, error: null, started_at: started.started_at });
    expect(answer.finished_at).not.toBeNull();
    const result = answer.result!;
    // Two years of sessions: from the first on or after 2024-11-03 (730 calendar days through today).
    expect(result).toMatchObject({ symbols: SYMBOLS.length, sessions: answer.total, benchmark: 'SPY', from: '2024-11-04', to: '2026-11-02' });
    expect(result.entries).toBeGreaterThan(20);
    expect(result.survivorship).toMatch(/favourites as they are today.*not replayed/);
    expect(result).toEqual(await replayedHere(scan.id, scan.version, FORMULA));
  });

  it('answers the stored result of the same version at once; after a change it is no longer current, and a start replays the new version', async () => {
    const scan = await saveScan(owner, 'Again');
    await start(owner, scan.id);
    const first = (await waitFor(owner, scan.id, (answer) => answer.status === 'done')).answer;
    const attempt = await attemptOf(scan.id);
    // The same version: the stored backtest, no new run.
    expect(await start(owner, scan.id)).toEqual(first);
    expect(await attemptOf(scan.id)).toBe(attempt);
    // A rename keeps the version (and the backtest current); a new formula does not.
    const renamed = await call('PUT', `/api/scans/${scan.id}`, owner, { name: 'Again, renamed', universe: 'favorites', formula: FORMULA });
    expect(saveScanResponse.parse(renamed.json()).scan.version).toBe(scan.version);
    expect((await read(owner, scan.id)).current).toBe(true);
    const changed = saveScanResponse.parse((await call('PUT', `/api/scans/${scan.id}`, owner, { name: 'Again', universe: 'favorites', formula: 'rsi(14) crosses above 30' })).json()).scan;
    expect(changed.version).toBe(scan.version + 1);
    expect(await read(owner, scan.id)).toEqual({ ...first, current: false });
    const restarted = await start(owner, scan.id);
    expect(restarted).toMatchObject({ version: changed.version, current: true, status: 'queued', done: 0, total: 0, result: null });
    const done = (await waitFor(owner, scan.id, (answer) => answer.status === 'done')).answer;
    expect(done.version).toBe(changed.version);
    expect(done.result).toEqual(await replayedHere(scan.id, changed.version, 'rsi(14) crosses above 30'));
  });

  it('cancels a backtest under way: it stops without a result; nothing to cancel is a 404', async () => {
    const scan = await saveScan(owner, 'Cancelled');
    expectStatus(await call('DELETE', `/api/scans/${scan.id}/backtest`, owner), 404, NOT_RUNNING);
    hold();
    await start(owner, scan.id);
    await waitFor(owner, scan.id, (answer) => answer.status === 'running');
    expectStatus(await call('DELETE', `/api/scans/${scan.id}/backtest`, owner), 200, 'Cancelled the backtest of "Cancelled".');
    release();
    await t.app.scanBacktests.idle();
    expect(await read(owner, scan.id)).toMatchObject({ status: 'cancelled', result: null, error: null, done: 0 });
    expectStatus(await call('DELETE', `/api/scans/${scan.id}/backtest`, owner), 404, NOT_RUNNING);
    // Started again, it runs to its end.
    expect((await start(owner, scan.id)).status).toBe('queued');
    expect((await waitFor(owner, scan.id, (answer) => answer.status === 'done')).answer.result).not.toBeNull();
  });

  it("answers another user's scan as missing, on every call", async () => {
    const scan = await saveScan(owner, 'Mine');
    await start(owner, scan.id);
    await waitFor(owner, scan.id, (answer) => answer.status === 'done');
    const other = await userWithFavorites(t, 'backtest-other', ['AAPL']);
    for (const method of ['POST', 'GET', 'DELETE'] as const) expectStatus(await call(method, `/api/scans/${scan.id}/backtest`, other), 404, NO_SUCH_SCAN);
    expectStatus(await call('GET', '/api/scans/2147483647/backtest', owner), 404, NO_SUCH_SCAN);
  });

  it('refuses a scan that reads the news or the earnings calendar, naming what cannot be replayed', async () => {
    const news = await saveScan(owner, 'News', 'news_sentiment > 2 and close > sma(50)');
    expectStatus(await call('POST', `/api/scans/${news.id}/backtest`, owner), 400, /^This scan reads news sentiment, which cannot be replayed: /);
    const both = await saveScan(owner, 'Both', 'days_to_earnings <= 5 or news_sentiment >= 1');
    expectStatus(await call('POST', `/api/scans/${both.id}/backtest`, owner), 400, /^This scan reads days to earnings and news sentiment, which cannot be replayed: /);
    expectStatus(await call('GET', `/api/scans/${both.id}/backtest`, owner), 404, NO_BACKTEST);
  });

  it("runs one backtest per user at a time: a second start while one runs is a 429 naming the first one's scan", async () => {
    const user = await userWithFavorites(t, 'backtest-limit', ['AAPL', 'MSFT']);
    const [first, second] = [await saveScan(user, 'First'), await saveScan(user, 'Second')];
    hold();
    await start(user, first.id);
    await waitFor(user, first.id, (answer) => answer.status === 'running');
    const refused = await call('POST', `/api/scans/${second.id}/backtest`, user);
    expectStatus(refused, 429, 'Your backtest of "First" is still running, and one runs at a time. Wait for it to finish or cancel it, then start this one.');
    expect(refused.headers['retry-after']).toBe('10');
    // Another user is not held up by it; the same scan's start answers the one under way.
    const other = await userWithFavorites(t, 'backtest-limit-other', ['AAPL']);
    expect((await start(other, (await saveScan(other, 'Theirs')).id)).status).toBe('queued');
    expect((await start(user, first.id)).status).toBe('running');
    expectStatus(await call('DELETE', `/api/scans/${first.id}/backtest`, user), 200);
    release();
    await t.app.scanBacktests.idle();
    expect((await start(user, second.id)).status).toBe('queued');
    await waitFor(user, second.id, (answer) => answer.status === 'done');
  });

  it('shows a backtest whose process died as failed, says so, and starts it again; it holds up no other start', async () => {
    const user = await userWithFavorites(t, 'backtest-stale', ['AAPL']);
    const [dead, next] = [await saveScan(user, 'Dead'), await saveScan(user, 'Next')];
    await start(user, dead.id);
    await waitFor(user, dead.id, (answer) => answer.status === 'done');
    // As a process that died three minutes into it leaves the row.
    await t.db
      .update(customScanBacktests)
      .set({ status: 'running', result: null, finishedAt: null, updatedAt: sql`now() - interval '3 minutes'` })
      .where(eq(customScanBacktests.scanId, dead.id));
    expect(await read(user, dead.id)).toMatchObject({ status: 'failed', error: STALE_MESSAGES.running, result: null });
    expect((await start(user, next.id)).status).toBe('queued');
    await waitFor(user, next.id, (answer) => answer.status === 'done');
    const attempt = await attemptOf(dead.id);
    expect(await start(user, dead.id)).toMatchObject({ status: 'queued', error: null });
    expect(await attemptOf(dead.id)).toBe(attempt! + 1);
    expect((await waitFor(user, dead.id, (answer) => answer.status === 'done')).answer.result).not.toBeNull();
  });

  it('replays, over a source of about two years of history, the sessions that have the whole warm-up before them, and says which', async () => {
    const scan = await saveScan(owner, 'Short history', 'close > sma(50)');
    const todayDay = Math.floor(t.clock.nowMs() / 86_400_000);
    gate.historyFromDay = todayDay - 731;
    try {
      await start(owner, scan.id);
      const { answer } = await waitFor(owner, scan.id, (current) => current.status !== 'queued' && current.status !== 'running');
      const spy = (await t.market.getDailyBars('SPY', (todayDay - 731) * 86_400, todayDay * 86_400)).value;
      const days = Array.from(spy.time, (time) => Math.round(time / 86_400));
      const replayed = days.filter((day) => day >= days[0]! + lookbackDays(compileScan(parseFormula('close > sma(50)'))));
      expect(answer.status).toBe('done');
      expect(answer.result).toMatchObject({ sessions: replayed.length, from: isoFromDayNumber(replayed[0]!), to: '2026-11-02' });
      expect(replayed.length).toBeLessThan(260);
    } finally {
      gate.historyFromDay = null;
    }
  });

  it('fails with a readable error when the market cannot give the bars, never a 500', async () => {
    const user = await userWithFavorites(t, 'backtest-outage', ['AAPL', 'MSFT']);
    const scan = await saveScan(user, 'Outage');
    gate.failure = new ProviderError('simulated', 'injected outage', { status: 503 });
    try {
      await start(user, scan.id);
      const { answer } = await waitFor(user, scan.id, (current) => current.status === 'failed');
      expect(answer).toMatchObject({ result: null, error: 'Market data is unavailable right now (simulated: injected outage). Please try again shortly.' });
      expect(answer.finished_at).not.toBeNull();
    } finally {
      gate.failure = null;
    }
  });

  it('fails readably over empty favourites, and stops quietly when its scan is deleted under it', async () => {
    const user = await userWithFavorites(t, 'backtest-empty', []);
    const empty = await saveScan(user, 'Empty');
    await start(user, empty.id);
    expect((await waitFor(user, empty.id, (answer) => answer.status === 'failed')).answer.error).toBe('Your favourites are empty: add symbols to them to backtest a scan over them.');
    const scan = await saveScan(owner, 'Deleted');
    hold();
    await start(owner, scan.id);
    await waitFor(owner, scan.id, (answer) => answer.status === 'running');
    expectStatus(await call('DELETE', `/api/scans/${scan.id}`, owner), 200);
    release();
    await t.app.scanBacktests.idle();
    expect(await t.db.select().from(customScanBacktests).where(eq(customScanBacktests.scanId, scan.id))).toEqual([]);
  });
});
