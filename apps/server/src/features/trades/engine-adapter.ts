/**
 * What the platform knows of one engine beyond its EngineDefinition (issue 25): each engine has one
 * adapter (engines/<code name>.adapter.ts), collected in ENGINE_ADAPTERS (engines.ts). The shared code
 * (runner, jobs, routes, extras, track record) looks an engine's adapter up and calls it; only an
 * adapter knows which engine it is. A sixth engine: its folder in packages/core (trades/engines/), its
 * adapter here, its screen's configuration on the web.
 */
import type { DailySeries, Endpoint, EngineId, ideaListQuery, Mark, OptionChainSnapshot, StoredIdeaEvent, UniverseMember } from '@signalboard/core';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { TradesRepo } from './trades.repo';
import type { EngineVersions } from './trades.versions';
import type { AnyEngine, ExtrasFor } from './trades.types';

/** What an engine's extras read besides the market (trades.extras.ts createExtrasFor). */
export interface ExtrasDeps {
  market: CachedMarket;
  repo: TradesRepo;
  log: { warn(message: string): void };
  /** The S&P 500 members (drop's index); default the layered universe by `universeOf`, else stockUniverse of the source. */
  indexMembers?: () => Promise<UniverseMember[]>;
  /** The engines' universes the run reads (the jobs' universeOf: tests pass a small one). */
  universeOf?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
  /** The run's series (crypto: its candles' provenance; volume summed across venues is left out here). */
  series?: Map<string, DailySeries>;
  /** The market's now (crypto: news is read for the recent passes only); default the wall clock. */
  nowMs?: () => number;
}

/** An engine's calendar (docs/rules/conventions.md §0.3): its sessions, when its passes and marks run. */
export interface EngineCalendar {
  /** The latest session whose daily pass has come at `nowMs` (day number). */
  passDay(nowMs: number): number;
  /** The instant (ms) of the pass deciding session `day` (a replay's `now`). */
  passTimeMs(day: number): number;
  isSession(day: number): boolean;
  /** The sessions on which some series has a bar, within [fromDay, toDay], ascending. */
  sessionDays(series: Iterable<DailySeries>, fromDay: number, toDay: number): number[];
  /** The marks' slot at `nowMs` (null: no marks now), given the source's stock interval. */
  markSlot(nowMs: number, stockIntervalMs: number): Date | null;
}

/** How an engine's open ideas are marked beyond the quote (the option engines: from chains). */
export interface EngineMarks {
  /**
   * The chains the marks of open ideas read now (docs/rules/option-trades.md §4.3), from the ideas'
   * logs, for today's session `date`; empty when no open idea was chain-priced.
   */
  chains(engine: AnyEngine, market: CachedMarket, logs: Iterable<readonly StoredIdeaEvent[]>, date: string, log: { warn(message: string): void }): Promise<Map<string, OptionChainSnapshot>>;
  /** The mark the engine folds a row at, given a mark without an option's value (trades.extras.ts markFor). */
  markAt(engine: AnyEngine, events: readonly StoredIdeaEvent[], mark: Mark, chains?: ReadonlyMap<string, OptionChainSnapshot>): Mark;
}

/** An engine's list call (spec §7): its endpoint (packages/core/src/endpoints/trades.ts), its statuses, its `type` filter values and its order. */
export interface EngineListCall {
  /** Its declaration (filters: ideaListQuery); trades.routes.ts registers it with route(). */
  endpoint: Endpoint & { query: typeof ideaListQuery };
  /** The statuses the list accepts (its rows' Status values, lower case). */
  statuses: readonly string[];
  /** The `type` values the list accepts, each with the track record's type group (none: no type filter). */
  types?: Readonly<Record<string, string>>;
  /** 'profit': ProfitPercent descending (option trades); 'created': newest first. */
  order: 'profit' | 'created';
}

/** What an engine's own routes are given (crypto's scanner and scorecard). */
export interface EngineRoutesContext {
  /** The engines as they run now (trades.versions.ts: each one's rule version on the data its universe has). */
  versions: EngineVersions;
  repo: TradesRepo;
  market: CachedMarket;
  marketClock: Clock;
}

/** The adapter of engine `Id` (engines.ts ENGINE_ADAPTERS holds each one under its id); EngineAdapter: any engine's. */
export interface EngineAdapter<Id extends EngineId = EngineId> {
  readonly id: Id;
  /** The symbols the engine runs over; `survivorshipBiased` says the list is today's, not the session's (a replay). */
  universe(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]>;
  readonly calendar: EngineCalendar;
  /**
   * Its session extras for a run over `universe` (what it reads beyond bars: rates, chains, news,
   * earnings…), of its engine's own extras type (EngineExtras[Id], packages/core engines/<name>/extras.ts).
   */
  extras(engine: AnyEngine, universe: readonly UniverseMember[], deps: ExtrasDeps): Promise<ExtrasFor<Id>>;
  /** Its marks beyond the quote; none: an open idea is folded at the quote as it is. */
  readonly marks?: EngineMarks;
  /** The list's `type` filter values a row matches (stored with the row: ideas.types). */
  typesOf(row: Record<string, unknown>): string[];
  /** The engine whose replay finishes before this one's (drop items link the swing trade open on their session). */
  readonly replayAfter?: EngineId;
  /** Its list call (crypto has its own routes instead). */
  readonly list?: EngineListCall;
  /** The row as sent at `nowMs` (crypto: IsNew taken at read time); default as stored. */
  rowAt?(row: Record<string, unknown>, nowMs: number): Record<string, unknown>;
  /** The idea detail's last bar time (seconds) for an idea still open; default now (crypto: the last completed UTC day). */
  detailBarsTo?(nowMs: number): number;
  /** Its own calls, registered with the trade calls (under /api). */
  routes?(app: FastifyInstance, context: EngineRoutesContext): void;
}
