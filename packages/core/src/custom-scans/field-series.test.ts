import { describe, expect, it } from 'vitest';
import { atr, directionalMovement, ema, rsi, volumeProfileLevels } from '../indicators/index';
import { randomBars } from '../indicators/test-series';
import type { FieldRef } from './ast';
import { SCAN_FIELDS } from './fields';
import { fieldSeries, resolveField, type ScanBars } from './field-series';

// docs/custom-scans.md, "Fields": each field against a straightforward computation written here
// (plain loops over plain arrays), or, for the TA-Lib fields, against the core indicator at the same
// index (the indicators have TA-Lib tests of their own).

const BARS = 300;
const SEEDS = [1, 2, 3, 4, 5];

/** The bars with plain arrays beside them, for the naive definitions. */
function bars(seed: number, length = BARS): ScanBars {
  return randomBars(seed, length);
}

type Naive = (b: ScanBars, i: number) => number;

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
const window = (values: Float64Array, i: number, n: number) => Array.from(values.slice(i - n + 1, i + 1));
/** The value at i when it is finite, else NaN. */
const fin = (value: number) => (Number.isFinite(value) ? value : Number.NaN);

const naive: Record<string, (p: number) => Naive> = {
  close: () => (b, i) => b.close[i]!,
  change_pct: (n) => (b, i) => (i < n ? Number.NaN : (b.close[i]! / b.close[i - n]! - 1) * 100),
  pct_below_high: (n) => (b, i) => {
    if (i < n - 1) return Number.NaN;
    const high = Math.max(...window(b.high, i, n));
    return ((high - b.close[i]!) / high) * 100;
  },
  pct_above_low: (n) => (b, i) => {
    if (i < n - 1) return Number.NaN;
    const low = Math.min(...window(b.low, i, n));
    return ((b.close[i]! - low) / low) * 100;
  },
  sma: (n) => (b, i) => (i < n - 1 ? Number.NaN : mean(window(b.close, i, n))),
  pct_from_sma: (n) => (b, i) => (i < n - 1 ? Number.NaN : (b.close[i]! / mean(window(b.close, i, n)) - 1) * 100),
  rvol: () => (b, i) => (i < 20 ? Number.NaN : b.volume[i]! / mean(Array.from(b.volume.slice(i - 20, i)))),
  avg_dollar_volume: (n) => (b, i) => (i < n - 1 ? Number.NaN : mean(window(b.close, i, n).map((c, k) => c * b.volume[i - n + 1 + k]!))),
  gap_pct: () => (b, i) => (i < 1 ? Number.NaN : (b.open[i]! / b.close[i - 1]! - 1) * 100),
  rsi: (n) => (b, i) => rsi(b.close, n)[i]!,
  ema: (n) => (b, i) => ema(b.close, n)[i]!,
  pct_from_ema: (n) => (b, i) => (b.close[i]! / ema(b.close, n)[i]! - 1) * 100,
  atr: (n) => (b, i) => atr(b.high, b.low, b.close, n)[i]!,
  atr_pct: (n) => (b, i) => (atr(b.high, b.low, b.close, n)[i]! / b.close[i]!) * 100,
  adx: (n) => (b, i) => directionalMovement(b.high, b.low, b.close, n).adx[i]!,
  vp_distance_pct: () => (b, i) => {
    if (i < 119) return Number.NaN;
    const cut = (values: Float64Array) => values.slice(0, i + 1);
    const levels = volumeProfileLevels(cut(b.high), cut(b.low), cut(b.close), cut(b.volume));
    let best = Number.POSITIVE_INFINITY;
    for (const level of levels) best = Math.min(best, (Math.abs(level - b.close[i]!) / b.close[i]!) * 100);
    return levels.length === 0 ? Number.NaN : best;
  },
};

const CASES: [string, number[]][] = [
  ['close', []],
  ['change_pct', [1]],
  ['change_pct', [5]],
  ['change_pct', [250]],
  ['pct_below_high', [21]],
  ['pct_below_high', [252]],
  ['pct_above_low', [63]],
  ['pct_above_low', [126]],
  ['sma', [2]],
  ['sma', [50]],
  ['sma', [200]],
  ['pct_from_sma', [20]],
  ['rvol', []],
  ['avg_dollar_volume', [1]],
  ['avg_dollar_volume', [20]],
  ['gap_pct', []],
  ['rsi', [2]],
  ['rsi', [14]],
  ['ema', [20]],
  ['pct_from_ema', [9]],
  ['atr', [1]],
  ['atr', [14]],
  ['atr_pct', [10]],
  ['adx', [2]],
  ['adx', [14]],
  ['vp_distance_pct', []],
];

/** Both NaN, or within 1e-9 (relative to the value's size when it is above 1). */
function expectClose(actual: number, expected: number, where: string) {
  if (Number.isNaN(expected)) {
    expect(actual, where).toBeNaN();
    return;
  }
  expect(Math.abs(actual - expected), `${where}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

describe('fieldSeries: every bar field against its definition', () => {
  it('covers every bar field of the catalogue', () => {
    const bar = SCAN_FIELDS.filter((spec) => spec.source === 'bars').map((spec) => spec.name);
    expect(new Set(CASES.map(([field]) => field))).toEqual(new Set(bar));
  });

  it.each(CASES)('%s(%s) at every index of random series', (field, params) => {
    const definition = naive[field]!(params[0] ?? 0);
    for (const seed of SEEDS) {
      const b = bars(seed);
      const series = fieldSeries({ field, params }, b, BARS - 1);
      expect(series).toHaveLength(BARS);
      for (let i = 0; i < BARS; i += 1) expectClose(series[i]!, fin(definition(b, i)), `${field}(${params}) seed ${seed} at ${i}`);
    }
  });

  it('the TA-Lib fields equal the core indicators: EMA and ATR bit for bit, RSI and ADX to 1e-9 (wilder-kernels.ts multiplies where they divide)', () => {
    const b = bars(7);
    expect(fieldSeries({ field: 'ema', params: [30] }, b, BARS - 1)).toEqual(ema(b.close, 30));
    expect(fieldSeries({ field: 'atr', params: [14] }, b, BARS - 1)).toEqual(atr(b.high, b.low, b.close, 14));
    const rsiSeries = fieldSeries({ field: 'rsi', params: [14] }, b, BARS - 1);
    const adxSeries = fieldSeries({ field: 'adx', params: [14] }, b, BARS - 1);
    const rsiReference = rsi(b.close, 14);
    const adxReference = directionalMovement(b.high, b.low, b.close, 14).adx;
    for (let i = 0; i < BARS; i += 1) {
      expectClose(rsiSeries[i]!, rsiReference[i]!, `rsi(14) at ${i}`);
      expectClose(adxSeries[i]!, adxReference[i]!, `adx(14) at ${i}`);
    }
  });

  it('starts where each field has its history: N bars for a window, N + 1 closes for a change', () => {
    const b = bars(3);
    const firstDefined = (ref: FieldRef) => fieldSeries(ref, b, BARS - 1).findIndex((value) => !Number.isNaN(value));
    expect(firstDefined({ field: 'close', params: [] })).toBe(0);
    expect(firstDefined({ field: 'gap_pct', params: [] })).toBe(1);
    expect(firstDefined({ field: 'change_pct', params: [5] })).toBe(5);
    expect(firstDefined({ field: 'pct_below_high', params: [21] })).toBe(20);
    expect(firstDefined({ field: 'sma', params: [50] })).toBe(49);
    expect(firstDefined({ field: 'rvol', params: [] })).toBe(20);
    expect(firstDefined({ field: 'avg_dollar_volume', params: [20] })).toBe(19);
    expect(firstDefined({ field: 'rsi', params: [14] })).toBe(14);
    expect(firstDefined({ field: 'ema', params: [20] })).toBe(19);
    expect(firstDefined({ field: 'atr', params: [14] })).toBe(14);
    expect(firstDefined({ field: 'adx', params: [14] })).toBe(27);
    expect(firstDefined({ field: 'vp_distance_pct', params: [] })).toBe(119);
  });
});

describe('fieldSeries: as of a bar, no look-ahead', () => {
  it.each(CASES)('%s(%s) at i is the same bit for bit on the bars cut after i', (field, params) => {
    const b = bars(11);
    const full = fieldSeries({ field, params }, b, BARS - 1);
    const cut = (i: number): ScanBars => ({
      open: b.open.slice(0, i + 1),
      high: b.high.slice(0, i + 1),
      low: b.low.slice(0, i + 1),
      close: b.close.slice(0, i + 1),
      volume: b.volume.slice(0, i + 1),
    });
    for (const i of [0, 1, 13, 14, 27, 119, 120, 150, 251, 252, 298]) {
      expect(Object.is(fieldSeries({ field, params }, cut(i), i)[i], full[i]), `${field} at ${i}`).toBe(true);
      // And as of i on the whole history: the bars after i are not read.
      expect(Object.is(fieldSeries({ field, params }, b, i)[i], full[i]), `${field} as of ${i}`).toBe(true);
    }
  });

  it('a trailing window computes the same values as the whole series', () => {
    const b = bars(12);
    for (const [field, params] of CASES) {
      const full = fieldSeries({ field, params }, b, BARS - 1);
      const out = new Float64Array(6);
      resolveField({ field, params }).fill(b, {}, 200, 205, out);
      expect(Array.from(out), field).toEqual(Array.from(full.slice(200, 206)));
    }
  });
});

describe('fieldSeries: missing and bad data', () => {
  it('is NaN, never a throw, on too little history (short series against the definitions)', () => {
    for (const length of [1, 2, 5, 14, 20, 21, 27, 28, 119, 120]) {
      const b = bars(4, length);
      for (const [field, params] of CASES) {
        const series = fieldSeries({ field, params }, b, length - 1);
        const definition = naive[field]!(params[0] ?? 0);
        for (let i = 0; i < length; i += 1) expectClose(series[i]!, fin(definition(b, i)), `${field}(${params}) of ${length} bars at ${i}`);
      }
    }
    expect(Array.from(fieldSeries({ field: 'sma', params: [200] }, bars(4, 199), 198)).every(Number.isNaN)).toBe(true);
  });

  it('is NaN on a zero divisor or a bar that is not a finite number', () => {
    const b = bars(5, 60);
    b.close[30] = 0;
    b.high[40] = Number.NaN;
    b.volume.fill(0, 0, 25);
    const at = (field: string, params: number[], i: number) => fieldSeries({ field, params }, b, 59)[i]!;
    expect(at('change_pct', [1], 31)).toBeNaN();
    expect(at('change_pct', [1], 32)).not.toBeNaN();
    expect(at('gap_pct', [], 31)).toBeNaN();
    expect(at('pct_below_high', [21], 40)).toBeNaN();
    expect(at('pct_below_high', [21], 60 - 1)).toBeNaN(); // 39..59 holds the NaN high
    expect(at('pct_below_high', [21], 39)).not.toBeNaN();
    expect(at('rvol', [], 24)).toBeNaN(); // the 20 sessions before carry no volume
    expect(at('rvol', [], 44)).not.toBeNaN();
    expect(at('atr_pct', [14], 30)).toBeNaN();
  });

  it('never throws on garbage bars, for any field', () => {
    const garbage = new Float64Array([Number.NaN, 0, -1, Number.POSITIVE_INFINITY, 5, Number.NEGATIVE_INFINITY, 0]);
    const g = (length: number) => Float64Array.from({ length }, (_, i) => garbage[i % garbage.length]!);
    const b: ScanBars = { open: g(200), high: g(200), low: g(200), close: g(200), volume: g(200) };
    for (const [field, params] of CASES) {
      const series = fieldSeries({ field, params }, b, 199);
      expect(Array.from(series).every((value) => Number.isNaN(value) || Number.isFinite(value)), field).toBe(true);
    }
  });

  it('reads the shortest of the arrays', () => {
    const b = bars(6, 50);
    const short = { ...b, volume: b.volume.slice(0, 40) };
    expect(() => fieldSeries({ field: 'close', params: [] }, short, 40)).toThrow(RangeError);
    expect(fieldSeries({ field: 'atr', params: [14] }, short, 39)).toEqual(atr(b.high.slice(0, 40), b.low.slice(0, 40), b.close.slice(0, 40), 14));
  });

  it('facts are the same at every index; missing facts and text fields are NaN', () => {
    const b = bars(8, 5);
    expect(Array.from(fieldSeries({ field: 'days_to_earnings', params: [] }, b, 4, { daysToEarnings: 3 }))).toEqual([3, 3, 3, 3, 3]);
    expect(Array.from(fieldSeries({ field: 'news_sentiment', params: [] }, b, 2, { newsSentiment: -2 }))).toEqual([-2, -2, -2]);
    expect(Array.from(fieldSeries({ field: 'days_to_earnings', params: [] }, b, 1, { daysToEarnings: null }))).toEqual([Number.NaN, Number.NaN]);
    expect(Array.from(fieldSeries({ field: 'news_sentiment', params: [] }, b, 1, { newsSentiment: Number.NaN }))).toEqual([Number.NaN, Number.NaN]);
    expect(Array.from(fieldSeries({ field: 'sector', params: [] }, b, 1, { sector: 'Energy' }))).toEqual([Number.NaN, Number.NaN]);
    expect(resolveField({ field: 'sector', params: [] }).text({ sector: ' Energy ' })).toBe(' Energy ');
    expect(resolveField({ field: 'exchange', params: [] }).text({})).toBeNull();
  });

  it('refuses unknown fields, refused parameters and an end that is no bar index', () => {
    const b = bars(9, 20);
    expect(() => fieldSeries({ field: 'rsx', params: [] }, b, 19)).toThrow(RangeError);
    expect(() => fieldSeries({ field: 'rsi', params: [1] }, b, 19)).toThrow(RangeError);
    expect(() => fieldSeries({ field: 'pct_below_high', params: [30] }, b, 19)).toThrow(RangeError);
    expect(() => fieldSeries({ field: 'close', params: [] }, b, 20)).toThrow(RangeError);
    expect(() => fieldSeries({ field: 'close', params: [] }, b, 1.5)).toThrow(RangeError);
    expect(fieldSeries({ field: 'close', params: [] }, b, -1)).toHaveLength(0);
    // Parameters left out take their defaults.
    expect(fieldSeries({ field: 'rsi', params: [] }, b, 19)).toEqual(fieldSeries({ field: 'rsi', params: [14] }, b, 19));
  });
});
