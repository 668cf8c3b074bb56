import { sessionEmitter } from '../../kit/lifecycle';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { indexOnOrBefore, viewThrough } from '../../kit/series';
import type { CloseReason, DailySeries, EmitEvent, IdeaEvent } from '../../types';
import type { DropExtras } from './extras';
import { askValue, bidValue, type DropOptionPricer } from './option';
import type { DropParams } from './params';
import { applyDropEvent, type DropClosedData, type DropEntryData, type DropEventData, type DropState } from './state';

/**
 * One session of an open drop item (docs/rules/drop-items.md §5.1): its entry, barriers and exits,
 * emitted as events and applied to its state as they are emitted. S and L items trade the stock,
 * O items the CALL the option pricer chose and values.
 */

/** One session of an open S or L item (docs/rules/conventions.md §0.1 order, docs/rules/drop-items.md §5.1) on a view ending at bar t. */
function updateStockItem(params: DropParams, state: DropState, series: DailySeries, removed: boolean, emit: EmitEvent<DropEventData>): void {
  const t = series.close.length - 1;
  const open = series.open[t]!;
  const close = series.close[t]!;
  const finish = (reason: CloseReason, price: number, exitAt: 'open' | 'close', lastMarkBar: number) => {
    const entryIndex = indexOnOrBefore(series.day, state.entryDay!);
    let worst = Math.min(0, price / state.entryPrice! - 1);
    for (let s = entryIndex; s <= lastMarkBar; s += 1) worst = Math.min(worst, series.close[s]! / state.entryPrice! - 1);
    const data: DropClosedData = { reason, exitAt, sessionsHeld: t - entryIndex + 1, maxAdverseExcursion: worst, underlyingExit: null };
    emit('closed', '', price, data);
  };
  // (1) A close below the stop last session: sell at this open.
  if (state.exitPending) {
    finish('stop', open, 'open', t - 1);
    return;
  }
  // (2) The pending entry fills at the open, unless L opens at or above its target (void).
  if (state.entryPending) {
    if (state.stockType === 'L' && open >= state.fixedTarget!) {
      emit('voided', '', open, { reason: 'open at or above the target' });
      return;
    }
    const entry: DropEntryData = {
      target: state.stockType === 'L' ? state.fixedTarget! : roundCentUp(open * (1 + params.sTargetPct / 100)),
      stop: state.stockType === 'L' ? roundCentDown(state.stopFraction * open) : roundCentDown(open - state.stopAtr * state.atr),
      optionEntryValue: null,
      underlyingEntry: null,
    };
    emit('entry_filled', '', open, entry);
  }
  // (4) The target is a sell limit: it fills when High > target, at the target (gaps included).
  if (series.high[t]! > state.target!) {
    emit('target_hit', 'TARGET', state.target, {});
    finish('target', state.target!, 'close', t);
    return;
  }
  // (5) Close-based exits: leaving the index, then the time stop (this close), then the stop (next open).
  const held = t - indexOnOrBefore(series.day, state.entryDay!) + 1;
  if (removed) finish('index_exit', close, 'close', t);
  else if (held >= state.timeStopSessions) {
    emit('time_stop', '', close, { sessionsHeld: held });
    finish('time', close, 'close', t);
  } else if (close < state.stop!) emit('stop_hit', 'STOP', close, { stop: state.stop });
}

/**
 * One session of an open O item (docs/rules/option-trades.md §4.3–4.4 on the option, as the options engine's
 * trades) on a view ending at bar t: (2) the pending entry fills at the open's model value with
 * close t's σ, at the ask; (4) intrabar, the stop first, then the target, on the bar's worst and best
 * bid (repriced at the Low and High, and the close mark); (5) the time exit at the close mark. The
 * entry bar is valued at close t's σ throughout (one σ for the entry and its bar). After it, the
 * close mark is the chain's bid when the session's chain quotes a contract chosen from a chain
 * (DropOptionBar.closeBid), else the model's value at the bid side.
 */
function updateOptionItem(params: DropParams, pricer: DropOptionPricer, state: DropState, series: DailySeries, extras: DropExtras, emit: EmitEvent<DropEventData>): void {
  const t = series.close.length - 1;
  const contract = state.option!;
  const h = contract.halfSpread;
  // The entry bar (entry pending at its open) is valued at the entry's σ throughout, reading no chain.
  const bar = pricer.valueOn({ contract, series, extras, entryBar: state.entryPending });
  if (state.entryPending) {
    if (!bar) {
      emit('voided', '', series.open[t]!, { reason: 'the contract could not be priced at the entry' });
      return;
    }
    // The model at the open with close t's σ (§4.3 Entry), at the ask side.
    const entryValue = askValue(bar.entry, h);
    const entry: DropEntryData = {
      target: roundCentUp(entryValue * (1 + params.oTargetPct / 100)),
      stop: roundCentDown(entryValue * (1 - params.oStopPct / 100)),
      optionEntryValue: entryValue,
      underlyingEntry: series.open[t]!,
    };
    emit('entry_filled', '', entryValue, entry);
  }
  if (!bar) return;
  const entryValue = state.optionEntryValue!;
  const entryIndex = indexOnOrBefore(series.day, state.entryDay!);
  const finish = (reason: CloseReason, value: number, exitAt: 'open' | 'close', underlying: number, worstToday: number) => {
    let worst = Math.min(0, value / entryValue - 1, worstToday / entryValue - 1);
    for (let s = entryIndex; s < t; s += 1) {
      const past = pricer.valueOn({ contract, series: viewThrough(series, s), extras: {} });
      if (past) worst = Math.min(worst, bidValue(past.low, h) / entryValue - 1, bidValue(past.close, h) / entryValue - 1);
    }
    const data: DropClosedData = { reason, exitAt, sessionsHeld: t - entryIndex + 1, maxAdverseExcursion: worst, underlyingExit: underlying };
    emit('closed', '', value, data);
  };
  // The close mark: the chain's bid when the session's chain quotes a chain-chosen contract, else the model's bid (§4.3).
  const mark = bar.closeBid ?? bidValue(bar.close, h);
  // The bar's worst and best: repriced at the Low and High (τ at the close), and the close mark itself.
  const worstValue = Math.min(bidValue(bar.low, h), mark);
  const bestValue = Math.max(bidValue(bar.high, h), mark);
  const openValue = bidValue(bar.open, h);
  // (4) Intrabar barriers on the option, the stop first: it fills at the stop, or at the open's value if it opened beyond.
  if (worstValue <= state.stop!) {
    emit('stop_hit', 'STOP', Math.min(state.stop!, openValue), { stop: state.stop });
    finish('stop', Math.min(state.stop!, openValue), openValue < state.stop! ? 'open' : 'close', series.open[t]!, worstValue);
    return;
  }
  if (bestValue >= state.target!) {
    emit('target_hit', 'TARGET', state.target, {});
    finish('target', state.target!, 'close', series.close[t]!, worstValue);
    return;
  }
  // (5) The time stop: the close of session 10, or the first close with DTE ≤ 7, at the marked value.
  const held = t - entryIndex + 1;
  if (held >= state.timeStopSessions || bar.dte <= params.oMinDte) {
    emit('time_stop', '', mark, { sessionsHeld: held, dte: bar.dte });
    finish('time', mark, 'close', series.close[t]!, worstValue);
  }
}

export function sessionEvents(params: DropParams, pricer: DropOptionPricer | null, state: DropState, ideaId: string, series: DailySeries, removed: boolean, extras: DropExtras): IdeaEvent[] {
  const { events, emit } = sessionEmitter<DropEventData, DropState>('drop', ideaId, series, state, applyDropEvent);
  if (state.stockType === 'O') {
    // Without the pricer an O item cannot be continued; it waits (the lead wires the pricer).
    if (pricer) updateOptionItem(params, pricer, state, series, extras, emit);
  } else updateStockItem(params, state, series, removed, emit);
  return events;
}
