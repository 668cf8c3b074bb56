import { RSI } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { latestRsi, rsi } from './rsi';
import { randomWalk } from './test-series';

// providers.md §10.3: the StockCharts worked example, TA-Lib values from a port of ta_RSI.c.
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

describe('RSI(14), TA-Lib (Wilder)', () => {
  it('matches the TA-Lib reference series to the published 10 decimals', () => {
    for (const [closes, expected] of [
      [CLOSES_4DP, TALIB_4DP],
      [CLOSES_2DP, TALIB_2DP],
    ] as const) {
      const out = rsi(closes);
      for (let i = 0; i < 14; i += 1) expect(out[i]).toBeNaN();
      expected.forEach((value, k) => expect(Math.abs(out[14 + k]! - value)).toBeLessThan(1e-9));
    }
  });

  it('checks by hand at index 14 (2-decimal closes): gains 3.34, losses 1.40', () => {
    expect(rsi(CLOSES_2DP)[14]).toBeCloseTo(100 - 100 / (1 + 3.34 / 1.4), 9);
  });

  it('gives 100 for all gains, 0 for all losses, and 0 (as TA-Lib) for flat prices', () => {
    const up = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(rsi(up)[19]).toBe(100);
    expect(rsi([...up].reverse())[19]).toBe(0);
    expect(rsi(new Array(20).fill(5))[19]).toBe(0);
    expect(latestRsi(new Array(20).fill(5))).toBe(0);
  });

  it('needs more than `period` closes and a period of at least 2', () => {
    expect(latestRsi([1, 2, 3], 14)).toBeNull();
    expect(Array.from(rsi([1, 2, 3], 14)).every(Number.isNaN)).toBe(true);
    expect(() => rsi([1, 2, 3], 1)).toThrow(RangeError);
  });

  it('latestRsi equals the last value of rsi on random series', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const closes = randomWalk(seed, 250);
      expect(latestRsi(closes)).toBe(rsi(closes)[249]);
    }
  });

  it('agrees with technicalindicators as an oracle on random series', () => {
    // technicalindicators rounds RSI to 2 decimals in its output; compare at that precision.
    for (let seed = 1; seed <= 25; seed += 1) {
      const closes = Array.from(randomWalk(seed, 300));
      const theirs = RSI.calculate({ values: closes, period: 14 });
      const ours = rsi(closes, 14);
      expect(theirs.length).toBe(300 - 14);
      theirs.forEach((value, k) => expect(Math.abs(ours[14 + k]! - value)).toBeLessThanOrEqual(0.005 + 1e-9));
    }
  });
});
