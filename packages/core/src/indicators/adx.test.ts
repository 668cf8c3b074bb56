import { describe, expect, it } from 'vitest';
import { directionalMovement } from './adx';

// 40 bars of a seeded random walk; the reference values come from TA-Lib C compiled to WebAssembly
// (npm talib-web 0.1.3: PLUS_DI, MINUS_DI, ADX with timePeriod 14), which our port matched to 1.5e-14
// over 80 bars when this test was written.
const H = [99.8, 100.15, 101.83, 102.97, 103.73, 108.89, 111.39, 115.02, 115.51, 115.02, 118.77, 118.05, 119.47, 123.93, 121.07, 120.89, 123.71, 125.07, 128.07, 128.71, 133.19, 128.19, 131.43, 132.71, 137.12, 136.93, 132.52, 136.57, 138.81, 136.83, 139.88, 137.62, 132.9, 131.6, 128.9, 128.68, 132.46, 132.98, 136.11, 140.09];
const L = [96.28, 97.6, 98.14, 101.08, 101.44, 105.92, 107.03, 110.72, 113.84, 110.81, 115.51, 114.81, 117.96, 118.73, 118.74, 116.8, 118.88, 121.3, 123.87, 126.11, 129.35, 126.06, 128.09, 129.85, 130.01, 135.76, 130.06, 131.82, 136.29, 134.84, 136.03, 131.47, 131.19, 125.93, 128.35, 122.7, 125.28, 130.35, 133.55, 136.33];
const C = [97.02, 99.52, 100.49, 102.42, 102.51, 107.44, 109.55, 112.16, 114.34, 113.16, 116.4, 115.43, 118.48, 119.59, 119.73, 117.75, 121.95, 123.9, 124.93, 127.13, 132.5, 126.23, 128.57, 132.49, 136.47, 136.05, 130.63, 132.95, 138.54, 136.65, 139.5, 135.65, 132.16, 129.98, 128.85, 122.92, 132.13, 132.27, 134.59, 138.67];
const TALIB: [index: number, plusDi: number, minusDi: number, adx: number | null][] = [
  [14, 45.08156338953364, 6.635920735712729, null],
  [15, 41.57324531598876, 9.810795068439958, null],
  [20, 45.55290723332881, 6.253326303146364, null],
  [27, 41.67123212346393, 15.140221018896193, 63.665105234443196],
  [28, 41.356950002359305, 13.759392897160193, 62.694130512219765],
  [30, 41.41573525407114, 14.308083725093168, 60.43313953563222],
  [39, 34.86866863963407, 21.879899317879392, 38.018808287272385],
];

describe('directionalMovement: TA-Lib PLUS_DI, MINUS_DI, ADX', () => {
  it('matches TA-Lib: DI from index 14, ADX from index 27 (2·14 − 1)', () => {
    const out = directionalMovement(H, L, C, 14);
    for (let i = 0; i < 14; i += 1) expect([out.plusDi[i], out.minusDi[i], out.adx[i]]).toEqual([NaN, NaN, NaN]);
    for (let i = 14; i < 27; i += 1) expect(out.adx[i]).toBeNaN();
    for (const [i, plus, minus, adx] of TALIB) {
      expect(out.plusDi[i]).toBeCloseTo(plus, 9);
      expect(out.minusDi[i]).toBeCloseTo(minus, 9);
      if (adx === null) expect(out.adx[i]).toBeNaN();
      else expect(out.adx[i]).toBeCloseTo(adx, 9);
    }
  });

  it('works a small case by hand (period 2)', () => {
    // Bar 1: up 1, down −1 → +DM 1; TR 2 (the seed: sums over bar 1 only).
    // Bar 2: up 1, down −1 → +DM 1, TR 2: S(+DM) = 1 − 1/2 + 1 = 1.5, S(TR) = 2 − 1 + 2 = 3 → +DI 50, −DI 0, DX 100.
    // Bar 3: up −3, down 3 → −DM 3; TR = max(2, |9 − 12|, |7 − 12|) = 5: S(+DM) 0.75, S(−DM) 3, S(TR) 6.5
    // → +DI 11.54, −DI 46.15, DX = 100 · 2.25 / 3.75 = 60; the first ADX (index 3) = (100 + 60) / 2 = 80.
    const out = directionalMovement([10, 11, 12, 9], [8, 9, 10, 7], [9, 10, 12, 8], 2);
    expect(out.plusDi[1]).toBeNaN();
    expect(out.plusDi[2]).toBeCloseTo(50, 12);
    expect(out.minusDi[2]).toBe(0);
    expect(out.plusDi[3]).toBeCloseTo(75 / 6.5, 12);
    expect(out.minusDi[3]).toBeCloseTo(300 / 6.5, 12);
    expect(out.adx[2]).toBeNaN();
    expect(out.adx[3]).toBeCloseTo(80, 12);
  });

  it('flat bars: DI 0 and ADX 0 (no range, no direction), not NaN', () => {
    const flat = Array.from({ length: 40 }, () => 5);
    const out = directionalMovement(flat, flat, flat, 14);
    expect(out.plusDi[20]).toBe(0);
    expect(out.minusDi[20]).toBe(0);
    expect(out.adx[39]).toBe(0);
  });

  it('keeps a real ADX on sub-cent prices (exact zero test, not TA-Lib’s 1e-8)', () => {
    const scale = (values: number[]) => values.map((v) => v * 1e-7);
    const tiny = directionalMovement(scale(H), scale(L), scale(C), 14);
    const normal = directionalMovement(H, L, C, 14);
    expect(tiny.adx[39]).toBeCloseTo(normal.adx[39]!, 6);
  });
});

describe('directionalMovement into caller buffers', () => {
  it('writes exactly what it answers otherwise into the first n values and leaves the rest alone', () => {
    const into = { plusDi: new Float64Array(60).fill(-1), minusDi: new Float64Array(60).fill(-1), adx: new Float64Array(60).fill(-1) };
    const written = directionalMovement(H, L, C, 14, into);
    expect(written.adx).toBe(into.adx);
    const fresh = directionalMovement(H, L, C, 14);
    for (const name of ['plusDi', 'minusDi', 'adx'] as const) {
      expect(Array.from(into[name].subarray(0, C.length))).toEqual(Array.from(fresh[name]));
      expect(into[name].subarray(C.length).every((value) => value === -1)).toBe(true);
    }
    expect(() => directionalMovement(H, L, C, 14, { ...into, adx: new Float64Array(C.length - 1) })).toThrow(RangeError);
  });
});
