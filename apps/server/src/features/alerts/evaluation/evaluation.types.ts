/**
 * The alert evaluation's interface (issue 15; docs/rules/alerts.md): what app.ts, container.ts and
 * the jobs call (AlertEvaluation), what it is built from (AlertEvaluationDeps), and what the price,
 * idea and news evaluators share (EvaluatorDeps).
 */
import type { AlertQuote, AlertType } from '@signalboard/core';
import type { Database } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import type { CachedMarket } from '../../../providers/market/cached-market';
import type { NewAlert } from './alert-store';
import type { IntradayScanAlerts, IntradayScanReport } from './scan-intraday.evaluator';

export interface AlertEvaluationDeps {
  db: Database;
  market: CachedMarket;
  /** The market clock: sessions, market hours, quote freshness. */
  marketClock: Clock;
  /** Wall time: when alerts fired, when deliveries expire. */
  clock: Clock;
  /** Told after a commit that queued deliveries. */
  delivery?: { kick(): void };
  /** Told of each alert after its transaction committed (the live updates tell the user's screens). */
  alertCommitted?: (alert: NewAlert) => void;
  /** ALERT_POLL_SECONDS, when set. */
  pollSeconds?: number;
  /** Custom Scan alerts during the session, run on the poller's cadence (scan-intraday.evaluator.ts); none: not run. */
  intradayScans?: IntradayScanAlerts;
  log: { info(message: string): void; warn(message: string): void };
}

/** What each evaluator is given: the evaluation's dependencies and the label of the market's source. */
export interface EvaluatorDeps extends AlertEvaluationDeps {
  /** "Simulated market", "Dataset" or "Live market data" (SOURCE_LABELS in evaluation.ts). */
  source: string;
}

export interface PollReport {
  symbols: number;
  evaluated: number;
  fired: number;
  stale: number;
  /** Symbols whose quote could not be read. */
  failed: string[];
}

export interface PollShare {
  symbols: readonly string[];
  /** How many symbols the whole pass watches (it sets the poll interval the freshness rules use). */
  watched: number;
}

export interface AlertEvaluation {
  /** The poll interval for the current source and number of watched symbols. */
  pollIntervalMs(symbolCount: number): number;
  /** The symbols the active price rules watch (sorted). */
  watchedSymbols(): Promise<string[]>;
  /**
   * Reads the quote of every watched symbol and evaluates the watches of each; with `share`, only
   * those symbols (one worker's part of a pass over `watched` symbols in all).
   */
  pollQuotes(share?: PollShare): Promise<PollReport>;
  /** Evaluates `quotes` against the watches of their symbols (what pollQuotes does after reading). */
  evaluateQuotes(quotes: readonly AlertQuote[]): Promise<PollReport>;
  /** Turns the live idea events after the cursor into alerts; answers how many events were read. */
  consumeIdeaEvents(): Promise<number>;
  /** Turns the market news that arrived since the last batch into the news types' alerts; answers how many articles were new. */
  consumeNews(): Promise<number>;
  /** One poll of the price-only Custom Scans during the session (scan-intraday.evaluator.ts): the symbols that entered alert. */
  scanIntraday(): Promise<IntradayScanReport>;
  /**
   * After a rule was saved: each symbol's state starts from its current quote (a condition already
   * true waits for a new crossing); answers the screen's notices for those already true.
   */
  ruleSaved(userId: number, type: AlertType): Promise<string[]>;
  /** When the last quote poll finished (wall clock ms), null before the first. */
  lastEvaluatedAtMs(): number | null;
  /** Polls on a timer (and consumes idea events) until stop(). */
  start(): void;
  stop(): Promise<void>;
}
