import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { atr, directionalMovement, ema, rsi } from '../indicators/index';
import { randomBars } from '../indicators/test-series';
import { adxTail, atrTail, emaTail, rsiAdxTail, rsiTail } from './wilder-kernels';

// wilder-kernels.ts: each kernel against the core indicator run over the bars cut after `end` (EMA
// and ATR bit for bit, Object.is, so NaN and the sign of 0 count; RSI and ADX, which multiply where
// the indicators divide, to within 1e-9), on random bars, the TA-Lib reference series of the
// indicator tests, flat, short and non-finite series. The core indicators have the TA-Lib tests;
// these prove the kernels are the same numbers.

interface Bars {
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

const cut = (values: Float64Array, end: number) => values.slice(0, end + 1);

/** What each kernel must write at from..end: the core indicator over the bars 0..end. */
const REFERENCE = {
  rsi: (b: Bars, p: number, end: number) => rsi(cut(b.close, end), p),
  ema: (b: Bars, p: number, end: number) => ema(cut(b.close, end), p),
  atr: (b: Bars, p: number, end: number) => atr(cut(b.high, end), cut(b.low, end), cut(b.close, end), p),
  adx: (b: Bars, p: number, end: number) => directionalMovement(cut(b.high, end), cut(b.low, end), cut(b.close, end), p).adx,
};

type Name = keyof typeof REFERENCE;

/** The kernel's values at from..end as a new array (the buffer starts as garbage, which must not leak). */
function kernel(name: Name, b: Bars, p: number, from: number, end: number): Float64Array {
  const out = new Float64Array(end - from + 1).fill(-12345);
  if (name === 'rsi') rsiTail(b.close, p, from, end, out);
  else if (name === 'ema') emaTail(b.close, p, from, end, out);
  else if (name === 'atr') atrTail(b.high, b.low, b.close, p, from, end, out);
  else adxTail(b.high, b.low, b.close, p, from, end, out);
  return out;
}

/** RSI and ADX multiply by 1 / period where the indicators divide (wilder-kernels.ts): equal to within this, on their 0–100 scale. */
const WILDER_TOLERANCE = 1e-9;

/** Asserts `actual` is `expected` with NaN where it has NaN, and numbers within WILDER_TOLERANCE elsewhere. */
function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string): void {
  expect(Array.from(actual, Number.isNaN), `${what}: NaN at the same indexes`).toStrictEqual(Array.from(expected, Number.isNaN));
  for (let i = 0; i < expected.length; i += 1) {
    if (Number.isNaN(expected[i]!)) continue;
    expect(Math.abs(actual[i]! - expected[i]!), `${what} at ${i}: ${actual[i]} vs ${expected[i]}`).toBeLessThanOrEqual(WILDER_TOLERANCE);
  }
}

/**
 * Asserts every kernel equals its reference at from..end: EMA and ATR bit for bit, RSI and ADX to
 * within WILDER_TOLERANCE; and the fused RSI + ADX bit for bit the separate kernels (a symbol's
 * values never depend on which pass computed them).
 */
function expectSame(b: Bars, p: number, from: number, end: number, where: string): void {
  for (const name of Object.keys(REFERENCE) as Name[]) {
    const expected = Array.from(REFERENCE[name](b, p, end).subarray(from, end + 1));
    const what = `${name}(${p}) ${where} from ${from} to ${end}`;
    if (name === 'rsi' || name === 'adx') expectClose(kernel(name, b, p, from, end), expected, what);
    else expect(Array.from(kernel(name, b, p, from, end)), what).toStrictEqual(expected);
  }
  const rsiOut = new Float64Array(end - from + 1).fill(-1);
  const adxOut = new Float64Array(end - from + 1).fill(-1);
  const adxPeriod = p + 3;
  rsiAdxTail(b.high, b.low, b.close, end, p, from, rsiOut, adxPeriod, end, adxOut.subarray(0, 1));
  expect(Array.from(rsiOut), `fused rsi(${p}) ${where}`).toStrictEqual(Array.from(kernel('rsi', b, p, from, end)));
  expect(adxOut[0], `fused adx(${adxPeriod}) ${where}`).toStrictEqual(kernel('adx', b, adxPeriod, end, end)[0]);
}

/** Every (from, end) pair worth checking in a series of `length` bars: whole, trailing, single values. */
function ranges(length: number): [number, number][] {
  const out: [number, number][] = [];
  for (const end of new Set([0, 1, 2, 13, 14, 15, 27, 28, 29, length - 2, length - 1])) {
    if (end < 0 || end >= length) continue;
    for (const from of new Set([0, end, Math.max(0, end - 1), Math.max(0, end - 10)])) out.push([from, end]);
  }
  return out;
}

// The 40 bars of indicators/adx.test.ts (TA-Lib ADX reference) and the StockCharts closes of
// indicators/rsi.test.ts (TA-Lib RSI reference).
const TALIB_ADX: Bars = {
  high: Float64Array.from([99.8, 100.15, 101.83, 102.97, 103.73, 108.89, 111.39, 115.02, 115.51, 115.02, 118.77, 118.05, 119.47, 123.93, 121.07, 120.89, 123.71, 125.07, 128.07, 128.71, 133.19, 128.19, 131.43, 132.71, 137.12, 136.93, 132.52, 136.57, 138.81, 136.83, 139.88, 137.62, 132.9, 131.6, 128.9, 128.68, 132.46, 132.98, 136.11, 140.09]),
  low: Float64Array.from([96.28, 97.6, 98.14, 101.08, 101.44, 105.92, 107.03, 110.72, 113.84, 110.81, 115.51, 114.81, 117.96, 118.73, 118.74, 116.8, 118.88, 121.3, 123.87, 126.11, 129.35, 126.06, 128.09, 129.85, 130.01, 135.76, 130.06, 131.82, 136.29, 134.84, 136.03, 131.47, 131.19, 125.93, 128.35, 122.7, 125.28, 130.35, 133.55, 136.33]),
  close: Float64Array.from([97.02, 99.52, 100.49, 102.42, 102.51, 107.44, 109.55, 112.16, 114.34, 113.16, 116.4, 115.43, 118.48, 119.59, 119.73, 117.75, 121.95, 123.9, 124.93, 127.13, 132.5, 126.23, 128.57, 132.49, 136.47, 136.05, 130.63, 132.95, 138.54, 136.65, 139.5, 135.65, 132.16, 129.98, 128.85, 122.92, 132.13, 132.27, 134.59, 138.67]),
};
const STOCKCHARTS = Float64Array.from([
  44.3389, 44.0902, 44.1497, 43.6124, 44.3278, 44.8264, 45.0955, 45.4245, 45.8433, 46.0826, 45.8931, 46.0328, 45.614, 46.282, 46.282, 46.0028,
  46.0328, 46.4116, 46.2222, 45.6439, 46.2122, 46.2521, 45.7137, 46.4515, 45.7835, 45.3548, 44.0288, 44.1783, 44.2181, 44.5672, 43.4205,
  42.6628, 43.1314,
]);

describe('wilder kernels: the core indicators bit for bit', () => {
  it('on random bars, for every period class and every from..end', () => {
    for (const seed of [1, 2, 3]) {
      const b = randomBars(seed, 300);
      for (const p of [2, 3, 5, 14, 20]) for (const [from, end] of ranges(300)) expectSame(b, p, from, end, `seed ${seed}`);
    }
  });

  it('on the TA-Lib reference series of the indicator tests', () => {
    for (const [from, end] of ranges(40)) expectSame(TALIB_ADX, 14, from, end, 'TA-Lib ADX bars');
    const closes: Bars = { high: STOCKCHARTS, low: STOCKCHARTS, close: STOCKCHARTS };
    for (const [from, end] of ranges(33)) expectSame(closes, 14, from, end, 'StockCharts closes');
  });

  it('on short series: NaN until each indicator has its history', () => {
    for (let length = 1; length <= 32; length += 1) {
      const b = randomBars(9, length);
      for (const p of [2, 14]) for (let end = 0; end < length; end += 1) expectSame(b, p, 0, end, `${length} bars`);
    }
  });

  it('on flat, zero, sub-cent and huge prices', () => {
    const series = (values: (i: number) => number): Bars => {
      const close = Float64Array.from({ length: 60 }, (_, i) => values(i));
      return { high: close.map((c) => c * 1.01), low: close.map((c) => c * 0.99), close };
    };
    const cases: [string, Bars][] = [
      ['flat', series(() => 10)],
      ['zero', series(() => 0)],
      ['flat highs and lows', { high: new Float64Array(60).fill(5), low: new Float64Array(60).fill(5), close: new Float64Array(60).fill(5) }],
      // up = down ≠ 0 every bar: neither +DM nor −DM
      ['up equal to down', { high: Float64Array.from({ length: 60 }, (_, i) => 10 + (i % 3)), low: Float64Array.from({ length: 60 }, (_, i) => 5 - (i % 3)), close: Float64Array.from({ length: 60 }, (_, i) => 7 + (i % 2)) }],
      ['sub-cent', series((i) => 1e-7 * (1 + 0.3 * Math.sin(i)))],
      ['huge', series((i) => 1e300 * (1 + 0.5 * Math.sin(i)))],
      ['overflowing moves', series((i) => (i % 2 === 0 ? 1.7e308 : -1.7e308))],
      ['negative', series((i) => -5 - Math.sin(i))],
    ];
    for (const [label, b] of cases) for (const p of [2, 14]) for (const [from, end] of ranges(60)) expectSame(b, p, from, end, label);
  });

  it('on bars that are not finite numbers (the fallback to the core indicators)', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      for (const array of ['high', 'low', 'close'] as const) {
        for (const at of [0, 1, 5, 14, 30, 59]) {
          const b = randomBars(7, 60);
          b[array][at] = bad;
          for (const p of [2, 14]) for (const [from, end] of ranges(60)) expectSame(b, p, from, end, `${array}[${at}] = ${bad}`);
        }
      }
    }
  });

  it('on arbitrary doubles (property)', () => {
    const value = fc.oneof(fc.double(), fc.double({ min: 1, max: 1000, noNaN: true }), fc.constantFrom(0, -0, 1, 2));
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value, value), { minLength: 1, maxLength: 50 }), fc.integer({ min: 2, max: 6 }), (rows, p) => {
        const b: Bars = { high: Float64Array.from(rows, (r) => r[0]), low: Float64Array.from(rows, (r) => r[1]), close: Float64Array.from(rows, (r) => r[2]) };
        const end = rows.length - 1;
        expectSame(b, p, Math.max(0, end - 3), end, 'arbitrary');
      }),
      { numRuns: 300, seed: 26 },
    );
  });
});
