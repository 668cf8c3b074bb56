import { dayNumber } from '../../market/trading-calendar';
import type { Cooldowns, DailySeries } from '../types';
import { indexOnOrBefore } from './series';

/**
 * Cooldown (docs/rules/conventions.md §0.3): a new signal only if the signal bar's index ≥ the close bar's index
 * of the key's last idea + `sessions`. Indexes are the symbol's own bars.
 */
export function cooldownAllows(series: DailySeries, t: number, cooldowns: Cooldowns, key: string, sessions: number): boolean {
  const closedOn = cooldowns.get(key);
  if (closedOn === undefined) return true;
  const closeIndex = indexOnOrBefore(series.day, dayNumber(closedOn));
  return t >= closeIndex + sessions;
}

/** A signal competing for the day's capacity: `score` is compared element by element, higher first. */
export interface Ranked {
  symbol: string;
  score: readonly number[];
}

/** Ticker order by code point (not locale): 'B' < 'a', as docs/rules/conventions.md §0.3 asks. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Capacity (docs/rules/conventions.md §0.3): ranks by score (descending, element by element), then ticker
 * (ascending by code point), and keeps the first `capacity`. Answers the kept signals and how many
 * were dropped.
 */
export function rankAndCap<T extends Ranked>(candidates: readonly T[], capacity: number): { kept: T[]; dropped: number } {
  const ordered = [...candidates].sort((a, b) => {
    for (let i = 0; i < Math.max(a.score.length, b.score.length); i += 1) {
      const diff = (b.score[i] ?? 0) - (a.score[i] ?? 0);
      if (diff !== 0) return diff;
    }
    return compareCodePoints(a.symbol, b.symbol);
  });
  return { kept: ordered.slice(0, capacity), dropped: Math.max(0, ordered.length - capacity) };
}
