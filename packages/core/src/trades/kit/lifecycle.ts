import { isoFromDayNumber } from '../../market/trading-calendar';
import type { CloseReason, DailySeries, EmitEvent, EngineId, EventDataMap, IdeaEvent } from '../types';

/**
 * The lifecycle steps the trade engines' reducers share (docs/rules/conventions.md §0.1 Timing and
 * fills, §0.4 Engine function, event log). An idea is `opened` on bar t with its entry pending; a
 * `stop_hit` on a close leaves an exit pending for the next open; `closed` ends it with a reason, an
 * exit price and the exit's side of the bar; `voided` ends a pending entry that never filled. Each
 * engine's reducer (engines/<name>/state.ts) calls these for the fields every engine names the same
 * way and keeps its own fields after the call. Like the reducers, the steps mutate the state.
 */

/** The fields an `opened` event sets the same way in every stock and option engine (§0.1 Entry). */
export interface OpenedLifecycle {
  symbol: string;
  /** The signal's bar t (YYYY-MM-DD). */
  signalDate: string;
  /** The close of bar t, shown as the entry while it is pending. */
  signalPrice: number;
  /** True from `opened` until the entry fills at the open of t+1 or the idea is voided. */
  entryPending: boolean;
}

/** The close fields of a trade's state: what `closed` and `voided` set (§0.1, §0.4 Rows). */
export interface ClosingState {
  closed: boolean;
  closeReason: CloseReason | null;
  /** Day number of the closing event's bar. */
  closedDay: number | null;
  exitAt: 'open' | 'close' | null;
  /** Sessions held at the close (entry bar = 1) and the worst mark while held, from the closed event. */
  sessionsHeld: number | null;
  maxAdverseExcursion: number | null;
}

/** A stock trade's exit: priced by `closed`, pending between a `stop_hit` and the next open (§0.1 Stops, stocks). */
export interface StockExitState {
  exitPrice: number | null;
  exitPending: boolean;
}

/** What a `closed` event's data says in every engine that holds a position (its engine adds more). */
export type ClosedFacts = {
  reason: CloseReason;
  exitAt: 'open' | 'close';
  sessionsHeld: number;
  maxAdverseExcursion: number;
};

/** The opening lifecycle fields of an `opened` event (price = close t; 0 when the event has none). */
export function openLifecycle(event: { symbol: string; barDate: string; price: number | null }): OpenedLifecycle {
  return { symbol: event.symbol, signalDate: event.barDate, signalPrice: event.price ?? 0, entryPending: true };
}

/**
 * The `closed` step's close fields (reason, day, the exit's side of the bar, sessions held, worst
 * mark); the exit price is the engine's (stocks: `applyClosed`; options: the option's exit value).
 */
export function closeLifecycle<S extends ClosingState>(state: S, data: ClosedFacts, day: number): void {
  state.closed = true;
  state.closeReason = data.reason;
  state.closedDay = day;
  state.exitAt = data.exitAt;
  state.sessionsHeld = data.sessionsHeld;
  state.maxAdverseExcursion = data.maxAdverseExcursion;
}

/** The `closed` step of a stock-priced trade: the close fields, the exit at the event's price, no exit pending any more. */
export function applyClosed<S extends ClosingState & StockExitState>(state: S, event: { price: number | null; data: ClosedFacts }, day: number): void {
  closeLifecycle(state, event.data, day);
  state.exitPrice = event.price;
  state.exitPending = false;
}

/** The `voided` step (§0.1 Void): nothing was bought; the idea is closed with reason 'void' on the entry bar. */
export function applyVoided<S extends Pick<ClosingState, 'closed' | 'closeReason' | 'closedDay'> & Pick<OpenedLifecycle, 'entryPending'>>(state: S, day: number): void {
  state.closed = true;
  state.closeReason = 'void';
  state.entryPending = false;
  state.closedDay = day;
}

/** The `stop_hit` step of a stock trade (§0.1 Stops, stocks): a close below the stop; the rest sells at the next open. */
export function applyStopHit<S extends Pick<StockExitState, 'exitPending'>>(state: S): void {
  state.exitPending = true;
}

/** The forward fold of a reducer: `apply` over an idea's events, oldest first (null without `opened`). */
export function foldWith<S>(apply: (state: S | null, event: IdeaEvent) => S | null): (events: readonly IdeaEvent[]) => S | null {
  return (events) => {
    let state: S | null = null;
    for (const event of events) state = apply(state, event);
    return state;
  };
}

/** `openState` of an engine (§0.4): the folded state while the idea is open, null once closed or voided (or never opened). */
export function openOnly<S extends { closed: boolean }>(state: S | null): S | null {
  return state && !state.closed ? state : null;
}

/**
 * One session of one open idea (§0.4): `emit` records an event of `series`'s symbol on the session's
 * bar (the last bar of the view) and applies it to `state` at once, so the engine decides the rest of
 * the session on the state the log will fold to; `events` holds what was emitted, in order.
 */
export function sessionEmitter<M extends EventDataMap, S>(
  engine: EngineId,
  ideaId: string,
  series: DailySeries,
  state: S,
  apply: (state: S, event: IdeaEvent) => unknown,
): { events: IdeaEvent[]; emit: EmitEvent<M> } {
  const events: IdeaEvent[] = [];
  const barDate = isoFromDayNumber(series.day[series.day.length - 1]!);
  const emit: EmitEvent<M> = (type, level, price, data) => {
    const event: IdeaEvent = { ideaId, engine, market: series.market, symbol: series.symbol, type, level, barDate, price, data };
    events.push(event);
    apply(state, event);
  };
  return { events, emit };
}
