import type { DropItem, DropItemStatus } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { COST_RATE, roundCentUp, roundTo } from '../../kit/prices';
import type { IdeaOutcome, Mark, StoredIdeaEvent } from '../../types';
import { askValue } from './option';
import { foldDrop, type DropState } from './state';
import { rowStamps, sessionsBetween } from '../../kit/row-stamps';

/** A mark of a drop item: the underlying's price, and for O items the option's current (bid) value when the caller priced it. */
export interface DropMark extends Mark {
  optionValue?: number;
}

/** Active when StockIsActive, otherwise Deactivated (docs/rules/drop-items.md §5.3). */
export function dropStatus(isActive: boolean): DropItemStatus {
  return isActive ? 'Active' : 'Deactivated';
}

/** (P / entry − 1) × 100, 2 decimals; 0 while pending or voided. */
export function dropProfitPercentage(entryPending: boolean, entry: number, price: number): number {
  if (entryPending || !(entry > 0)) return 0;
  return roundTo(100 * (price / entry - 1), 2);
}

function latestInstant(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

/** The option's entry value shown while pending: the close-t value at the ask (docs/rules/option-trades.md §4.4). */
function pendingOptionEntry(state: DropState): number | null {
  return state.option ? askValue(state.option.signalValue, state.option.halfSpread) : null;
}

/**
 * The API row of a drop item: the fold of its events (oldest first), marked at `mark` when given
 * (a DropMark's `optionValue` marks an O item's option). P is the mark while active and the exit
 * price once closed. While pending the entry shows the signal price and the target is set from it.
 */
export function foldDropRow(events: readonly StoredIdeaEvent[], mark: Mark | null, _now: string, params: { sTargetPct: number; oTargetPct: number }): DropItem {
  const opened = events[0];
  const state = foldDrop(events);
  if (!opened || !state) throw new Error('drop fold: the first event must be `opened`');
  const last = events[events.length - 1]!;
  const isOption = state.stockType === 'O';
  const pending = state.entryPending || state.closeReason === 'void';
  const entry = state.entryPrice ?? state.signalPrice;
  // The underlying's last known price: the exit once closed, else the last stock event's price.
  const lastUnderlying = isOption
    ? (state.underlyingExit ?? state.entryPrice ?? state.signalPrice)
    : ([...events].reverse().find((event) => event.price !== null && event.type !== 'voided')?.price ?? state.signalPrice);
  const exitUnderlying = isOption ? state.underlyingExit : state.exitPrice;
  const active = !state.closed;
  const currentPrice = active && mark ? mark.price : state.closed && exitUnderlying !== null ? exitUnderlying : lastUnderlying;
  const optionEntry = state.optionEntryValue ?? pendingOptionEntry(state);
  const markedOption = mark && 'optionValue' in mark && typeof (mark as DropMark).optionValue === 'number' ? (mark as DropMark).optionValue! : null;
  const optionCurrent = !isOption ? null : state.closed ? (state.exitPrice ?? optionEntry) : (markedOption ?? optionEntry);
  const target = state.target ?? (state.stockType === 'L' ? state.fixedTarget! : isOption ? roundCentUp(optionEntry! * (1 + params.oTargetPct / 100)) : roundCentUp(state.signalPrice * (1 + params.sTargetPct / 100)));
  return {
    StockScannerId: opened.ideaId,
    StockType: state.stockType,
    StockSymbol: opened.symbol,
    StockIsActive: active,
    DropThreshold: state.dropThreshold,
    StockEntryPrice: entry,
    StockCurrentPrice: currentPrice,
    ProfitPercentage: dropProfitPercentage(pending, entry, currentPrice),
    StockIsTarget: state.targetHit,
    TargetValue: target,
    StockNews: state.stockNews,
    Sentiment: state.sentiment,
    StockCreatedDate: state.createdAt,
    StockUpdatedDate: latestInstant(last.recordedAt, mark?.at),
    StockSectorName: state.sectorName,
    OptionChainId: state.option?.contractId ?? null,
    ContractName: state.option?.contractName ?? null,
    OptionExpiry: state.option?.expiry ?? null,
    OptionEntryValue: isOption ? optionEntry : null,
    OptionCurrentValue: optionCurrent,
    OptionProfitPercent: isOption ? dropProfitPercentage(pending, optionEntry!, optionCurrent!) : null,
    DropObserved: state.dropObserved,
    NewsTag: state.newsTag,
    LinkedSwingTradeId: state.linkedSwingTradeId,
    Status: dropStatus(active),
    OptionExitValue: isOption && state.closed && state.closeReason !== 'void' ? state.exitPrice : null,
    // ExitPrice: the underlying's exit price (O items too; OptionExitValue is the option's).
    ...rowStamps(opened, state.closed ? last : null, state, state.closeReason === 'void' ? null : exitUnderlying),
  };
}


/**
 * The track record's view of a drop item (docs/rules/track-record.md §6.1): S and L exit / entry − 1 net of
 * 5 bps a side; O the option's return (the spread is in its prices). Null while pending or voided.
 * Status: 'Active' while open, then 'Successful' when the target filled, else 'Failed'.
 */
export function dropOutcome(events: readonly StoredIdeaEvent[], row: DropItem): IdeaOutcome | null {
  const state = foldDrop(events);
  if (!state || state.entryPrice === null || state.entryDay === null) return null;
  let returnPct: number;
  if (state.stockType === 'O') {
    const entryValue = state.optionEntryValue!;
    const exit = state.closed && state.exitPrice !== null ? state.exitPrice : (row.OptionCurrentValue ?? entryValue);
    returnPct = exit / entryValue - 1;
  } else {
    const exit = state.closed && state.exitPrice !== null ? state.exitPrice : row.StockCurrentPrice;
    returnPct = (exit * (1 - COST_RATE)) / (state.entryPrice * (1 + COST_RATE)) - 1;
  }
  const opened = events[0]!;
  const lastDay = state.closedDay ?? dayNumber(row.StockUpdatedDate.slice(0, 10));
  return {
    ideaId: opened.ideaId,
    symbol: opened.symbol,
    origin: opened.origin,
    ruleVersion: opened.ruleVersion,
    types: [state.stockType],
    createdAt: state.signalDate,
    entryDate: isoFromDayNumber(state.entryDay),
    closed: state.closed,
    exitDate: state.closedDay === null ? null : isoFromDayNumber(state.closedDay),
    exitAt: state.exitAt,
    returnPct,
    deployed: null,
    pnl: null,
    cashFlows: null,
    holdingSessions: state.sessionsHeld ?? sessionsBetween(state.entryDay, lastDay),
    maxAdverseExcursion: Math.min(state.maxAdverseExcursion ?? 0, returnPct, 0),
    status: !state.closed ? 'Active' : state.targetHit ? 'Successful' : 'Failed',
    closeReason: state.closeReason,
    atrPct: state.atrPct,
  };
}
