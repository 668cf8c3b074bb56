/**
 * The Options Scanner rule (spec §5, §9), run by Option Signals (feature `option-signals`). For each
 * of four windows (1-month high drop, 1-month low increase, 6-month high drop, 6-month low increase):
 *   CALL when it is a drop, 14-day RSI < 30, daily RSI < 40, the drop meets the window's threshold
 *        (10 % 1-month, 15 % 6-month), a volume-profile level lies within 5 % of the price, and
 *        bullish % > bearish %;
 *   PUT  when it is an increase, 14-day RSI > 70, daily RSI > 60, the increase meets the threshold,
 *        a level lies within 5 %, and bearish % > bullish %.
 * Bullish % = sector average bullish percent × 100; bearish % = 100 − bullish %. A missing high or
 * low skips its window. Time frame: long term for the 6-month windows, short term otherwise.
 */
import type { RangeMetrics } from './drop-scanner';

export const OPTION_THRESHOLD_1M = 0.1;
export const OPTION_THRESHOLD_6M = 0.15;
export const CALL_RSI_14_BELOW = 30;
export const CALL_RSI_DAILY_BELOW = 40;
export const PUT_RSI_14_ABOVE = 70;
export const PUT_RSI_DAILY_ABOVE = 60;
export const LEVEL_PROXIMITY = 0.05;

export type OptionTag = '1MonthHigh' | '1MonthLow' | '6MonthHigh' | '6MonthLow';

export interface OptionScanInput extends RangeMetrics {
  symbol: string;
  currentPrice: number;
  rsi14: number | null;
  rsiDaily: number | null;
  /** Volume-profile levels (prices). */
  levels: readonly number[];
  /** Sector average bullish percent as a fraction 0–1. */
  sectorAverageBullishPercent: number | null;
}

/** Spec §3 "Flagged stock (option scanner)". */
export interface OptionFlag {
  symbol: string;
  currentPrice: number;
  high: number | null;
  low: number | null;
  /** Percent (e.g. 12.5). */
  percentageChange: number;
  calculationType: 'drop' | 'increase';
  tag: OptionTag;
  action: 'CALL' | 'PUT';
  timeFrame: 'short term' | 'long term';
  /** Which side the nearest level is on: 'Near Support' (at or below the price) or 'Near Resistance'. */
  supportTag: 'Near Support' | 'Near Resistance';
}

const WINDOWS: ReadonlyArray<{ tag: OptionTag; kind: 'drop' | 'increase'; threshold: number; timeFrame: OptionFlag['timeFrame'] }> = [
  { tag: '1MonthHigh', kind: 'drop', threshold: OPTION_THRESHOLD_1M, timeFrame: 'short term' },
  { tag: '1MonthLow', kind: 'increase', threshold: OPTION_THRESHOLD_1M, timeFrame: 'short term' },
  { tag: '6MonthHigh', kind: 'drop', threshold: OPTION_THRESHOLD_6M, timeFrame: 'long term' },
  { tag: '6MonthLow', kind: 'increase', threshold: OPTION_THRESHOLD_6M, timeFrame: 'long term' },
];

function nearestLevel(levels: readonly number[], price: number): number | null {
  let best: number | null = null;
  for (const level of levels) {
    if (Math.abs(level - price) / price <= LEVEL_PROXIMITY && (best === null || Math.abs(level - price) < Math.abs(best - price))) best = level;
  }
  return best;
}

/** Every window of the stock that flags (at most one flag per symbol and tag). */
export function scanOptionSignals(input: OptionScanInput): OptionFlag[] {
  const price = input.currentPrice;
  if (!(price > 0) || input.rsi14 === null || input.rsiDaily === null || input.sectorAverageBullishPercent === null) return [];
  const bullish = input.sectorAverageBullishPercent * 100;
  const bearish = 100 - bullish;
  const level = nearestLevel(input.levels, price);
  if (level === null) return [];
  const flags: OptionFlag[] = [];
  for (const window of WINDOWS) {
    const reference = input[window.tag];
    if (reference === null || !(reference > 0)) continue;
    if (window.kind === 'drop') {
      const drop = (reference - price) / reference;
      if (drop >= window.threshold && input.rsi14 < CALL_RSI_14_BELOW && input.rsiDaily < CALL_RSI_DAILY_BELOW && bullish > bearish) {
        flags.push(flag(input, window, reference, drop, 'CALL', level));
      }
    } else {
      const increase = (price - reference) / reference;
      if (increase >= window.threshold && input.rsi14 > PUT_RSI_14_ABOVE && input.rsiDaily > PUT_RSI_DAILY_ABOVE && bearish > bullish) {
        flags.push(flag(input, window, reference, increase, 'PUT', level));
      }
    }
  }
  return flags;
}

function flag(
  input: OptionScanInput,
  window: (typeof WINDOWS)[number],
  reference: number,
  fraction: number,
  action: OptionFlag['action'],
  level: number,
): OptionFlag {
  return {
    symbol: input.symbol,
    currentPrice: input.currentPrice,
    high: window.kind === 'drop' ? reference : input[window.tag === '1MonthLow' ? '1MonthHigh' : '6MonthHigh'],
    low: window.kind === 'increase' ? reference : input[window.tag === '1MonthHigh' ? '1MonthLow' : '6MonthLow'],
    percentageChange: fraction * 100,
    calculationType: window.kind,
    tag: window.tag,
    action,
    timeFrame: window.timeFrame,
    supportTag: level <= input.currentPrice ? 'Near Support' : 'Near Resistance',
  };
}
