import type { OptionSide } from '../../../contract/option-trades';
import { isTradingDayNumber, tradingDayOnOrBefore } from '../../../market/trading-calendar';

/**
 * Option contracts (docs/rules/option-trades.md §4.2): OCC names, the model's expiries and strike grid, and the
 * expiry and strike choices (DTE closest to 35, |Δ| closest to 0.45, liquidity when known).
 */

/** The compact OCC name: root + YYMMDD + C/P + strike × 1000 as 8 digits (AAPL260116C00250000). */
export function occName(root: string, expiry: string, side: OptionSide, strike: number): string {
  const milli = Math.round(strike * 1000);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry)) throw new Error(`occName: expiry ${expiry} is not YYYY-MM-DD`);
  if (!(milli > 0 && milli < 100_000_000)) throw new Error(`occName: strike ${strike} does not fit 8 digits`);
  return `${root}${expiry.slice(2, 4)}${expiry.slice(5, 7)}${expiry.slice(8, 10)}${side === 'CALL' ? 'C' : 'P'}${String(milli).padStart(8, '0')}`;
}

/** The padded 21-character OCC form: the root padded with spaces to 6 characters. */
export function occNamePadded(root: string, expiry: string, side: OptionSide, strike: number): string {
  return `${root.padEnd(6, ' ')}${occName(root, expiry, side, strike).slice(root.length)}`;
}

export interface ParsedOcc {
  root: string;
  expiry: string;
  side: OptionSide;
  strike: number;
}

/** Parses the compact or the padded 21-character OCC form; null when it is neither. */
export function parseOcc(name: string): ParsedOcc | null {
  const padded = /^([A-Z0-9.]{1,6}) *(\d{6})([CP])(\d{8})$/.exec(name);
  if (!padded) return null;
  const [, root = '', date = '', cp = '', strike = ''] = padded;
  // The padded form is exactly 21 characters; the compact one has no spaces.
  if (name.includes(' ') && name.length !== 21) return null;
  const expiry = `20${date.slice(0, 2)}-${date.slice(2, 4)}-${date.slice(4, 6)}`;
  const check = new Date(`${expiry}T00:00:00Z`);
  if (Number.isNaN(check.getTime()) || check.toISOString().slice(0, 10) !== expiry) return null;
  return { root, expiry, side: cp === 'C' ? 'CALL' : 'PUT', strike: Number(strike) / 1000 };
}

/**
 * The model's listed expiries (day numbers) from `fromDay` through `toDay`: every Friday, or the
 * Thursday (the trading day before) when the Friday is an exchange holiday.
 */
export function modelExpiries(fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  // Day 0 (1970-01-01) was a Thursday: Fridays are the days ≡ 1 (mod 7).
  let friday = fromDay + ((((1 - fromDay) % 7) + 7) % 7);
  for (; friday <= toDay + 7; friday += 7) {
    const expiry = isTradingDayNumber(friday) ? friday : tradingDayOnOrBefore(friday - 1);
    if (expiry >= fromDay && expiry <= toDay) out.push(expiry);
  }
  return out;
}

/** The model's strike step: 1 for the index ETFs; else 0.5 below $25, 1 up to $200, 5 above. */
export function strikeStep(symbol: string, spot: number, indexEtfs: readonly string[]): number {
  if (indexEtfs.includes(symbol)) return 1;
  if (spot < 25) return 0.5;
  if (spot <= 200) return 1;
  return 5;
}

export interface ExpiryRule {
  targetDte: number;
  dteRange: readonly [number, number];
  dteFallback: readonly [number, number];
}

/**
 * The expiry with DTE (calendar days from `fromDay`, the session t + 1) closest to the target within
 * the range, the earlier on a tie; within the fallback range if none; null if none there either.
 */
export function chooseExpiry(expiries: readonly number[], fromDay: number, rule: ExpiryRule): number | null {
  for (const [low, high] of [rule.dteRange, rule.dteFallback]) {
    let best: number | null = null;
    for (const expiry of [...expiries].sort((a, b) => a - b)) {
      const dte = expiry - fromDay;
      if (dte < low || dte > high) continue;
      if (best === null || Math.abs(dte - rule.targetDte) < Math.abs(best - fromDay - rule.targetDte)) best = expiry;
    }
    if (best !== null) return best;
  }
  return null;
}

export interface StrikeCandidate {
  strike: number;
  /** |Δ|. */
  delta: number;
}

export interface DeltaRule {
  targetDelta: number;
  deltaRange: readonly [number, number];
}

/**
 * The candidates with |Δ| within the range, best first: |Δ| closest to the target, then the strike
 * nearer the close, then the lower strike.
 */
export function rankStrikes<T extends StrikeCandidate>(candidates: readonly T[], spot: number, rule: DeltaRule): T[] {
  return candidates
    .filter((c) => c.delta >= rule.deltaRange[0] && c.delta <= rule.deltaRange[1])
    .sort((a, b) => Math.abs(a.delta - rule.targetDelta) - Math.abs(b.delta - rule.targetDelta) || Math.abs(a.strike - spot) - Math.abs(b.strike - spot) || a.strike - b.strike);
}

/** Liquidity (docs/rules/option-trades.md §4.2), applied to what the chain gives: open interest ≥ min and (ask − bid) ≤ maxSpread × mid. */
export function liquidEnough(quote: { bid: number; ask: number; openInterest?: number }, minOpenInterest: number, maxSpreadOfMid: number): boolean {
  if (quote.openInterest !== undefined && !(quote.openInterest >= minOpenInterest)) return false;
  const mid = (quote.bid + quote.ask) / 2;
  if (!(mid > 0)) return false;
  return quote.ask - quote.bid <= maxSpreadOfMid * mid + 1e-12;
}

/** Calendar days → years for T (docs/rules/option-trades.md §4.3: T = calendar days / 365). */
export function yearsBetween(fromDay: number, toDay: number): number {
  return Math.max(0, toDay - fromDay) / 365;
}
