import { dayNumber } from '../../../market/trading-calendar';
import { applyClosed, applyStopHit, applyVoided, foldWith, openLifecycle } from '../../kit/lifecycle';
import { engineEvent, type CloseReason, type EngineEvent, type IdeaEvent, type NoData } from '../../types';

/**
 * The swing trade's state (docs/rules/swing.md §2) and its reducer: the engine applies every event it
 * emits through `applySwingEvent`, and openState / fold run the same reducer over the log.
 */

export type SwingType = 'Price Drop' | 'Trend';
export const SWING_TYPES: readonly SwingType[] = ['Price Drop', 'Trend'];

/** Data of the `opened` event: the signal's facts, frozen at creation. */
export type SwingOpenedData = {
  tradeType: SwingType;
  atr: number;
  atrPct: number;
  /** The stop's distance below the entry, in ATR14(t) (Trend 2.5, Price Drop 3.5). */
  stopAtr: number;
  rsi2: number | null;
  dropAtr: number | null;
  volumeRatio: number | null;
  supportLevel: number | null;
  nearSupport: boolean;
  earningsSoon: boolean;
  createdAt: string;
  survivorshipBiased: boolean;
};

/** Data of `entry_filled`: the targets and the stop, set from the entry price. */
export type SwingEntryData = {
  target1: number;
  target2: number;
  stop: number;
};

export type SwingClosedData = {
  reason: CloseReason;
  exitAt: 'open' | 'close';
  /** The fraction of the position the closing fill sold (1, 0.5, or 0 when T2 sold the rest). */
  fraction: number;
  sessionsHeld: number;
  maxAdverseExcursion: number;
};

/** The swing engine's events and the data each type carries (what engine.ts emits). */
export type SwingEventData = {
  opened: SwingOpenedData;
  entry_filled: SwingEntryData;
  /** `T1` or `T2`, at the target. */
  target_hit: NoData;
  time_stop: { sessionsHeld: number };
  stop_hit: { stop: number | null };
  closed: SwingClosedData;
  /** Not emitted by this engine's pass; the fold reads no data of it. */
  voided: Record<string, unknown>;
};
export type SwingEvent = EngineEvent<SwingEventData>;

export interface SwingState extends SwingOpenedData {
  symbol: string;
  signalDate: string;
  signalPrice: number;
  entryPending: boolean;
  entryPrice: number | null;
  entryDay: number | null;
  target1: number | null;
  target2: number | null;
  stop: number | null;
  hit1Day: number | null;
  hit2Day: number | null;
  exitPending: boolean;
  closed: boolean;
  closeReason: CloseReason | null;
  exitPrice: number | null;
  closedDay: number | null;
  exitAt: 'open' | 'close' | null;
  sessionsHeld: number | null;
  maxAdverseExcursion: number | null;
}

/** The state after `event`; mutates and answers `state` (null only before `opened`). */
export function applySwingEvent(state: SwingState | null, logged: IdeaEvent): SwingState | null {
  const event = engineEvent<SwingEventData>(logged);
  if (event.type === 'opened') {
    const data = event.data;
    return {
      ...data,
      ...openLifecycle(event),
      entryPrice: null,
      entryDay: null,
      target1: null,
      target2: null,
      stop: null,
      hit1Day: null,
      hit2Day: null,
      exitPending: false,
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
      state.entryPending = false;
      state.entryPrice = event.price;
      state.entryDay = day;
      state.target1 = data.target1;
      state.target2 = data.target2;
      state.stop = data.stop;
      break;
    }
    case 'target_hit':
      if (event.level === 'T1') state.hit1Day = day;
      else state.hit2Day = day;
      break;
    case 'stop_hit':
      applyStopHit(state);
      break;
    case 'closed':
      applyClosed(state, event, day);
      break;
    case 'voided':
      applyVoided(state, day);
      break;
    default:
      break;
  }
  return state;
}

export const foldSwing = foldWith(applySwingEvent);
