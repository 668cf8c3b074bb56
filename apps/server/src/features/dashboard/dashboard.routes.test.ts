import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allOverallSentimentResponse,
  analyzeNewsItems,
  describeIndicatorChange,
  economicIndicatorsResponse,
  marketOverviewResponse,
  parseSectorNews,
  sectorSentimentResponse,
} from '@signalboard/core';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { SwitchableAnalyst } from '../../../test/switchable-analyst';
import { AnalystError } from '../../providers/ai';
import { GICS_SECTORS } from '../../providers/market/universe';
import { DASHBOARD_INDICATORS } from './dashboard.jobs';
import { INDEX_STRIP, nextMarketChange, SECTOR_ETFS } from './dashboard.routes';

const CALLS = ['/api/all_overall_sentiment', '/api/sector_sentiment_scanner', '/api/top_economic_indicators', '/api/market_overview'] as const;

describe('dashboard calls on the simulated market', () => {
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    headers = await userWithFavorites(t, 'dashboard', []);
  });
  afterAll(async () => t.close());
  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers });

  it('need a token', async () => {
    for (const url of CALLS) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ msg: 'Auth token missing' });
    }
  });

  it('a new installation is filled by the first read, never empty', async () => {
    const response = await get('/api/sector_sentiment_scanner');
    expect(response.statusCode).toBe(200);
    const sectors = sectorSentimentResponse.parse(response.json());
    expect(sectors.map((row) => row.IndicatorName)).toEqual([...GICS_SECTORS]);
    for (const row of sectors) {
      expect(Object.keys(row).sort()).toEqual(['GptSummary', 'IndicatorName', 'LastUpdatedUtc', 'SentimentScore', 'SentimentTone', 'ValueRawJson']);
      const news = parseSectorNews(row.ValueRawJson);
      expect(news.ok && news.items.length > 0).toBe(true);
      // The tone is the lexicon's reading of the stored news, whoever wrote the summary.
      const reading = analyzeNewsItems(news.ok ? news.items.map((item) => ({ headline: item.title, summary: item.summary })) : []);
      expect([row.SentimentTone, row.SentimentScore]).toEqual([reading.tone, reading.score]);
      expect(row.LastUpdatedUtc).toBe(new Date(t.clock.nowMs()).toISOString());
    }
    // The same pass filled the other two parts.
    expect(allOverallSentimentResponse.parse((await get('/api/all_overall_sentiment')).json())).toHaveLength(1);
  });

  it('api/top_economic_indicators: the spec fields, in the dashboard order, values newest first', async () => {
    const indicators = economicIndicatorsResponse.parse((await get('/api/top_economic_indicators')).json());
    expect(indicators.map((row) => row.IndicatorCode)).toEqual([...DASHBOARD_INDICATORS]);
    const gdp = indicators.find((row) => row.IndicatorCode === 'A191RL1Q225SBEA')!;
    expect(Object.keys(gdp).sort()).toEqual(['GptSummary', 'IndicatorCode', 'IndicatorName', 'Interval', 'LastUpdatedUtc', 'Unit', 'ValueRawJson']);
    expect(gdp).toMatchObject({ Interval: 'Quarterly', Unit: 'Percent' });
    const values = JSON.parse(gdp.ValueRawJson) as Array<{ date: string; value: number }>;
    expect(values.map((value) => value.date)).toEqual([...values.map((value) => value.date)].sort().reverse());
    const series = (await t.market.getEconomicSeries('A191RL1Q225SBEA')).value;
    expect(values).toEqual(series.observations.slice(0, 13));
    expect(gdp.GptSummary).toBe(describeIndicatorChange({ name: series.name, code: series.id, unit: series.unit, interval: series.frequency, values }));
  });

  it('api/all_overall_sentiment: the history, newest first', async () => {
    t.clock.advance(60 * 60_000);
    await t.app.dashboardJobs.tick();
    const history = allOverallSentimentResponse.parse((await get('/api/all_overall_sentiment')).json());
    expect(history).toHaveLength(2);
    expect(Object.keys(history[0]!).sort()).toEqual(['DateCreated', 'GptSummary', 'NewsCount', 'SentimentScore', 'SentimentTone']);
    expect(history[0]!.GptSummary).toContain(`reads ${history[0]!.SentimentTone} across ${history[0]!.NewsCount} items`);
    expect(Date.parse(history[0]!.DateCreated)).toBeGreaterThan(Date.parse(history[1]!.DateCreated));
    expect(history[0]!.DateCreated).toBe(new Date(t.clock.nowMs()).toISOString());
    expect(history[0]!.GptSummary).toMatch(/^Market news reads /);
  });

  it('api/market_overview: status, the index strip and the sector heatmap from quotes', async () => {
    const overview = marketOverviewResponse.parse((await get('/api/market_overview')).json());
    expect(overview.asOf).toBe(new Date(t.clock.nowMs()).toISOString());
    expect(overview.market).toEqual({ phase: 'open', nextChange: '2026-11-02T21:00:00.000Z' }); // Monday 11:00, closes 16:00 New York
    expect(overview.indices.map((quote) => quote.symbol)).toEqual([...INDEX_STRIP]);
    const spy = (await t.market.getQuote('SPY')).value;
    expect(overview.indices[0]).toEqual({ symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', price: spy.price, change: spy.change, percentChange: spy.percentChange, currency: 'USD', timestamp: spy.timestamp });
    expect(overview.indices[4]!.name).toBe('Bitcoin');
    expect(overview.sectors.map((tile) => [tile.sector, tile.etf])).toEqual(Object.entries(SECTOR_ETFS));
    const xle = (await t.market.getQuote('XLE')).value;
    expect(overview.sectors.find((tile) => tile.etf === 'XLE')).toEqual({ sector: 'Energy', etf: 'XLE', price: xle.price, percentChange: xle.percentChange });
    expect(overview.failed).toEqual([]);
  });

  it('the next open or close, over a weekend and a holiday', () => {
    expect(nextMarketChange(Date.UTC(2026, 10, 2, 13, 0))).toBe('2026-11-02T14:30:00.000Z'); // Monday pre-market → 9:30 today
    expect(nextMarketChange(Date.UTC(2026, 10, 6, 22, 0))).toBe('2026-11-09T14:30:00.000Z'); // Friday evening → Monday
    expect(nextMarketChange(Date.UTC(2026, 10, 25, 22, 0))).toBe('2026-11-27T14:30:00.000Z'); // Wednesday → Friday (Thanksgiving)
  });
});

describe('dashboard calls when the analyst fails', () => {
  const analyst = new SwitchableAnalyst(true, new AnalystError('The AI provider failed (500): overloaded', 'provider'));
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp({}, { analyst });
    headers = await userWithFavorites(t, 'dashboard', []);
  });
  afterAll(async () => t.close());

  it('a first fill that fails answers empty lists (the screen shows its empty states), never a 500', async () => {
    for (const url of CALLS.slice(0, 3)) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.json(), url).toEqual([]);
    }
  });

  it('once filled, a failing refresh keeps answering the last good data', async () => {
    analyst.failing = false;
    t.clock.advance(60 * 60_000);
    await t.app.dashboardJobs.tick();
    const before = (await t.app.inject({ method: 'GET', url: '/api/sector_sentiment_scanner', headers })).json();
    expect(before).toHaveLength(11);
    analyst.failing = true;
    t.clock.advance(60 * 60_000);
    expect((await t.app.dashboardJobs.tick())['sector-sentiment']).toBe('failed');
    expect((await t.app.inject({ method: 'GET', url: '/api/sector_sentiment_scanner', headers })).json()).toEqual(before);
  });
});

describe('dashboard calls on a pinned dataset (MARKET_DATA=file)', () => {
  const EXAMPLE = fileURLToPath(new URL('../../../../../datasets/example', import.meta.url));
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: EXAMPLE, MARKET_NOW: '2026-11-13T18:00:00Z' });
    headers = await userWithFavorites(t, 'dashboard', []);
  });
  afterAll(async () => t.close());
  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers }).then((response) => response.json());

  it('indicators are the dataset series the source has, with their values newest first', async () => {
    const indicators = economicIndicatorsResponse.parse(await get('/api/top_economic_indicators'));
    expect(indicators.map((row) => row.IndicatorCode)).toEqual(['CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'DGS10']);
    const file = JSON.parse(readFileSync(path.join(EXAMPLE, 'economic', 'DGS10.json'), 'utf8')) as { name: string; observations: unknown[] };
    const dgs10 = indicators.find((row) => row.IndicatorCode === 'DGS10')!;
    expect(dgs10.IndicatorName).toBe(file.name);
    expect(JSON.parse(dgs10.ValueRawJson)).toEqual(file.observations.slice(0, 13));
    expect(dgs10.GptSummary).toBe(
      'Market Yield on U.S. Treasury Securities at 10-Year Constant Maturity was 4.11% for Nov 12, 2026. That is up 0.03 percentage points from 4.08% for Nov 11, 2026. Higher long-term yields raise discount rates and mortgage costs, a headwind for rate-sensitive and growth stocks.',
    );
    expect(dgs10.LastUpdatedUtc).toBe('2026-11-13T18:00:00.000Z');
  });

  it('only sectors with companies in the dataset get a row; their news is the companies\' own', async () => {
    const sectors = sectorSentimentResponse.parse(await get('/api/sector_sentiment_scanner'));
    expect(sectors.map((row) => row.IndicatorName)).toEqual(['Information Technology']);
    const news = parseSectorNews(sectors[0]!.ValueRawJson);
    const aapl = JSON.parse(readFileSync(path.join(EXAMPLE, 'news', 'AAPL.json'), 'utf8')) as Array<{ headline: string; datetime: number }>;
    const recent = aapl.filter((item) => item.datetime <= Date.parse('2026-11-13T18:00:00Z') / 1000 && item.datetime >= Date.parse('2026-11-10T00:00:00Z') / 1000);
    expect(recent.length).toBeGreaterThan(0);
    expect(news.ok && news.items.map((item) => item.title).sort()).toEqual(recent.map((item) => item.headline).sort());
  });

  it('the overview shows the instruments the dataset has and leaves the others out', async () => {
    const overview = marketOverviewResponse.parse(await get('/api/market_overview'));
    expect(overview.market).toEqual({ phase: 'open', nextChange: '2026-11-13T21:00:00.000Z' });
    expect(overview.indices.map((quote) => quote.symbol)).toEqual(['SPY', 'BTC']);
    expect(overview.sectors).toEqual([]);
    expect(overview.failed).toEqual([]);
  });
});
