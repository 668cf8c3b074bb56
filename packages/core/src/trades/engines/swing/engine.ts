import type { SwingTrade } from '../../../contract/trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { earningsWithin } from '../../kit/times';
import { openOnly, sessionEmitter } from '../../kit/lifecycle';
import { paramHash } from '../../kit/param-hash';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { cooldownAllows, rankAndCap } from '../../kit/selection';
import {
  averageBefore,
  averageDollarVolumeBefore,
  highestOver,
  highestPrior,
  highestSwingLowAtMost,
  indexOnOrBefore,
  indicatorsOf,
  viewThrough,
  type SeriesIndicators,
} from '../../kit/series';
import { foldSwingRow, swingOutcome } from './row';
import { applySwingEvent, foldSwing, type SwingClosedData, type SwingEntryData, type SwingEventData, type SwingOpenedData, type SwingState, type SwingType } from './state';
import { ideaIdOf, type CloseReason, type DailySeries, type EmitEvent, type EngineDefinition, type IdeaEvent, type SessionInput } from '../../types';
import type { SwingExtras } from './extras';

/**
 * Engine `swing@1.0.0` (docs/rules/swing.md §2): the short-term trades of screen stockshort. Two signals
 * on liquid US stocks, Price Drop (mean reversion in an uptrend) and Trend (a 52-week closing
 * breakout on volume), entered at the next open, half sold at +5 % and half at +10 % by limit,
 * stopped on a close below an ATR stop (exit next open), and closed at the 21st session's close.
 */

export interface SwingParams {
  warmupBars: number;
  /** Universe: close ≥ minClose, mean close × volume of the dollarVolumeSessions before t ≥ minDollarVolume. */
  minClose: number;
  minDollarVolume: number;
  dollarVolumeSessions: number;
  /** Price Drop: close > SMA200, RSI(2) < dropRsiMax, drop from the dropHighSessions high ≥ max(dropMinPct, dropAtrMultiple × ATR%). */
  dropRsiMax: number;
  dropHighSessions: number;
  dropMinPct: number;
  dropAtrMultiple: number;
  dropStopAtr: number;
  /** Trend: close > the highest close of the prior trendBreakoutSessions; volume ≥ trendVolumeRatio × the trendVolumeSessions mean before t. */
  trendBreakoutSessions: number;
  trendVolumeSessions: number;
  trendVolumeRatio: number;
  /** SMA50 > SMA150 > SMA200 and SMA200(t) > SMA200(t − trendSlopeLagSessions). */
  trendSlopeLagSessions: number;
  /** (close − SMA20) / ATR14 ≤ trendMaxExtensionAtr. */
  trendMaxExtensionAtr: number;
  trendStopAtr: number;
  /** NearSupport: close − S ≤ supportAtr × ATR14, S a confirmed swing low of the last supportSessions. */
  supportSessions: number;
  supportAtr: number;
  /** Percent targets (spec: 5 and 10). */
  target1Pct: number;
  target2Pct: number;
  timeStopSessions: number;
  cooldownSessions: number;
  /** Per type and day. */
  capacityPerType: number;
  /** EarningsSoon: next earnings within this many sessions. */
  earningsSessions: number;
}

export const SWING_PARAMS: SwingParams = {
  warmupBars: 260,
  minClose: 10,
  minDollarVolume: 50_000_000,
  dollarVolumeSessions: 20,
  dropRsiMax: 5,
  dropHighSessions: 10,
  dropMinPct: 0.05,
  dropAtrMultiple: 2.5,
  dropStopAtr: 3.5,
  trendBreakoutSessions: 252,
  trendVolumeSessions: 50,
  trendVolumeRatio: 1.5,
  trendSlopeLagSessions: 21,
  trendMaxExtensionAtr: 3,
  trendStopAtr: 2.5,
  supportSessions: 120,
  supportAtr: 1,
  target1Pct: 5,
  target2Pct: 10,
  timeStopSessions: 21,
  cooldownSessions: 10,
  capacityPerType: 10,
  earningsSessions: 21,
};

export const SWING_RULE_VERSION = 'swing@1.0.0';

/** The universe filter of §2.1 on bar t (membership is the caller's). */
export function swingEligible(params: SwingParams, series: DailySeries, t: number): boolean {
  if (t + 1 < params.warmupBars) return false;
  if (!(series.close[t]! >= params.minClose)) return false;
  return averageDollarVolumeBefore(series, t, params.dollarVolumeSessions) >= params.minDollarVolume;
}

/** Price Drop on bar t: the drop in ATR units (its rank) or null. */
export function priceDropAt(params: SwingParams, series: DailySeries, t: number, ind: SeriesIndicators): number | null {
  const close = series.close[t]!;
  if (!(close > ind.sma200[t]!) || !(ind.rsi2[t]! < params.dropRsiMax)) return null;
  const high = highestOver(series.high, t, params.dropHighSessions);
  const atr = ind.atr14[t]!;
  const drop = (high - close) / high;
  if (!(drop >= Math.max(params.dropMinPct, params.dropAtrMultiple * (atr / close)))) return null;
  return (high - close) / atr;
}

/** Trend on bar t: the volume ratio (its rank) or null. */
export function trendAt(params: SwingParams, series: DailySeries, t: number, ind: SeriesIndicators): number | null {
  const close = series.close[t]!;
  if (!(ind.sma50[t]! > ind.sma150[t]! && ind.sma150[t]! > ind.sma200[t]!)) return null;
  if (!(ind.sma200[t]! > ind.sma200[t - params.trendSlopeLagSessions]!)) return null;
  if (!((close - ind.sma20[t]!) / ind.atr14[t]! <= params.trendMaxExtensionAtr)) return null;
  const ratio = series.volume[t]! / averageBefore(series.volume, t, params.trendVolumeSessions);
  if (!(ratio >= params.trendVolumeRatio)) return null;
  if (!(close > highestPrior(series.close, t, params.trendBreakoutSessions))) return null;
  return ratio;
}

/** The signal's frozen facts on bar t (also the random baseline's, with the conditions skipped). */
export function swingFactsAt(params: SwingParams, series: DailySeries, t: number, type: SwingType): Omit<SwingOpenedData, 'createdAt' | 'survivorshipBiased' | 'earningsSoon'> {
  const ind = indicatorsOf(series);
  const close = series.close[t]!;
  const atr = ind.atr14[t]!;
  const high = highestOver(series.high, t, params.dropHighSessions);
  const rsi2 = ind.rsi2[t]!;
  const volumeRatio = series.volume[t]! / averageBefore(series.volume, t, params.trendVolumeSessions);
  let support = highestSwingLowAtMost(series, ind, t, params.supportSessions, close);
  if (type === 'Trend') {
    // The broken prior-252 high close counts as support (it is ≤ close once broken).
    const broken = highestPrior(series.close, t, params.trendBreakoutSessions);
    if (broken <= close && (support === null || broken > support)) support = broken;
  }
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  return {
    tradeType: type,
    atr,
    atrPct: atr / close,
    stopAtr: type === 'Trend' ? params.trendStopAtr : params.dropStopAtr,
    rsi2: finite(rsi2),
    dropAtr: finite((high - close) / atr),
    volumeRatio: finite(volumeRatio),
    supportLevel: support,
    nearSupport: support !== null && close - support <= params.supportAtr * atr,
  };
}

function openedEvent(series: DailySeries, t: number, ideaId: string, data: SwingOpenedData): IdeaEvent {
  return {
    ideaId,
    engine: 'swing',
    market: series.market,
    symbol: series.symbol,
    type: 'opened',
    level: '',
    barDate: isoFromDayNumber(series.day[t]!),
    price: series.close[t]!,
    data,
  };
}

/** The blended return of a trade at price p on a bar (legs at their targets once hit). */
function blendedAt(state: SwingState, day: number, price: number): number {
  const entry = state.entryPrice!;
  const leg1 = state.hit1Day !== null && state.hit1Day <= day ? state.target1! / entry - 1 : price / entry - 1;
  const leg2 = state.hit2Day !== null && state.hit2Day <= day ? state.target2! / entry - 1 : price / entry - 1;
  return 0.5 * leg1 + 0.5 * leg2;
}

/** One session of an open trade (docs/rules/conventions.md §0.1 order, docs/rules/swing.md §2.2) on a view ending at bar t. */
function updateTrade(params: SwingParams, state: SwingState, series: DailySeries, removed: boolean, emit: EmitEvent<SwingEventData>): void {
  const t = series.close.length - 1;
  const open = series.open[t]!;
  const close = series.close[t]!;
  const finish = (reason: CloseReason, price: number, exitAt: 'open' | 'close', lastMarkBar: number) => {
    const entryIndex = indexOnOrBefore(series.day, state.entryDay!);
    const fraction = (state.hit1Day === null ? 0.5 : 0) + (state.hit2Day === null ? 0.5 : 0);
    let worst = Math.min(0, blendedAt(state, series.day[t]!, price));
    for (let s = entryIndex; s <= lastMarkBar; s += 1) worst = Math.min(worst, blendedAt(state, series.day[s]!, series.close[s]!));
    const data: SwingClosedData = { reason, exitAt, fraction, sessionsHeld: t - entryIndex + 1, maxAdverseExcursion: worst };
    emit('closed', '', price, data);
  };
  // (1) A close below the stop last session: what is left sells at this open.
  if (state.exitPending) {
    finish('stop', open, 'open', t - 1);
    return;
  }
  // (2) The pending entry fills at the open; targets and stop are set from it.
  if (state.entryPending) {
    const entry: SwingEntryData = {
      target1: roundCentUp(open * (1 + params.target1Pct / 100)),
      target2: roundCentUp(open * (1 + params.target2Pct / 100)),
      stop: roundCentDown(open - state.stopAtr * state.atr),
    };
    emit('entry_filled', '', open, entry);
  }
  // (4) Intrabar targets: a sell limit fills when High > target, at the target.
  const high = series.high[t]!;
  if (state.hit1Day === null && high > state.target1!) emit('target_hit', 'T1', state.target1, {});
  if (state.hit2Day === null && high > state.target2!) emit('target_hit', 'T2', state.target2, {});
  if (state.hit1Day !== null && state.hit2Day !== null) {
    finish('target', state.target2!, 'close', t);
    return;
  }
  // (5) Close-based exits. On one bar, leaving the index comes first, then the time stop (it sells
  // at this close, before a stop's next-open exit), then a close below the stop.
  const held = t - indexOnOrBefore(series.day, state.entryDay!) + 1;
  if (removed) finish('index_exit', close, 'close', t);
  else if (held >= params.timeStopSessions) {
    emit('time_stop', '', close, { sessionsHeld: held });
    finish('time', close, 'close', t);
  } else if (close < state.stop!) emit('stop_hit', 'STOP', close, { stop: state.stop });
}

function sessionEvents(params: SwingParams, state: SwingState, ideaId: string, series: DailySeries, removed: boolean): IdeaEvent[] {
  const { events, emit } = sessionEmitter<SwingEventData, SwingState>('swing', ideaId, series, state, applySwingEvent);
  updateTrade(params, state, series, removed, emit);
  return events;
}

interface Candidate {
  symbol: string;
  score: number[];
  series: DailySeries;
  type: SwingType;
  survivorshipBiased: boolean;
}

function runSwingSession(input: SessionInput<SwingParams, SwingState, SwingExtras>): IdeaEvent[] {
  const { params, session, bars, universe, openIdeas, cooldowns, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  const openSymbols = new Set<string>();
  for (const idea of openIdeas) {
    openSymbols.add(idea.symbol);
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const state: SwingState = { ...idea.state };
    events.push(...sessionEvents(params, state, idea.ideaId, series, extras.removals?.has(idea.symbol) ?? false));
  }
  const drops: Candidate[] = [];
  const trends: Candidate[] = [];
  for (const member of universe) {
    if (openSymbols.has(member.symbol) || extras.removals?.has(member.symbol)) continue;
    const series = bars.get(member.symbol);
    if (!series) continue;
    const t = series.close.length - 1;
    if (series.day[t] !== day || !swingEligible(params, series, t)) continue;
    if (!cooldownAllows(series, t, cooldowns, member.symbol, params.cooldownSessions)) continue;
    const ind = indicatorsOf(series);
    const dropAtr = priceDropAt(params, series, t, ind);
    // Dedupe: one idea per symbol; when both fire, Price Drop wins.
    if (dropAtr !== null) {
      drops.push({ symbol: member.symbol, score: [-ind.rsi2[t]!, dropAtr], series, type: 'Price Drop', survivorshipBiased: member.survivorshipBiased });
      continue;
    }
    const ratio = trendAt(params, series, t, ind);
    if (ratio !== null) trends.push({ symbol: member.symbol, score: [ratio], series, type: 'Trend', survivorshipBiased: member.survivorshipBiased });
  }
  const picks = [...rankAndCap(drops, params.capacityPerType).kept, ...rankAndCap(trends, params.capacityPerType).kept];
  for (const pick of picks) {
    const t = pick.series.close.length - 1;
    const data: SwingOpenedData = {
      ...swingFactsAt(params, pick.series, t, pick.type),
      earningsSoon: earningsWithin(session.date, extras.earnings?.get(pick.symbol), params.earningsSessions),
      createdAt: session.now,
      survivorshipBiased: pick.survivorshipBiased,
    };
    events.push(openedEvent(pick.series, t, ideaIdOf('swing', pick.symbol, session.date), data));
  }
  return events;
}

/** docs/rules/track-record.md §6.4 b: a trade forced open at `signalIndex` (type `variant`, Trend by default), run through the same update code. */
function simulateSwing(input: { params: SwingParams; series: DailySeries; signalIndex: number; ideaId: string; variant?: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const type: SwingType = input.variant === 'Price Drop' ? 'Price Drop' : 'Trend';
  const signalView = viewThrough(series, signalIndex);
  const data: SwingOpenedData = { ...swingFactsAt(params, signalView, signalIndex, type), earningsSoon: false, createdAt: '', survivorshipBiased: false };
  const opened = openedEvent(signalView, signalIndex, ideaId, data);
  const events: IdeaEvent[] = [opened];
  const state = applySwingEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, state, ideaId, viewThrough(series, end), false));
  }
  return events;
}

export function createSwingEngine(params: SwingParams = SWING_PARAMS): EngineDefinition<SwingParams, SwingState, SwingTrade, SwingExtras> {
  return {
    id: 'swing',
    calendar: 'us',
    ruleVersion: SWING_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: params.timeStopSessions,
    runSession: runSwingSession,
    openState: (events) => openOnly(foldSwing(events)),
    fold: (events, mark, now) => foldSwingRow(events, mark, now, params),
    cooldownKey: (event) => event.symbol,
    simulate: simulateSwing,
    outcome: swingOutcome,
  };
}

export const swingEngine = createSwingEngine();

export { earningsWithin };
