/**
 * The option arithmetic the Option Scanner spec recomputes from the pinned market, written here
 * independently of the app (docs/rules/option-trades.md §4.1–4.3, spec §5 "Option strength score"): Black-Scholes
 * value and delta, Wilder's RSI and ATR, 5-bar swing points, the contract choice, cent rounding.
 */
import type { BarRow } from '../fixtures/market/dataset';

/** erf by its Taylor series (|x| < 3, cancellation well under 1e-12), else by the continued fraction of erfc. */
function erf(x: number): number {
  const z = Math.abs(x);
  let value: number;
  if (z < 3) {
    let term = z;
    let sum = z;
    for (let n = 1; n < 80; n += 1) {
      term *= (-z * z) / n;
      sum += term / (2 * n + 1);
    }
    value = (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    let fraction = 0;
    for (let k = 60; k >= 1; k -= 1) fraction = k / 2 / (z + fraction);
    value = 1 - Math.exp(-z * z) / Math.sqrt(Math.PI) / (z + fraction);
  }
  return x < 0 ? -value : value;
}

const normal = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));

export interface Call {
  spot: number;
  strike: number;
  /** Calendar days to expiry / 365. */
  years: number;
  rate: number;
  sigma: number;
}

function d1(call: Call): number {
  return (Math.log(call.spot / call.strike) + (call.rate + (call.sigma * call.sigma) / 2) * call.years) / (call.sigma * Math.sqrt(call.years));
}

/** A European call without dividends. */
export function callValue(call: Call): number {
  const a = d1(call);
  return call.spot * normal(a) - call.strike * Math.exp(-call.rate * call.years) * normal(a - call.sigma * Math.sqrt(call.years));
}

export const callDelta = (call: Call) => normal(d1(call));

/** Up to the cent (a value on a cent, within float noise, stays). */
export const centUp = (value: number) => Math.ceil(Math.round(value * 1e6) / 1e4) / 100;

export const daysBetween = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** RSI(14) with Wilder's smoothing (TA-Lib: the first averages are plain means of 14 changes), on the last bar. */
export function rsi14(closes: readonly number[]): number {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= 14; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain += Math.max(0, change) / 14;
    loss += Math.max(0, -change) / 14;
  }
  for (let i = 15; i < closes.length; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * 13 + Math.max(0, change)) / 14;
    loss = (loss * 13 + Math.max(0, -change)) / 14;
  }
  return loss === 0 ? 100 : 100 - 100 / (1 + gain / loss);
}

/** ATR(14) with Wilder's smoothing (TA-Lib: the first is the mean of the true ranges of bars 1–14), on the last bar. */
export function atr14(bars: readonly BarRow[]): number {
  const trueRange = (i: number) => Math.max(bars[i]!.high - bars[i]!.low, Math.abs(bars[i]!.high - bars[i - 1]!.close), Math.abs(bars[i]!.low - bars[i - 1]!.close));
  let atr = 0;
  for (let i = 1; i <= 14; i += 1) atr += trueRange(i) / 14;
  for (let i = 15; i < bars.length; i += 1) atr = (atr * 13 + trueRange(i)) / 14;
  return atr;
}

/** Indexes of the 5-bar swing highs (a High strictly above the two bars each side) or swing lows. */
export function swingPoints(bars: readonly BarRow[], kind: 'high' | 'low'): number[] {
  const out: number[] = [];
  const above = (a: number, b: number) => (kind === 'high' ? a > b : a < b);
  for (let i = 2; i < bars.length - 2; i += 1) {
    const value = bars[i]![kind];
    if ([-2, -1, 1, 2].every((k) => above(value, bars[i + k]![kind]))) out.push(i);
  }
  return out;
}

/**
 * The spec's strength score of a CALL alert on the last of `bars` (docs/rules/option-trades.md §4.1): the volume
 * spike (volume ≥ 2 × the mean of the 20 sessions before), the swing level (the low within
 * 0.5 × ATR14 of a confirmed swing low of the last 120 sessions and closing above it, or the close
 * crossing a confirmed swing high), both on one bar, and RSI14 under 30; weights 50, 25, 15, 10.
 */
export function callStrength(bars: readonly BarRow[]): { spike: boolean; swing: boolean; oversold: boolean; score: number } {
  const t = bars.length - 1;
  const bar = bars[t]!;
  const before = bars.slice(t - 20, t);
  const spike = bar.volume >= (2 * before.reduce((sum, one) => sum + one.volume, 0)) / before.length;
  const usable = (i: number) => i >= t - 119 && i <= t - 2;
  const atr = atr14(bars);
  const nearLow = swingPoints(bars, 'low').filter(usable).some((i) => Math.abs(bar.low - bars[i]!.low) <= 0.5 * atr && bar.close > bars[i]!.low);
  const crossedHigh = swingPoints(bars, 'high').filter(usable).some((i) => bars[t - 1]!.close <= bars[i]!.high && bars[i]!.high < bar.close);
  const swing = nearLow || crossedHigh;
  const oversold = rsi14(bars.map((one) => one.close)) < 30;
  const score = Math.min(100, (spike ? 50 : 0) + (spike && swing ? 25 : 0) + (swing ? 15 : 0) + (oversold ? 10 : 0));
  return { spike, swing, oversold, score };
}
