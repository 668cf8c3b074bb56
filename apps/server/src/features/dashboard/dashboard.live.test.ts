/**
 * The dashboard jobs on live providers (MARKET_DATA=live): Finnhub's market and company news and
 * FRED's series, replayed from recorded responses on loopback. Proves the jobs fill the dashboard
 * from what the live adapters answer, and that a provider outage for some series is a failed run
 * that keeps what it could write.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, FakeClock } from '../../../test/helpers';
import { economicIndicators, jobRuns, overallSentiment, sectorSentiment } from '../../db/schema';
import { createLocalAnalyst } from '../../providers/ai/local';
import { createCachedMarket } from '../../providers/market/cached-market';
import { createLiveMarketData } from '../../providers/market/live/composite';
import { startRecordedServer, type RecordedServer } from '../../providers/market/live/recorded-server';
import { createDashboardJobs } from './dashboard.jobs';
import { createJobRuns } from '../../jobs/job-runs';
import { createDashboardRepo } from './dashboard.repo';

// Tuesday 2025-01-07 10:00 in New York: the recorded market news is from the day before.
const NOW = Date.parse('2025-01-07T15:00:00Z');
const MARKET_NEWS = JSON.parse(readFileSync(new URL('../../providers/market/live/fixtures/finnhub-market-news.json', import.meta.url), 'utf8')) as Array<{ datetime: number }>;
const XOM_NEWS = [
  { category: 'company', datetime: NOW / 1000 - 3600, headline: 'Exxon lifts output guidance', id: 1, image: '', related: 'XOM', source: 'Reuters', summary: 'Production beat estimates as Permian volumes rose.', url: 'https://www.reuters.com/xom-1' },
  { category: 'company', datetime: NOW / 1000 - 86_400, headline: 'Exxon faces lawsuit over emissions', id: 2, image: '', related: 'XOM', source: 'Bloomberg', summary: 'A state sued the company over climate disclosures.', url: 'https://www.bloomberg.com/xom-2' },
];

let finnhub: RecordedServer;
let fred: RecordedServer;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  finnhub = await startRecordedServer();
  fred = await startRecordedServer();
  database = await createTestDatabase();
});
afterAll(async () => {
  await finnhub.close();
  await fred.close();
  await database.drop();
});

describe('dashboard jobs on live providers (recorded responses)', () => {
  it('fill overall, sector and indicator rows from Finnhub and FRED; a series FRED fails on is retried later', async () => {
    finnhub.on('/news', { fixture: 'finnhub-market-news.json' });
    finnhub.on('/company-news', (url) => ({ body: JSON.stringify(url.searchParams.get('symbol') === 'XOM' ? XOM_NEWS : []) }));
    fred.on('/series/observations', (url) =>
      url.searchParams.get('series_id') === 'UNRATE' ? { fixture: 'fred-unrate.json' } : { status: 500, body: '{"error_code":500,"error_message":"Internal Server Error"}' },
    );
    const clock = new FakeClock(NOW);
    const live = createLiveMarketData({
      finnhubApiKey: 'fh',
      fredApiKey: 'fred',
      baseUrls: { finnhub: finnhub.baseUrl, fred: fred.baseUrl },
      clock,
      // Waiting for Finnhub's limiter (60 calls a minute; a pass makes 66) moves the fake clock.
      sleep: async (ms) => clock.advance(ms),
      timeoutMs: 500,
      yahoo: false,
    });
    const jobs = createDashboardJobs({
      repo: createDashboardRepo(database.db),
      runs: createJobRuns(database.db),
      market: createCachedMarket(live, clock),
      analyst: createLocalAnalyst({ maxInputChars: 20_000 }),
      marketClock: clock,
      clock,
      log: { info() {}, warn() {} },
    });

    expect(await jobs.tick()).toEqual({ 'overall-sentiment': 'done', 'sector-sentiment': 'done', 'economic-indicators': 'failed' });

    const [overall] = await database.db.select().from(overallSentiment);
    expect(overall!.newsCount).toBe(MARKET_NEWS.filter((item) => item.datetime * 1000 <= NOW).length);
    expect(overall!.gptSummary).toMatch(/^Market news reads /);
    expect(finnhub.requests.some((request) => request.url.startsWith('/news?category=general'))).toBe(true);

    const sectors = await database.db.select().from(sectorSentiment);
    expect(sectors).toHaveLength(11);
    const energy = sectors.find((row) => row.sector === 'Energy')!;
    expect((energy.news as Array<{ title: string; symbol: string }>).map((item) => [item.title, item.symbol])).toEqual([
      ['Exxon lifts output guidance', 'XOM'],
      ['Exxon faces lawsuit over emissions', 'XOM'],
    ]);
    expect(energy.gptSummary).toMatch(/^Energy news reads .* across 2 items/);
    // Finnhub was asked for each sector's 6 largest companies' news of the last 3 days.
    const newsCalls = finnhub.requests.filter((request) => request.url.startsWith('/company-news'));
    expect(newsCalls).toHaveLength(66);
    expect(newsCalls.find((request) => request.url.includes('symbol=XOM'))!.url).toContain('from=2025-01-04&to=2025-01-07');

    // FRED answered UNRATE only; ISM_PMI and PAYEMS_CHG are not FRED series and are skipped quietly.
    const indicators = await database.db.select().from(economicIndicators);
    expect(indicators.map((row) => row.indicatorCode)).toEqual(['UNRATE']);
    expect((indicators[0]!.observations as Array<{ date: string }>)[0]!.date).toBe('2026-08-01');
    const [run] = (await database.db.select().from(jobRuns)).filter((row) => row.job === 'economic-indicators');
    expect(run!.error).toContain('CPIAUCSL: FRED');
    expect(run!.error).not.toContain('ISM_PMI');

    // FRED recovers: after the backoff the retry adds the rest and keeps UNRATE's row.
    fred.on('/series/observations', { fixture: 'fred-unrate.json' });
    clock.advance(61_000);
    expect((await jobs.tick())['economic-indicators']).toBe('done');
    expect((await database.db.select().from(economicIndicators)).map((row) => row.indicatorCode).sort()).toEqual(['A191RL1Q225SBEA', 'CPIAUCSL', 'DGS10', 'FEDFUNDS', 'UMCSENT', 'UNRATE']);
  });
});
