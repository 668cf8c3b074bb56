/**
 * Cent rounding (docs/rules/long-term.md §1.2): entries and stops round down, exits and targets round up, so
 * a level is never more favourable than the rule's price. A value already on a cent (to within
 * floating-point noise, e.g. 10.15 · 100 = 1014.999…) stays where it is.
 */

const CENT_NOISE = 1e-7;

export function roundCentDown(price: number): number {
  const cents = price * 100;
  const nearest = Math.round(cents);
  return (Math.abs(cents - nearest) < CENT_NOISE ? nearest : Math.floor(cents)) / 100;
}

export function roundCentUp(price: number): number {
  const cents = price * 100;
  const nearest = Math.round(cents);
  return (Math.abs(cents - nearest) < CENT_NOISE ? nearest : Math.ceil(cents)) / 100;
}

/** Rounds to `decimals` places, half away from zero (2 for percentages, 1 for allocations). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const scaled = Math.abs(value) * factor;
  const rounded = Math.round(scaled + 1e-9) / factor;
  return value < 0 ? -rounded : rounded;
}

/** Transaction cost per side for stock fills, in basis points (docs/rules/track-record.md §6.1 `costBps`). */
export const COST_BPS = 5;
export const COST_RATE = COST_BPS / 10_000;
