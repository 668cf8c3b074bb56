import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../../market/trading-calendar';
import { seriesOf } from '../../kit/test-bars';
import { askOf, bidOf, bsmDelta, bsmPrice, modelValue, normCdf, yangZhang, type BsmInput } from './pricing';

const input = (side: 'CALL' | 'PUT', spot: number, strike: number, years: number, rate: number, dividendYield: number, sigma: number): BsmInput => ({ side, spot, strike, years, rate, dividendYield, sigma });

describe('normal CDF', () => {
  it('matches tabulated values', () => {
    // Standard normal table: Φ(0) = 0.5, Φ(1) = 0.841344746, Φ(1.96) = 0.975002105, Φ(−2.5) = 0.006209665.
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1)).toBeCloseTo(0.841344746, 9);
    expect(normCdf(1.96)).toBeCloseTo(0.975002105, 9);
    expect(normCdf(-2.5)).toBeCloseTo(0.006209665, 9);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(40)).toBe(1);
  });
});

describe('Black-Scholes-Merton (known values)', () => {
  it('Hull, Options, Futures and Other Derivatives, Example 15.6: S 42, K 40, r 10 %, σ 20 %, T 0.5 → c 4.76, p 0.81', () => {
    expect(bsmPrice(input('CALL', 42, 40, 0.5, 0.1, 0, 0.2))).toBeCloseTo(4.7594, 4);
    expect(bsmPrice(input('PUT', 42, 40, 0.5, 0.1, 0, 0.2))).toBeCloseTo(0.8086, 4);
    // Hull's d1 = 0.7693: Δ(call) = N(0.7693) = 0.7791.
    expect(bsmDelta(input('CALL', 42, 40, 0.5, 0.1, 0, 0.2))).toBeCloseTo(0.7791, 4);
  });

  it('Haug, The Complete Guide to Option Pricing Formulas (2nd ed.), §1.1: S 60, K 65, T 0.25, r 8 %, σ 30 % → c 2.1334', () => {
    expect(bsmPrice(input('CALL', 60, 65, 0.25, 0.08, 0, 0.3))).toBeCloseTo(2.1334, 4);
  });

  it('Haug §1.1.3 (Merton 1973, dividend yield): S 100, K 95, T 0.5, r 10 %, q 5 %, σ 20 % → p 2.4648', () => {
    expect(bsmPrice(input('PUT', 100, 95, 0.5, 0.1, 0.05, 0.2))).toBeCloseTo(2.4648, 4);
  });

  it('Haug §2.1.1 (delta, b = 0): S 105, K 100, T 0.5, r = q = 10 %, σ 36 % → Δc 0.5946, Δp −0.3566', () => {
    expect(bsmDelta(input('CALL', 105, 100, 0.5, 0.1, 0.1, 0.36))).toBeCloseTo(0.5946, 4);
    expect(bsmDelta(input('PUT', 105, 100, 0.5, 0.1, 0.1, 0.36))).toBeCloseTo(-0.3566, 4);
  });

  it('satisfies put-call parity, and answers the intrinsic value at expiry', () => {
    const call = bsmPrice(input('CALL', 97, 100, 35 / 365, 0.04, 0.01, 0.35));
    const put = bsmPrice(input('PUT', 97, 100, 35 / 365, 0.04, 0.01, 0.35));
    expect(call - put).toBeCloseTo(97 * Math.exp((-0.01 * 35) / 365) - 100 * Math.exp((-0.04 * 35) / 365), 12);
    expect(bsmPrice(input('CALL', 105, 100, 0, 0.04, 0, 0.3))).toBe(5);
    expect(bsmPrice(input('PUT', 105, 100, 0, 0.04, 0, 0.3))).toBe(0);
    expect(bsmDelta(input('PUT', 95, 100, 0, 0.04, 0, 0.3))).toBe(-1);
  });

  it('values a contract with T = calendar days / 365 to expiry, and applies h up (ask) and down (bid) to the cent', () => {
    const terms = { side: 'CALL' as const, strike: 100, expiry: '2024-02-16', rate: 0.04, dividendYield: 0, halfSpread: 0.03 };
    expect(modelValue(terms, 100, dayNumber('2024-01-12'), 0.25)).toBe(bsmPrice(input('CALL', 100, 100, 35 / 365, 0.04, 0, 0.25)));
    expect(askOf(2.0, 0.03)).toBe(2.06);
    expect(askOf(2.001, 0.03)).toBe(2.07); // 2.06103 rounds up
    expect(bidOf(2.001, 0.03)).toBe(1.94); // 1.94097 rounds down
    expect(bidOf(2.0, 0.015)).toBe(1.97);
  });
});

describe('Yang-Zhang volatility (§4.3)', () => {
  // Bars: C0 = 100; (O 101, H 103, L 100, C 102); (O 101, H 102, L 99, C 100). n = 2:
  // o = ln(101/100), ln(101/102); c = ln(102/101), ln(100/101); V_o = V_c = 1.96072e-4 (n − 1 = 1);
  // V_rs = ½[ln(103/102)·ln(103/101) + ln(100/102)·ln(100/101) + ln(102/100)·ln(102/101) + ln(99/100)·ln(99/101)] = 3.92231e-4;
  // k = 0.34 / (1.34 + 3/1) = 0.078341; YZ = √(252 · (V_o + k·V_c + (1 − k)·V_rs)) = 0.379973.
  const series = seriesOf('A', [
    { o: 100, h: 100, l: 100, c: 100 },
    { o: 101, h: 103, l: 100, c: 102 },
    { o: 101, h: 102, l: 99, c: 100 },
  ]);
  it('matches the hand computation', () => {
    expect(yangZhang(series, 2, 2)).toBeCloseTo(0.379973, 6);
  });
  it('needs the close before the window', () => {
    expect(yangZhang(series, 1, 2)).toBeNaN();
    expect(yangZhang(series, 2, 1)).toBeNaN();
  });
});
