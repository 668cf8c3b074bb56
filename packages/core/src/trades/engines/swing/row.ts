import type { SwingStatus, SwingTrade } from '../../../contract/trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { COST_RATE, roundCentDown, roundCentUp, roundTo } from '../../kit/prices';
import { foldSwing, type SwingState } from './state';
import type { IdeaOutcome, Mark, StoredIdeaEvent } from '../../types';
import { rowStamps, sessionsBetween } from '../../kit/row-stamps';

/** The spec's short-term statuses (docs/rules/swing.md §2.2): the one function the API and the web app use. */
export function swingStatus(row: Pick<SwingTrade, 'IsActive' | 'IsProfit1' | 'IsProfit2'>): SwingStatus {
  if (row.IsActive) return 'Active';
  if (row.IsProfit1 && row.IsProfit2) return 'Successful';
  if (row.IsProfit1) return 'Partial';
  return 'Failed';
}

/**
 * CurrentProfit (docs/rules/swing.md §2.2): 100 × [½ (5 % if IsProfit1 else P/Entry − 1) + ½ (10 % if
 * IsProfit2 else P/Entry − 1)], 2 decimals; 0 while the entry is pending.
 */
export function swingCurrentProfit(input: { entryPending: boolean; entry: number; price: number; isProfit1: boolean; isProfit2: boolean; target1Pct: number; target2Pct: number }): number {
  if (input.entryPending || input.entry <= 0) return 0;
  const move = input.price / input.entry - 1;
  const leg1 = input.isProfit1 ? input.target1Pct / 100 : move;
  const leg2 = input.isProfit2 ? input.target2Pct / 100 : move;
  return roundTo(100 * (0.5 * leg1 + 0.5 * leg2), 2);
}

function latestInstant(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * The API row of a swing trade: the fold of its events (oldest first), marked at `mark` when given.
 * P (CurrentProfit) is the mark while active and the exit price once closed. While pending the
 * targets and the stop are shown from the signal price.
 */
export function foldSwingRow(events: readonly StoredIdeaEvent[], mark: Mark | null, _now: string, params: { target1Pct: number; target2Pct: number }): SwingTrade {
  const opened = events[0];
  const state = foldSwing(events);
  if (!opened || !state) throw new Error('swing fold: the first event must be `opened`');
  const last = events[events.length - 1]!;
  const entry = state.entryPrice ?? state.signalPrice;
  const lastPrice = [...events].reverse().find((event) => event.price !== null)?.price ?? state.signalPrice;
  const currentPrice = mark?.price ?? (state.closed && state.exitPrice !== null ? state.exitPrice : lastPrice);
  const isProfit1 = state.hit1Day !== null;
  const isProfit2 = state.hit2Day !== null;
  const profitPrice = state.closed && state.exitPrice !== null ? state.exitPrice : currentPrice;
  return {
    Symbol: opened.symbol,
    EntryPrice: entry,
    CurrentPrice: currentPrice,
    PercentProfitTarget1: params.target1Pct,
    PercentProfitTarget2: params.target2Pct,
    IsProfit1: isProfit1,
    IsProfit2: isProfit2,
    IsActive: !state.closed,
    IsDrop: state.tradeType === 'Price Drop',
    NearSupport: state.nearSupport,
    CurrentProfit: swingCurrentProfit({ entryPending: state.entryPending || state.closeReason === 'void', entry, price: profitPrice, isProfit1, isProfit2, ...params }),
    DateCreated: state.createdAt,
    DateUpdated: latestInstant(last.recordedAt, mark?.at),
    TradeType: state.tradeType,
    Status: swingStatus({ IsActive: !state.closed, IsProfit1: isProfit1, IsProfit2: isProfit2 }),
    Target1Price: state.target1 ?? roundCentUp(state.signalPrice * (1 + params.target1Pct / 100)),
    Target2Price: state.target2 ?? roundCentUp(state.signalPrice * (1 + params.target2Pct / 100)),
    StopPrice: state.stop ?? roundCentDown(state.signalPrice - state.stopAtr * state.atr),
    ATRAtSignal: state.atr,
    RSI2: state.rsi2,
    DropATR: state.dropAtr,
    VolumeRatio: state.volumeRatio,
    SupportLevel: state.supportLevel,
    EarningsSoon: state.earningsSoon,
    ...rowStamps(opened, state.closed ? last : null, state, state.exitPrice),
  };
}


/**
 * The track record's view of a swing trade (docs/rules/track-record.md §6.1): the blended return of its two
 * halves at their actual fills, net of 5 bps per side; null while pending (swing never voids).
 */
export function swingOutcome(events: readonly StoredIdeaEvent[], row: SwingTrade): IdeaOutcome | null {
  const state: SwingState | null = foldSwing(events);
  if (!state || state.entryPrice === null || state.entryDay === null) return null;
  const rest = state.closed && state.exitPrice !== null ? state.exitPrice : row.CurrentPrice;
  const leg = (hitDay: number | null, target: number | null) => {
    const price = hitDay !== null ? target! : rest;
    return (price * (1 - COST_RATE)) / (state.entryPrice! * (1 + COST_RATE)) - 1;
  };
  const returnPct = 0.5 * leg(state.hit1Day, state.target1) + 0.5 * leg(state.hit2Day, state.target2);
  const opened = events[0]!;
  const lastDay = state.closedDay ?? dayNumber(row.DateUpdated.slice(0, 10));
  return {
    ideaId: opened.ideaId,
    symbol: opened.symbol,
    origin: opened.origin,
    ruleVersion: opened.ruleVersion,
    types: state.nearSupport ? [state.tradeType, 'Level System'] : [state.tradeType],
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
    status: row.Status,
    closeReason: state.closeReason,
    atrPct: state.atrPct,
  };
}
