import type { OptionStatus, OptionTrade } from '../../../contract/option-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { roundTo } from '../../kit/prices';
import type { IdeaOutcome, Mark, StoredIdeaEvent } from '../../types';
import { bidOf, modelValue } from './pricing';
import { foldOptions } from './state';
import { rowStamps, sessionsBetween } from '../../kit/row-stamps';

const DAY_MS = 86_400_000;

/** Spec §4 "Option trade filters": Active = IsActive; Successful = inactive with the target hit; Failed = inactive without. */
export function optionStatus(row: Pick<OptionTrade, 'IsActive' | 'IsTargetHit'>): OptionStatus {
  if (row.IsActive) return 'Active';
  return row.IsTargetHit ? 'Successful' : 'Failed';
}

/** ProfitPercent: (Current_Value / EntryValue − 1) × 100, 2 decimals. */
export function optionProfitPercent(entryValue: number, currentValue: number): number {
  return entryValue > 0 ? roundTo((currentValue / entryValue - 1) * 100, 2) : 0;
}

/**
 * A mark of an option trade: the underlying's price, and the contract's bid in the source's chain
 * at that moment when the caller has it (docs/rules/option-trades.md §4.3: a chain-priced trade is marked at the
 * chain's bid; without it the model values the contract at the price).
 */
export interface OptionMark extends Mark {
  optionValue?: number;
}

function latestInstant(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * The API row of an option trade: the fold of its events (oldest first). An active trade is marked
 * at `mark`: the chain's bid when the mark carries it (OptionMark), else the model at the
 * underlying's price and the trade's latest σ; without a mark, at the latest close mark the log
 * carries. A closed one shows its exit value. While pending, EntryValue is the close-t value and
 * the profit is 0.
 */
export function foldOptionRow(events: readonly StoredIdeaEvent[], mark: Mark | null, now: string, _params: unknown): OptionTrade {
  const opened = events[0];
  const state = foldOptions(events);
  if (!opened || !state) throw new Error('options fold: the first event must be `opened`');
  const last = events[events.length - 1]!;
  const entryValue = state.entryValue ?? state.signalValue;
  const active = !state.closed;
  let currentValue = state.lastMark.markValue;
  let stockPrice = state.lastMark.stockClose;
  if (active && mark) {
    stockPrice = mark.price;
    const markDay = Math.max(dayNumber(mark.at.slice(0, 10)), dayNumber(state.signalDate));
    const quoted = (mark as OptionMark).optionValue;
    currentValue = typeof quoted === 'number' && quoted > 0 ? quoted : bidOf(modelValue(state, mark.price, markDay, state.lastMark.sigma), state.halfSpread);
  }
  if (state.closed && state.exitValue !== null) currentValue = state.exitValue;
  const pending = state.entryPending || state.closeReason === 'void';
  return {
    OptionsChainId: opened.ideaId,
    Symbol: opened.symbol,
    ContractName: state.contractName,
    CreatedDate: state.createdAt,
    Expiry: state.expiry,
    Side: state.side,
    EntryValue: entryValue,
    Current_Value: currentValue,
    Strike: state.strike,
    ProfitPercent: pending ? 0 : optionProfitPercent(entryValue, currentValue),
    CurrentPriceStock: stockPrice,
    LastUpdatedDate: latestInstant(last.recordedAt, active ? mark?.at : undefined),
    IsActive: active,
    IsTargetHit: state.targetHit,
    IsLevel: state.swingCheck === '1',
    NewTrade: Date.parse(now) - Date.parse(state.createdAt) < DAY_MS,
    VolumeSpikeCheck: state.volumeSpikeCheck,
    VolumeSwingCheck: state.volumeSwingCheck,
    SwingCheck: state.swingCheck,
    RSIStatus: state.rsiStatus,
    AlertKind: state.alertKind,
    AlertCount: state.alertCount,
    StrengthScore: state.strengthScore,
    PriceSource: state.priceSource,
    Sigma: state.sigma,
    DeltaAtEntry: state.deltaAtEntry,
    EarningsInWindow: state.earningsInWindow,
    Status: optionStatus({ IsActive: active, IsTargetHit: state.targetHit }),
    ExitValue: state.exitValue,
    ...rowStamps(opened, state.closed ? last : null, state, state.exitValue),
  };
}

/** The record's groups of option trades with and without the Volume tag (VolumeSpikeCheck '1'). */
export const OPTION_VOLUME_TAG = 'Volume tag';
export const OPTION_NO_VOLUME_TAG = 'No Volume tag';

/**
 * The track record's view of an option trade (docs/rules/track-record.md §6.1): counted under its side, the
 * option's return (the spread is in the prices; no stock costs), the worst close mark as MAE; null
 * while pending or voided.
 */
export function optionOutcome(events: readonly StoredIdeaEvent[], row: OptionTrade): IdeaOutcome | null {
  const state = foldOptions(events);
  if (!state || state.entryValue === null || state.entryDay === null) return null;
  const value = state.closed && state.exitValue !== null ? state.exitValue : row.Current_Value;
  const returnPct = value / state.entryValue - 1;
  const opened = events[0]!;
  const lastDay = state.closedDay ?? dayNumber(row.LastUpdatedDate.slice(0, 10));
  return {
    ideaId: opened.ideaId,
    symbol: opened.symbol,
    origin: opened.origin,
    ruleVersion: opened.ruleVersion,
    // By side, and split by the Volume tag: the screen's "Volume trades are more likely to succeed"
    // is shown or refuted by the record, with its intervals (issue 12).
    types: [state.side, state.volumeSpikeCheck === '1' ? OPTION_VOLUME_TAG : OPTION_NO_VOLUME_TAG],
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
    maxAdverseExcursion: Math.min(state.maxAdverseExcursion ?? 0, state.lastMark.markValue / state.entryValue - 1, returnPct, 0),
    status: row.Status,
    closeReason: state.closeReason,
    atrPct: state.atrPct,
  };
}
