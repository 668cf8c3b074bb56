import { describe, expect, it } from 'vitest';
import { nearestLevelWithin, supportResistance, swingLevels } from './support-resistance';
import { randomBars } from './test-series';

/** A path through the given turning points, 6 bars a leg; each bar is 1 wide (mid ± 0.5), close = mid. */
function path(points: number[]) {
  const mid: number[] = [];
  for (let j = 0; j + 1 < points.length; j += 1) {
    for (let k = 0; k < 6; k += 1) mid.push(points[j]! + ((points[j + 1]! - points[j]!) * k) / 6);
  }
  mid.push(points[points.length - 1]!);
  return { high: mid.map((m) => m + 0.5), low: mid.map((m) => m - 0.5), close: mid };
}

// Peaks 120, 121, 120.5, 140, 141 at bars 6, 18, 30, 42, 54; troughs 110, 110.5, 115, 131 at 12, 24, 36, 48; the last close is 100.
const PATH = path([100, 120, 110, 121, 110.5, 120.5, 115, 140, 131, 141, 100]);
const PIVOTS = { leftBars: 3, rightBars: 3 };

describe('swingLevels', () => {
  it('finds planted pivot highs and lows with their bars, oldest first', () => {
    const swings = swingLevels(PATH.high, PATH.low, PIVOTS);
    expect(swings.map((s) => [s.kind, s.index, s.price])).toEqual([
      ['high', 6, 120.5],
      ['low', 12, 109.5],
      ['high', 18, 121.5],
      ['low', 24, 110],
      ['high', 30, 121],
      ['low', 36, 114.5],
      ['high', 42, 140.5],
      ['low', 48, 130.5],
      ['high', 54, 141.5],
    ]);
  });

  it('needs a strict rise on the left and no higher bar on the right (a flat top counts once)', () => {
    expect(swingLevels([1, 2, 5, 5, 2, 1], [0, 1, 4, 4, 1, 0], { leftBars: 2, rightBars: 2 })).toEqual([
      { price: 5, index: 2, kind: 'high' },
    ]);
  });

  it('ignores the last rightBars bars, pivots before the lookback, and missing bars', () => {
    const recent = swingLevels(PATH.high, PATH.low, { ...PIVOTS, lookbackBars: 13 }); // bars 48..60
    expect(recent.map((s) => s.index)).toEqual([48, 54]);
    expect(swingLevels([1, 2, 3, 9, 3], [0, 1, 2, 8, 2], { leftBars: 2, rightBars: 2 })).toEqual([]);
    expect(swingLevels([1, 2, NaN, 2, 1], [1, 2, NaN, 2, 1], { leftBars: 2, rightBars: 2 })).toEqual([]);
  });

  it('rejects bad options', () => {
    expect(() => swingLevels([1], [1], { leftBars: 0 })).toThrow(/leftBars must be/);
    expect(() => swingLevels([1], [1, 2])).toThrow(RangeError);
  });
});

describe('supportResistance', () => {
  it('merges pivots within 1.5 % into their mean and answers ascending levels', () => {
    // Lows 109.5 and 110 → 109.75; highs 120.5, 121, 121.5 → 121; 140.5 and 141.5 → 141;
    // 114.5 is 4.3 % above 109.75 and stays apart, as does 130.5.
    expect(supportResistance(PATH.high, PATH.low, PATH.close, PIVOTS)).toEqual([109.75, 114.5, 121, 130.5, 141]);
    // Without merging, every pivot is a level; at most 8 are answered unless asked.
    expect(supportResistance(PATH.high, PATH.low, PATH.close, { ...PIVOTS, mergeFraction: 0, maxLevels: 20 })).toHaveLength(9);
    expect(supportResistance(PATH.high, PATH.low, PATH.close, { ...PIVOTS, mergeFraction: 0 })).toHaveLength(8);
  });

  it('keeps the most-touched levels, then those nearest the last close', () => {
    // 121 has 3 touches; 109.75 and 141 have 2 each, and 109.75 is nearer the last close of 100.
    expect(supportResistance(PATH.high, PATH.low, PATH.close, { ...PIVOTS, maxLevels: 2 })).toEqual([109.75, 121]);
    expect(supportResistance(PATH.high, PATH.low, PATH.close, { ...PIVOTS, maxLevels: 3 })).toEqual([109.75, 121, 141]);
  });

  it('answers at most 8 levels on random bars, sorted, inside the traded range', () => {
    for (let seed = 1; seed <= 5; seed += 1) {
      const bars = randomBars(seed, 400);
      const levels = supportResistance(bars.high, bars.low, bars.close);
      expect(levels.length).toBeGreaterThan(0);
      expect(levels.length).toBeLessThanOrEqual(8);
      expect([...levels].sort((a, b) => a - b)).toEqual(levels);
      const lowest = Math.min(...bars.low.subarray(150));
      const highest = Math.max(...bars.high.subarray(150));
      expect(levels.every((level) => level >= lowest && level <= highest)).toBe(true);
    }
  });

  it('answers nothing without pivots', () => {
    expect(supportResistance([], [], [])).toEqual([]);
    expect(supportResistance([1, 2, 3], [0, 1, 2], [1, 2, 3])).toEqual([]);
  });
});

describe('nearestLevelWithin', () => {
  it('answers the nearest level within the fraction of the price, else null', () => {
    expect(nearestLevelWithin([90, 104, 130], 100, 0.05)).toBe(104);
    expect(nearestLevelWithin([96, 103], 100, 0.05)).toBe(103);
    expect(nearestLevelWithin([105], 100, 0.05)).toBe(105); // the boundary is inside
    expect(nearestLevelWithin([90, 130], 100, 0.05)).toBeNull();
    expect(nearestLevelWithin([], 100, 0.05)).toBeNull();
    expect(nearestLevelWithin([0], 0, 0.05)).toBeNull();
    expect(() => nearestLevelWithin([1], 1, -0.05)).toThrow(RangeError);
  });
});
