import { count } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeIndicatorChange } from '@signalboard/core';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { SwitchableAnalyst } from '../../../test/switchable-analyst';
import { economicIndicators, jobRuns, overallSentiment, sectorSentiment } from '../../db/schema';
import { createLocalAnalyst } from '../../providers/ai/local';
import type { CachedMarket } from '../../providers/market/cached-market';
import { ProviderError } from '../../providers/market/types';
import { GICS_SECTORS, universeBySymbol } from '../../providers/market/universe';
import { createDashboardJobs, DASHBOARD_INDICATORS, slotOf } from './dashboard.jobs';
import { createJobRuns } from '../../jobs/job-runs';
import { createDashboardRepo } from './dashboard.repo';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: TestApp;
let analyst: SwitchableAnalyst;
beforeEach(async () => {
  analyst = new SwitchableAnalyst();
  t = await createTestApp({}, { analyst });
});
afterEach(async () => t.close());

const rows = async () => ({
  overall: (await t.db.select({ n: count() }).from(overallSentiment))[0]!.n,
  sectors: (await t.db.select({ n: count() }).from(sectorSentiment))[0]!.n,
  indicators: (await t.db.select({ n: count() }).from(economicIndicators))[0]!.n,
});

/** A second server process on the same database: its own jobs object, cache and analyst. */
const otherProcess = (market: CachedMarket = marketOf()) =>
  createDashboardJobs({ repo: createDashboardRepo(t.db), runs: createJobRuns(t.db), market, analyst: createLocalAnalyst({ maxInputChars: 20_000 }), marketClock: t.clock, clock: t.clock, log: { info() {}, warn() {} } });

/** The test app's market (the simulated one, on the fake clock). */
const marketOf = (): CachedMarket => t.market;

describe('dashboard jobs', () => {
  it('slots: 30 minutes while the market is open, hourly otherwise; sectors hourly; indicators every 6 hours', () => {
    const open = Date.UTC(2026, 10, 2, 15, 47); // Monday 10:47 New York
    expect(slotOf('overall-sentiment', open).toISOString()).toBe('2026-11-02T15:30:00.000Z');
    expect(slotOf('sector-sentiment', open).toISOString()).toBe('2026-11-02T15:00:00.000Z');
    expect(slotOf('economic-indicators', open).toISOString()).toBe('2026-11-02T12:00:00.000Z');
    const evening = Date.UTC(2026, 10, 2, 23, 47); // 18:47 New York, closed
    expect(slotOf('overall-sentiment', evening).toISOString()).toBe('2026-11-02T23:00:00.000Z');
    const saturday = Date.UTC(2026, 10, 7, 15, 47);
    expect(slotOf('overall-sentiment', saturday).toISOString()).toBe('2026-11-07T15:00:00.000Z');
  });

  it('a first pass fills all three parts at once', async () => {
    expect(await rows()).toEqual({ overall: 0, sectors: 0, indicators: 0 });
    expect(await t.app.dashboardJobs.tick()).toEqual({ 'overall-sentiment': 'done', 'sector-sentiment': 'done', 'economic-indicators': 'done' });
    expect(await rows()).toEqual({ overall: 1, sectors: GICS_SECTORS.length, indicators: DASHBOARD_INDICATORS.length });

    const [overall] = await t.db.select().from(overallSentiment);
    expect(overall!.dateCreated.toISOString()).toBe(new Date(t.clock.nowMs()).toISOString());
    expect(overall!.newsCount).toBeGreaterThan(5);
    expect(overall!.gptSummary).toMatch(/^Market news reads (positive|negative|mixed|neutral) across \d+ items/);
    expect(overall!.analyst).toBe('local');

    // Each sector reads the news of its own largest companies, newest first.
    const sectors = await t.db.select().from(sectorSentiment);
    expect(sectors.map((row) => row.sector).sort()).toEqual([...GICS_SECTORS]);
    for (const row of sectors) {
      const news = row.news as Array<{ title: string; url: string; summary: string; datetime: number; symbol: string }>;
      expect(news.length).toBeGreaterThan(0);
      expect(news.length).toBeLessThanOrEqual(10);
      for (const item of news) expect(universeBySymbol.get(item.symbol)?.sector).toBe(row.sector);
      expect(news.map((item) => item.datetime)).toEqual([...news.map((item) => item.datetime)].sort((a, b) => b - a));
      expect(row.gptSummary).toContain(`${row.sector} news reads`);
    }

    // Indicators: the latest 13 observations newest first, and what the latest change means.
    const indicators = await t.db.select().from(economicIndicators);
    const unrate = indicators.find((row) => row.indicatorCode === 'UNRATE')!;
    const series = (await marketOf().getEconomicSeries('UNRATE')).value;
    expect(unrate.observations).toEqual(series.observations.slice(0, 13));
    expect(unrate).toMatchObject({ indicatorName: series.name, interval: 'Monthly', unit: 'Percent' });
    expect(unrate.gptSummary).toBe(describeIndicatorChange({ name: series.name, code: 'UNRATE', unit: 'Percent', interval: 'Monthly', values: series.observations.slice(0, 13) }));
  });

  it('runs each slot once, even when two processes tick at the same time', async () => {
    const other = otherProcess();
    const [first, second] = await Promise.all([t.app.dashboardJobs.tick(), other.tick()]);
    for (const job of ['overall-sentiment', 'sector-sentiment', 'economic-indicators'] as const) {
      expect([first[job], second[job]].sort()).toEqual(['done', 'skipped']);
    }
    expect(await rows()).toEqual({ overall: 1, sectors: 11, indicators: 8 });
    // Ticking again in the same slot does nothing.
    expect(await other.tick()).toEqual({ 'overall-sentiment': 'skipped', 'sector-sentiment': 'skipped', 'economic-indicators': 'skipped' });
    expect(await rows()).toEqual({ overall: 1, sectors: 11, indicators: 8 });
    // Concurrent ticks of one process share one pass.
    const same = t.app.dashboardJobs;
    const passes = [same.tick(), same.tick()];
    expect(passes[0]).toBe(passes[1]);
    await Promise.all(passes);
  });

  it('keeps history: a new slot adds rows, and the calls answer the latest', async () => {
    await t.app.dashboardJobs.tick();
    t.clock.advance(30 * MINUTE); // still open: a new overall slot, the same sector hour
    expect(await t.app.dashboardJobs.tick()).toEqual({ 'overall-sentiment': 'done', 'sector-sentiment': 'skipped', 'economic-indicators': 'skipped' });
    t.clock.advance(HOUR);
    await t.app.dashboardJobs.tick();
    expect(await rows()).toEqual({ overall: 3, sectors: 22, indicators: 8 });
  });

  it('a failed run keeps the last good data and is retried with backoff', async () => {
    await t.app.dashboardJobs.tick();
    const before = await t.db.select().from(overallSentiment);
    t.clock.advance(HOUR);
    analyst.failing = true;
    expect(await t.app.dashboardJobs.tick()).toEqual({ 'overall-sentiment': 'failed', 'sector-sentiment': 'failed', 'economic-indicators': 'skipped' });
    expect(await t.db.select().from(overallSentiment)).toEqual(before);
    const failed = await t.db.select().from(jobRuns);
    const overallRun = failed.find((run) => run.job === 'overall-sentiment' && run.status === 'failed')!;
    expect(overallRun).toMatchObject({ attempts: 1, error: 'The AI provider could not be reached. Please try again later.' });

    // Within the backoff (1 minute after the first failure) nothing is retried …
    analyst.failing = false;
    t.clock.advance(30_000);
    expect((await t.app.dashboardJobs.tick())['overall-sentiment']).toBe('skipped');
    // … after it the slot is retried and filled.
    t.clock.advance(30_000);
    expect(await t.app.dashboardJobs.tick()).toEqual({ 'overall-sentiment': 'done', 'sector-sentiment': 'done', 'economic-indicators': 'skipped' });
    expect(await rows()).toEqual({ overall: 2, sectors: 22, indicators: 8 });
  });

  it('the backoff doubles with each failed attempt, up to 30 minutes', async () => {
    analyst.failing = true;
    const overall = async () => (await t.app.dashboardJobs.tick())['overall-sentiment'];
    expect(await overall()).toBe('failed'); // attempt 1 → wait 1 min
    t.clock.advance(MINUTE);
    expect(await overall()).toBe('failed'); // attempt 2 → wait 2 min
    t.clock.advance(MINUTE);
    expect(await overall()).toBe('skipped');
    t.clock.advance(MINUTE);
    expect(await overall()).toBe('failed'); // attempt 3 → wait 4 min
    t.clock.advance(3 * MINUTE);
    expect(await overall()).toBe('skipped');
    t.clock.advance(MINUTE);
    analyst.failing = false;
    // the clock is still in the same 30-minute slot (7 minutes in), so the retry fills it
    expect(await overall()).toBe('done');
  });

  it('a sector whose news fails is retried alone; the others are kept', async () => {
    const market = marketOf();
    let energyDown = true;
    const flaky: CachedMarket = {
      ...market,
      getCompanyNews: (symbol, from, to) =>
        energyDown && universeBySymbol.get(symbol)?.sector === 'Energy' ? Promise.reject(new ProviderError('Finnhub', 'HTTP 503')) : market.getCompanyNews(symbol, from, to),
    };
    const jobs = otherProcess(flaky);
    expect(await jobs.refreshSectors()).toBe('failed');
    const written = await t.db.select({ sector: sectorSentiment.sector }).from(sectorSentiment);
    expect(written.map((row) => row.sector).sort()).toEqual(GICS_SECTORS.filter((sector) => sector !== 'Energy'));
    const [run] = await t.db.select().from(jobRuns);
    expect(run!.error).toBe('Energy: no company news for Energy: Finnhub: HTTP 503');

    energyDown = false;
    t.clock.advance(MINUTE);
    expect(await jobs.refreshSectors()).toBe('done');
    expect(await rows()).toMatchObject({ sectors: 11 });
  });

  it('a stale answer (the provider failing, the cache serving an older copy) is a failure, not new data', async () => {
    const market = marketOf();
    const stale: CachedMarket = { ...market, getMarketNews: async () => ({ ...(await market.getMarketNews()), stale: true }) };
    expect(await otherProcess(stale).refreshOverall()).toBe('failed');
    expect(await rows()).toMatchObject({ overall: 0 });
    const [run] = await t.db.select().from(jobRuns);
    expect(run!.error).toBe('market news: the provider is failing (only an older copy is cached)');
  });

  it('takes over a slot whose process died while running it, after 15 minutes', async () => {
    const runs = createJobRuns(t.db);
    const slot = slotOf('economic-indicators', t.clock.nowMs());
    expect(await runs.claim('economic-indicators', slot, t.clock.nowMs())).toBe(true); // and never finished
    expect(await t.app.dashboardJobs.refreshIndicators()).toBe('skipped');
    t.clock.advance(15 * MINUTE + 1000);
    expect(await t.app.dashboardJobs.refreshIndicators()).toBe('done');
    expect(await rows()).toMatchObject({ indicators: 8 });
  });
});
