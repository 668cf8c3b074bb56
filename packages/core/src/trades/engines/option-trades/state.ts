import type { OptionAlertKind, OptionSide } from '../../../contract/option-trades';
import { dayNumber } from '../../../market/trading-calendar';
import { applyVoided, closeLifecycle, foldWith, openLifecycle } from '../../kit/lifecycle';
import { engineEvent, type CloseReason, type EngineEvent, type IdeaEvent } from '../../types';

/**
 * The option trade's state (docs/rules/option-trades.md §4) and its reducer: the engine applies every event it
 * emits through `applyOptionEvent`; openState, fold and outcome run the same reducer over the log.
 */

export type RsiStatus = 'oversold' | 'overbought' | 'neutral';
export type SigmaSource = 'chain' | 'index' | 'realised';

/** Data of the `opened` event: the alert, its strength inputs and the contract, frozen after close t. */
export type OptionOpenedData = {
  side: OptionSide;
  alertKind: OptionAlertKind;
  contractName: string;
  /** YYYY-MM-DD. */
  expiry: string;
  strike: number;
  priceSource: 'chain' | 'model';
  /** The trade's σ at entry (sticky; an index σ is scaled by index(t)/index(entry)). */
  sigma: number;
  sigmaSource: SigmaSource;
  /** The IV index σ came from ('VIX', 'VXN') and its value at entry, when it came from one. */
  ivIndex: string | null;
  ivIndexAtEntry: number | null;
  rate: number;
  dividendYield: number;
  /** h: the half-spread as a fraction of the premium. */
  halfSpread: number;
  /** Signed Δ of the contract at close t. */
  deltaAtEntry: number;
  /** The close-t value: EntryValue while pending (the ask side). */
  signalValue: number;
  /** The close-t mark (the bid side). */
  signalMark: number;
  volumeSpikeCheck: '1' | '0';
  volumeSwingCheck: '1' | '0';
  swingCheck: '1' | '0';
  rsiStatus: RsiStatus;
  strengthScore: number;
  earningsInWindow: boolean;
  atrPct: number;
  createdAt: string;
  survivorshipBiased: boolean;
};

/** Data of the events that carry a close mark (entry_filled, alert_repeat, time_stop). */
export type OptionMarkData = {
  /** The option's mark (bid side) at the session's close. */
  markValue: number;
  /** The underlying's close. */
  stockClose: number;
  /** σ used for the session. */
  sigma: number;
};

export type OptionRepeatData = OptionMarkData & {
  alertKind: OptionAlertKind;
};

export type OptionClosedData = {
  reason: CloseReason;
  exitAt: 'open' | 'close';
  sessionsHeld: number;
  /** The worst mark while held, as a return (≤ 0). */
  maxAdverseExcursion: number;
  /** The underlying's price the exit was valued at (the close for a time exit). */
  stockPrice: number;
};

/** The options engine's events and the data each type carries (what engine.ts emits). */
export type OptionEventData = {
  opened: OptionOpenedData;
  entry_filled: OptionMarkData & { stockOpen: number };
  alert_repeat: OptionRepeatData;
  time_stop: OptionMarkData & { sessionsHeld: number; dte: number };
  target_hit: { target: number };
  stop_hit: { stop: number };
  closed: OptionClosedData;
  voided: { reason: string };
};
export type OptionEvent = EngineEvent<OptionEventData>;

export interface OptionState extends OptionOpenedData {
  symbol: string;
  signalDate: string;
  signalPrice: number;
  entryPending: boolean;
  entryValue: number | null;
  entryDay: number | null;
  alertCount: number;
  /** The latest close mark the log carries. */
  lastMark: OptionMarkData;
  targetHit: boolean;
  closed: boolean;
  closeReason: CloseReason | null;
  exitValue: number | null;
  closedDay: number | null;
  exitAt: 'open' | 'close' | null;
  sessionsHeld: number | null;
  maxAdverseExcursion: number | null;
}

/** The state after `event`; mutates and answers `state` (null only before `opened`). */
export function applyOptionEvent(state: OptionState | null, logged: IdeaEvent): OptionState | null {
  const event = engineEvent<OptionEventData>(logged);
  if (event.type === 'opened') {
    const data = event.data;
    // Object.assign, not a spread: spreading the ~30 opened fields is the fold's hot spot (the live pass folds every idea).
    return Object.assign({}, data, openLifecycle(event), {
      entryValue: null,
      entryDay: null,
      alertCount: 1,
      lastMark: { markValue: data.signalMark, stockClose: event.price ?? 0, sigma: data.sigma },
      targetHit: false,
      closed: false,
      closeReason: null,
      exitValue: null,
      closedDay: null,
      exitAt: null,
      sessionsHeld: null,
      maxAdverseExcursion: null,
    });
  }
  if (!state) return null;
  const day = dayNumber(event.barDate);
  switch (event.type) {
    case 'entry_filled': {
      state.entryPending = false;
      state.entryValue = event.price;
      state.entryDay = day;
      state.lastMark = markOf(event.data);
      break;
    }
    case 'alert_repeat':
      state.alertCount += 1;
      state.lastMark = markOf(event.data);
      break;
    case 'time_stop':
      state.lastMark = markOf(event.data);
      break;
    case 'target_hit':
      state.targetHit = true;
      break;
    case 'closed': {
      const data = event.data;
      closeLifecycle(state, data, day);
      state.exitValue = event.price;
      state.lastMark = { ...state.lastMark, stockClose: data.stockPrice };
      break;
    }
    case 'voided':
      applyVoided(state, day);
      break;
    default:
      break;
  }
  return state;
}

function markOf(mark: OptionMarkData): OptionMarkData {
  return { markValue: mark.markValue, stockClose: mark.stockClose, sigma: mark.sigma };
}

export const foldOptions = foldWith(applyOptionEvent);
