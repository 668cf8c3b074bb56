/**
 * The Drop and Recovery Scanner rule (spec §5 "Drop scanner flagging", §9 defaults).
 *   30 Day High / 60 Day High: drop % = (high − price) / high × 100
 *   30 Day Low / 60 Day Low:   increase % = (price − low) / low × 100
 * Flagged when the percentage is at or above the threshold. 30-day choices use the 1-month values,
 * 60-day choices the 6-month values. Missing metrics or an unknown choice: the check is skipped.
 */

export const DROP_SELECTIONS = ['30DayHigh', '60DayHigh', '60DayLow', '30DayLow'] as const;
export type DropSelection = (typeof DROP_SELECTIONS)[number];

/** Labels of the Selection dropdown (spec §2), in its order. */
export const DROP_SELECTION_LABELS: Record<DropSelection, string> = {
  '30DayHigh': '30 Day High',
  '60DayHigh': '60 Day High',
  '60DayLow': '60 Day Low',
  '30DayLow': '30 Day Low',
};

export const DEFAULT_DROP_THRESHOLD_PERCENT = 10;
export const DEFAULT_DROP_SELECTION: DropSelection = '30DayHigh';
/** Days of high/low history both scanners request (spec §9). */
export const SCANNER_HISTORY_DAYS = 120;

export interface RangeMetrics {
  '1MonthHigh': number | null;
  '1MonthLow': number | null;
  '6MonthHigh': number | null;
  '6MonthLow': number | null;
}

/** Spec §3 "Flagged stock (drop scanner)". */
export interface DropFlag {
  symbol: string;
  currentPrice: number;
  selectedHigh: number | null;
  selectedLow: number | null;
  percentageChange: number;
  calculationType: 'drop' | 'increase';
}

const usable = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** Applies the rule to one stock; null when not flagged or when the check is skipped. */
export function checkDrop(
  symbol: string,
  currentPrice: number,
  metrics: RangeMetrics,
  selection: string,
  thresholdPercent: number,
): DropFlag | null {
  if (!usable(currentPrice)) return null;
  switch (selection) {
    case '30DayHigh':
    case '60DayHigh': {
      const high = selection === '30DayHigh' ? metrics['1MonthHigh'] : metrics['6MonthHigh'];
      if (!usable(high)) return null;
      const percentageChange = ((high - currentPrice) / high) * 100;
      return percentageChange >= thresholdPercent
        ? { symbol, currentPrice, selectedHigh: high, selectedLow: null, percentageChange, calculationType: 'drop' }
        : null;
    }
    case '30DayLow':
    case '60DayLow': {
      const low = selection === '30DayLow' ? metrics['1MonthLow'] : metrics['6MonthLow'];
      if (!usable(low)) return null;
      const percentageChange = ((currentPrice - low) / low) * 100;
      return percentageChange >= thresholdPercent
        ? { symbol, currentPrice, selectedHigh: null, selectedLow: low, percentageChange, calculationType: 'increase' }
        : null;
    }
    default:
      return null;
  }
}

/** Flags, sorted by percentage change, largest first (spec §4). */
export function sortFlags<T extends { percentageChange: number }>(flags: T[]): T[] {
  return [...flags].sort((a, b) => b.percentageChange - a.percentageChange);
}
