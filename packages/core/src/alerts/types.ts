/**
 * The alert evaluator's contract (issue 15; docs/rules/alerts.md §1 "Semantics shared by every type",
 * "The eleven types"). Pure: no clock, no I/O. The server's evaluation service feeds it quotes and
 * stored per-symbol states and writes what it answers (new state, and an alert when one fires) in one
 * transaction.
 */
import type { AlertType } from '../contract/alert-rules';

/** The price-watching types, evaluated on quotes. */
export type PriceAlertType = Extract<AlertType, 'PERCENT_DROP' | 'CURRENT_PRICE' | 'BITCOIN' | 'LEVEL_SYSTEM'>;

/** One watched (rule, symbol) pair of a price rule. */
export interface PriceWatch {
  userId: number;
  alertType: PriceAlertType;
  symbol: string;
  /** PERCENT_DROP: the threshold in percent (1–100). */
  threshold?: number;
  /** CURRENT_PRICE and BITCOIN: the target and its direction. */
  target?: { price: number; direction: 'above' | 'below' };
  /** LEVEL_SYSTEM: the support/resistance levels of the symbol (core's volume-profile and swing levels). */
  levels?: ReadonlyArray<{ price: number; kind: 'support' | 'resistance'; source: string }>;
  /** The stamp of the rule version (its updated_at, ms): a state of another stamp is ignored (starts again). */
  ruleStamp: number;
}

/** A quote as the evaluator sees it. */
export interface AlertQuote {
  symbol: string;
  price: number;
  previousClose: number;
  /** When the source priced it (ms). */
  asOfMs: number;
  /** Where it came from, named in every message (e.g. 'Simulated market', 'Finnhub'). */
  source: string;
  /** ATR14 of the daily bars when known (re-arm margin, LEVEL_SYSTEM touch distance). */
  atr14?: number;
  /**
   * The quote's market, when known: a 'crypto' quote is evaluated only for BITCOIN watches and a
   * 'stock' one only for the others (a coin's ticker can equal a stock's). Unset: every watch of the symbol.
   */
  market?: 'stock' | 'crypto';
}

/** What is stored per (user, alert_type, symbol) between evaluations. */
export interface WatchState {
  ruleStamp: number;
  armed: boolean;
  /** The level the last fire crossed. */
  triggerPrice: number | null;
  lastFiredAtMs: number | null;
  /** YYYY-MM-DD (New York) of the last fire. */
  lastFiredSession: string | null;
  lastPrice: number | null;
}

export interface EvaluationContext {
  /** The market clock now (ms). */
  nowMs: number;
  /** The quote's refresh interval for its source (ms): a quote older than twice this is stale. */
  refreshMs: number;
  /** Whether the watch's market is being evaluated now (regular US hours for stocks; always for crypto). */
  marketOpen: boolean;
  /** The current session (YYYY-MM-DD, New York). */
  session: string;
}

/** A fired alert's content: what the event row stores. */
export interface FiredAlert {
  /** The trigger window of the unique key (e.g. the session for PERCENT_DROP; the fire time for targets). */
  triggerKey: string;
  /** The data that fired it: price, previousClose, target, direction, level, source, asOf (ISO). */
  data: Record<string, unknown>;
  /** ≤ 160 characters. */
  smsText: string;
  emailSubject: string;
  emailText: string;
}

export interface EvaluationResult {
  /** The state to store (unchanged object when nothing changed). */
  state: WatchState;
  /** Whether `state` differs from the input. */
  changed: boolean;
  fired: FiredAlert | null;
  /**
   * Why it did not evaluate, when it did not: 'stale', 'market_closed', or 'invalid_quote' (a price
   * that is not a finite positive number, or no as-of time).
   */
  skipped?: 'stale' | 'market_closed' | 'invalid_quote';
}
