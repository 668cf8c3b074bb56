import { foldWith } from '../../kit/lifecycle';
import { engineEvent, type CloseReason, type EngineEvent, type IdeaEvent, type InstrumentMarket } from '../../types';
import type { CryptoSnapshot } from './fields';
import type { CryptoHorizon, CryptoLabel } from './series';

/**
 * A coin row's events and their reducer (docs/rules/crypto.md §3, docs/rules/conventions.md §0.4). One row per coin, id
 * `crypto.<SYMBOL>.<first shown date>`:
 * - `opened` (level '', price = close): the first pass at which the coin is shown (≥ 30 candles),
 *   data CryptoOpenedData (the snapshot, createdAt, survivorshipBiased). The labels it starts with
 *   are not logged as changes (they changed before the row existed).
 * - `signal_changed` (level = the horizon 'Short' | 'Medium' | 'Long', price = close): a displayed
 *   label changed on the candle; data { horizon, from, to }. These are the append-only signal log
 *   of §3.4 (coin = symbol, date = barDate, close = price).
 * - `updated` (level '', price = close): every later pass, data the snapshot (the row's values).
 * - `closed` (level '', price = close): the coin left the universe (extras.removals); data
 *   { reason: 'index_exit' }. A coin that comes back gets a new row.
 */

export type CryptoOpenedData = CryptoSnapshot & {
  /** The pass that opened the row (ISO 8601 UTC). */
  createdAt: string;
  survivorshipBiased: boolean;
};

export type CryptoSignalChangedData = {
  horizon: CryptoHorizon;
  from: CryptoLabel;
  to: CryptoLabel;
};

export type CryptoClosedData = {
  reason: CloseReason;
};

/** The crypto engine's events and the data each type carries (what engine.ts emits). */
export type CryptoEventData = {
  opened: CryptoOpenedData;
  signal_changed: CryptoSignalChangedData;
  /** The pass's values of the row (every field of candle t). */
  updated: CryptoSnapshot;
  closed: CryptoClosedData;
};
export type CryptoEvent = EngineEvent<CryptoEventData>;

export interface CryptoState {
  symbol: string;
  market: InstrumentMarket;
  /** The `opened` candle (YYYY-MM-DD). */
  openedDate: string;
  createdAt: string;
  survivorshipBiased: boolean;
  /** The latest pass's values. */
  snapshot: CryptoSnapshot;
  /** The displayed labels as the log has them. */
  signals: Record<CryptoHorizon, CryptoLabel>;
  /** The candle of the last signal change (the `opened` candle until one changes) and its close. */
  lastChangeDate: string;
  lastChangeClose: number;
  closed: boolean;
  closeReason: CloseReason | null;
  closedDate: string | null;
}

/** The state after `event`; mutates and answers `state` (null only before `opened`). */
export function applyCryptoEvent(state: CryptoState | null, logged: IdeaEvent): CryptoState | null {
  const event = engineEvent<CryptoEventData>(logged);
  if (event.type === 'opened') {
    const data = event.data;
    const { createdAt, survivorshipBiased, ...snapshot } = data;
    return {
      symbol: event.symbol,
      market: event.market,
      openedDate: event.barDate,
      createdAt,
      survivorshipBiased,
      snapshot,
      signals: { ...snapshot.signals },
      lastChangeDate: event.barDate,
      lastChangeClose: event.price ?? snapshot.close,
      closed: false,
      closeReason: null,
      closedDate: null,
    };
  }
  if (!state) return null;
  switch (event.type) {
    case 'signal_changed': {
      const data = event.data;
      state.signals = { ...state.signals, [data.horizon]: data.to };
      state.lastChangeDate = event.barDate;
      state.lastChangeClose = event.price ?? state.lastChangeClose;
      break;
    }
    case 'updated':
      state.snapshot = event.data;
      break;
    case 'closed':
      state.closed = true;
      state.closeReason = event.data.reason;
      state.closedDate = event.barDate;
      break;
    default:
      break;
  }
  return state;
}

/**
 * The state a log folds to, the same as applying applyCryptoEvent to every event in order, without
 * reading the whole log: a coin's row lives as long as the coin (a year of daily `updated` events),
 * and the replay and the server re-fold a row after every pass, so a forward fold would make a
 * replay quadratic. It reads the `opened` event, the last `updated` (whose snapshot's labels are the
 * labels after that pass's changes: the engine logs every difference before it writes `updated`),
 * the events after it, and the log backwards to the last `signal_changed` (the last change's date
 * and close). The projection tests check it against the forward fold on every prefix of every log.
 */
export function foldCrypto(events: readonly IdeaEvent[]): CryptoState | null {
  const opened = events[0];
  if (!opened || opened.type !== 'opened') return null;
  const state = applyCryptoEvent(null, opened)!;
  let from = 1;
  for (let i = events.length - 1; i >= 1; i -= 1) {
    const updated = engineEvent<CryptoEventData>(events[i]!);
    if (updated.type !== 'updated') continue;
    state.snapshot = updated.data;
    state.signals = { ...state.snapshot.signals };
    from = i + 1;
    break;
  }
  let changedAfter = false;
  for (let i = from; i < events.length; i += 1) {
    applyCryptoEvent(state, events[i]!);
    if (events[i]!.type === 'signal_changed') changedAfter = true;
  }
  for (let i = from - 1; i >= 1 && !changedAfter; i -= 1) {
    const event = events[i]!;
    if (event.type !== 'signal_changed') continue;
    state.lastChangeDate = event.barDate;
    state.lastChangeClose = event.price ?? state.lastChangeClose;
    break;
  }
  return state;
}

/** The forward fold: applyCryptoEvent over every event in order (what foldCrypto must equal). */
export const foldCryptoForward = foldWith(applyCryptoEvent);
