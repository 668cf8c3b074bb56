import { describe, expect, it } from 'vitest';
import { cryptoTrade } from '../../../contract/crypto-trades';
import type { Bar } from '../../kit/test-bars';
import { stampEvents } from '../../kit/replay';
import { cryptoEngine } from './engine';
import type { CryptoExtras } from './extras';
import { cryptoFieldsAt, trendOf, volumeLabelOf } from './fields';
import { CRYPTO_PARAMS } from './params';
import { candlesFromCloses, candlesOf } from './test-candles';

/** Every §3.1 field on hand-made candles, with the values worked out by hand (docs/rules/crypto.md §3.1, spec §9). */

const P = CRYPTO_PARAMS;
const NOW = Date.parse('2030-01-01T00:05:00Z');
/** ATR(14), Wilder, recomputed here (TA-Lib's seed: the mean of TR 1..14). */
function wilderAtr(bars: readonly Bar[]): number {
  const tr = bars.map((bar, i) => (i === 0 ? 0 : Math.max(bar.h - bar.l, Math.abs(bar.h - bars[i - 1]!.c), Math.abs(bar.l - bars[i - 1]!.c))));
  let atr = tr.slice(1, 15).reduce((a, b) => a + b, 0) / 14;
  for (let i = 15; i < bars.length; i += 1) atr = (atr * 13 + tr[i]!) / 14;
  return atr;
}
const flat = (n: number): Bar[] => Array.from({ length: n }, () => ({ o: 100, h: 101, l: 99, c: 100, v: 1_000_000 }));

/** The fold's row of a coin whose `opened` event carries these candles' fields (rounded as the API answers). */
function rowOf(bars: Bar[] | ReturnType<typeof candlesOf>, extras: CryptoExtras = {}, mark: { price: number; at: string } | null = null) {
  const series = Array.isArray(bars) ? candlesOf('TST', bars) : bars;
  const snapshot = cryptoFieldsAt(P, series, extras, NOW);
  const opened = { ideaId: 'crypto.TST.x', engine: 'crypto' as const, market: 'CRYPTO' as const, symbol: series.symbol, type: 'opened' as const, level: '', barDate: snapshot.candleDate, price: snapshot.close, data: { ...snapshot, createdAt: '2030-01-01T00:05:00.000Z', survivorshipBiased: false } };
  const stored = stampEvents(cryptoEngine, [opened], 'replayed', '2030-01-01T00:05:00.000Z');
  return cryptoTrade.parse(cryptoEngine.fold(stored, mark, '2030-01-01T06:00:00.000Z'));
}

describe('highs, drops, swing level, RVOL on a 200-candle hand-made series', () => {
  // Flat candles (close 100, High 101, Low 99) with: a 150 High on candle 20 (in the 180-candle
  // window only), a 120 High on candle 180 (in the 30-candle window; a swing high), a 90 Low on
  // candle 190 (a swing low), and the volumes of the 30 candles before the last = 1,000 … 30,000.
  const bars = flat(200);
  bars[20] = { ...bars[20]!, h: 150 };
  bars[180] = { ...bars[180]!, h: 120 };
  bars[190] = { ...bars[190]!, l: 90 };
  for (let k = 0; k < 30; k += 1) bars[169 + k]!.v = (k + 1) * 1000;
  bars[199]!.v = 31_000;

  it('OneMonthHigh 120, SixMonthHigh 150, drops from the close 100: 16.67 % and 33.33 %', () => {
    const row = rowOf(bars);
    expect(row).toMatchObject({ CurrentPrice: 100, OneMonthHigh: 120, SixMonthHigh: 150, DropPercentage: 16.67, DropPercentage60: 33.33 });
  });

  it('the drops follow the intraday mark (never below 0); the other fields stay on the candle', () => {
    const row = rowOf(bars, {}, { price: 130, at: '2030-01-01T05:00:00.000Z' });
    expect(row).toMatchObject({ CurrentPrice: 130, LastClose: 100, DropPercentage: 0, DropPercentage60: 13.33, DateUpdated: '2030-01-01T05:00:00.000Z' });
  });

  it('SwingLevel: the latest swing low (90) is nearer the close than the latest swing high (120); not near at 0.5 × ATR', () => {
    const row = rowOf(bars);
    expect(row).toMatchObject({ SwingLevel: 90, SwingKind: 'low', IsSwingLevel: '0' });
    // TR is 2 on flat candles, 21 on candle 180, 11 on candle 190, 51 on candle 20.
    expect(row.ATR_14_Day).toBe(Math.round(wilderAtr(bars) * 1e4) / 1e4);
  });

  it('the swing high wins when it is nearer; a level within 0.5 × ATR is IsSwingLevel 1', () => {
    const near = bars.map((bar) => ({ ...bar }));
    near[190] = { ...near[190]!, l: 40 };
    near[180] = { ...near[180]!, h: 101.9 };
    // |100 − 101.9| = 1.9 < |100 − 40| = 60; the 40 Low's TR of 61 lifts ATR to about (13 × 2.03 + 61) / 14 = 6.25,
    // which decays over 9 flat candles to about 2 + 4.25 × (13/14)^9 = 4.18: 1.9 ≤ 0.5 × ATR.
    const row = rowOf(near);
    expect(wilderAtr(near)).toBeCloseTo(4.1788, 4);
    expect(row).toMatchObject({ SwingLevel: 101.9, SwingKind: 'high', IsSwingLevel: '1', ATR_14_Day: 4.1788 });
    // Without the 40 Low, ATR stays near 2: 1.9 > 0.5 × ATR, not near.
    const calm = near.map((bar, i) => (i === 190 ? { ...bar, l: 99 } : bar));
    expect(wilderAtr(calm)).toBeLessThan(2.05);
    expect(rowOf(calm)).toMatchObject({ SwingLevel: 101.9, IsSwingLevel: '0' });
  });

  it('a fractal is confirmed only 2 candles later: the 90 Low on the last-but-one candle is not used', () => {
    const late = flat(200);
    late[198] = { ...late[198]!, l: 90 };
    const row = rowOf(late);
    expect(row.SwingLevel).toBeNull();
    expect(row.Unavailable).toContainEqual({ field: 'SwingLevel', code: 'no_swing_point', reason: 'no confirmed swing point within the last 90 candles' });
    // Two candles later it is.
    expect(rowOf([...late, ...flat(2)]).SwingLevel).toBe(90);
  });

  it('RVOL = 31,000 / median(1,000 … 30,000) = 31,000 / 15,500 = 2.00: High', () => {
    expect(rowOf(bars)).toMatchObject({ VolumeLevel: 2, VolumeLabel: 'High' });
    const at = (v: number) => rowOf(bars.map((bar, i) => (i === 199 ? { ...bar, v } : bar)));
    expect(at(20_150)).toMatchObject({ VolumeLevel: 1.3, VolumeLabel: 'Elevated' });
    expect(at(10_850)).toMatchObject({ VolumeLevel: 0.7, VolumeLabel: 'Normal' });
    expect(at(10_000)).toMatchObject({ VolumeLevel: 0.65, VolumeLabel: 'Low' });
  });

  it('coin volume (cryptoVolumeUnit base) is turned into USD volume with each candle’s close', () => {
    // Closes double on the last candle: USD volume 31,000 × 200 against a median of 15,500 × 100 → RVOL 4.
    const doubled = bars.map((bar, i) => (i === 199 ? { ...bar, c: 200, h: 201 } : bar));
    expect(rowOf(doubled, { cryptoVolumeUnit: 'base' }).VolumeLevel).toBe(4);
    expect(rowOf(doubled).VolumeLevel).toBe(2);
  });

  it('volume labels at their edges: High ≥ 2, Elevated ≥ 1.3, Normal ≥ 0.7, else Low', () => {
    expect([2, 1.9999, 1.3, 1.2999, 0.7, 0.6999].map((r) => volumeLabelOf(r, P))).toEqual(['High', 'Elevated', 'Elevated', 'Normal', 'Normal', 'Low']);
  });
});

describe('RSI and ATR: the reference series of docs/providers.md §10', () => {
  it('RSI(14) of the 4-decimal Wilder closes: 45.46 on 30 candles, 37.77 on 33', () => {
    const closes = [
      44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282, 46.0028, 46.0328, 46.4116, 46.2222, 45.6439,
      46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672, 43.4205, 42.6628, 43.1314,
    ];
    expect(rowOf(candlesFromCloses('TST', closes.slice(0, 30))).RSIValue).toBe(45.46);
    expect(rowOf(candlesFromCloses('TST', closes)).RSIValue).toBe(37.77);
  });

  it('ATR(14) of the 30-candle StockCharts series, TA-Lib convention: 1.3081 (1.3081375207 to 4 decimals)', () => {
    const H = [48.7, 48.72, 48.9, 48.87, 48.82, 49.05, 49.2, 49.35, 49.92, 50.19, 50.12, 49.66, 49.88, 50.19, 50.36, 50.57, 50.65, 50.43, 49.63, 50.33, 50.29, 50.17, 49.32, 48.5, 48.32, 46.8, 47.8, 48.39, 48.66, 48.79];
    const L = [47.79, 48.14, 48.39, 48.37, 48.24, 48.635, 48.94, 48.86, 49.5, 49.87, 49.2, 48.9, 49.43, 49.725, 49.26, 50.09, 50.3, 49.21, 48.98, 49.61, 49.2, 49.43, 48.08, 47.64, 41.55, 44.283, 47.31, 47.2, 47.9, 47.73];
    const C = [48.16, 48.61, 48.75, 48.63, 48.74, 49.03, 49.07, 49.32, 49.91, 50.13, 49.53, 49.5, 49.75, 50.03, 50.31, 50.52, 50.41, 49.34, 49.37, 50.23, 49.238, 49.93, 48.43, 48.18, 46.57, 45.41, 47.77, 47.72, 48.62, 47.85];
    const row = rowOf(H.map((h, i) => ({ o: C[i]!, h, l: L[i]!, c: C[i]! })));
    expect(row).toMatchObject({ ATR_14_Day: 1.3081, OneMonthHigh: 50.65, CurrentPrice: 47.85, DropPercentage: 5.53 });
  });
});

describe('Trend from ADX(14), ±DI and EMA50', () => {
  // Closes rising 1 a day, High/Low ± 0.5: +DM 1 and TR 1.5 every candle, −DM 0, so +DI = 100 / 1.5,
  // −DI = 0, every DX = 100 and ADX = 100; the close is above its EMA50.
  const rising = (n: number): Bar[] => Array.from({ length: n }, (_, i) => ({ o: 99 + i, h: 100.5 + i, l: 99.5 + i, c: 100 + i }));
  const falling = (n: number): Bar[] => Array.from({ length: n }, (_, i) => ({ o: 301 - i, h: 300.5 - i, l: 299.5 - i, c: 300 - i }));

  it('a steady rise is a Strong Uptrend (ADX 100, +DI 66.67, −DI 0); the mirror a Strong Downtrend', () => {
    expect(rowOf(rising(60))).toMatchObject({ Trend: 'Strong Uptrend', ADX: 100, PlusDI: 66.67, MinusDI: 0 });
    expect(rowOf(falling(60))).toMatchObject({ Trend: 'Strong Downtrend', ADX: 100, PlusDI: 0, MinusDI: 66.67 });
  });

  it("'No Clear Trend' below 60 candles, and the row says why", () => {
    const row = rowOf(rising(59));
    expect(row.Trend).toBe('No Clear Trend');
    expect(row.Unavailable).toContainEqual({ field: 'Trend', code: 'warm_up', reason: 'needs 60 candles, has 59' });
  });

  it('the thresholds: ADX ≥ 25 with the DI and the close on the same side; Strong from ADX 40', () => {
    expect(trendOf(25, 20, 10, 101, 100, P)).toBe('Uptrend');
    expect(trendOf(24.99, 20, 10, 101, 100, P)).toBe('No Clear Trend');
    expect(trendOf(39.99, 10, 20, 99, 100, P)).toBe('Downtrend');
    expect(trendOf(40, 20, 10, 101, 100, P)).toBe('Strong Uptrend');
    expect(trendOf(40, 10, 20, 99, 100, P)).toBe('Strong Downtrend');
    // DI up but the close below EMA50, or DI equal: no trend.
    expect(trendOf(50, 20, 10, 99, 100, P)).toBe('No Clear Trend');
    expect(trendOf(50, 15, 15, 101, 100, P)).toBe('No Clear Trend');
  });
});

describe('defaults while warming up (30 candles) and where the data cannot give a field', () => {
  it('at 30 candles: SixMonthHigh N/A (null), VolumeLevel null (needs 31), No Clear Trend, Hold signals, the default news', () => {
    const row = rowOf(flat(30));
    expect(row).toMatchObject({
      Candles: 30,
      SixMonthHigh: null,
      DropPercentage60: null,
      VolumeLevel: null,
      VolumeLabel: null,
      Trend: 'No Clear Trend',
      ShortTermSignal: 'Hold',
      MediumTermSignal: 'Hold',
      LongTermSignal: 'Hold',
      NewsSentiment: 'Insufficient',
      News: 'No recent news summary available.',
      OneMonthHigh: 101,
    });
    expect(row.Unavailable.map((u) => `${u.field}:${u.code}`)).toEqual(['SixMonthHigh:warm_up', 'VolumeLevel:warm_up', 'SwingLevel:no_swing_point', 'Trend:warm_up']);
  });

  it('close-only candles (the source says so): ATR, highs, drops, swing and trend show defaults with the reason; RSI stays', () => {
    const series = candlesFromCloses('TST', Array.from({ length: 200 }, (_, i) => 100 + i));
    const row = rowOf(series, { cryptoCloseOnly: new Set(['TST']) });
    expect(row).toMatchObject({ ATR_14_Day: null, OneMonthHigh: null, SixMonthHigh: null, DropPercentage: null, DropPercentage60: null, SwingLevel: null, IsSwingLevel: '0', Trend: 'No Clear Trend', RSIValue: 100 });
    expect(row.Unavailable.filter((u) => u.code === 'close_only').map((u) => u.field)).toEqual(['ATR_14_Day', 'OneMonthHigh', 'SixMonthHigh', 'SwingLevel', 'Trend']);
    expect(row.Unavailable[0]!.reason).toBe('the source gives only closes for this coin (no High/Low)');
    // The same candles with their ranges give every field (a steady rise has no swing low or high).
    expect(rowOf(series).Unavailable.map((u) => u.code)).toEqual(['no_swing_point']);
  });

  it('a candle without a usable High/Low: only the fields whose window reads it lose their value', () => {
    const bars = flat(200);
    bars[100] = { ...bars[100]!, h: Number.NaN };
    const row = rowOf(bars);
    // The 30-candle high does not read candle 100; the 180-candle high, ATR and ADX (whole history) do.
    expect(row).toMatchObject({ OneMonthHigh: 101, SixMonthHigh: null, ATR_14_Day: null, Trend: 'No Clear Trend' });
    expect(row.Unavailable.find((u) => u.field === 'SixMonthHigh')).toEqual({ field: 'SixMonthHigh', code: 'close_only', reason: 'a candle it reads has no usable High/Low' });
  });

  it('no volume: VolumeLevel null and why', () => {
    const bars = flat(40).map((bar) => ({ ...bar, v: 0 }));
    expect(rowOf(bars).Unavailable).toContainEqual({ field: 'VolumeLevel', code: 'no_volume', reason: 'the median volume of the 30 candles before is 0' });
    const missing = flat(40);
    missing[20]!.v = Number.NaN;
    expect(rowOf(missing).Unavailable).toContainEqual({ field: 'VolumeLevel', code: 'no_volume', reason: 'a candle it reads has no volume' });
  });
});

describe('news fields from the extras', () => {
  it('sentiment from the scored headlines, the analyst summary and its source', () => {
    const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();
    const headlines = [
      { url: 'u1', title: 'ETF inflows', publishedAt: at(1), score: 0.5, source: 'A' },
      { url: 'u2', title: 'Upgrade ships', publishedAt: at(2), score: 0.4, source: 'B' },
      { url: 'u3', title: 'Exchange lists token', publishedAt: at(3), score: 0.3, source: 'C' },
    ];
    const row = rowOf(flat(30), { cryptoNews: new Map([['TST', headlines]]), cryptoNewsSummaries: new Map([['TST', '  Inflows and an upgrade.  ']]), cryptoSentimentSource: 'lexicon' });
    expect(row).toMatchObject({ NewsSentiment: 'Positive', HeadlineCount: 3, SentimentSource: 'lexicon', News: 'Inflows and an upgrade.' });
    expect(row.NewsScore).toBeGreaterThan(0.39);
    // A blank summary is the default text.
    expect(rowOf(flat(30), { cryptoNewsSummaries: new Map([['TST', '  ']]) }).News).toBe('No recent news summary available.');
  });
});
