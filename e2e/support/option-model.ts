/**
 * An option drop item (docs/rules/drop-items.md §5.1 type O, priced by docs/rules/option-trades.md §4.2–4.3's model) recomputed here from a
 * symbol's daily bars, so the specs check the screen against the rules rather than against the
 * server's own answer: the threshold (ATR14), the CALL's expiry and strike, its σ (Yang-Zhang), its
 * entry and current values (Black-Scholes with r = 4 %, no dividend: the pinned market has no DTB3
 * series) and the derived target and profit. Written from the rules, not from packages/core; only
 * the NYSE calendar (which days trade) is core's.
 */
import { dayNumber, isoFromDayNumber, isTradingDayNumber, tradingDayOnOrAfter } from '@signalboard/core';
import type { BarRow } from '../fixtures/market/dataset';

/** The standard normal CDF, from erf's Taylor series (ample for |x| < 6; beyond, 0 or 1 to double precision). */
export function normalCdf(x: number): number {
  if (x < -8) return 0;
  if (x > 8) return 1;
  const z = x / Math.SQRT2;
  // erf(z) = 2/√π Σ (−1)^n z^(2n+1) / (n! (2n+1))
  let term = z;
  let sum = z;
  for (let n = 1; n < 200; n += 1) {
    term *= (-z * z) / n;
    const next = term / (2 * n + 1);
    sum += next;
    if (Math.abs(next) < 1e-17 * Math.abs(sum)) break;
  }
  return 0.5 * (1 + (2 / Math.sqrt(Math.PI)) * sum);
}

const RATE = 0.04;

function d1(spot: number, strike: number, years: number, sigma: number): number {
  return (Math.log(spot / strike) + (RATE + (sigma * sigma) / 2) * years) / (sigma * Math.sqrt(years));
}

/** A European call's Black-Scholes value (q = 0). */
export function callValue(spot: number, strike: number, years: number, sigma: number): number {
  const a = d1(spot, strike, years, sigma);
  return spot * normalCdf(a) - strike * Math.exp(-RATE * years) * normalCdf(a - sigma * Math.sqrt(years));
}

export const callDelta = (spot: number, strike: number, years: number, sigma: number) => normalCdf(d1(spot, strike, years, sigma));

/** Wilder's ATR14 at bar t (the first value the mean of the first 14 true ranges). */
export function atr14(bars: readonly BarRow[], t: number): number {
  const tr = (i: number) => Math.max(bars[i]!.high - bars[i]!.low, Math.abs(bars[i]!.high - bars[i - 1]!.close), Math.abs(bars[i]!.low - bars[i - 1]!.close));
  let atr = 0;
  for (let i = 1; i <= 14; i += 1) atr += tr(i) / 14;
  for (let i = 15; i <= t; i += 1) atr = (atr * 13 + tr(i)) / 14;
  return atr;
}

/** Yang-Zhang volatility over the n bars ending at t, annualised with 252 (docs/rules/option-trades.md §4.3). */
export function yangZhang(bars: readonly BarRow[], t: number, n: number): number {
  const window = bars.slice(t - n + 1, t + 1).map((bar, i) => {
    const previousClose = bars[t - n + i]!.close;
    return {
      o: Math.log(bar.open / previousClose),
      c: Math.log(bar.close / bar.open),
      rs: Math.log(bar.high / bar.close) * Math.log(bar.high / bar.open) + Math.log(bar.low / bar.close) * Math.log(bar.low / bar.open),
    };
  });
  const variance = (values: number[]) => {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  };
  const k = 0.34 / (1.34 + (n + 1) / (n - 1));
  const vrs = window.reduce((a, w) => a + w.rs, 0) / n;
  return Math.sqrt(252 * (variance(window.map((w) => w.o)) + k * variance(window.map((w) => w.c)) + (1 - k) * vrs));
}

const cents = (value: number, round: (x: number) => number) => {
  const scaled = value * 100;
  return (Math.abs(scaled - Math.round(scaled)) < 1e-7 ? Math.round(scaled) : round(scaled)) / 100;
};
export const centUp = (value: number) => cents(value, Math.ceil);
export const centDown = (value: number) => cents(value, Math.floor);
/** (a / b − 1) × 100 to 2 decimals, half away from zero. */
export const percentChange = (a: number, b: number) => {
  const value = (a / b - 1) * 100;
  return Math.sign(value) * (Math.round(Math.abs(value) * 100 + 1e-9) / 100);
};

export interface OptionDropExpectation {
  /** DropThreshold, % to 2 decimals: max(4 %, 2 × ATR%). */
  threshold: number;
  /** The underlying's entry (the open of t + 1) and its move to `markPrice`, %. */
  entry: number;
  profit: number;
  expiry: string;
  strike: number;
  contractName: string;
  sigma: number;
  /** The CALL's entry value (the ask at the t + 1 open), current value (the bid at `markPrice` on `markDate`), target (+30 %) and profit %. */
  optionEntry: number;
  optionCurrent: number;
  optionTarget: number;
  optionProfit: number;
}

/**
 * The O item of a drop signalled on `signalDate` (bar t), entered at the open of the next bar and
 * marked at `markPrice` on `markDate`. `bars` is the symbol's whole history, oldest first.
 */
export function optionDropItem(symbol: string, bars: readonly BarRow[], signalDate: string, markDate: string, markPrice: number): OptionDropExpectation {
  const t = bars.findIndex((bar) => bar.date === signalDate);
  const close = bars[t]!.close;
  const entryBar = bars[t + 1]!;
  const threshold = Math.max(4, Math.round(((200 * atr14(bars, t)) / close) * 100) / 100);
  // σ: the realised Yang-Zhang blend with IV's usual 10 % premium, floored at 15 %.
  const sigma = Math.max(0.15, 1.1 * (0.5 * yangZhang(bars, t, 20) + 0.5 * yangZhang(bars, t, 60)));
  // Expiry: the Friday (Thursday on a holiday) with DTE from t + 1 closest to 35 within [28, 45], the earlier on a tie.
  const day = dayNumber(signalDate);
  const from = tradingDayOnOrAfter(day + 1);
  let expiryDay = -1;
  for (let friday = from; friday <= from + 45; friday += 1) {
    if (isoDayOfWeek(friday) !== 5) continue;
    const expiry = isTradingDayNumber(friday) ? friday : friday - 1;
    const dte = expiry - from;
    if (dte >= 28 && dte <= 45 && (expiryDay < 0 || Math.abs(dte - 35) < Math.abs(expiryDay - from - 35))) expiryDay = expiry;
  }
  // Strike: on the $5 grid (above $200), |Δ| at close t closest to 0.45 within [0.35, 0.55]; ties nearer the close, then lower.
  const years = (to: number, at: number) => (to - at) / 365;
  const candidates: { strike: number; delta: number }[] = [];
  for (let strike = 5 * Math.floor((close * 0.7) / 5); strike <= close * 1.3; strike += 5) {
    const delta = callDelta(close, strike, years(expiryDay, day), sigma);
    if (delta >= 0.35 && delta <= 0.55) candidates.push({ strike, delta });
  }
  candidates.sort((a, b) => Math.abs(a.delta - 0.45) - Math.abs(b.delta - 0.45) || Math.abs(a.strike - close) - Math.abs(b.strike - close) || a.strike - b.strike);
  const strike = candidates[0]!.strike;
  const expiry = isoFromDayNumber(expiryDay);
  const optionEntry = centUp(callValue(entryBar.open, strike, years(expiryDay, dayNumber(entryBar.date)), sigma) * 1.03);
  const optionCurrent = centDown(callValue(markPrice, strike, years(expiryDay, dayNumber(markDate)), sigma) * 0.97);
  return {
    threshold,
    entry: entryBar.open,
    profit: percentChange(markPrice, entryBar.open),
    expiry,
    strike,
    contractName: `${symbol}${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}C${String(strike * 1000).padStart(8, '0')}`,
    sigma,
    optionEntry,
    optionCurrent,
    optionTarget: centUp(optionEntry * 1.3),
    optionProfit: percentChange(optionCurrent, optionEntry),
  };
}

/** ISO weekday (Monday 1 … Sunday 7) of a day number (days since 1970-01-01, a Thursday). */
const isoDayOfWeek = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;
