/**
 * The crypto engine on the pinned, file-backed e2e market (e2e/fixtures/market/crypto.ts) at
 * MARKET_NOW: the install replay over every UTC day (weekends included), the passes at 00:05 UTC,
 * GET api/all_crypto_scanner (shape, filters, 400s, 401), the coin detail with its UTC-day candles,
 * and GET api/crypto_scorecard recomputed here independently from the stored log and the dataset's
 * closes.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoEngine, cryptoScorecardResponse, cryptoTradesResponse, dayNumber, ideaDetail, type CryptoTrade } from '@signalboard/core';
import { CRYPTO_BARS, CRYPTO_CANDLES, CRYPTO_LAST_CANDLE, CRYPTO_QUOTES, PEPE_CANDLES } from '../../../../../e2e/fixtures/market/crypto';
import { DATASET_PARTS } from '../../../../../e2e/fixtures/market';
import { MARKET_NOW, writeDataset } from '../../../../../e2e/fixtures/market/dataset';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ideaEvents, tradeEngineVersions } from '../../db/schema';

let t: TestApp;
let headers: { authorization: string };
let datasetDir: string;
let replayMs = 0;

beforeAll(async () => {
  datasetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-crypto-dataset-'));
  await writeDataset(datasetDir, DATASET_PARTS);
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW }, { tradeEngines: [cryptoEngine] });
  const email = uniqueEmail('crypto');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
  const started = performance.now();
  await t.app.tradeJobs.tick();
  await t.app.tradeJobs.replaysIdle();
  replayMs = performance.now() - started;
  // The next tick: the daily pass (nothing new: 2026-11-19 is decided) and the minute's marks at the quotes.
  const outcomes = await t.app.tradeJobs.tick();
  expect(Object.keys(outcomes).sort()).toEqual(['trades-daily:crypto', 'trades-marks:crypto']);
}, 300_000);
afterAll(async () => {
  await t.close();
  await fs.rm(datasetDir, { recursive: true, force: true });
});

const get = (url: string, auth = true) => t.app.inject({ method: 'GET', url, ...(auth ? { headers } : {}) });
const bySymbol = (rows: CryptoTrade[]) => new Map(rows.map((row) => [row.Symbol, row]));

describe('the crypto engine on the pinned market', () => {
  it('replays every UTC day after the 200 warm-up candles, weekends included, each session stamped at its 00:05 UTC pass', async () => {
    console.info(`crypto install replay on the pinned market: ${replayMs.toFixed(0)} ms`);
    const [version] = await t.db.select().from(tradeEngineVersions);
    expect(version).toMatchObject({ engine: 'crypto', ruleVersion: 'crypto@1.0.0', replayState: 'done', lastSession: CRYPTO_LAST_CANDLE, sessionsTotal: CRYPTO_CANDLES - 200 });
    const events = await t.db.select().from(ideaEvents);
    const btc = events.filter((event) => event.symbol === 'BTC' && event.type !== 'signal_changed');
    // One event a day: Saturdays and Sundays decided too.
    expect(btc).toHaveLength(CRYPTO_CANDLES - 200);
    const weekdays = new Set(btc.map((event) => new Date(`${event.barDate}T00:00:00Z`).getUTCDay()));
    expect([...weekdays].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const event of events) {
      const pass = new Date((dayNumber(event.barDate) + 1) * 86_400_000 + 5 * 60_000);
      expect(event.recordedAt.toISOString()).toBe(pass.toISOString());
    }
  });

  it('GET api/all_crypto_scanner: one row per coin, by Symbol, with the signals, badges and defaults the fixture is built for', async () => {
    const response = await get('/api/all_crypto_scanner');
    expect(response.statusCode, response.body).toBe(200);
    const rows = cryptoTradesResponse.parse(response.json());
    expect(rows.map((row) => row.Symbol)).toEqual(['ADA', 'BTC', 'DOGE', 'ETH', 'PEPE', 'SOL', 'XRP']);
    const row = bySymbol(rows);
    const signals = (symbol: string) => {
      const one = row.get(symbol)!;
      return [one.ShortTermSignal, one.MediumTermSignal, one.LongTermSignal];
    };
    expect(signals('BTC')).toEqual(['Buy', 'Buy', 'Buy']);
    expect(signals('ETH')).toEqual(['Sell', 'Sell', 'Sell']);
    expect(signals('XRP')).toEqual(['Hold', 'Hold', 'Hold']);
    expect(signals('SOL')).toEqual(['Sell', 'Buy', 'Buy']);
    expect(signals('DOGE')).toEqual(['Buy', 'Hold', 'Sell']);
    // NEW: SOL's Short turned Sell on 2026-11-19 (the pass at 2026-11-20 00:05 UTC); ADA's last change was a day earlier.
    expect(rows.filter((one) => one.IsNew).map((one) => one.Symbol)).toEqual(['SOL']);
    expect(row.get('SOL')).toMatchObject({ DateCreated: '2026-11-20T00:05:00.000Z', SignalChangedOn: '2026-11-19', VolumeLabel: 'High' });
    expect(row.get('ADA')).toMatchObject({ DateCreated: '2026-11-19T00:05:00.000Z', SignalChangedOn: '2026-11-18', IsSwingLevel: '1' });
    // Prices: the intraday quotes (BTC's is the dashboard part's).
    expect(row.get('BTC')!.CurrentPrice).toBe(97_250);
    expect(row.get('ETH')!.CurrentPrice).toBe(CRYPTO_QUOTES.ETH);
    expect(row.get('ETH')!.LastClose).toBe(CRYPTO_BARS.ETH!.at(-1)!.close);
    // News: ETH positive, DOGE negative (3 headlines each), BTC one headline (summary, but Insufficient).
    expect(row.get('ETH')).toMatchObject({ NewsSentiment: 'Positive', HeadlineCount: 3, SentimentSource: 'lexicon' });
    expect(row.get('DOGE')).toMatchObject({ NewsSentiment: 'Negative', HeadlineCount: 3 });
    expect(row.get('BTC')).toMatchObject({ NewsSentiment: 'Insufficient', HeadlineCount: 1 });
    expect(row.get('BTC')!.News).not.toBe('No recent news summary available.');
    expect(row.get('XRP')!.News).toBe('No recent news summary available.');
    // PEPE: 45 candles, so no 6-month high and no trend yet, and each says why.
    expect(row.get('PEPE')).toMatchObject({ Candles: PEPE_CANDLES, SixMonthHigh: null, DropPercentage60: null, Trend: 'No Clear Trend', LongTermSignal: 'Hold' });
    expect(row.get('PEPE')!.Unavailable.map((item) => [item.field, item.code])).toEqual(expect.arrayContaining([['SixMonthHigh', 'warm_up'], ['Trend', 'warm_up']]));
    // The highs are the candles' own (BTC: max High of the last 30 candles).
    const btcBars = CRYPTO_BARS.BTC!;
    expect(row.get('BTC')!.OneMonthHigh).toBe(Math.max(...btcBars.slice(-30).map((bar) => bar.high)));
    expect(row.get('BTC')!.SixMonthHigh).toBe(Math.max(...btcBars.slice(-180).map((bar) => bar.high)));
  });

  it('filters by symbol and by signal (on any horizon, or one), and answers 400 with msg and 401 without a token', async () => {
    expect(cryptoTradesResponse.parse((await get('/api/all_crypto_scanner?symbol=o')).json()).map((row) => row.Symbol)).toEqual(['DOGE', 'SOL']);
    const sellShort = cryptoTradesResponse.parse((await get('/api/all_crypto_scanner?signal=Sell&horizon=Short')).json());
    expect(sellShort.map((row) => row.Symbol)).toEqual(['ADA', 'ETH', 'SOL']);
    const anySell = cryptoTradesResponse.parse((await get('/api/all_crypto_scanner?signal=Sell')).json());
    expect(anySell.every((row) => [row.ShortTermSignal, row.MediumTermSignal, row.LongTermSignal].includes('Sell'))).toBe(true);
    expect(anySell.map((row) => row.Symbol)).toContain('DOGE');
    for (const query of ['signal=Strong', 'horizon=Short', 'horizon=Week&signal=Buy', 'nope=1']) {
      const response = await get(`/api/all_crypto_scanner?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ msg: string }>().msg, query).toMatch(/\S/);
    }
    expect((await get('/api/all_crypto_scanner', false)).statusCode).toBe(401);
    expect((await get('/api/crypto_scorecard', false)).statusCode).toBe(401);
  });

  it('GET api/trade_ideas/crypto/{id}: the row, its events with the signal changes, and UTC-day candles through the last complete day', async () => {
    const sol = bySymbol(cryptoTradesResponse.parse((await get('/api/all_crypto_scanner')).json())).get('SOL')!;
    const response = await get(`/api/trade_ideas/crypto/${encodeURIComponent(sol.Id)}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = ideaDetail.parse(response.json());
    expect(detail.idea).toMatchObject({ Symbol: 'SOL', IsNew: true, ShortTermSignal: 'Sell' });
    expect(detail.events[0]!.type).toBe('opened');
    expect(detail.events.filter((event) => event.type === 'signal_changed').at(-1)).toMatchObject({ level: 'Short', barDate: '2026-11-19', data: { horizon: 'Short', to: 'Sell' } });
    const days = detail.bars.map((bar) => dayNumber(bar.date));
    expect(detail.bars.at(-1)!.date).toBe(CRYPTO_LAST_CANDLE);
    // Every UTC day, no gaps (weekends included).
    days.slice(1).forEach((day, index) => expect(day - days[index]!).toBe(1));
    expect(detail.bars.at(-1)).toEqual({ ...CRYPTO_BARS.SOL!.at(-1)! });
  });

  it('GET api/crypto_scorecard: computed from the stored signal log and the closes (recomputed here), 400 with msg on bad dates', async () => {
    const response = await get('/api/crypto_scorecard');
    expect(response.statusCode, response.body).toBe(200);
    const card = cryptoScorecardResponse.parse(response.json());
    expect(card).toMatchObject({ asOf: CRYPTO_LAST_CANDLE, benchmarkSymbol: 'BTC', days: [7, 30, 90] });

    // Independently: every signal_changed event in the store, forward returns from the dataset's closes.
    const changes = (await t.db.select().from(ideaEvents)).filter((event) => event.type === 'signal_changed');
    const closeOf = (symbol: string, day: number) => CRYPTO_BARS[symbol]!.find((bar) => dayNumber(bar.date) === day)?.close ?? null;
    const asOf = dayNumber(CRYPTO_LAST_CANDLE);
    let checked = 0;
    for (const group of card.groups) {
      const mine = changes.filter((event) => event.level === group.horizon && (event.data as { to: string }).to === group.label);
      expect(group.signals).toBe(mine.length);
      expect(group.sign).toBe(group.label === 'Sell' ? -1 : 1);
      for (const cell of group.cells) {
        const scores: number[] = [];
        for (const event of mine) {
          const d = dayNumber(event.barDate);
          if (d + cell.days > asOf) continue;
          const start = closeOf(event.symbol, d);
          const end = closeOf(event.symbol, d + cell.days);
          if (start === null || end === null) continue;
          scores.push(group.sign * (end / start - 1));
        }
        expect(cell.n).toBe(scores.length);
        expect(cell.pending).toBe(mine.length - scores.length);
        if (scores.length === 0) {
          expect(cell.mean).toBeNull();
          continue;
        }
        expect(cell.mean).toBeCloseTo(scores.reduce((sum, value) => sum + value, 0) / scores.length, 12);
        expect(cell.sharePositive!.rate).toBeCloseTo(scores.filter((value) => value > 0).length / scores.length, 12);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(card.groups.reduce((sum, group) => sum + group.signals, 0)).toBe(changes.length);

    const scoped = cryptoScorecardResponse.parse((await get('/api/crypto_scorecard?from=2026-09-01&to=2026-11-19&symbol=sol')).json());
    expect(scoped.symbol).toBe('sol');
    expect(scoped.window).toEqual({ from: '2026-09-01', to: CRYPTO_LAST_CANDLE });
    const solChanges = changes.filter((event) => event.symbol === 'SOL' && event.barDate >= '2026-09-01');
    expect(scoped.groups.reduce((sum, group) => sum + group.signals, 0)).toBe(solChanges.length);

    for (const query of ['from=2026-13-01', 'from=2026-02-30', 'to=yesterday', 'from=2026-11-10&to=2026-11-01', 'window=1']) {
      const bad = await get(`/api/crypto_scorecard?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json<{ msg: string }>().msg, query).toMatch(/\S/);
    }
  });
});
