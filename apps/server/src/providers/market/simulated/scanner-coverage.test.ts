/**
 * The simulated market must be rich enough that on any day each scanner of the spec finds some
 * stocks and passes over most (docs/design.md "Market data"). This runs the real core rules over every US
 * stock of the universe at fixed instants spread over two years and through the day (before the
 * open, in the first minutes, mid-session, after the close, a weekend), with the metrics computed as
 * MarketService.metrics does (daily bars of the last 200 days, intraday bars for dailyrsi, sector
 * sentiment from the market), and checks the hit rates.
 */
import {
  checkDrop,
  DEFAULT_DROP_SELECTION,
  DEFAULT_DROP_THRESHOLD_PERCENT,
  DROP_SELECTIONS,
  latestRsi,
  rangeMetrics,
  scanOptionSignals,
  volumeProfileLevels,
  type DropSelection,
} from '@signalboard/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { US_STOCKS } from '../universe';
import { createSimulatedMarket } from './simulated-market';

/** Instants (UTC) and what they are in New York. */
const SAMPLES = [
  '2024-12-10T14:40:00Z', // Tue 09:40 EST: two bars into the session
  '2025-01-14T15:00:00Z', // Tue 10:00 EST: six bars in
  '2025-02-26T21:30:00Z', // Wed 16:30 EST: after the close
  '2025-04-08T18:30:00Z', // Tue 14:30 EDT
  '2025-05-20T13:45:00Z', // Tue 09:45 EDT: three bars in
  '2025-06-24T18:30:00Z', // Tue 14:30 EDT
  '2025-07-31T22:00:00Z', // Thu 18:00 EDT: after the close
  '2025-09-05T16:00:00Z', // Fri 12:00 EDT
  '2025-11-25T18:30:00Z', // Tue 13:30 EST
  '2026-01-14T15:00:00Z', // Wed 10:00 EST
  '2026-03-31T12:00:00Z', // Tue 08:00 EDT: before the open (Monday's session stands)
  '2026-05-16T15:00:00Z', // Saturday: Friday's session stands
  '2026-08-18T15:30:00Z', // Tue 11:30 EDT
  '2026-11-23T18:30:00Z', // Mon 13:30 EST
];

const STOCKS = US_STOCKS.length;
/** Bars the metrics read (MarketService: getRecentDailyBars(symbol, 200)). */
const METRICS_HISTORY_DAYS = 200;
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

interface Sample {
  at: string;
  /** Stocks flagged by each drop-scanner selection at the default threshold. */
  drop: Record<DropSelection, number>;
  /** Stocks with at least one Option Scanner flag, and with a CALL / a PUT. */
  option: number;
  call: number;
  put: number;
  /** Stocks whose dailyrsi is null. */
  noDailyRsi: number;
}

async function scanAt(at: string): Promise<Sample> {
  const clock = new FakeClock(Date.parse(at));
  const market = createSimulatedMarket({ clock });
  const nowSeconds = Math.floor(clock.nowMs() / 1000);
  const sample: Sample = { at, drop: { '30DayHigh': 0, '60DayHigh': 0, '60DayLow': 0, '30DayLow': 0 }, option: 0, call: 0, put: 0, noDailyRsi: 0 };
  for (const { symbol } of US_STOCKS) {
    const [quote, daily, intraday, sentiment] = await Promise.all([
      market.getQuote(symbol),
      market.getDailyBars(symbol, nowSeconds - METRICS_HISTORY_DAYS * 86_400, nowSeconds + 86_400),
      market.getIntradayBars(symbol),
      market.getNewsSentiment(symbol),
    ]);
    const ranges = rangeMetrics(daily.high, daily.low);
    for (const selection of DROP_SELECTIONS) {
      if (checkDrop(symbol, quote.price, ranges, selection, DEFAULT_DROP_THRESHOLD_PERCENT)) sample.drop[selection] += 1;
    }
    const rsiDaily = round2(latestRsi(intraday.close, 14));
    if (rsiDaily === null) sample.noDailyRsi += 1;
    const flags = scanOptionSignals({
      symbol,
      currentPrice: quote.price,
      ...ranges,
      rsi14: round2(latestRsi(daily.close, 14)),
      rsiDaily,
      levels: volumeProfileLevels(daily.high, daily.low, daily.close, daily.volume).map((level) => round2(level)!),
      sectorAverageBullishPercent: sentiment.sectorAverageBullishPercent,
    });
    if (flags.length > 0) sample.option += 1;
    if (flags.some((flag) => flag.action === 'CALL')) sample.call += 1;
    if (flags.some((flag) => flag.action === 'PUT')) sample.put += 1;
  }
  return sample;
}

const percent = (count: number) => (100 * count) / STOCKS;
const table = (samples: Sample[]) =>
  samples
    .map((s) => `${s.at} ${DROP_SELECTIONS.map((k) => `${k} ${percent(s.drop[k]).toFixed(1)}%`).join(' ')} option ${s.option} (CALL ${s.call}, PUT ${s.put})`)
    .join('\n');

describe('scanner coverage of the simulated market (every US stock, fixed instants)', () => {
  let samples: Sample[] = [];

  beforeAll(async () => {
    // Latest first: the first scan generates each symbol's history through the latest day, and the
    // earlier instants read prefixes of it.
    const ordered = [...SAMPLES].sort().reverse();
    const scanned: Sample[] = [];
    for (const at of ordered) scanned.push(await scanAt(at));
    samples = scanned.sort((a, b) => a.at.localeCompare(b.at));
  }, 60_000);

  it('has dailyrsi from the open: the first bars of a session follow the previous session', () => {
    for (const sample of samples) expect(sample.noDailyRsi, sample.at).toBe(0);
  });

  it('flags some stocks with the default drop selection (30 Day High, 10 %) and at most a quarter', () => {
    const summary = table(samples);
    for (const sample of samples) {
      const flagged = sample.drop[DEFAULT_DROP_SELECTION];
      expect(flagged, `${sample.at}\n${summary}`).toBeGreaterThanOrEqual(1);
      expect(percent(flagged), `${sample.at}\n${summary}`).toBeLessThanOrEqual(25);
    }
  });

  it('flags some stocks and passes over most with the 60-day and low selections', () => {
    const summary = table(samples);
    for (const selection of ['60DayHigh', '60DayLow', '30DayLow'] as const) {
      for (const sample of samples) {
        expect(sample.drop[selection], `${selection} ${sample.at}\n${summary}`).toBeGreaterThanOrEqual(1);
        // A stock 10 % off its 6-month extreme is ordinary; most stocks still must not be.
        expect(percent(sample.drop[selection]), `${selection} ${sample.at}\n${summary}`).toBeLessThanOrEqual(70);
      }
      const mean = samples.reduce((sum, sample) => sum + percent(sample.drop[selection]), 0) / samples.length;
      expect(mean, `${selection} mean\n${summary}`).toBeLessThanOrEqual(60);
    }
  });

  it('flags at least one option trade (CALL or PUT) and at most 5 % of the stocks', () => {
    const summary = table(samples);
    for (const sample of samples) {
      expect(sample.option, `${sample.at}\n${summary}`).toBeGreaterThanOrEqual(1);
      expect(percent(sample.option), `${sample.at}\n${summary}`).toBeLessThanOrEqual(5);
    }
    // Both sides occur over the samples: oversold stocks in upbeat sectors, and the reverse.
    expect(samples.reduce((sum, sample) => sum + sample.call, 0)).toBeGreaterThan(0);
    expect(samples.reduce((sum, sample) => sum + sample.put, 0)).toBeGreaterThan(0);
  });
});
