/**
 * Runs an engine session by session over the store (docs/rules/conventions.md §0.4, §0.5): the install (or new
 * rule version) replay, the daily pass with its catch-up, and the marks. The same `step` serves
 * all of them: it hands the engine the bars through the session, the universe, the open ideas (the
 * fold of the log) and the cooldowns, stamps the events it answers, appends them, and re-folds the
 * ideas they touch, all in one transaction.
 */
import {
  isTradingDayNumber,
  isoFromDayNumber,
  newYorkInstantMs,
  SESSION_CLOSE_MINUTES,
  SESSION_OPEN_MINUTES,
  type DailySeries,
  type IdeaEvent,
  type Mark,
  type OpenIdea,
  type OptionChainSnapshot,
  type Origin,
  type SessionExtras,
  type SessionInput,
  type StoredIdeaEvent,
  type UniverseMember,
} from '@signalboard/core';
import { adapterOf } from './engines';
import type { IdeaRecord, TradesRepo } from './trades.repo';
import { markFor } from './trades.extras';
import { passTimeMs, seriesThrough } from './trades.market';
import type { AnyEngine } from './trades.types';


type Stored = StoredIdeaEvent & { sequence: number };

interface IdeaState {
  id: string;
  symbol: string;
  market: IdeaEvent['market'];
  origin: Origin;
  events: Stored[];
  /** engine.openState of the events; null once closed or voided. */
  state: unknown;
}

/** The store's id of an engine's idea: its own id and the version (a new version's replay stores ideas of its own). */
export function storeIdOf(engineIdeaId: string, ruleVersion: string): string {
  return engineIdeaId.includes('@') ? engineIdeaId : `${engineIdeaId}@${ruleVersion.slice(ruleVersion.indexOf('@') + 1)}`;
}

/** The open of the session after `barDate`: an idea recorded before it is live (docs/rules/conventions.md §0.5). */
function entryOpenMs(barDate: string): number {
  let day = Math.round(Date.parse(`${barDate}T00:00:00Z`) / 86_400_000) + 1;
  while (!isTradingDayNumber(day)) day += 1;
  return newYorkInstantMs(day, SESSION_OPEN_MINUTES);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The option's value a mark carries (a drop O item's, a chain's bid), else null. */
export function optionValueOf(mark: Mark | null): number | null {
  const value = (mark as (Mark & { optionValue?: number }) | null)?.optionValue;
  return typeof value === 'number' ? value : null;
}

/** A row's IsActive (a drop item's StockIsActive). */
const activeOf = (row: Record<string, unknown>) => (row.IsActive ?? row.StockIsActive) === true;

/**
 * The idea row the store keeps: the fold of `events` at `mark`, with the columns the lists need.
 * `chains`: the option chains of the mark's moment (a chain-priced contract is marked from them).
 */
export function recordOf(engine: AnyEngine, events: readonly Stored[], mark: Mark | null, nowMs: number, chains?: ReadonlyMap<string, OptionChainSnapshot>): IdeaRecord {
  const opened = events.find((event) => event.type === 'opened') ?? events[0]!;
  const last = events[events.length - 1]!;
  const marked = markFor(engine, events, mark, chains);
  const row = engine.fold(events, marked, iso(nowMs));
  const open = engine.openState(events) !== null;
  return {
    id: opened.ideaId,
    engine: engine.id,
    market: opened.market,
    symbol: opened.symbol,
    createdAt: new Date(opened.recordedAt),
    status: String(row.Status ?? (activeOf(row) ? 'Active' : '')).toLowerCase(),
    origin: opened.origin,
    ruleVersion: opened.ruleVersion,
    isActive: activeOf(row),
    isOpen: open,
    isVoided: events.some((event) => event.type === 'voided'),
    // The list's `type` filter values the row matches (swing: trend, drop, level; drop: S, L, O).
    types: adapterOf(engine).typesOf(row),
    cooldownKey: engine.cooldownKey(opened),
    closedBarDate: open ? null : last.barDate,
    signalDate: opened.barDate,
    lastSequence: last.sequence,
    markPrice: mark?.price ?? null,
    markAt: mark ? new Date(mark.at) : null,
    markOptionValue: optionValueOf(marked),
    row,
    updatedAt: new Date(nowMs),
  };
}

export interface RunnerOptions {
  engine: AnyEngine;
  repo: TradesRepo;
  /** replay: every idea is 'replayed', `now` is each session's pass time; live: the daily pass and its catch-up. */
  mode: 'replay' | 'live';
  /**
   * A replay taken up again after the sessions the store already holds (it stopped or failed half-way):
   * it starts from the store's open ideas and cooldowns, as the live pass does. A live run always does.
   */
  resume?: boolean;
  universe: readonly UniverseMember[];
  series: ReadonlyMap<string, DailySeries>;
  /**
   * The session's extras (trades.extras.ts createExtrasFor: the engine's own, held as SessionExtras);
   * none by default. `live`: the session a live pass decides. The marks read their `optionChains`
   * (options' and drop's field; absent for the other engines).
   */
  extrasFor?: (input: SessionInput<unknown, unknown>, options: { live: boolean; pace?: Pace }) => Promise<SessionExtras>;
  /**
   * Called between small pieces of a session's work (a symbol, an idea, a chunk of rows): gives way
   * to the process's requests once the current slice has run long enough (lib/foreground.ts
   * createPacer). None by default. Where it is called changes nothing in what is stored.
   */
  pace?: Pace;
}

/** See RunnerOptions.pace; `fresh`: give way now, before a piece that cannot be cut. */
export type Pace = (fresh?: boolean) => Promise<void>;
const NO_PACE: Pace = () => Promise.resolve();

/** One engine version's run over consecutive sessions, with its open ideas and cooldowns in memory. */
export async function createSessionRunner(options: RunnerOptions) {
  const { engine, repo, mode, universe, series, extrasFor } = options;
  const pace = options.pace ?? NO_PACE;
  const open = new Map<string, IdeaState>();
  const cooldowns = new Map<string, string>();

  if (mode === 'live' || options.resume === true) {
    const rows = await repo.openIdeas(repo.db, engine.id, engine.ruleVersion);
    const events = await repo.eventsOf(
      repo.db,
      rows.map((row) => row.id),
    );
    for (const row of rows) {
      const list = events.get(row.id) ?? [];
      if (list.length === 0) continue;
      open.set(row.id, { id: row.id, symbol: row.symbol, market: row.market as IdeaEvent['market'], origin: row.origin as Origin, events: list, state: engine.openState(list) });
    }
    for (const [key, date] of await repo.cooldowns(repo.db, engine.id, engine.ruleVersion)) cooldowns.set(key, date);
  }

  /** The close of `symbol` on the session (its last bar through `day`), as a mark. */
  const closeMark = (symbol: string, day: number): Mark | null => {
    const one = series.get(symbol);
    if (!one) return null;
    const through = seriesThrough(one, day);
    const index = through.close.length - 1;
    if (index < 0) return null;
    return { price: through.close[index]!, at: iso(newYorkInstantMs(through.day[index]!, SESSION_CLOSE_MINUTES)) };
  };

  /** What the engine is given on session `day` (its extras aside): bars through it, the open ideas, the cooldowns. */
  const inputOf = async (day: number, nowMs: number): Promise<SessionInput<unknown, unknown>> => {
    const bars = new Map<string, DailySeries>();
    for (const [symbol, one] of series) {
      bars.set(symbol, seriesThrough(one, day));
      await pace();
    }
    const openIdeas: OpenIdea[] = [...open.values()].map((idea) => ({ ideaId: idea.id, symbol: idea.symbol, market: idea.market, ruleVersion: engine.ruleVersion, state: idea.state }));
    return { params: engine.params, session: { date: isoFromDayNumber(day), now: iso(nowMs) }, bars, universe, openIdeas, cooldowns, extras: {} };
  };

  /** The option chains of the last session run (its close marks read them), by session day. */
  let sessionChains: { day: number; chains: ReadonlyMap<string, OptionChainSnapshot> } | null = null;

  /**
   * The logs of these ideas as stored: an open idea's known events (read from the store before) and
   * the store's events after them; the others whole. (Reading every touched idea's whole log after
   * each session made a replay quadratic in its length: crypto touches every coin every day.)
   */
  async function logsOf(tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0], ids: readonly string[]): Promise<Map<string, Stored[]>> {
    const known = ids.filter((id) => (open.get(id)?.events.length ?? 0) > 0);
    const unknown = ids.filter((id) => !((open.get(id)?.events.length ?? 0) > 0));
    const logs = unknown.length > 0 ? await repo.eventsOf(tx, unknown) : new Map<string, Stored[]>();
    if (known.length === 0) return logs;
    const lastOf = (id: string) => open.get(id)!.events.at(-1)!.sequence;
    const newer = await repo.eventsOf(tx, known, Math.min(...known.map(lastOf)));
    for (const id of known) {
      const last = lastOf(id);
      logs.set(id, [...open.get(id)!.events, ...(newer.get(id) ?? []).filter((event) => event.sequence > last)]);
    }
    return logs;
  }

  /** Re-folds these ideas from the log (inside the session's transaction) and stores their rows, the open ones marked at the close of `day`. */
  async function refold(tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0], ids: readonly string[], day: number, nowMs: number): Promise<Map<string, Stored[]>> {
    const logs = await logsOf(tx, ids);
    const records: IdeaRecord[] = [];
    const chains = sessionChains?.day === day ? sessionChains.chains : undefined;
    for (const events of logs.values()) {
      await pace();
      // One fold per idea: an open one's at the session's close (folding it unmarked first, only to
      // learn that it is open, doubled the garbage of a replay, the most of its allocations).
      const opened = events.find((event) => event.type === 'opened') ?? events[0]!;
      const isOpen = engine.openState(events) !== null;
      records.push(isOpen ? recordOf(engine, events, closeMark(opened.symbol, day), nowMs, chains) : recordOf(engine, events, null, nowMs));
    }
    await repo.upsertIdeas(tx, records, pace);
    return logs;
  }

  return {
    openCount: () => open.size,

    /**
     * Runs the session `day` at `nowMs` (a replay: the session's pass time). Answers the ids of the
     * ideas it touched, or null when `claim` (first in the session's transaction) refused to write
     * it: another process has stored that session (this runner's open ideas are then behind the
     * store; its caller stops). `refoldAllOpen`: also re-mark every open idea at the session's close
     * (the daily pass; a replay does it once at its end).
     */
    async step(
      day: number,
      nowMs: number,
      extra: {
        refoldAllOpen: boolean;
        live?: boolean;
        claim?: (tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0]) => Promise<boolean>;
        afterWrite?: (tx: Parameters<Parameters<TradesRepo['transaction']>[0]>[0]) => Promise<void>;
      },
    ): Promise<string[] | null> {
      const input = await inputOf(day, nowMs);
      const extras = extrasFor ? await extrasFor(input, { live: extra.live === true, pace }) : {};
      sessionChains = extras.optionChains ? { day, chains: extras.optionChains } : null;
      // The engine's session is one piece (it ranks the whole universe): a slice of its own.
      await pace(true);
      const emitted = engine.runSession({ ...input, extras });

      const originOf = new Map<string, Origin>();
      const stamped: StoredIdeaEvent[] = emitted.map((event) => {
        const ideaId = storeIdOf(event.ideaId, engine.ruleVersion);
        let origin = open.get(ideaId)?.origin ?? originOf.get(ideaId);
        if (origin === undefined) {
          origin = mode === 'replay' || (event.type === 'opened' && nowMs >= entryOpenMs(event.barDate)) ? 'replayed' : 'live';
          originOf.set(ideaId, origin);
        }
        return { ...event, ideaId, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin, recordedAt: iso(nowMs) };
      });
      const touched = [...new Set(stamped.map((event) => event.ideaId))];

      const logs = await repo.transaction(async (tx) => {
        if (extra.claim && !(await extra.claim(tx))) return null;
        await repo.appendEvents(tx, stamped, pace);
        const ids = extra.refoldAllOpen ? [...new Set([...touched, ...open.keys()])] : touched;
        const folded = await refold(tx, ids, day, nowMs);
        await extra.afterWrite?.(tx);
        return folded;
      });

      if (logs === null) return null;
      // The log is the truth: the in-memory open ideas follow what was stored.
      for (const id of touched) {
        const events = logs.get(id);
        if (!events?.length) continue;
        await pace();
        const state = engine.openState(events);
        const first = events[0]!;
        if (state === null) {
          open.delete(id);
          const opened = events.find((event) => event.type === 'opened') ?? first;
          const key = engine.cooldownKey(opened);
          const closedOn = events[events.length - 1]!.barDate;
          if ((cooldowns.get(key) ?? '') < closedOn) cooldowns.set(key, closedOn);
        } else {
          open.set(id, { id, symbol: first.symbol, market: first.market, origin: first.origin, events, state });
        }
      }
      return touched;
    },

    /** Re-marks every open idea at the close of `day` (the end of a replay), with that session's chains. */
    async markOpenAtClose(day: number, nowMs: number): Promise<void> {
      // A replay taken up again with no session left to run has not read that session's chains yet.
      if (sessionChains?.day !== day && extrasFor && open.size > 0) {
        const extras = await extrasFor(await inputOf(day, passTimeMs(day)), { live: false, pace });
        sessionChains = extras.optionChains ? { day, chains: extras.optionChains } : null;
      }
      await repo.transaction(async (tx) => {
        await refold(tx, [...open.keys()], day, nowMs);
      });
    },
  };
}

/** The sessions a replay runs: those after the engine's warm-up, through `lastDay`. */
export function replaySessions(allSessions: readonly number[], warmupBars: number): number[] {
  return allSessions.slice(Math.min(warmupBars, allSessions.length));
}

export { passTimeMs };
