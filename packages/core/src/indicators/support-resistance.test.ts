import { describe, expect, it } from 'vitest';
import { nearestLevelWithin, supportResistance, swingLevels } from './support-resistance';
import { randomBars, seeded } from './test-series';

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

// ---- Oracles on seeded random series -----------------------------------------------------------
// technicalindicators 3.1.0 has no pivot, fractal or support/resistance indicator, so the oracles are
// brute-force references written straight from the JSDoc definitions.

interface Pivots {
  leftBars: number;
  rightBars: number;
  lookbackBars: number;
}

/**
 * swingLevels by definition: bar i (among the last lookbackBars, with leftBars bars before it and
 * rightBars after it) is a swing high when its high is finite, above the highest of the leftBars highs
 * before it and at least the highest of the rightBars highs after it; lows mirror this. A NaN neighbour
 * makes the comparison false, so it blocks a pivot.
 */
function referenceSwings(high: ArrayLike<number>, low: ArrayLike<number>, { leftBars, rightBars, lookbackBars }: Pivots) {
  const highs = Array.from(high);
  const lows = Array.from(low);
  const out: Array<{ price: number; index: number; kind: 'high' | 'low' }> = [];
  for (let i = 0; i < highs.length; i += 1) {
    if (i < leftBars || i + rightBars >= highs.length || i < highs.length - lookbackBars) continue;
    const before = (values: number[]) => values.slice(i - leftBars, i);
    const after = (values: number[]) => values.slice(i + 1, i + 1 + rightBars);
    const h = highs[i]!;
    const l = lows[i]!;
    if (Number.isFinite(h) && Math.max(...before(highs)) < h && Math.max(...after(highs)) <= h) out.push({ price: h, index: i, kind: 'high' });
    if (Number.isFinite(l) && Math.min(...before(lows)) > l && Math.min(...after(lows)) >= l) out.push({ price: l, index: i, kind: 'low' });
  }
  return out;
}

/**
 * supportResistance by definition: the pivots sorted by price; each joins the cluster below it when
 * within mergeFraction above that cluster's mean, else starts a cluster; the level is the cluster
 * mean. Keep the maxLevels clusters with most pivots (ties: nearest the last close), ascending.
 */
function referenceLevels(high: ArrayLike<number>, low: ArrayLike<number>, close: ArrayLike<number>, pivots: Pivots, mergeFraction: number, maxLevels: number) {
  const prices = referenceSwings(high, low, pivots)
    .map((swing) => swing.price)
    .sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const price of prices) {
    const last = clusters[clusters.length - 1];
    const mean = last ? last.reduce((sum, p) => sum + p, 0) / last.length : Number.NaN;
    if (last && price <= mean * (1 + mergeFraction)) last.push(price);
    else clusters.push([price]);
  }
  const lastClose = close[close.length - 1]!;
  return clusters
    .map((members) => ({ level: members.reduce((sum, p) => sum + p, 0) / members.length, touches: members.length }))
    .sort((a, b) => b.touches - a.touches || Math.abs(a.level - lastClose) - Math.abs(b.level - lastClose))
    .slice(0, maxLevels)
    .map((cluster) => cluster.level)
    .sort((a, b) => a - b);
}

const PIVOT_CASES: Pivots[] = [
  { leftBars: 5, rightBars: 5, lookbackBars: 250 },
  { leftBars: 1, rightBars: 1, lookbackBars: 250 },
  { leftBars: 3, rightBars: 2, lookbackBars: 60 },
  { leftBars: 10, rightBars: 4, lookbackBars: 1000 },
];

/** Seeded random bars; every third seed rounds prices to 0.5 (equal highs and lows: flat tops and ties) and some carry NaN bars. */
function barsFor(seed: number) {
  const bars = randomBars(seed, 80 + ((seed * 53) % 320));
  if (seed % 3 === 0) {
    for (let i = 0; i < bars.high.length; i += 1) {
      bars.high[i] = Math.round(bars.high[i]! * 2) / 2;
      bars.low[i] = Math.round(bars.low[i]! * 2) / 2;
    }
  }
  if (seed % 4 === 1) {
    const next = seeded(seed);
    for (let k = 0; k < 3; k += 1) {
      const i = Math.floor(next() * bars.high.length);
      if (k === 2) bars.low[i] = Number.NaN;
      else bars.high[i] = Number.NaN;
    }
  }
  return bars;
}

describe('swingLevels against a brute-force reference (oracle)', () => {
  it('finds exactly the reference pivots on seeded random bars', () => {
    let found = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const bars = barsFor(seed);
      for (const pivots of PIVOT_CASES) {
        const swings = swingLevels(bars.high, bars.low, pivots);
        expect(swings, `seed ${seed} ${JSON.stringify(pivots)}`).toEqual(referenceSwings(bars.high, bars.low, pivots));
        found += swings.length;
      }
    }
    expect(found).toBeGreaterThan(40 * PIVOT_CASES.length * 4);
  });

  it('keeps its invariants: oldest first, the pivot bar\'s own price, the extreme of its neighbourhood', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const bars = barsFor(seed);
      const n = bars.high.length;
      for (const pivots of PIVOT_CASES) {
        const swings = swingLevels(bars.high, bars.low, pivots);
        swings.forEach((swing, k) => {
          if (k > 0) expect(swing.index).toBeGreaterThanOrEqual(swings[k - 1]!.index);
          expect(swing.index).toBeGreaterThanOrEqual(Math.max(pivots.leftBars, n - pivots.lookbackBars));
          expect(swing.index).toBeLessThan(n - pivots.rightBars);
          const window = swing.kind === 'high' ? bars.high : bars.low;
          expect(swing.price).toBe(window[swing.index]);
          const neighbourhood = Array.from(window.subarray(swing.index - pivots.leftBars, swing.index + pivots.rightBars + 1));
          expect(swing.price).toBe(swing.kind === 'high' ? Math.max(...neighbourhood) : Math.min(...neighbourhood));
        });
      }
    }
  });
});

describe('supportResistance against a brute-force reference (oracle)', () => {
  const SETTINGS: Array<[number, number]> = [
    [0.015, 8],
    [0, 20],
    [0.05, 3],
    [0.003, 1000],
    [0, 1000],
  ];

  it('answers the reference levels on seeded random bars', () => {
    let levelsSeen = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const bars = barsFor(seed);
      for (const pivots of PIVOT_CASES) {
        for (const [mergeFraction, maxLevels] of SETTINGS) {
          const ours = supportResistance(bars.high, bars.low, bars.close, { ...pivots, mergeFraction, maxLevels });
          const expected = referenceLevels(bars.high, bars.low, bars.close, pivots, mergeFraction, maxLevels);
          expect(ours.length, `seed ${seed} ${JSON.stringify(pivots)} ${mergeFraction} ${maxLevels}`).toBe(expected.length);
          ours.forEach((level, k) => expect(level).toBeCloseTo(expected[k]!, 9));
          levelsSeen += ours.length;
        }
      }
    }
    expect(levelsSeen).toBeGreaterThan(40 * PIVOT_CASES.length * SETTINGS.length * 2);
  });

  it('keeps its invariants: inside the traded range, ascending, apart by more than mergeFraction', () => {
    let distinctChecked = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const bars = barsFor(seed);
      for (const pivots of PIVOT_CASES) {
        for (const [mergeFraction, maxLevels] of SETTINGS) {
          const levels = supportResistance(bars.high, bars.low, bars.close, { ...pivots, mergeFraction, maxLevels });
          const start = Math.max(0, bars.high.length - pivots.lookbackBars);
          const finite = (values: Float64Array) => Array.from(values.subarray(start)).filter(Number.isFinite);
          const lowest = Math.min(...finite(bars.low));
          const highest = Math.max(...finite(bars.high));
          expect(levels.length).toBeLessThanOrEqual(maxLevels);
          for (const level of levels) {
            expect(level).toBeGreaterThanOrEqual(lowest - 1e-9);
            expect(level).toBeLessThanOrEqual(highest + 1e-9);
          }
          // Each cluster starts above (1 + mergeFraction) × the mean below it and its mean is at least
          // its first pivot, so kept levels are de-duplicated: each more than mergeFraction above the last.
          for (let k = 1; k < levels.length; k += 1) expect(levels[k]!).toBeGreaterThan(levels[k - 1]! * (1 + mergeFraction));
          // With room for every cluster, the levels are means of all the pivots' clusters: they span
          // no more than the pivots do, and there are as many as clusters (without merging, one a price).
          if (maxLevels === 1000) {
            const prices = swingLevels(bars.high, bars.low, pivots).map((swing) => swing.price);
            if (prices.length > 0) {
              expect(levels[0]!).toBeGreaterThanOrEqual(Math.min(...prices));
              expect(levels[levels.length - 1]!).toBeLessThanOrEqual(Math.max(...prices));
            }
            if (mergeFraction === 0) {
              expect(levels).toHaveLength(new Set(prices).size);
              distinctChecked += 1;
            }
          }
        }
      }
    }
    expect(distinctChecked).toBe(40 * PIVOT_CASES.length);
  });
});
