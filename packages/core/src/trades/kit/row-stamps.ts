import { isTradingDayNumber } from '../../market/trading-calendar';
import type { CloseReason, InstrumentMarket, Origin, StoredIdeaEvent } from '../types';

/** The fields every idea row carries beyond the spec's (docs/rules/conventions.md §0.4 "Rows"), whatever its engine. */
export interface RowStamps {
  Id: string;
  Market: InstrumentMarket;
  CloseReason: CloseReason | null;
  ClosedAt: string | null;
  ExitPrice: number | null;
  SignalPrice: number;
  EntryPending: boolean;
  RuleVersion: string;
  ParamHash: string;
  Origin: Origin;
  SurvivorshipBiased: boolean;
}

/**
 * An idea's stamps from its log and its fold: the id, market, rule version, parameters and origin
 * of its `opened` event; ClosedAt the recording time of the event that closed it (`closing`).
 */
export function rowStamps(
  opened: StoredIdeaEvent,
  closing: StoredIdeaEvent | null,
  state: { closeReason: CloseReason | null; signalPrice: number; entryPending: boolean; survivorshipBiased: boolean },
  exitPrice: number | null,
): RowStamps {
  return {
    Id: opened.ideaId,
    Market: opened.market,
    CloseReason: state.closeReason,
    ClosedAt: closing ? closing.recordedAt : null,
    ExitPrice: exitPrice,
    SignalPrice: state.signalPrice,
    EntryPending: state.entryPending,
    RuleVersion: opened.ruleVersion,
    ParamHash: opened.paramHash,
    Origin: opened.origin,
    SurvivorshipBiased: state.survivorshipBiased,
  };
}

/** Trading sessions from `fromDay` through `toDay` (day numbers), both included: a holding time. */
export function sessionsBetween(fromDay: number, toDay: number): number {
  let count = 0;
  for (let day = fromDay; day <= toDay; day += 1) if (isTradingDayNumber(day)) count += 1;
  return count;
}
