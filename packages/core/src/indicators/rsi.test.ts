import { AverageGain, AverageLoss, RSI } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { latestRsi, rsi } from './rsi';
import { randomWalk } from './test-series';

// docs/providers.md §10.3: the StockCharts worked example, TA-Lib values from a port of ta_RSI.c
// (checked there against TA-Lib compiled to WASM), given to 10 decimals.
const CLOSES_4DP = [
  44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282,
  46.0028, 46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672,
  43.4205, 42.6628, 43.1314,
];
const CLOSES_2DP = [
  44.34, 44.09, 44.15, 43.61, 44.33, 44.83, 45.1, 45.42, 45.84, 46.08, 45.89, 46.03, 45.61, 46.28, 46.28, 46.0, 46.03, 46.41, 46.22, 45.64,
  46.21, 46.25, 45.71, 46.45, 45.78, 45.35, 44.03, 44.18, 44.22, 44.57, 43.42, 42.66, 43.13,
];
const TALIB_4DP = [
  70.5327894837, 66.3185618052, 66.5498299355, 69.4063053388, 66.3551690563, 57.9748557143, 62.9296067546, 63.2571475625, 56.0592987153,
  62.3770714432, 54.7075730813, 50.4227744115, 39.9898231454, 41.4604819757, 41.8689160925, 45.4632124453, 37.3040420899, 33.0795229944,
  37.7729521144,
];
const TALIB_2DP = [
  70.4641350211, 66.2496185536, 66.4809418347, 69.3468531629, 66.2947126589, 57.9150206701, 62.88071831, 63.2087887183, 56.0115847895,
  62.3399293109, 54.6709713777, 50.3868151951, 40.0194237913, 41.4926354042, 41.9024296785, 45.4994972387, 37.3227783134, 33.0904825727,
  37.7887719821,
];

describe('rsi: TA-Lib reference series (docs/providers.md §10.3)', () => {
  // The table is rounded to 10 decimals, so toBeCloseTo(x, 9) (|diff| < 5e-10) leaves room only for that rounding.
  it.each([
    ['4-decimal closes', CLOSES_4DP, TALIB_4DP],
    ['2-decimal closes', CLOSES_2DP, TALIB_2DP],
  ])('matches TA-Lib on the %s', (_, closes, expected) => {
    const out = rsi(closes);
    expect(out).toHaveLength(33);
    for (let i = 0; i < 14; i += 1) expect(out[i]).toBeNaN();
    expected.forEach((value, k) => expect(out[14 + k]).toBeCloseTo(value, 9));
    expect(latestRsi(closes)).toBeCloseTo(expected.at(-1)!, 9);
    expect(Math.abs(latestRsi(closes)! - out[32]!)).toBeLessThan(1e-12);
  });

  it('checks by hand at index 14 (2-decimal closes): gains 3.34, losses 1.40', () => {
    expect(rsi(CLOSES_2DP)[14]).toBeCloseTo(100 - 100 / (1 + 3.34 / 1.4), 9);
  });
});

describe('rsi: edges', () => {
  const up = Array.from({ length: 20 }, (_, i) => i + 1);

  it('gives 100 for all gains ([1..20] → 100 at index 19) and 0 for all losses', () => {
    expect(rsi(up)[19]).toBe(100);
    expect(Array.from(rsi(up).subarray(14))).toEqual([100, 100, 100, 100, 100, 100]);
    expect(rsi([...up].reverse())[19]).toBe(0);
    expect(latestRsi([...up].reverse())).toBe(0);
  });

  it('gives 0 for flat prices, as TA-Lib does (not 50 or 100)', () => {
    const flat = new Array(20).fill(5);
    expect(Array.from(rsi(flat).subarray(14))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(latestRsi(flat)).toBe(0);
  });

  it('keeps a real RSI for sub-cent prices (no TA_IS_ZERO epsilon): scale-invariant', () => {
    const closes = randomWalk(3, 100);
    const tiny = closes.map((close) => close * 1e-9);
    const expected = rsi(closes);
    const out = rsi(tiny);
    for (let i = 14; i < 100; i += 1) expect(out[i]).toBeCloseTo(expected[i]!, 9);
  });

  it('needs more than `period` closes: all NaN, latestRsi null', () => {
    expect(Array.from(rsi([1, 2, 3], 14)).every(Number.isNaN)).toBe(true);
    expect(rsi(up.slice(0, 14))).toHaveLength(14);
    expect(latestRsi(up.slice(0, 14))).toBeNull();
    expect(latestRsi(up.slice(0, 15))).toBe(100);
    expect(latestRsi([])).toBeNull();
  });

  it('rejects periods below 2 and non-integers', () => {
    expect(() => rsi([1, 2, 3], 1)).toThrow(RangeError);
    expect(() => latestRsi([1, 2, 3], 1)).toThrow(RangeError);
    expect(() => rsi([1, 2, 3], 2.5)).toThrow(/rsi: period must be an integer of at least 2/);
  });
});

describe('latestRsi', () => {
  it('equals the last value of rsi on random series, up to rounding (1e-12 points)', () => {
    for (let seed = 1; seed <= 30; seed += 1) {
      const length = 15 + seed * 9;
      for (const period of [2, 14, 9]) {
        const closes = randomWalk(seed, length);
        expect(Math.abs(latestRsi(closes, period)! - rsi(closes, period)[length - 1]!), `seed ${seed}, period ${period}`).toBeLessThan(1e-12);
      }
    }
  });

  it('stays equal on long series, whose weights the memo grows, and keeps exact 0 and 100', () => {
    const long = randomWalk(77, 5000);
    expect(Math.abs(latestRsi(long)! - rsi(long)[4999]!)).toBeLessThan(1e-12);
    const rising = Array.from({ length: 300 }, (_, i) => 10 + i * 0.25);
    expect(latestRsi(rising)).toBe(100);
    expect(latestRsi([...rising].reverse())).toBe(0);
  });
});

describe('rsi against technicalindicators (oracle)', () => {
  // technicalindicators 3.1.0 rounds RSI.calculate to 2 decimals (toFixed(2) in RSI.js), so it can
  // only confirm ours to ±0.005. Its AverageGain and AverageLoss are not rounded (its `precision`
  // config is unset) and use TA-Lib's seed (plain mean of the first `period` changes) and Wilder
  // smoothing, so 100·g/(g+l) from them is the raw oracle, compared to 1e-9 over aligned indices:
  // their k-th output is our index period + k. (Its RSI gives 100 for flat prices; random walks never are.)
  it('agrees to 1e-9 with its raw averages and to its 2 decimals with RSI.calculate', () => {
    let rawDiff = 0;
    let roundedDiff = 0;
    for (let seed = 1; seed <= 25; seed += 1) {
      const closes = Array.from(randomWalk(seed, 300));
      for (const period of [2, 14, 21]) {
        const ours = rsi(closes, period);
        const gains = AverageGain.calculate({ values: closes, period });
        const losses = AverageLoss.calculate({ values: closes, period });
        const rounded = RSI.calculate({ values: closes, period });
        expect(gains.length).toBe(300 - period);
        expect(rounded.length).toBe(300 - period);
        gains.forEach((gain, k) => {
          const raw = (100 * gain) / (gain + losses[k]!);
          rawDiff = Math.max(rawDiff, Math.abs(ours[period + k]! - raw));
          roundedDiff = Math.max(roundedDiff, Math.abs(ours[period + k]! - rounded[k]!));
        });
      }
    }
    expect(rawDiff).toBeLessThan(1e-9);
    expect(roundedDiff).toBeLessThanOrEqual(0.005 + 1e-9);
    expect(roundedDiff).toBeGreaterThan(0); // it does round
  });
});

describe('rsi into a caller buffer', () => {
  it('writes exactly what rsi() answers into the first n values and leaves the rest alone', () => {
    const buffer = new Float64Array(400).fill(-1);
    for (const [seed, length] of [[1, 300], [2, 10], [3, 15], [4, 16]] as const) {
      const closes = randomWalk(seed, length);
      buffer.fill(-1);
      const written = rsi(closes, 14, buffer);
      expect(written).toBe(buffer);
      expect(Array.from(buffer.subarray(0, length))).toEqual(Array.from(rsi(closes, 14)));
      expect(buffer.subarray(length).every((value) => value === -1)).toBe(true);
    }
    expect(() => rsi(randomWalk(5, 30), 14, new Float64Array(29))).toThrow(RangeError);
  });
});
