/**
 * The field catalogue of custom scans (issue 26, docs/custom-scans.md): what the builder offers, what
 * the formula parser accepts and what `GET api/scans/fields` answers. Each field is computed from the
 * source's daily bars with the core indicators (evaluate.ts), or read from what the server knows of
 * the symbol (sector, exchange, the earnings calendar, news).
 */

export type FieldUnit = 'price' | 'percent' | 'points' | 'ratio' | 'dollars' | 'days' | 'count' | 'text';

export interface FieldParam {
  name: string;
  default: number;
  min: number;
  max: number;
  /** When set, the only values allowed (e.g. the range windows 21, 63, 126, 252). */
  choices?: readonly number[];
}

export interface FieldSpec {
  /** The name in formulas, lower case (`rsi`, `pct_below_high`). */
  name: string;
  /** The builder's label. */
  label: string;
  unit: FieldUnit;
  /** Numbers compare and cross; text fields take `=`, `!=`, `in` and `not in`. */
  kind: 'number' | 'text';
  params: readonly FieldParam[];
  /** What the field is computed from: the daily bars, or what the server adds per symbol. */
  source: 'bars' | 'sector' | 'exchange' | 'earnings' | 'news';
  description: string;
}

/** The windows of the high/low fields: one month, three, six, and the 52 weeks (252 sessions). */
export const RANGE_WINDOWS = [21, 63, 126, 252] as const;

const period = (fallback: number, min = 2, max = 250): FieldParam => ({ name: 'period', default: fallback, min, max });
const sessions = (fallback: number): FieldParam => ({ name: 'sessions', default: fallback, min: 1, max: 250 });
const window = (fallback: number): FieldParam => ({ name: 'sessions', default: fallback, min: 21, max: 252, choices: RANGE_WINDOWS });

export const SCAN_FIELDS: readonly FieldSpec[] = [
  { name: 'close', label: 'Price', unit: 'price', kind: 'number', params: [], source: 'bars', description: 'The last close (as of the run date).' },
  { name: 'change_pct', label: 'Change %', unit: 'percent', kind: 'number', params: [sessions(1)], source: 'bars', description: 'Change of the close over N sessions (1: today), in %.' },
  { name: 'pct_below_high', label: '% below high', unit: 'percent', kind: 'number', params: [window(21)], source: 'bars', description: 'How far the close is below the highest high of the last N sessions (252: 52 weeks), in %.' },
  { name: 'pct_above_low', label: '% above low', unit: 'percent', kind: 'number', params: [window(21)], source: 'bars', description: 'How far the close is above the lowest low of the last N sessions (252: 52 weeks), in %.' },
  { name: 'rsi', label: 'RSI', unit: 'points', kind: 'number', params: [period(14, 2, 100)], source: 'bars', description: "Wilder's RSI of the closes (TA-Lib's RSI), 0–100." },
  { name: 'sma', label: 'SMA', unit: 'price', kind: 'number', params: [period(50)], source: 'bars', description: 'Simple moving average of the closes.' },
  { name: 'ema', label: 'EMA', unit: 'price', kind: 'number', params: [period(20)], source: 'bars', description: "Exponential moving average of the closes (TA-Lib's EMA)." },
  { name: 'pct_from_sma', label: '% from SMA', unit: 'percent', kind: 'number', params: [period(50)], source: 'bars', description: 'Distance of the close from its SMA, in % of the SMA (negative: below).' },
  { name: 'pct_from_ema', label: '% from EMA', unit: 'percent', kind: 'number', params: [period(20)], source: 'bars', description: 'Distance of the close from its EMA, in % of the EMA (negative: below).' },
  { name: 'atr', label: 'ATR', unit: 'price', kind: 'number', params: [period(14, 1, 100)], source: 'bars', description: "Average true range (TA-Lib's ATR)." },
  { name: 'atr_pct', label: 'ATR %', unit: 'percent', kind: 'number', params: [period(14, 1, 100)], source: 'bars', description: 'ATR in % of the close.' },
  { name: 'adx', label: 'ADX', unit: 'points', kind: 'number', params: [period(14, 2, 100)], source: 'bars', description: "Average directional index (TA-Lib's ADX), 0–100." },
  { name: 'rvol', label: 'Relative volume', unit: 'ratio', kind: 'number', params: [], source: 'bars', description: "Today's volume over the average volume of the 20 sessions before it." },
  { name: 'avg_dollar_volume', label: 'Average dollar volume', unit: 'dollars', kind: 'number', params: [sessions(20)], source: 'bars', description: 'Mean of close × volume over the last N sessions.' },
  { name: 'gap_pct', label: 'Gap % at the open', unit: 'percent', kind: 'number', params: [], source: 'bars', description: "Today's open against the previous close, in %." },
  { name: 'vp_distance_pct', label: 'Distance to volume-profile level %', unit: 'percent', kind: 'number', params: [], source: 'bars', description: 'Distance from the close to the nearest volume-profile level of the last 120 sessions, in % of the close ("within X %": vp_distance_pct <= X).' },
  { name: 'sector', label: 'Sector', unit: 'text', kind: 'text', params: [], source: 'sector', description: "The symbol's sector as the source gives it." },
  { name: 'exchange', label: 'Exchange', unit: 'text', kind: 'text', params: [], source: 'exchange', description: 'The listing exchange (NYSE, NASDAQ, TSX, CRYPTO, …).' },
  { name: 'days_to_earnings', label: 'Days to earnings', unit: 'days', kind: 'number', params: [], source: 'earnings', description: 'Calendar days from the run date to the next earnings date in the calendar ("earnings within N days": days_to_earnings <= N); no date: no match.' },
  { name: 'news_sentiment', label: 'News sentiment', unit: 'count', kind: 'number', params: [], source: 'news', description: 'Bullish minus bearish articles about the symbol over the last 7 days.' },
];

const BY_NAME = new Map(SCAN_FIELDS.map((spec) => [spec.name, spec]));

/** The field of a name (case-insensitive), or undefined. */
export function scanField(name: string): FieldSpec | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/**
 * Why these parameters are not allowed for the field (a sentence for a `msg`), or null when they
 * are; `given` may be shorter than the field's parameters (the rest take their defaults).
 */
export function paramProblem(spec: FieldSpec, given: readonly number[]): string | null {
  if (given.length > spec.params.length) {
    return spec.params.length === 0 ? `${spec.name} takes no parameters` : `${spec.name} takes at most ${spec.params.length} parameter${spec.params.length === 1 ? '' : 's'}`;
  }
  for (let i = 0; i < given.length; i += 1) {
    const param = spec.params[i]!;
    const value = given[i]!;
    if (param.choices && !param.choices.includes(value)) return `${spec.name}: ${param.name} must be one of ${param.choices.join(', ')}`;
    if (!Number.isInteger(value) || value < param.min || value > param.max) return `${spec.name}: ${param.name} must be a whole number from ${param.min} to ${param.max}`;
  }
  return null;
}

/** The parameters with every default filled in (call after paramProblem answered null). */
export function withDefaults(spec: FieldSpec, given: readonly number[]): number[] {
  return spec.params.map((param, i) => given[i] ?? param.default);
}

/** The most sessions of history a field needs before the run date (the bars a run must load). */
export function sessionsNeeded(spec: FieldSpec, params: readonly number[]): number {
  switch (spec.name) {
    case 'close':
    case 'gap_pct':
      return 2;
    case 'change_pct':
    case 'pct_below_high':
    case 'pct_above_low':
    case 'avg_dollar_volume':
    case 'sma':
    case 'pct_from_sma':
      return params[0]! + 1;
    case 'rvol':
      return 21;
    case 'vp_distance_pct':
      return 120;
    case 'rsi':
    case 'atr':
    case 'atr_pct':
      // Wilder's smoothing settles over about ten periods.
      return params[0]! * 10 + 1;
    case 'ema':
    case 'pct_from_ema':
      return params[0]! * 4 + 1;
    case 'adx':
      return params[0]! * 12 + 1;
    default:
      return 1;
  }
}
