/**
 * Daily price files as a data source (docs/data-in-and-out.md "Daily price files"): the types the
 * parser, the format detection and the series checks share, and the API the server builds on.
 *
 * The flow: detectPriceFileFormat(first KB) → PriceFileFormat (confirmed or changed in the preview) →
 * PriceFileParser.push(chunk)… end() → PriceBar[] per chunk and row problems → PriceSeriesCollector
 * groups them by symbol in typed arrays → checkPriceSeries(symbol, series) → PriceSeriesReport →
 * preparePriceSeries(series, report, splits) → the bars to store. Errors refuse the file; warnings
 * are stored and shown.
 */
import type { SessionCalendar } from '../trades/types';

export type PriceDateFormat = 'YYYY-MM-DD' | 'YYYYMMDD' | 'YYYY/MM/DD' | 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'DD.MM.YYYY' | 'DD-MM-YYYY';

export const PRICE_DATE_FORMATS: readonly PriceDateFormat[] = ['YYYY-MM-DD', 'YYYYMMDD', 'YYYY/MM/DD', 'MM/DD/YYYY', 'DD/MM/YYYY', 'DD.MM.YYYY', 'DD-MM-YYYY'];

export type PriceSeparator = ',' | ';' | '\t' | '|';

export const PRICE_SEPARATORS: readonly PriceSeparator[] = [',', ';', '\t', '|'];

/** Zero-based column indexes; null where the file has no such column. */
export interface PriceColumnMapping {
  date: number;
  open: number;
  high: number;
  low: number;
  close: number;
  adjClose: number | null;
  volume: number | null;
  symbol: number | null;
}

export type PriceFileLayout = 'yahoo' | 'stooq' | 'custom';

export interface PriceFileFormat {
  /** Informative only: the mapping is what the parser reads. */
  layout: PriceFileLayout;
  separator: PriceSeparator;
  /** Numbers are written `12,5` (the separator is then not ','). */
  decimalComma: boolean;
  dateFormat: PriceDateFormat;
  /** The first record is a header (skipped by the parser). */
  header: boolean;
  /**
   * Records after the header that are more header, skipped too (0 when absent): yfinance's CSV has
   * `Price,Close,…`, then `Ticker,AAPL,…` and `Date,,…` before its bars (2).
   */
  extraHeaderLines?: number;
  mapping: PriceColumnMapping;
}

export interface PriceFileDetection {
  /** The most likely format, or null when it cannot be told (no date column, one column…). */
  format: PriceFileFormat | null;
  /** The header's names as written (empty when the file has none). */
  headers: string[];
  /** The first data records (up to 10), split into fields, for the preview. */
  sample: string[][];
  /** Why the user must choose or confirm (ambiguous dates, no header, unknown columns); null when sure. */
  problem: string | null;
}

/** One daily bar as read. Prices are as in the file (positive, finite); `date` is ISO `YYYY-MM-DD`. */
export interface PriceBar {
  /** The 1-based line of the file the bar is on. */
  line: number;
  /** From the symbol column, else the parser's `symbol` option, else null. Upper case, Stooq's `.US` removed. */
  symbol: string | null;
  date: string;
  /** Days since 1970-01-01 of `date` (market/trading-calendar `dayNumber`). */
  day: number;
  open: number;
  high: number;
  low: number;
  close: number;
  adjClose: number | null;
  volume: number | null;
}

export type PriceProblemSeverity = 'error' | 'warning';

/** Refusals: the file is not stored. Each names its line. */
export type PriceErrorCode =
  | 'csv-syntax' // a quoted field never closed
  | 'too-few-fields' // the row lacks a mapped column
  | 'bad-date' // not a date in the file's date format
  | 'bad-number' // a price or volume that is not a number (or only some prices "null")
  | 'non-positive-price' // a price ≤ 0
  | 'negative-volume'
  | 'inconsistent-ohlc' // high below the open or close, low above them
  | 'missing-symbol' // the symbol column is empty
  | 'no-bars' // nothing to import
  | 'duplicate-date' // a symbol's date twice
  | 'future-date' // a bar dated after today (PriceSeriesCheckOptions.today)
  | 'mostly-closed-days'; // over 10 % of the bars on closed days: shifted or misread dates

/** Warnings: the file is stored and they are shown. */
export type PriceWarningCode =
  | 'null-row' // Yahoo's row of "null" prices: the row is skipped
  | 'missing-sessions' // sessions of the exchange calendar without a bar
  | 'closed-day' // a bar on a day the exchange was closed: the bar is not stored
  | 'possible-split' // a close-to-close move beyond 40 %
  | 'short-series' // fewer bars than the trade engines' warm-up
  | 'holidays-unknown'; // the exchange's holidays are not in the calendar (the TSX): weekday gaps are not checked

export type PriceProblemCode = PriceErrorCode | PriceWarningCode;

export interface PriceFileProblem {
  /** The 1-based line it is about; null only for a series-wide warning (short series). */
  line: number | null;
  severity: PriceProblemSeverity;
  code: PriceProblemCode;
  /** For a person, starting with `Line N:` when there is a line, e.g. `Line 12: "2026-02-30" is not a date (YYYY-MM-DD)`. */
  message: string;
}

/**
 * The bars of one symbol in typed arrays, in file order (compact: ≈ 56 bytes a bar). Missing adjusted
 * closes and volumes are NaN; `hasAdjClose` / `hasVolume` say whether any bar has one.
 */
export interface PriceSeries {
  symbol: string;
  length: number;
  line: Int32Array;
  day: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  adjClose: Float64Array;
  volume: Float64Array;
  hasAdjClose: boolean;
  hasVolume: boolean;
}

/** A close-to-close move beyond the split threshold, between two consecutive bars (sessions). */
export interface PossibleSplit {
  /** The bar after the move (the first at the new price level). */
  date: string;
  line: number;
  previousDate: string;
  previousClose: number;
  close: number;
  /** close / previousClose (0.5 for a 2-for-1 split). */
  ratio: number;
  /**
   * What the Adj Close says the earlier bars should be multiplied by: (adjClose/close before) ÷
   * (adjClose/close after); null without Adj Close. Near `ratio` when the file's Close is raw and its
   * Adj Close split-adjusted (a real split); near 1 when the move was a real move.
   */
  adjRatio: number | null;
  /** adjRatio is known and differs from 1 by more than 5 %: adjustForSplits can use it. */
  adjustable: boolean;
}

export interface PriceSeriesReport {
  symbol: string;
  /** Bars in the file for the symbol. */
  rows: number;
  /** Bars that would be stored: rows less the bars on closed days (and 0 when refused). */
  storedRows: number;
  /** First and last date (ISO), '' when there is no bar. */
  first: string;
  last: string;
  errors: PriceFileProblem[];
  warnings: PriceFileProblem[];
  /** Sessions between the first and last bar with no bar (from 2000-01-01, where the calendar is exact). */
  missingSessions: string[];
  /** Dates of bars on days the exchange was closed (not stored). */
  closedDayBars: string[];
  possibleSplits: PossibleSplit[];
  /** At least the trade engines' warm-up in stored bars (else usable by the scans only). */
  usableByTradeEngines: boolean;
  /** The warm-up the check used (bars). */
  warmupBars: number;
  /** The calendar the series was checked on. */
  calendar: SessionCalendar;
  /** The first date checked against the exchange calendar (earlier bars are not); '' on the every-day calendar. */
  calendarCheckedFrom: string;
}

export interface PriceSeriesCheckOptions {
  /** A close-to-close move beyond this fraction is a possible split (0.4). */
  splitThreshold?: number;
  /**
   * 'us' (default): the NYSE's sessions. 'utc': every day is a session (crypto), as the engines'
   * EngineDefinition.calendar.
   */
  calendar?: SessionCalendar;
  /**
   * False when the exchange's holidays are not in the calendar (a Toronto listing: the calendar is the
   * NYSE's): on 'us', weekdays are its sessions and weekends closed, and a weekday without a bar is not
   * reported (it may be a TSX holiday); one 'holidays-unknown' warning says so. Default true.
   */
  holidaysKnown?: boolean;
  /** Default: the largest warm-up of the trade engines on that calendar (260 on 'us', 200 on 'utc'). */
  warmupBars?: number;
  /**
   * Today as an ISO day (YYYY-MM-DD; core has no clock: the caller's market clock says it): a bar
   * dated after it is refused ('future-date'), naming its line. Absent: dates are not checked against today.
   */
  today?: string;
}
