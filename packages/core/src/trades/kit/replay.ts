import { dayNumber } from '../../market/trading-calendar';
import type {
  CommonExtras,
  DailySeries,
  EngineDefinition,
  IdeaEvent,
  OpenIdea,
  Origin,
  StoredIdeaEvent,
  UniverseMember,
} from '../types';
import { indexOnOrBefore, viewThrough } from './series';
import { passTimeOn } from './times';

/** Adds the store's stamps to an engine's events (what `idea_events` holds). */
export function stampEvents<P, S, R>(engine: EngineDefinition<P, S, R>, events: readonly IdeaEvent[], origin: Origin, recordedAt: string): StoredIdeaEvent[] {
  return events.map((event) => ({ ...event, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin, recordedAt }));
}

/** The open ideas and cooldowns folded from a log (oldest first), as the server and the replay keep them. */
export interface EngineLedger<S> {
  /** Each idea's events, oldest first. */
  events: Map<string, StoredIdeaEvent[]>;
  open: Map<string, OpenIdea<S>>;
  cooldowns: Map<string, string>;
}

export function emptyLedger<S>(): EngineLedger<S> {
  return { events: new Map(), open: new Map(), cooldowns: new Map() };
}

/** Appends events to the ledger and re-folds the ideas they touch (engine.openState). */
export function foldIntoLedger<P, S, R>(engine: EngineDefinition<P, S, R>, ledger: EngineLedger<S>, events: readonly StoredIdeaEvent[]): void {
  const touched = new Set<string>();
  for (const event of events) {
    if (event.engine !== engine.id) continue;
    let list = ledger.events.get(event.ideaId);
    if (!list) {
      list = [];
      ledger.events.set(event.ideaId, list);
    }
    list.push(event);
    touched.add(event.ideaId);
  }
  for (const ideaId of touched) {
    const list = ledger.events.get(ideaId)!;
    const first = list[0]!;
    const state = engine.openState(list);
    if (state !== null) {
      ledger.open.set(ideaId, { ideaId, symbol: first.symbol, market: first.market, ruleVersion: first.ruleVersion, state });
      continue;
    }
    ledger.open.delete(ideaId);
    const key = engine.cooldownKey(first);
    const closedOn = list[list.length - 1]!.barDate;
    const previous = ledger.cooldowns.get(key);
    if (previous === undefined || previous < closedOn) ledger.cooldowns.set(key, closedOn);
  }
}

export interface ReplayInput<P, X extends CommonExtras = CommonExtras> {
  /** Every symbol's full history, oldest first (keyed by symbol). */
  series: ReadonlyMap<string, DailySeries>;
  /** The sessions to decide, ascending (YYYY-MM-DD). */
  sessions: readonly string[];
  /** The engine's universe on a session (point in time where the source knows it). */
  universeFor(date: string): readonly UniverseMember[];
  /** As-of-session extras, of the engine's own type X (engines/<name>/extras.ts); none by default. */
  extras?(date: string): X;
  /** The pass time of a session; the engine's nominal pass by default (16:30 New York; crypto 00:05 UTC the next day). */
  nowFor?(date: string): string;
  origin: Origin;
  /** The engine's own parameters by default. */
  params?: P;
  /** Events already in the log (oldest first): the run continues their open ideas and cooldowns. */
  prior?: readonly StoredIdeaEvent[];
}

/**
 * The replay driver (docs/rules/conventions.md §0.4–0.5): runs the engine session by session over stored
 * history, handing it zero-copy views that end at each session's bar (so it cannot read a later
 * bar), folding open ideas between sessions with engine.openState exactly as the live pass does.
 * Answers the new events, stamped (recordedAt = the session's pass time). Catch-up and the live
 * daily pass are the same call with one session and the stored log as `prior`.
 */
export function replay<P, S, R, X extends CommonExtras>(engine: EngineDefinition<P, S, R, X>, input: ReplayInput<P, X>): StoredIdeaEvent[] {
  const ledger = emptyLedger<S>();
  if (input.prior) foldIntoLedger(engine, ledger, input.prior);
  const params = input.params ?? engine.params;
  const nowFor = input.nowFor ?? ((date: string) => passTimeOn(engine.calendar ?? 'us', date));
  const out: StoredIdeaEvent[] = [];
  for (const date of input.sessions) {
    const day = dayNumber(date);
    const universe = input.universeFor(date);
    const bars = new Map<string, DailySeries>();
    const add = (symbol: string) => {
      if (bars.has(symbol)) return;
      const full = input.series.get(symbol);
      if (!full) return;
      const end = indexOnOrBefore(full.day, day);
      if (end >= 0) bars.set(symbol, end === full.day.length - 1 ? full : viewThrough(full, end));
    };
    for (const member of universe) add(member.symbol);
    for (const idea of ledger.open.values()) add(idea.symbol);
    const now = nowFor(date);
    const events = engine.runSession({
      params,
      session: { date, now },
      bars,
      universe,
      openIdeas: [...ledger.open.values()],
      cooldowns: ledger.cooldowns,
      // No extras: `{}` (every extras field is optional, so `{}` is a value of any engine's X).
      extras: input.extras?.(date) ?? ({} as X),
    });
    const stamped = stampEvents(engine, events, input.origin, now);
    foldIntoLedger(engine, ledger, stamped);
    for (const event of stamped) out.push(event);
  }
  return out;
}
