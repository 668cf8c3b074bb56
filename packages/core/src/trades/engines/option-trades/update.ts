import { dayNumber } from '../../../market/trading-calendar';
import { sessionEmitter } from '../../kit/lifecycle';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { indexOnOrBefore } from '../../kit/series';
import type { CloseReason, DailySeries, EmitEvent, IdeaEvent, OptionChainContract } from '../../types';
import type { OptionPricingExtras, OptionsExtras } from './extras';
import type { OptionsParams } from './params';
import { askOf, bidOf, modelValue, type ContractTerms } from './pricing';
import { applyOptionEvent, type OptionClosedData, type OptionEventData, type OptionMarkData, type OptionState } from './state';

/**
 * One session of an open option trade (docs/rules/option-trades.md §4.3–§4.4): the session's σ and
 * quote, the entry, the barriers, the close mark and the exits, emitted as events and applied to the
 * trade's state as they are emitted.
 */

/**
 * The σ of a session: on the entry bar the entry's own (close t's: the entry and the bar's open,
 * High, Low and close marks are valued at one σ, so a gap cannot book a profit the position never
 * had); after it the chain's IV for the contract, an index σ scaled by index(t)/index(entry), else
 * the sticky σ.
 */
export function sigmaToday(state: OptionState, quote: OptionChainContract | undefined, extras: OptionPricingExtras, entryBar: boolean): number {
  if (entryBar) return state.sigma;
  if (quote?.iv !== undefined && quote.iv > 0) return quote.iv;
  if (state.sigmaSource === 'index' && state.ivIndex !== null && state.ivIndexAtEntry) {
    const now = extras.ivIndexes?.get(state.ivIndex);
    if (now !== undefined && now > 0) return (state.sigma * now) / state.ivIndexAtEntry;
  }
  return state.sigma;
}

/** The session chain's quote of a chain-priced trade's contract; none on the entry bar (its marks take the entry's σ). */
export function quoteOf(state: OptionState, extras: OptionPricingExtras, entryBar: boolean): OptionChainContract | undefined {
  if (state.priceSource !== 'chain' || entryBar) return undefined;
  return extras.optionChains?.get(state.symbol)?.contracts.find((c) => c.side === state.side && c.expiry === state.expiry && Math.abs(c.strike - state.strike) < 1e-9);
}

/**
 * One session of an open trade (docs/rules/conventions.md §0.1 order, docs/rules/option-trades.md §4.3–§4.4) on a view ending at bar t:
 * (2) the pending entry fills at the open's value (the ask side); (4) intrabar, valued at the High
 * and Low with τ at the close, the stop first (fill at the stop, or the open's value when it opened
 * beyond), then the target (fills at the target, also on a gap); (5) the close mark and the time
 * exit (session 10, or DTE ≤ 7).
 */
function updateTrade(params: OptionsParams, state: OptionState, series: DailySeries, extras: OptionsExtras, emit: EmitEvent<OptionEventData>): void {
  const t = series.close.length - 1;
  const day = series.day[t]!;
  const terms: ContractTerms = state;
  const entryBar = state.entryPending;
  const quote = quoteOf(state, extras, entryBar);
  const sigma = sigmaToday(state, quote, extras, entryBar);
  const bidAt = (spot: number) => bidOf(modelValue(terms, spot, day, sigma), state.halfSpread);
  const open = series.open[t]!;
  const close = series.close[t]!;
  const finish = (reason: CloseReason, value: number, exitAt: 'open' | 'close', stockPrice: number) => {
    const entryIndex = indexOnOrBefore(series.day, state.entryDay!);
    // The worst close mark while held (the model at the trade's σ), and the exit itself.
    let worst = Math.min(0, value / state.entryValue! - 1);
    for (let s = entryIndex; s < t; s += 1) worst = Math.min(worst, bidOf(modelValue(terms, series.close[s]!, series.day[s]!, state.sigma), state.halfSpread) / state.entryValue! - 1);
    const data: OptionClosedData = { reason, exitAt, sessionsHeld: t - entryIndex + 1, maxAdverseExcursion: worst, stockPrice };
    emit('closed', '', value, data);
  };
  const markValue = quote && quote.bid > 0 ? quote.bid : bidAt(close);
  const mark: OptionMarkData = { markValue, stockClose: close, sigma };
  // A split or other adjustment: the trade closes at its last pre-event value (a pending entry never fills).
  if (extras.corporateActions?.has(state.symbol)) {
    if (state.entryPending) emit('voided', '', null, { reason: 'corporate_action' });
    else if (t > 0) finish('corporate_action', bidOf(modelValue(terms, series.close[t - 1]!, series.day[t - 1]!, state.sigma), state.halfSpread), 'close', series.close[t - 1]!);
    return;
  }
  if (state.entryPending) {
    // The model prices the entry at the open with σ of close t (the chain cannot quote the open afterwards), as it values the rest of the bar.
    const entryValue = askOf(modelValue(terms, open, day, sigma), state.halfSpread);
    emit('entry_filled', '', entryValue, { ...mark, stockOpen: open });
  }
  const entry = state.entryValue!;
  // Values are whole cents, so `worst ≤ 0.5 × E` is `worst ≤ 0.5 × E rounded down`, and `best ≥ 1.3 × E` the same rounded up.
  const stop = roundCentDown(entry * (1 - params.stopPct / 100));
  const target = roundCentUp(entry * (1 + params.targetPct / 100));
  const atOpen = bidAt(open);
  const atHigh = bidAt(series.high[t]!);
  const atLow = bidAt(series.low[t]!);
  const best = Math.max(state.side === 'CALL' ? atHigh : atLow, markValue);
  const worst = Math.min(state.side === 'CALL' ? atLow : atHigh, markValue);
  if (worst <= stop) {
    const gapped = atOpen < stop;
    const value = gapped ? atOpen : stop;
    emit('stop_hit', 'STOP', value, { stop });
    finish('stop', value, gapped ? 'open' : 'close', gapped ? open : state.side === 'CALL' ? series.low[t]! : series.high[t]!);
    return;
  }
  if (best >= target) {
    emit('target_hit', 'TARGET', target, { target });
    finish('target', target, atOpen >= target ? 'open' : 'close', atOpen >= target ? open : state.side === 'CALL' ? series.high[t]! : series.low[t]!);
    return;
  }
  const held = t - indexOnOrBefore(series.day, state.entryDay!) + 1;
  const dte = dayNumber(state.expiry) - day;
  if (held >= params.timeStopSessions || dte <= params.minDte) {
    emit('time_stop', '', markValue, { ...mark, sessionsHeld: held, dte });
    finish('time', markValue, 'close', close);
  }
}

export function sessionEvents(params: OptionsParams, state: OptionState, ideaId: string, series: DailySeries, extras: OptionsExtras): IdeaEvent[] {
  const { events, emit } = sessionEmitter<OptionEventData, OptionState>('options', ideaId, series, state, applyOptionEvent);
  updateTrade(params, state, series, extras, emit);
  return events;
}
