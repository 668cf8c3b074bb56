import type { OptionAlertKind, OptionSide } from '../../../contract/option-trades';
import { rsi } from '../../../indicators/rsi';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { cooldownAllows } from '../../kit/selection';
import { averageBefore, highestPrior, indicatorsOf, lowestOver, type SeriesIndicators } from '../../kit/series';
import { earningsWithin } from '../../kit/times';
import type { DailySeries, IdeaEvent, SessionInput } from '../../types';
import { chooseContract } from './contract-choice';
import type { OptionsExtras } from './extras';
import type { OptionsParams } from './params';
import type { OptionOpenedData, OptionState, RsiStatus } from './state';
import { optionStrengthScore } from './strength';

/**
 * The option trades' alerts (docs/rules/option-trades.md §4.1): the bar-t facts, the alert kinds of each
 * side, the strength inputs, the session's new alerts, and the `opened` event of an alert with its
 * contract.
 */

/** The bar-t facts the alerts and the strength inputs read. */
export interface BarContext {
  series: DailySeries;
  t: number;
  ind: SeriesIndicators;
  rsi14: number;
}

export function contextAt(params: OptionsParams, series: DailySeries, t: number): BarContext {
  // RSI14 over the view: causal, and the view starts at bar 0, so it is the value at t whatever follows.
  return { series, t, ind: indicatorsOf(series), rsi14: rsi(series.close.subarray(0, t + 1), params.rsiSessions)[t]! };
}

/** Is some confirmed swing point (i ≤ t − 2, within the last `sessions` bars) within `distance` of `price`? Answers the nearest. */
function swingNear(levels: Float64Array, flags: Uint8Array, t: number, sessions: number, price: number, distance: number): number | null {
  let best: number | null = null;
  for (let i = Math.max(2, t - sessions + 1); i <= t - 2; i += 1) {
    if (flags[i] !== 1) continue;
    const gap = Math.abs(price - levels[i]!);
    if (gap <= distance && (best === null || gap < Math.abs(price - best))) best = levels[i]!;
  }
  return best;
}

/** The alert kinds of each side on bar t (docs/rules/option-trades.md §4.1); null for a side that does not fire. */
export function optionAlertsAt(params: OptionsParams, ctx: BarContext): { CALL: OptionAlertKind | null; PUT: OptionAlertKind | null } {
  const { series, t, ind, rsi14 } = ctx;
  const open = series.open[t]!;
  const close = series.close[t]!;
  const atr = ind.atr14[t]!;
  const sma50 = ind.sma50[t]!;
  let call: OptionAlertKind | null = null;
  let put: OptionAlertKind | null = null;
  if (close > highestPrior(series.close, t, params.breakoutSessions) && close > sma50) call = 'breakout';
  else if (close > open && rsi14 < params.bounceRsiMax && swingNear(series.low, ind.swingLow, t, params.swingSessions, series.low[t]!, params.swingAtr * atr) !== null) call = 'bounce';
  if (close < lowestOver(series.close, t - 1, params.breakoutSessions) && close < sma50) put = 'breakdown';
  else if (close < open && rsi14 > params.rejectionRsiMin && swingNear(series.high, ind.swingHigh, t, params.swingSessions, series.high[t]!, params.swingAtr * atr) !== null) put = 'rejection';
  return { CALL: call, PUT: put };
}

/** The §4.1 strength inputs of a side on bar t, and the score. */
export function optionStrengthInputsAt(params: OptionsParams, ctx: BarContext, side: OptionSide): Pick<OptionOpenedData, 'volumeSpikeCheck' | 'volumeSwingCheck' | 'swingCheck' | 'rsiStatus' | 'strengthScore'> {
  const { series, t, ind, rsi14 } = ctx;
  const close = series.close[t]!;
  const previous = series.close[t - 1]!;
  const distance = params.swingAtr * ind.atr14[t]!;
  const spike = series.volume[t]! >= params.volumeSpikeRatio * averageBefore(series.volume, t, params.volumeSessions);
  let swing = false;
  for (let i = Math.max(2, t - params.swingSessions + 1); i <= t - 2 && !swing; i += 1) {
    if (side === 'CALL') {
      // Low(t) within the distance of a swing low, closing above it; or closing up through a swing high.
      if (ind.swingLow[i] === 1 && Math.abs(series.low[t]! - series.low[i]!) <= distance && close > series.low[i]!) swing = true;
      if (ind.swingHigh[i] === 1 && previous <= series.high[i]! && series.high[i]! < close) swing = true;
    } else {
      if (ind.swingHigh[i] === 1 && Math.abs(series.high[t]! - series.high[i]!) <= distance && close < series.high[i]!) swing = true;
      if (ind.swingLow[i] === 1 && previous >= series.low[i]! && series.low[i]! > close) swing = true;
    }
  }
  const rsiStatus: RsiStatus = rsi14 < params.rsiOversold ? 'oversold' : rsi14 > params.rsiOverbought ? 'overbought' : 'neutral';
  const volumeSpikeCheck = spike ? '1' : '0';
  const swingCheck = swing ? '1' : '0';
  const volumeSwingCheck = spike && swing ? '1' : '0';
  const strengthScore = optionStrengthScore({ VolumeSpikeCheck: volumeSpikeCheck, VolumeSwingCheck: volumeSwingCheck, SwingCheck: swingCheck, RSIStatus: rsiStatus });
  return { volumeSpikeCheck, volumeSwingCheck, swingCheck, rsiStatus, strengthScore };
}

/** The one side that fires on bar t, or null when none or both do. */
export function firingSide(alerts: { CALL: OptionAlertKind | null; PUT: OptionAlertKind | null }): { side: OptionSide; kind: OptionAlertKind } | null {
  if (alerts.CALL !== null && alerts.PUT === null) return { side: 'CALL', kind: alerts.CALL };
  if (alerts.PUT !== null && alerts.CALL === null) return { side: 'PUT', kind: alerts.PUT };
  return null;
}

/** A new alert of the session (one side fires on a free, warmed-up underlying past its cooldown), before its contract is chosen. */
export interface Alert {
  member: SessionInput<OptionsParams, OptionState, OptionsExtras>['universe'][number];
  ctx: BarContext;
  side: OptionSide;
  kind: OptionAlertKind;
}

/** The session's new alerts (docs/rules/option-trades.md §4.1), before the contract choice and the capacity. */
export function sessionAlerts(input: SessionInput<OptionsParams, OptionState, OptionsExtras>): Alert[] {
  const { params, session, bars, universe, openIdeas, cooldowns, extras } = input;
  const day = dayNumber(session.date);
  const openSymbols = new Set(openIdeas.map((idea) => idea.symbol));
  const alerts: Alert[] = [];
  for (const member of universe) {
    if (openSymbols.has(member.symbol) || extras.removals?.has(member.symbol)) continue;
    const series = bars.get(member.symbol);
    if (!series) continue;
    const t = series.close.length - 1;
    if (series.day[t] !== day || t + 1 < params.warmupBars) continue;
    if (!cooldownAllows(series, t, cooldowns, member.symbol, params.cooldownSessions)) continue;
    const ctx = contextAt(params, series, t);
    const fired = firingSide(optionAlertsAt(params, ctx));
    if (fired === null) continue;
    alerts.push({ member, ctx, side: fired.side, kind: fired.kind });
  }
  return alerts;
}


export function openedEvent(series: DailySeries, t: number, ideaId: string, data: OptionOpenedData): IdeaEvent {
  return {
    ideaId,
    engine: 'options',
    market: series.market,
    symbol: series.symbol,
    type: 'opened',
    level: '',
    barDate: isoFromDayNumber(series.day[t]!),
    price: series.close[t]!,
    data,
  };
}

/** The opened data of a side's idea on bar t, or null when no contract qualifies. */
export function openedData(params: OptionsParams, ctx: BarContext, side: OptionSide, kind: OptionAlertKind, extras: OptionsExtras, session: { date: string; now: string }, survivorshipBiased: boolean): OptionOpenedData | null {
  const contract = chooseContract(params, ctx.series, ctx.t, side, extras);
  if (!contract) return null;
  const earnings = extras.earnings?.get(ctx.series.symbol);
  return {
    side,
    alertKind: kind,
    ...contract,
    ...optionStrengthInputsAt(params, ctx, side),
    // Earnings in sessions t+1 .. t+10 (a tag only).
    earningsInWindow: earnings !== undefined && earnings > session.date && earningsWithin(session.date, earnings, params.earningsSessions),
    atrPct: ctx.ind.atr14[ctx.t]! / ctx.series.close[ctx.t]!,
    createdAt: session.now,
    survivorshipBiased,
  };
}
