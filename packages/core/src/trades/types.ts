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

export interface SessionInput<P, S = unknown, X extends CommonExtras = CommonExtras> {
  params: P;
  /** The session decided (YYYY-MM-DD) and the pass's time (ISO 8601 UTC; a replay uses 16:30 New York). */
  session: { date: string; now: string };
  bars: ReadonlyMap<string, DailySeries>;
  universe: readonly UniverseMember[];
  openIdeas: readonly OpenIdea<S>[];
  cooldowns: Cooldowns;
  /**
   * As-of-t extras: the engine's own (X of its EngineDefinition, declared in engines/<name>/extras.ts:
   * earnings dates, corporate actions, chains, news scores, rates…). `{}` is no extras.
   */
  extras: X;
}

/**
 * What every engine's extras share (docs/rules/conventions.md §0.2 Universe): each engine's extras type
 * (engines/<name>/extras.ts) extends it with the fields that engine reads, and only those. Every
 * extras field is optional: an absent one is the engine's documented default.
 */
export interface CommonExtras {
  /** Symbols that leave the universe on the session (index exits, delistings); every engine reads it. */
  removals?: ReadonlySet<string>;
}

/**
 * The earnings calendar, read by two engines: swing (EarningsSoon, docs/rules/swing.md §2.1) and options
 * (EarningsInWindow, docs/rules/option-trades.md §4); their extras extend it.
 */
export interface EarningsExtras {
  /** Next earnings date (YYYY-MM-DD) per symbol, as known on the session. */
  earnings?: ReadonlyMap<string, string>;
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
 * refreshes the mark-to-market fields from a quote without events. `X`: the extras its sessions read
 * (CommonExtras extended in engines/<name>/extras.ts); CommonExtras by default.
 */
export interface EngineDefinition<P, S, Row, X extends CommonExtras = CommonExtras> {
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
  /** Decides one session; `input.extras` is the engine's own extras type X (engines/<name>/extras.ts). */
  runSession(input: SessionInput<P, S, X>): IdeaEvent[];
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

/** The extras type X an engine's definition declares (trades/index.ts EngineExtras: each engine's by id). */
export type ExtrasOf<E> = E extends EngineDefinition<infer _P, infer _S, infer _R, infer X> ? X : never;

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
