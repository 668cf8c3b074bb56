import { isoFromDayNumber, dayNumber } from '../../../market/trading-calendar';
import { openOnly, sessionEmitter } from '../../kit/lifecycle';
import { paramHash } from '../../kit/param-hash';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { cooldownAllows, rankAndCap } from '../../kit/selection';
import { highestOver, indexOnOrBefore, indicatorsOf, viewThrough, type SeriesIndicators } from '../../kit/series';
import {
  applyLayeredEvent,
  cloneLayered,
  foldLayered,
  LEVEL_COUNT,
  type ClosedData,
  type FillData,
  type LayeredEventData,
  type LayeredOpenedData,
  type LayeredState,
  type PlanLevelState,
} from './state';
import { foldLayeredRow, layeredOutcome } from './row';
import type { LayeredTrade } from '../../../contract/trades';
import { ideaIdOf, type CloseReason, type DailySeries, type EmitEvent, type EngineDefinition, type IdeaEvent, type SessionInput } from '../../types';
import type { LayeredExtras } from './extras';

/**
 * Engine `layered@1.0.0` (docs/rules/long-term.md §1): the long-term layered plan of screen allstockscanner.
 * An orderly pullback in an uptrend opens a plan of five equal-dollar buy levels below the 21-session
 * high H and five sell levels above it, all frozen at creation; the plan averages down until the
 * first exit fills (the distribution lock), sells in fifths, and closes on the last exit, a close
 * below the stop, the 504th session, or an index exit.
 */

export interface LayeredParams {
  /** Nominal budget B per plan, dollars; each entry level buys B / 5. */
  budget: number;
  warmupBars: number;
  /** SMA200(t) > SMA200(t − trendLagSessions). */
  smaPeriod: number;
  trendLagSessions: number;
  /** close ≥ minHighRatio × the highest High of the last yearSessions bars. */
  yearSessions: number;
  minHighRatio: number;
  /** H = the highest High of the last anchorSessions bars. */
  anchorSessions: number;
  /** u = clamp(stepAtrMultiple × ATR%, stepMin, stepMax). */
  stepAtrMultiple: number;
  stepMin: number;
  stepMax: number;
  /** ENL2..ENL5 at H(1 − m·u) (ENL1 is the open of t + 1). */
  entrySteps: number[];
  /** EXL1..EXL5 at H(1 + m·u). */
  exitSteps: number[];
  /** Stop: a close below H(1 − stopSteps·u). */
  stopSteps: number;
  /** A counted level re-arms after a close beyond it by rearmAtr × ATR14. */
  rearmAtr: number;
  cooldownSessions: number;
  capacity: number;
  timeStopSessions: number;
}

export const LAYERED_PARAMS: LayeredParams = {
  budget: 10_000,
  warmupBars: 260,
  smaPeriod: 200,
  trendLagSessions: 21,
  yearSessions: 252,
  minHighRatio: 0.75,
  anchorSessions: 21,
  stepAtrMultiple: 1.5,
  stepMin: 0.03,
  stepMax: 0.08,
  entrySteps: [2, 3, 4.5, 6],
  exitSteps: [0, 1, 2, 3, 5],
  stopSteps: 7.5,
  rearmAtr: 0.5,
  cooldownSessions: 63,
  capacity: 10,
  timeStopSessions: 504,
};

export const LAYERED_RULE_VERSION = 'layered@1.0.0';

/** The frozen plan of a signal at bar t (also the random baseline's: same code, conditions skipped). */
export function layeredPlanAt(params: LayeredParams, series: DailySeries, t: number, indicators: SeriesIndicators) {
  const close = series.close[t]!;
  const anchorHigh = highestOver(series.high, t, params.anchorSessions);
  const atr = indicators.atr14[t]!;
  const atrPct = atr / close;
  const step = Math.min(params.stepMax, Math.max(params.stepMin, params.stepAtrMultiple * atrPct));
  return {
    anchorHigh,
    step,
    atr,
    atrPct,
    entries: params.entrySteps.map((m) => roundCentDown(anchorHigh * (1 - m * step))),
    exits: params.exitSteps.map((m) => roundCentUp(anchorHigh * (1 + m * step))),
    stop: roundCentDown(anchorHigh * (1 - params.stopSteps * step)),
  };
}

/** The creation conditions of §1.1 (2 and 3) on bar t; the score (close / 52-week high) or null. */
export function layeredSignalAt(params: LayeredParams, series: DailySeries, t: number, indicators: SeriesIndicators): number | null {
  if (t + 1 < params.warmupBars) return null;
  const sma = params.smaPeriod === 200 ? indicators.sma200 : null;
  if (!sma || !(sma[t]! > sma[t - params.trendLagSessions]!)) return null;
  const close = series.close[t]!;
  const yearHigh = highestOver(series.high, t, params.yearSessions);
  if (!(close >= params.minHighRatio * yearHigh)) return null;
  const anchorHigh = highestOver(series.high, t, params.anchorSessions);
  const atrPct = indicators.atr14[t]! / close;
  const step = Math.min(params.stepMax, Math.max(params.stepMin, params.stepAtrMultiple * atrPct));
  if (!(anchorHigh * (1 - 2 * step) < close && close <= anchorHigh * (1 - step))) return null;
  return close / yearHigh;
}

function openedEvent(params: LayeredParams, series: DailySeries, t: number, ideaId: string, extra: { createdAt: string; survivorshipBiased: boolean; score: number }): IdeaEvent {
  const plan = layeredPlanAt(params, series, t, indicatorsOf(series));
  const data: LayeredOpenedData = { ...plan, budget: params.budget, ...extra };
  return {
    ideaId,
    engine: 'layered',
    market: series.market,
    symbol: series.symbol,
    type: 'opened',
    level: '',
    barDate: isoFromDayNumber(series.day[t]!),
    price: series.close[t]!,
    data,
  };
}

/**
 * Is a counted level armed again on bar t? It disarmed at its last counted test and re-arms after a
 * close beyond it by rearmAtr × ATR14 (docs/rules/long-term.md §1.3): any bar s from that test's bar to t − 1
 * (re-arming is step 6 of a session, after its tests). Derived from the bars, so it needs no state.
 */
function rearmed(level: PlanLevelState, side: 'entry' | 'exit', params: LayeredParams, series: DailySeries, indicators: SeriesIndicators, t: number): boolean {
  if (level.count === 0) return true;
  const price = level.price!;
  const from = Math.max(0, indexOnOrBefore(series.day, level.lastDay!));
  for (let s = from; s < t; s += 1) {
    const margin = params.rearmAtr * indicators.atr14[s]!;
    if (side === 'entry' ? series.close[s]! > price + margin : series.close[s]! < price - margin) return true;
  }
  return false;
}

/** The plan's worst dollar-weighted mark at any close while held (≤ 0), through bar `end`, and the exit. */
function worstMark(state: LayeredState, series: DailySeries, start: number, end: number, finalReturn: number): number {
  let worst = Math.min(0, finalReturn);
  let fill = 0;
  let shares = 0;
  let deployed = 0;
  let proceeds = 0;
  for (let s = start; s <= end; s += 1) {
    const day = series.day[s]!;
    while (fill < state.fills.length && state.fills[fill]!.day <= day) {
      const next = state.fills[fill]!;
      shares += next.shares;
      if (next.shares > 0) deployed += next.amount;
      else proceeds += next.amount;
      fill += 1;
    }
    if (deployed > 0) worst = Math.min(worst, (proceeds + shares * series.close[s]! - deployed) / deployed);
  }
  return worst;
}

/**
 * One session of an open plan (docs/rules/conventions.md §0.1 order, docs/rules/long-term.md §1.3–1.4), on a view ending at bar t.
 * `emit` records an event and applies it to `state`.
 */
function updatePlan(params: LayeredParams, state: LayeredState, series: DailySeries, removed: boolean, emit: EmitEvent<LayeredEventData>): void {
  const t = series.close.length - 1;
  const indicators = indicatorsOf(series);
  const open = series.open[t]!;
  const high = series.high[t]!;
  const low = series.low[t]!;
  const close = series.close[t]!;
  const slice = params.budget / LEVEL_COUNT;

  const finish = (reason: CloseReason, price: number, exitAt: 'open' | 'close', lastMarkBar: number) => {
    const shares = state.shares;
    const amount = shares * price;
    const entryIndex = indexOnOrBefore(series.day, state.entryDay!);
    const finalReturn = state.deployed > 0 ? (state.proceeds + amount - state.deployed) / state.deployed : 0;
    const data: ClosedData = {
      reason,
      exitAt,
      shares,
      amount,
      sessionsHeld: t - entryIndex + 1,
      maxAdverseExcursion: worstMark(state, series, entryIndex, lastMarkBar, finalReturn),
    };
    emit('closed', '', price, data);
  };

  // (1) A close below the stop last session: everything left sells at this open.
  if (state.exitPending) {
    finish('stop', open, 'open', t - 1);
    return;
  }
  // (2) The pending entry: void when the open reaches EXL1, else ENL1 buys at the open.
  if (state.entryPending) {
    if (open >= state.exits[0]!.price!) {
      emit('voided', '', open, { reason: 'open at or above EXL1' });
      return;
    }
    const fill: FillData = { fill: true, shares: slice / open, amount: slice };
    emit('entry_filled', 'ENL1', open, fill);
  }
  // (3) Intrabar limit entries and entry tests. The bar where EXL1 is first hit fills no entry and
  // cancels every unfilled entry level (the distribution lock).
  const exl1 = state.exits[0]!;
  if (exl1.count === 0 && high > exl1.price!) {
    const cancelled = state.entries.flatMap((level, k) => (level.price !== null && level.count === 0 ? [`ENL${k + 1}`] : []));
    if (cancelled.length > 0) emit('levels_cancelled', '', null, { levels: cancelled });
  }
  state.entries.forEach((level, k) => {
    if (level.price === null || !(low < level.price)) return;
    if (!rearmed(level, 'entry', params, series, indicators, t)) return;
    const fill = level.count === 0;
    const data: FillData = fill ? { fill, shares: slice / level.price, amount: slice } : { fill, shares: 0, amount: 0 };
    emit('level_hit', `ENL${k + 1}`, level.price, data);
  });
  // (4) Intrabar exits: 1/5 of the locked position each, EXL5 the rest.
  for (let k = 0; k < LEVEL_COUNT; k += 1) {
    const level = state.exits[k]!;
    if (level.price === null || !(high > level.price)) continue;
    if (!rearmed(level, 'exit', params, series, indicators, t)) continue;
    const fill = level.count === 0;
    let shares = 0;
    if (fill) shares = k === LEVEL_COUNT - 1 ? state.shares : (k === 0 ? state.shares : state.locked!) / LEVEL_COUNT;
    const data: FillData = { fill, shares, amount: shares * level.price };
    emit('level_hit', `EXL${k + 1}`, level.price, data);
  }
  if (state.exits.every((level) => level.count > 0)) {
    finish('target', state.exits[LEVEL_COUNT - 1]!.price!, 'close', t);
    return;
  }
  // (5) Close-based exits. On one bar, leaving the index comes first, then the time stop (it sells
  // at this close, before a stop's next-open exit), then a close below the stop.
  const held = t - indexOnOrBefore(series.day, state.entryDay!) + 1;
  if (removed) {
    finish('index_exit', close, 'close', t);
  } else if (held >= params.timeStopSessions) {
    emit('time_stop', '', close, { sessionsHeld: held });
    finish('time', close, 'close', t);
  } else if (close < state.stop) {
    emit('stop_hit', 'STOP', close, { stop: state.stop });
  }
  // (6) Re-arming is read from the bars when a level is next touched (rearmed()).
}

/** Runs one session for one open plan; answers its events (state is a working copy). */
function sessionEvents(params: LayeredParams, state: LayeredState, ideaId: string, series: DailySeries, removed: boolean): IdeaEvent[] {
  const { events, emit } = sessionEmitter<LayeredEventData, LayeredState>('layered', ideaId, series, state, applyLayeredEvent);
  updatePlan(params, state, series, removed, emit);
  return events;
}

function runLayeredSession(input: SessionInput<LayeredParams, LayeredState, LayeredExtras>): IdeaEvent[] {
  const { params, session, bars, universe, openIdeas, cooldowns, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  const openSymbols = new Set<string>();
  for (const idea of openIdeas) {
    openSymbols.add(idea.symbol);
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const removed = extras.removals?.has(idea.symbol) ?? false;
    events.push(...sessionEvents(params, cloneLayered(idea.state), idea.ideaId, series, removed));
  }
  // New signals last.
  const candidates: { symbol: string; score: number[]; series: DailySeries; survivorshipBiased: boolean }[] = [];
  for (const member of universe) {
    if (openSymbols.has(member.symbol) || extras.removals?.has(member.symbol)) continue;
    const series = bars.get(member.symbol);
    if (!series) continue;
    const t = series.close.length - 1;
    if (series.day[t] !== day || t + 1 < params.warmupBars) continue;
    if (!cooldownAllows(series, t, cooldowns, member.symbol, params.cooldownSessions)) continue;
    const score = layeredSignalAt(params, series, t, indicatorsOf(series));
    if (score !== null) candidates.push({ symbol: member.symbol, score: [score], series, survivorshipBiased: member.survivorshipBiased });
  }
  for (const pick of rankAndCap(candidates, params.capacity).kept) {
    const t = pick.series.close.length - 1;
    const ideaId = ideaIdOf('layered', pick.symbol, session.date);
    events.push(openedEvent(params, pick.series, t, ideaId, { createdAt: session.now, survivorshipBiased: pick.survivorshipBiased, score: pick.score[0]! }));
  }
  return events;
}

/** docs/rules/track-record.md §6.4 b: a plan forced open at `signalIndex`, run through the same update code. */
function simulateLayered(input: { params: LayeredParams; series: DailySeries; signalIndex: number; ideaId: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const opened = openedEvent(params, viewThrough(series, signalIndex), signalIndex, ideaId, {
    createdAt: '',
    survivorshipBiased: false,
    score: 0,
  });
  const events: IdeaEvent[] = [opened];
  const state = applyLayeredEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, state, ideaId, viewThrough(series, end), false));
  }
  return events;
}

export function createLayeredEngine(params: LayeredParams = LAYERED_PARAMS): EngineDefinition<LayeredParams, LayeredState, LayeredTrade, LayeredExtras> {
  return {
    id: 'layered',
    calendar: 'us',
    ruleVersion: LAYERED_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: params.timeStopSessions,
    runSession: runLayeredSession,
    openState: (events) => openOnly(foldLayered(events)),
    fold: foldLayeredRow,
    cooldownKey: (event) => event.symbol,
    simulate: simulateLayered,
    outcome: layeredOutcome,
  };
}

export const layeredEngine = createLayeredEngine();
