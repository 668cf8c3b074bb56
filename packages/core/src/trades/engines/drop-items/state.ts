import { dayNumber } from '../../../market/trading-calendar';
import { applyClosed, applyStopHit, applyVoided, foldWith, openLifecycle } from '../../kit/lifecycle';
import { engineEvent, type CloseReason, type EngineEvent, type IdeaEvent, type NoData } from '../../types';

/**
 * A drop item's state (docs/rules/drop-items.md §5) and its reducer: the engine applies every event it emits
 * through `applyDropEvent`, and openState / fold run the same reducer over the log.
 */

export type DropType = 'S' | 'L' | 'O';
export const DROP_TYPES: readonly DropType[] = ['S', 'L', 'O'];

export type NewsTag = 'news-driven' | 'no identifiable news';
export type DropSentiment = 'Positive' | 'Negative' | 'Neutral';

/** The chosen CALL of an O item (docs/rules/option-trades.md §4.2), frozen at creation. */
export interface DropOptionContract {
  /** OptionChainId: the contract's id (the item's contract id). */
  contractId: string;
  /** Compact OCC name, e.g. `AAPL260116C00250000`. */
  contractName: string;
  /** YYYY-MM-DD. */
  expiry: string;
  strike: number;
  /** Half-spread h (docs/rules/option-trades.md §4.3: 0.015 for SPY, QQQ, IWM, DIA; 0.03 otherwise). */
  halfSpread: number;
  /** The contract's fair value at close t (the pending OptionEntryValue before the half-spread). */
  signalValue: number;
  /** Whatever the pricer needs to value the contract later (σ, its source, r, q…); JSON. */
  pricing: Record<string, unknown>;
}

/** Data of the `opened` event: the signal's facts, frozen at creation. */
export type DropOpenedData = {
  stockType: DropType;
  /** Percent, 2 decimals: the threshold the trigger used, and the drop observed on bar t. */
  dropThreshold: number;
  dropObserved: number;
  /** The reference high (20-session, 52-week or 5-session) and its session. */
  referenceHigh: number;
  referenceHighDate: string;
  atr: number;
  atrPct: number;
  /** Drop in ATR units (S and O's rank). */
  dropAtr: number;
  /** S: the stop's distance below the entry in ATR14(t); L: the stop as a fraction of the entry. */
  stopAtr: number;
  stopFraction: number;
  /** L: the target, 0.95 × the 52-week high (also the void price). Null for S (from the entry) and O. */
  fixedTarget: number | null;
  timeStopSessions: number;
  stockNews: string;
  sentiment: DropSentiment;
  sentimentScore: number | null;
  headlineCount: number;
  newsTag: NewsTag;
  sectorName: string | null;
  linkedSwingTradeId: string | null;
  option: DropOptionContract | null;
  createdAt: string;
  survivorshipBiased: boolean;
};

/** Data of `entry_filled`. Stocks: target and stop from the entry. O: the option's entry value and its barriers. */
export type DropEntryData = {
  target: number;
  stop: number;
  /** O only: the option's entry value (ask, rounded up) and the underlying's open. */
  optionEntryValue: number | null;
  underlyingEntry: number | null;
};

export type DropClosedData = {
  reason: CloseReason;
  exitAt: 'open' | 'close';
  sessionsHeld: number;
  maxAdverseExcursion: number;
  /** O only: the underlying's price at the exit (the event's price is the option's value). */
  underlyingExit: number | null;
};

/** The fold of an item's events. */
/** The drop engine's events and the data each type carries (what engine.ts emits). */
export type DropEventData = {
  opened: DropOpenedData;
  entry_filled: DropEntryData;
  target_hit: NoData;
  /** An O item's time stop also says the contract's days to expiry. */
  time_stop: { sessionsHeld: number; dte?: number };
  stop_hit: { stop: number | null };
  closed: DropClosedData;
  voided: { reason: string };
};
export type DropEvent = EngineEvent<DropEventData>;

export interface DropState extends DropOpenedData {
  symbol: string;
  signalDate: string;
  signalPrice: number;
  entryPending: boolean;
  /** The underlying's entry (stocks: the fill). */
  entryPrice: number | null;
  entryDay: number | null;
  target: number | null;
  stop: number | null;
  optionEntryValue: number | null;
  targetHit: boolean;
  exitPending: boolean;
  closed: boolean;
  closeReason: CloseReason | null;
  /** Stocks: the exit price; O: the option's exit value. */
  exitPrice: number | null;
  underlyingExit: number | null;
  closedDay: number | null;
  exitAt: 'open' | 'close' | null;
  sessionsHeld: number | null;
  maxAdverseExcursion: number | null;
}

/** The state after `event`; mutates and answers `state` (null only before `opened`). */
export function applyDropEvent(state: DropState | null, logged: IdeaEvent): DropState | null {
  const event = engineEvent<DropEventData>(logged);
  if (event.type === 'opened') {
    const data = event.data;
    return {
      ...data,
      ...openLifecycle(event),
      entryPrice: null,
      entryDay: null,
      target: null,
      stop: null,
      optionEntryValue: null,
      targetHit: false,
      exitPending: false,
      closed: false,
      closeReason: null,
      exitPrice: null,
      underlyingExit: null,
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
      state.entryPrice = data.underlyingEntry ?? event.price;
      state.entryDay = day;
      state.target = data.target;
      state.stop = data.stop;
      state.optionEntryValue = data.optionEntryValue;
      break;
    }
    case 'target_hit':
      state.targetHit = true;
      break;
    case 'stop_hit':
      applyStopHit(state);
      break;
    case 'closed':
      applyClosed(state, event, day);
      state.underlyingExit = event.data.underlyingExit;
      break;
    case 'voided':
      applyVoided(state, day);
      break;
    default:
      break;
  }
  return state;
}

export const foldDrop = foldWith(applyDropEvent);
