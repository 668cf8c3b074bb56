/**
 * Custom Scan alerts during the session (docs/custom-scans.md "Custom Scan alerts", "During the
 * session"): which saved scans are "on price only", and a scan evaluated with a live quote as today's
 * provisional bar on top of the daily bars of the sessions before it.
 *
 * The rule (INTRADAY_FIELD_INPUTS): a scan is on price only when every field it reads can be computed
 * from the previous sessions' daily bars and what a quote says of today:
 * - `price`: the last price as today's close: close, change_pct, sma, ema, pct_from_sma,
 *   pct_from_ema, rsi;
 * - `range`: also today's high and low so far (every source's quote carries them): pct_below_high,
 *   pct_above_low, atr, atr_pct, adx;
 * - `open`: also today's open: gap_pct;
 * - `listing`: sector and exchange, the same all day.
 * Not on price only: rvol, avg_dollar_volume and vp_distance_pct read volume (a session's volume so
 * far is not a day's, and one live source's quote carries none), days_to_earnings and news_sentiment
 * are not prices. A scan reading any of them alerts after the daily pass only.
 *
 * No look-ahead: only the bars dated before the session are read, the last of them must be the
 * session before it (else a change or an average would skip a session), and the quote must be priced
 * on the session's New York date and be fresh. Today's bar is open/high/low from the quote (the high
 * and low widened to the price), the price as the close, and no volume (NaN).
 */
import { newYorkTime } from '../market/trading-calendar';
import { fieldsOf, type FieldRef, type ScanExpr } from './ast';
import type { CompiledScan, ScanValue } from './evaluate';
import { barCount, type ScanBars, type ScanFacts } from './field-series';

/** What a field reads of today during the session (see the file's comment). */
export type IntradayInput = 'price' | 'range' | 'open' | 'listing';

/** The fields a scan on price only may read, and what each needs of today; a field not here is not on price only. */
export const INTRADAY_FIELD_INPUTS: Readonly<Record<string, IntradayInput>> = Object.freeze({
  close: 'price',
  change_pct: 'price',
  sma: 'price',
  ema: 'price',
  pct_from_sma: 'price',
  pct_from_ema: 'price',
  rsi: 'price',
  pct_below_high: 'range',
  pct_above_low: 'range',
  atr: 'range',
  atr_pct: 'range',
  adx: 'range',
  gap_pct: 'open',
  sector: 'listing',
  exchange: 'listing',
});

const inputOf = (ref: FieldRef): IntradayInput | undefined =>
  Object.prototype.hasOwnProperty.call(INTRADAY_FIELD_INPUTS, ref.field) ? INTRADAY_FIELD_INPUTS[ref.field] : undefined;

/** Why the scan is not on price only (it names the first field that is not), or null when it is. */
export function intradayProblem(expr: ScanExpr): string | null {
  for (const ref of fieldsOf(expr)) {
    if (inputOf(ref) === undefined) return `${ref.field} is not computed from prices during the session`;
  }
  return null;
}

/** Whether every field the scan reads is on price only (INTRADAY_FIELD_INPUTS). */
export const isPriceOnlyScan = (expr: ScanExpr): boolean => intradayProblem(expr) === null;

/** A live quote as the intraday evaluation reads it. */
export interface IntradayQuote {
  price: number;
  /** When the source priced it (ms). */
  asOfMs: number;
  /** Today's open, high and low so far, when the source gives them (missing, 0 or not finite: unknown). */
  open?: number | null;
  high?: number | null;
  low?: number | null;
}

export interface IntradayMoment {
  /** The session under way, New York (YYYY-MM-DD). */
  session: string;
  /** The trading session before it: the bars must end on it. */
  previousSession: string;
  /** The market's clock now (ms). */
  nowMs: number;
  /** A quote priced longer ago than this is stale (not used). */
  maxQuoteAgeMs: number;
}

/** Why a symbol was not evaluated on its quote. */
export type IntradaySkip =
  /** The scan reads a field that is not on price only. */
  | 'not-price-only'
  /** No bar before the session. */
  | 'no-bars'
  /** The bars (or their dates) do not end on the session before: a session would be skipped. */
  | 'bars-behind'
  /** No positive finite price. */
  | 'quote-invalid'
  /** Priced on another New York date than the session (an earlier day's quote). */
  | 'quote-not-today'
  /** Priced longer ago than maxQuoteAgeMs (or after now). */
  | 'quote-stale'
  /** The scan reads today's open or range and the quote does not give it. */
  | 'quote-incomplete';

export type IntradayEvaluation = { skipped: IntradaySkip } | { skipped: null; matched: boolean; values: ScanValue[] };

const positive = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** What the scan reads of today: the inputs of its fields; null when one is not on price only. */
export function intradayInputsOf(fields: readonly FieldRef[]): Set<IntradayInput> | null {
  const inputs = new Set<IntradayInput>();
  for (const ref of fields) {
    const input = inputOf(ref);
    if (input === undefined) return null;
    inputs.add(input);
  }
  return inputs;
}

/** Why `quote` cannot stand for the session's bar at `at`, or null when it can. */
export function intradayQuoteProblem(quote: IntradayQuote, at: IntradayMoment): IntradaySkip | null {
  if (!positive(quote.price)) return 'quote-invalid';
  if (!Number.isFinite(quote.asOfMs) || newYorkTime(quote.asOfMs).isoDate !== at.session) return 'quote-not-today';
  if (quote.asOfMs > at.nowMs || at.nowMs - quote.asOfMs > at.maxQuoteAgeMs) return 'quote-stale';
  return null;
}

/**
 * The bars dated before the session with the quote appended as the session's provisional bar, or why
 * not. `bars.dates` (one ISO date per bar, oldest first) is required: without dates the session's own
 * bar could not be told apart. `inputs` is what the scan reads of today (intradayInputsOf).
 */
export function barsWithQuote(bars: ScanBars, quote: IntradayQuote, at: IntradayMoment, inputs: ReadonlySet<IntradayInput>): { bars: ScanBars } | { skipped: IntradaySkip } {
  const problem = intradayQuoteProblem(quote, at);
  if (problem !== null) return { skipped: problem };
  const dates = bars.dates;
  const count = Math.min(barCount(bars), dates?.length ?? 0);
  // The bars before the session (a source's bar of the session itself, in progress or not, is left out).
  let kept = 0;
  while (kept < count && dates![kept]! < at.session) kept += 1;
  if (kept === 0) return { skipped: 'no-bars' };
  if (dates![kept - 1] !== at.previousSession) return { skipped: 'bars-behind' };
  const hasRange = positive(quote.high) && positive(quote.low) && quote.low <= quote.high;
  if (inputs.has('range') && !hasRange) return { skipped: 'quote-incomplete' };
  if (inputs.has('open') && !positive(quote.open)) return { skipped: 'quote-incomplete' };
  const extend = (values: Float64Array, today: number) => {
    const out = new Float64Array(kept + 1);
    out.set(values.subarray(0, kept));
    out[kept] = today;
    return out;
  };
  const price = quote.price;
  return {
    bars: {
      open: extend(bars.open, positive(quote.open) ? quote.open : Number.NaN),
      high: extend(bars.high, hasRange ? Math.max(quote.high!, price) : Number.NaN),
      low: extend(bars.low, hasRange ? Math.min(quote.low!, price) : Number.NaN),
      close: extend(bars.close, price),
      // No volume today: a field reading it has no value (and such a scan is not evaluated here at all).
      volume: extend(bars.volume, Number.NaN),
      dates: [...dates!.slice(0, kept), at.session],
    },
  };
}

/**
 * The compiled scan evaluated for one symbol as of the session under way: its bars before the
 * session and `quote` as today's bar (barsWithQuote). A scan that is not on price only is never
 * evaluated (`not-price-only`), nor a symbol whose quote or bars cannot stand for the session.
 * `values` are the scan's fields today, in `compiled.fields` order.
 */
export function evaluateWithQuote(compiled: CompiledScan, bars: ScanBars, facts: ScanFacts, quote: IntradayQuote, at: IntradayMoment): IntradayEvaluation {
  const inputs = intradayInputsOf(compiled.fields);
  if (inputs === null) return { skipped: 'not-price-only' };
  const built = barsWithQuote(bars, quote, at, inputs);
  if ('skipped' in built) return built;
  const { matched, values } = compiled.evaluateSymbol(built.bars, facts);
  return { skipped: null, matched, values };
}
