import { dayNumber } from '../../../market/trading-calendar';
import { applyClosed, applyStopHit, applyVoided, foldWith } from '../../kit/lifecycle';
import { engineEvent, type CloseReason, type EngineEvent, type IdeaEvent } from '../../types';

/**
 * The layered plan's state (docs/rules/long-term.md §1) and the one reducer that builds it from events. The
 * engine applies each event it emits through `applyLayeredEvent` while deciding a session, and
 * `openState` / `fold` run the same reducer over the log, so the state an engine continues from is
 * by construction the fold of its events.
 */

export const LEVEL_COUNT = 5;

/** One entry or exit level. `price` null once cancelled (undefined levels). */
export interface PlanLevelState {
  price: number | null;
  count: number;
  /** Day number of the latest counted test, null before the first. */
  lastDay: number | null;
}

/** A fill or exit on the plan's cash timeline (for the worst mark and the track record's cash flows). */
export interface PlanFill {
  day: number;
  /** Shares bought (positive) or sold (negative). */
  shares: number;
  /** Dollars paid (buys) or received (sells), positive. */
  amount: number;
}

export interface LayeredState {
  symbol: string;
  signalDate: string;
  signalPrice: number;
  createdAt: string;
  survivorshipBiased: boolean;
  /** H: the highest High of bars t−20..t (ThirtyDayHigh). */
  anchorHigh: number;
  /** u: clamp(1.5 × ATR%, 3 %, 8 %). */
  step: number;
  atrPct: number;
  budget: number;
  entries: PlanLevelState[];
  exits: PlanLevelState[];
  stop: number;
  entryPending: boolean;
  entryDay: number | null;
  shares: number;
  deployed: number;
  proceeds: number;
  /** The position held when EXL1 first filled (the distribution lock), null before. */
  locked: number | null;
  /** A close below the stop: everything left sells at the next open. */
  exitPending: boolean;
  fills: PlanFill[];
  closed: boolean;
  closeReason: CloseReason | null;
  exitPrice: number | null;
  closedDay: number | null;
  exitAt: 'open' | 'close' | null;
  /** Sessions held at the close (entry bar = 1) and the worst mark while held, from the closed event. */
  sessionsHeld: number | null;
  maxAdverseExcursion: number | null;
}

/** Data of the `opened` event: everything frozen at creation. */
export type LayeredOpenedData = {
  anchorHigh: number;
  step: number;
  atr: number;
  atrPct: number;
  budget: number;
  /** ENL2..ENL5 (ENL1 is the open of t+1). */
  entries: number[];
  /** EXL1..EXL5. */
  exits: number[];
  stop: number;
  createdAt: string;
  survivorshipBiased: boolean;
  score: number;
};

export type ClosedData = {
  reason: CloseReason;
  exitAt: 'open' | 'close';
  /** Shares sold by the closing fill (0 when a limit already sold everything). */
  shares: number;
  amount: number;
  sessionsHeld: number;
  maxAdverseExcursion: number;
};

export type FillData = {
  fill: boolean;
  shares: number;
  amount: number;
};

/** The layered engine's events and the data each type carries (what engine.ts emits). */
export type LayeredEventData = {
  opened: LayeredOpenedData;
  entry_filled: FillData;
  /** `ENL2`..`ENL5` (a buy when `fill`) or `EXL1`..`EXL5` (a sale). */
  level_hit: FillData;
  /** The entry levels still unfilled once EXL1 fills (the distribution lock). */
  levels_cancelled: { levels: string[] };
  time_stop: { sessionsHeld: number };
  stop_hit: { stop: number };
  closed: ClosedData;
  voided: { reason: string };
};
export type LayeredEvent = EngineEvent<LayeredEventData>;

const emptyLevel = (price: number | null): PlanLevelState => ({ price, count: 0, lastDay: null });

function levelOf(state: LayeredState, name: string): PlanLevelState {
  const index = Number(name.slice(3)) - 1;
  const list = name.startsWith('ENL') ? state.entries : state.exits;
  const level = list[index];
  if (!level) throw new Error(`layered: no level ${name}`);
  return level;
}

/** The state after `event`. Mutates and answers `state` (null only before `opened`). */
export function applyLayeredEvent(state: LayeredState | null, logged: IdeaEvent): LayeredState | null {
  const event = engineEvent<LayeredEventData>(logged);
  if (event.type === 'opened') {
    const data = event.data;
    return {
      symbol: event.symbol,
      signalDate: event.barDate,
      signalPrice: event.price ?? 0,
      createdAt: data.createdAt,
      survivorshipBiased: data.survivorshipBiased,
      anchorHigh: data.anchorHigh,
      step: data.step,
      atrPct: data.atrPct,
      budget: data.budget,
      entries: [emptyLevel(null), ...data.entries.map((price) => emptyLevel(price))],
      exits: data.exits.map((price) => emptyLevel(price)),
      stop: data.stop,
      entryPending: true,
      entryDay: null,
      shares: 0,
      deployed: 0,
      proceeds: 0,
      locked: null,
      exitPending: false,
      fills: [],
      closed: false,
      closeReason: null,
      exitPrice: null,
      closedDay: null,
      exitAt: null,
      sessionsHeld: null,
      maxAdverseExcursion: null,
    };
  }
  if (!state) return null;
  const day = dayNumber(event.barDate);
  switch (event.type) {
    case 'entry_filled': {
      const data = event.data;
      const level = state.entries[0]!;
      level.price = event.price;
      level.count = 1;
      level.lastDay = day;
      state.entryPending = false;
      state.entryDay = day;
      buy(state, day, data);
      break;
    }
    case 'level_hit': {
      const data = event.data;
      const level = levelOf(state, event.level);
      level.count += 1;
      level.lastDay = day;
      if (!data.fill) break;
      if (event.level.startsWith('ENL')) buy(state, day, data);
      else {
        if (event.level === 'EXL1') state.locked = state.shares;
        sell(state, day, data);
      }
      break;
    }
    case 'levels_cancelled': {
      for (const name of event.data.levels ?? []) {
        const level = levelOf(state, name);
        level.price = null;
        level.count = 0;
        level.lastDay = null;
      }
      break;
    }
    case 'stop_hit':
      applyStopHit(state);
      break;
    case 'closed': {
      const data = event.data;
      if (data.shares > 0) sell(state, day, data);
      applyClosed(state, event, day);
      break;
    }
    case 'voided':
      applyVoided(state, day);
      // The layered reducer also clears the exit on a void (as its closeState always did).
      state.exitPrice = null;
      state.exitAt = null;
      state.exitPending = false;
      break;
    default:
      break;
  }
  return state;
}

function buy(state: LayeredState, day: number, data: { shares: number; amount: number }): void {
  state.shares += data.shares;
  state.deployed += data.amount;
  state.fills.push({ day, shares: data.shares, amount: data.amount });
}

function sell(state: LayeredState, day: number, data: { shares: number; amount: number }): void {
  state.shares -= data.shares;
  if (Math.abs(state.shares) < 1e-9) state.shares = 0;
  state.proceeds += data.amount;
  state.fills.push({ day, shares: -data.shares, amount: data.amount });
}

/** Folds an idea's events (oldest first) into its state; null when there is no `opened`. */
export const foldLayered = foldWith(applyLayeredEvent);

/** A deep copy (the engine works on a copy of an open idea's state). */
export function cloneLayered(state: LayeredState): LayeredState {
  return {
    ...state,
    entries: state.entries.map((level) => ({ ...level })),
    exits: state.exits.map((level) => ({ ...level })),
    fills: state.fills.map((fill) => ({ ...fill })),
  };
}
