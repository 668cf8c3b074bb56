/**
 * The trade-idea platform's shared types (docs/rules/conventions.md §0.4): what every engine receives and
 * answers, whatever engine it is. Engines are pure functions; the server runs them (install replay,
 * catch-up, the live daily pass) and stores their events in the append-only log `idea_events`.
 *
 * Engines: `layered` (allstockscanner), `swing` (stockshort), `options` (options2), `drop` (drop)
 * and `crypto` (cryptoscanner: one row per coin with `signal_changed` events).
 */

export type EngineId = 'layered' | 'swing' | 'crypto' | 'options' | 'drop';
export const ENGINE_IDS: readonly EngineId[] = ['layered', 'swing', 'crypto', 'options', 'drop'];

/**
 * Whose sessions an engine decides: NYSE trading days (its pass at 16:30 New York), or every UTC
 * day (its pass at 00:05 UTC the next day: crypto). Cohort maturity counts sessions of it too.
 */
export type SessionCalendar = 'us' | 'utc';

/** docs/rules/conventions.md §0.5: replayed over stored history, or recorded live before the entry bar opened. */
export type Origin = 'replayed' | 'live';
export const ORIGINS: readonly Origin[] = ['replayed', 'live'];

/**
 * docs/rules/conventions.md §0.4 event types, plus two for the crypto engine's one row per coin (docs/rules/crypto.md §3):
 * `signal_changed` (a displayed label changed: the append-only signal log of §3.4) and `updated`
 * (a pass's values of a row that is no trade: RSI, ATR, highs, trend, news… on the candle decided).
 */
export const IDEA_EVENT_TYPES = [
  'opened',
  'entry_filled',
  'level_hit',
  'levels_cancelled',
  'target_hit',
  'stop_hit',
  'time_stop',
  'closed',
  'voided',
  'alert_repeat',
  'split_adjusted',
  'correction',
  'signal_changed',
  'updated',
] as const;
export type IdeaEventType = (typeof IDEA_EVENT_TYPES)[number];

/** Where an instrument trades (the market data interface's markets). */
export type InstrumentMarket = 'US' | 'TO' | 'CRYPTO';

/** Why an idea closed (docs/rules/long-term.md §1.5, docs/rules/swing.md §2.2; `void` for voided ideas). */
export type CloseReason = 'target' | 'stop' | 'time' | 'index_exit' | 'corporate_action' | 'void';

/** What every event has, whatever its engine and type. */
export interface IdeaEventFields {
  /** Deterministic: `${engine}.${symbol}.${signalDate}` (see ideaIdOf). Opaque to everyone else. */
  ideaId: string;
  engine: EngineId;
  market: InstrumentMarket;
  symbol: string;
  /** The level the event is about (`ENL2`, `EXL1`, `T1`, `T2`, `STOP`, a horizon…), '' when none. */
  level: string;
  /** The session (YYYY-MM-DD) whose bar decided the event. */
  barDate: string;
  /** The fill or trigger price, null when the event has none. */
  price: number | null;
}

/**
 * One event as an engine emits it (and as the log holds it, whatever the engine). The store adds
 * rule_version, param_hash, origin and recorded_at. (ideaId, type, level, barDate) is unique:
 * running a session twice emits the same events, and the store keeps the first.
 */
export interface IdeaEvent extends IdeaEventFields {
  type: IdeaEventType;
  /** Everything else the fold needs (levels at `opened`, shares at a fill, …). JSON-serialisable. */
  data: Record<string, unknown>;
}

/**
 * An engine's event data by event type: the types it emits, each with the shape of its `data`
 * (engines/<name>/state.ts declares it; object type aliases, so each stays a JSON record).
 */
export type EventDataMap = { readonly [T in IdeaEventType]?: Record<string, unknown> };

/** No data (`{}`): the event's type, level and price say it all. */
export type NoData = Record<string, never>;

/**
 * An engine's events, typed: a union discriminated by `type`, each member with its data's shape.
 * Every member is an IdeaEvent (what runSession answers and the log stores).
 */
export type EngineEvent<M extends EventDataMap> = {
  [T in keyof M & IdeaEventType]: IdeaEventFields & { type: T; data: NonNullable<M[T]> };
}[keyof M & IdeaEventType];

/** Records one event of an engine, its data typed by the event's type (the engines' `emit`). */
export type EmitEvent<M extends EventDataMap> = <T extends keyof M & IdeaEventType>(type: T, level: string, price: number | null, data: NonNullable<M[T]>) => void;

/**
 * An event of the log read as the engine that wrote it: the log keeps exactly what the engine
 * emitted (its `engine` names it), so `data` has the shape the engine's map gives its type. No
 * runtime check (the folds read stored data as they always did); the one place a fold trusts the log.
 */
export function engineEvent<M extends EventDataMap>(event: IdeaEvent): EngineEvent<M> {
  return event as EngineEvent<M>;
}

/** A stored event: what the engine emitted plus the store's stamps. */
export interface StoredIdeaEvent extends IdeaEvent {
  ruleVersion: string;
  paramHash: string;
  origin: Origin;
  /** ISO 8601 UTC: when the store recorded it (replay: the session's nominal pass time). */
  recordedAt: string;
}

export function ideaIdOf(engine: EngineId, symbol: string, signalDate: string): string {
  return `${engine}.${symbol}.${signalDate}`;
}

/**
 * A symbol's completed daily bars, oldest first, as typed arrays. `day` holds day numbers (days since
 * 1970-01-01, see market/trading-calendar `dayNumber`). In `runSession` every array ends at the bar
 * of `session.date` (or earlier when the symbol has no bar that day): the runner passes zero-copy
 * `subarray` views, so an engine can never read a bar after the session it decides.
 */
export interface DailySeries {
  symbol: string;
  market: InstrumentMarket;
  day: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** A member of the engine's universe on the session (point in time where the source knows it). */
export interface UniverseMember {
  symbol: string;
  market: InstrumentMarket;
  sector?: string;
  /** True when membership is today's list, not as of the session (docs/rules/conventions.md §0.2 Universe). */
  survivorshipBiased: boolean;
}

/** The fold of an idea's events so far: what the engine needs to continue it. Engine-specific `state`. */
export interface OpenIdea<S = unknown> {
  ideaId: string;
  symbol: string;
  market: InstrumentMarket;
  ruleVersion: string;
  state: S;
}

/** Per key (engine-specific: a symbol, or symbol + type), the bar date the key's last idea closed. */
export type Cooldowns = ReadonlyMap<string, string>;

export interface SessionInput<P, S = unknown> {
  params: P;
  /** The session decided (YYYY-MM-DD) and the pass's time (ISO 8601 UTC; a replay uses 16:30 New York). */
  session: { date: string; now: string };
  bars: ReadonlyMap<string, DailySeries>;
  universe: readonly UniverseMember[];
  openIdeas: readonly OpenIdea<S>[];
  cooldowns: Cooldowns;
  /** As-of-t extras: earnings dates, corporate actions, chains, news scores, rates. */
  extras: SessionExtras;
}

export interface SessionExtras {
  /** Next earnings date (YYYY-MM-DD) per symbol, as known on the session. */
  earnings?: ReadonlyMap<string, string>;
  /** Symbols that leave the universe on the session (index exits, delistings). */
  removals?: ReadonlySet<string>;
  // drop engine (docs/rules/drop-items.md §5): all optional; the other engines ignore them.
  /** The S&P 500 members on the session ("Best of S&P 500" is built from them); absent: every universe member. */
  dropIndexMembers?: ReadonlySet<string>;
  /** The OPTION_ALERT underlyings (type O's universe); absent: none. */
  dropOptionUnderlyings?: ReadonlySet<string>;
  /** The source's company headlines per symbol, as known at the pass (StockNews, Sentiment, NewsTag). */
  dropNews?: ReadonlyMap<string, readonly DropHeadline[]>;
  /** GICS sector per symbol on the session (source profile); else the universe member's sector. */
  sectors?: ReadonlyMap<string, string>;
  /** The open swing trade's id per symbol (LinkedSwingTradeId). */
  swingTradeIds?: ReadonlyMap<string, string>;
  // options engine (docs/rules/option-trades.md §4): as-of-close chains, 30-day IV indexes, the rate, splits.
  /** The option chain per underlying symbol, as quoted at the session's close. */
  optionChains?: ReadonlyMap<string, OptionChainSnapshot>;
  /** 30-day IV index closes in points (e.g. 'VIX' → 18.4, 'VXN' → 22.1). */
  ivIndexes?: ReadonlyMap<string, number>;
  /** The risk-free rate (DTB3) as a fraction (0.04 = 4 %); 0.04 when absent. */
  riskFreeRate?: number;
  /** Underlyings with a split or other adjustment effective on the session (open option ideas close). */
  corporateActions?: ReadonlySet<string>;
  // crypto engine (docs/rules/crypto.md §3): all optional; the other engines ignore them.
  /** Each coin's scored headlines as known at the pass (the last 72 h are used; older ones are ignored). */
  cryptoNews?: ReadonlyMap<string, readonly CryptoHeadline[]>;
  /** Each coin's news summary by the configured analyst (server-side), over the same headlines. */
  cryptoNewsSummaries?: ReadonlyMap<string, string>;
  /** Which analyst scored the headlines ('lexicon', or the configured OpenAI-compatible model): the row's SentimentSource. */
  cryptoSentimentSource?: string;
  /** Coins whose candles carry only closes (no High/Low from the source): their range fields show defaults and say why. */
  cryptoCloseOnly?: ReadonlySet<string>;
  /** The unit of the candles' volume: 'usd' (the venue's quote volume, the default) or 'base' (coins; USD volume = volume × close). */
  cryptoVolumeUnit?: 'usd' | 'base';
}

/** A coin's headline as the crypto engine receives it (docs/rules/crypto.md §3.2): scored by the configured analyst. */
export interface CryptoHeadline {
  url: string;
  title: string;
  /** ISO 8601 UTC publication time. */
  publishedAt: string;
  /** The analyst's score in [−1, 1] (values outside are clamped; a non-finite score drops the headline). */
  score: number;
  /** The publisher ('CoinDesk', …). */
  source: string;
}

/** A company headline for the drop engine (spec §3 "News article" subset). */
export interface DropHeadline {
  /** ISO 8601 UTC publication time. */
  datetime: string;
  headline: string;
  summary: string;
  /** De-duplicates with the normalised headline (docs/rules/crypto.md §3.2). */
  url?: string;
  /** A score in [−1, 1] from the configured analyst; the local lexicon scores it when absent. */
  score?: number;
}

/** One listed option contract in a chain snapshot (options engine). */
export interface OptionChainContract {
  /** YYYY-MM-DD. */
  expiry: string;
  strike: number;
  side: 'CALL' | 'PUT';
  bid: number;
  ask: number;
  /** Implied volatility, a fraction. */
  iv?: number;
  delta?: number;
  openInterest?: number;
}

/** An underlying's option chain at one moment (options engine). */
export interface OptionChainSnapshot {
  underlying: string;
  contracts: readonly OptionChainContract[];
}

/**
 * One engine, as the platform runs it. `runSession` is the engine; `fold` is the projection from
 * the log to the API row (docs/rules/conventions.md §0.4 "Rows are exactly the fold of the events"); `mark`
 * refreshes the mark-to-market fields from a quote without events.
 */
export interface EngineDefinition<P, S, Row> {
  id: EngineId;
  /** `<engine>@<semver>`, e.g. `layered@1.0.0`. */
  ruleVersion: string;
  params: P;
  /** First 16 hex digits of SHA-256 over the parameters' canonical JSON (paramHash()). */
  paramHash: string;
  /**
   * The engine's session calendar (the replay's nominal pass time, the track record's cohort
   * maturity): shared code asks this, never the id. 'us' when absent.
   */
  calendar?: SessionCalendar;
  /** Bars an instrument needs before its first signal. */
  warmupBars: number;
  /** Longest hold in sessions (mature cohorts, docs/rules/track-record.md §6.2). */
  maxHoldSessions: number;
  /** The longest hold of one of the engine's types, where they differ (drop: S 21, L 252, O 10). */
  maxHoldSessionsOf?(type: string): number;
  runSession(input: SessionInput<P, S>): IdeaEvent[];
  /** The open-idea state after these events (oldest first), or null once closed or voided. */
  openState(events: readonly StoredIdeaEvent[]): S | null;
  /** The API row: the fold of the idea's events (oldest first), marked at `mark` when given. */
  fold(events: readonly StoredIdeaEvent[], mark: Mark | null, now: string): Row;
  /** The cooldown key of an idea (what Cooldowns is keyed by). */
  cooldownKey(event: IdeaEvent): string;
  /**
   * The random-entry baseline's draw (docs/rules/track-record.md §6.4 b): an idea forced open with bar
   * `signalIndex` of `series` as its signal bar (signal conditions skipped, levels or contract built
   * by the same code), then run through the same update and close code, session by session, until
   * it closes or the series ends. Answers its events (the ideaId given).
   */
  simulate(input: {
    params: P;
    series: DailySeries;
    signalIndex: number;
    ideaId: string;
    /** Engine-specific kind of idea to force (swing: 'Price Drop' or 'Trend', the real idea's type). */
    variant?: string;
  }): IdeaEvent[];
  /** What the track record needs of an idea whose entry filled (null: pending or voided). */
  outcome(events: readonly StoredIdeaEvent[], row: Row): IdeaOutcome | null;
}

/** An entered idea as the track record counts it (docs/rules/track-record.md §6). */
export interface IdeaOutcome {
  ideaId: string;
  symbol: string;
  origin: Origin;
  ruleVersion: string;
  /** The engine's types this idea counts under (swing: 'Price Drop' or 'Trend', plus 'Level System'). */
  types: string[];
  /** The signal pass's date (CreatedAt's session): the screen's date filter applies to it. */
  createdAt: string;
  /** Session of the entry fill (YYYY-MM-DD); the cohort is its month. */
  entryDate: string;
  /** Open while the idea is active. */
  closed: boolean;
  /** Session of the exit (null while open), and whether the exit filled at that session's open or close. */
  exitDate: string | null;
  exitAt: 'open' | 'close' | null;
  /** Return net of costs (fraction; marked at the last close while open). */
  returnPct: number;
  /** Layered: dollars deployed, P&L, and the dated cash flows (buys negative) for XIRR; else null. */
  deployed: number | null;
  pnl: number | null;
  cashFlows: { date: string; amount: number }[] | null;
  holdingSessions: number;
  /** The worst mark (return) while held. */
  maxAdverseExcursion: number;
  /** The spec status ('Successful', 'Partial', 'Failed', or 'Active'). */
  status: string;
  closeReason: CloseReason | null;
  /** ATR14 / close on the signal bar: the baseline draws from the same ATR% tercile. */
  atrPct: number;
}

/** A mark-to-market price: intraday quotes or the last close. Not an event. */
export interface Mark {
  price: number;
  /** ISO 8601 UTC. */
  at: string;
}
