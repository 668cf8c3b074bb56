/**
 * The starter scans (issue 26, docs/custom-scans.md "Templates"): shipped with the product, shown
 * beside the user's own scans, copied into a saved scan of the user's on request. Each formula
 * parses (templates.test.ts) and reads only the catalogue's fields.
 */
import type { ScanUniverse } from '../contract/custom-scans';

export interface ScanTemplateSpec {
  key: string;
  name: string;
  description: string;
  universe: ScanUniverse;
  formula: string;
}

export const SCAN_TEMPLATES: readonly ScanTemplateSpec[] = [
  {
    key: 'oversold-uptrend',
    name: 'Oversold in an uptrend',
    description: 'RSI(14) under 30 while the close holds above its 200-day average: a dip inside a long-term uptrend.',
    universe: 'sp500',
    formula: 'rsi(14) < 30 and close > sma(200)',
  },
  {
    key: '52-week-high-breakout',
    name: '52-week-high breakout on volume',
    description: 'Closing within 1 % of the 52-week high, up on the day, on at least 1.5 times the usual volume.',
    universe: 'sp500',
    formula: 'pct_below_high(252) <= 1 and change_pct(1) > 0 and rvol >= 1.5',
  },
  {
    key: 'pullback-to-50-day',
    name: 'Pullback to the 50-day average',
    description: 'Above the 200-day average, at least 5 % off the 3-month high, and within 2 % of the 50-day average.',
    universe: 'sp500',
    formula: 'close > sma(200) and pct_below_high(63) >= 5 and pct_from_sma(50) between -2 and 2',
  },
  {
    key: 'gap-down-reversal',
    name: 'Gap-down reversal',
    description: 'Opened at least 2 % below the previous close, then closed above it, on at least 1.2 times the usual volume.',
    universe: 'sp500',
    formula: 'gap_pct <= -2 and change_pct(1) > 0 and rvol >= 1.2',
  },
];
