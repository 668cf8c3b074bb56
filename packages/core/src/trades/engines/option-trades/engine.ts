import type { OptionAlertKind, OptionSide, OptionTrade } from '../../../contract/option-trades';
import { rsi } from '../../../indicators/rsi';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter } from '../../../market/trading-calendar';
import { paramHash } from '../../kit/param-hash';
import { roundCentDown, roundCentUp } from '../../kit/prices';
import { cooldownAllows, rankAndCap } from '../../kit/selection';
import { averageBefore, highestPrior, indexOnOrBefore, indicatorsOf, lowestOver, viewThrough, type SeriesIndicators } from '../../kit/series';
import { earningsWithin } from '../../kit/times';
import { ideaIdOf, type CloseReason, type DailySeries, type EmitEvent, type EngineDefinition, type IdeaEvent, type OptionChainContract, type SessionExtras, type SessionInput } from '../../types';
import { chooseExpiry, liquidEnough, modelExpiries, occName, rankStrikes, strikeStep, yearsBetween } from './contracts';
import { askOf, bidOf, bsmDelta, modelValue, yangZhang, type ContractTerms } from './pricing';
import { foldOptionRow, optionOutcome } from './row';
import { applyOptionEvent, type OptionClosedData, type OptionEventData, type OptionMarkData, type OptionOpenedData, type OptionRepeatData, type OptionState, type RsiStatus, type SigmaSource } from './state';
import { optionStrengthScore } from './strength';

/**
 * Engine `options@1.1.0` (docs/rules/option-trades.md §4, spec §3–§5): option trades of screen options2 on the
 * OPTION_ALERT underlyings. An alert on bar t (CALL breakout / bounce, PUT breakdown / rejection)
 * picks a ~35-DTE, |Δ| ≈ 0.45 contract after the close, enters at the t + 1 open, and exits at
 * +30 % (target), −50 % (stop, checked first) or by time (session 10, or DTE ≤ 7).
 *
 * Prices: the bars the engine is given are the only bars we have. Signals use them as the adjusted
 * bars and pricing uses them as the raw underlying (docs/rules/conventions.md §0.2 asks for raw prices for
 * strikes and pricing; with no split in the window the two are the same, and a split closes the
 * trade through `corporateActions`).
 */

export interface OptionsParams {
  warmupBars: number;
  /** Breakout / breakdown: close beyond the extreme close of the prior N sessions, and beyond SMA50. */
  breakoutSessions: number;
  /** Bounce / rejection: within swingAtr × ATR14 of a confirmed swing point of the last swingSessions; RSI14 beyond the cut. */
  swingSessions: number;
  swingAtr: number;
  bounceRsiMax: number;
  rejectionRsiMin: number;
  rsiSessions: number;
  /** VolumeSpikeCheck: volume(t) ≥ ratio × the mean of the N sessions before t. */
  volumeSpikeRatio: number;
  volumeSessions: number;
  rsiOversold: number;
  rsiOverbought: number;
  cooldownSessions: number;
  capacityPerDay: number;
  targetDte: number;
  dteRange: [number, number];
  dteFallback: [number, number];
  targetDelta: number;
  deltaRange: [number, number];
  minOpenInterest: number;
  maxSpreadOfMid: number;
  earningsSessions: number;
  /** r when the session gives none (DTB3 missing), and q (no dividend source). */
  defaultRate: number;
  dividendYield: number;
  /** σ = max(sigmaFloor, ivPremium × (½ YZ(yzShort) + ½ YZ(yzLong))) when neither the chain nor an index gives it. */
  sigmaFloor: number;
  ivPremium: number;
  yzShort: number;
  yzLong: number;
  /** 30-day IV index per underlying (VIX for SPY, VXN for QQQ). */
  ivIndexes: Record<string, string>;
  /** h: indexEtfs pay halfSpreadIndex, the rest halfSpreadOther; the index ETFs also use $1 strikes. */
  indexEtfs: string[];
  halfSpreadIndex: number;
  halfSpreadOther: number;
  /** Percent of EntryValue. */
  targetPct: number;
  stopPct: number;
  timeStopSessions: number;
  /** Time exit at the first close with DTE ≤ minDte. */
  minDte: number;
}

export const OPTIONS_PARAMS: OptionsParams = {
  warmupBars: 260,
  breakoutSessions: 20,
  swingSessions: 120,
  swingAtr: 0.5,
  bounceRsiMax: 35,
  rejectionRsiMin: 65,
  rsiSessions: 14,
  volumeSpikeRatio: 2,
  volumeSessions: 20,
  rsiOversold: 30,
  rsiOverbought: 70,
  cooldownSessions: 5,
  capacityPerDay: 10,
  targetDte: 35,
  dteRange: [28, 45],
  dteFallback: [21, 60],
  targetDelta: 0.45,
  deltaRange: [0.35, 0.55],
  minOpenInterest: 500,
  maxSpreadOfMid: 0.1,
  earningsSessions: 10,
  defaultRate: 0.04,
  dividendYield: 0,
  sigmaFloor: 0.15,
  ivPremium: 1.1,
  yzShort: 20,
  yzLong: 60,
  ivIndexes: { SPY: 'VIX', QQQ: 'VXN' },
  indexEtfs: ['SPY', 'QQQ', 'IWM', 'DIA'],
  halfSpreadIndex: 0.015,
  halfSpreadOther: 0.03,
  targetPct: 30,
  stopPct: 50,
  timeStopSessions: 10,
  minDte: 7,
};

/**
 * 1.1.0: one σ for the entry and its bar. 1.0.0 priced the entry at close t's σ but marked the entry
 * bar (its open, High, Low and close) at that session's chain, so a gap against the position that
 * raised the chain's IV booked a target at the entry's own open.
 */
export const OPTIONS_RULE_VERSION = 'options@1.1.0';

/** The bar-t facts the alerts and the strength inputs read. */
interface BarContext {
  series: DailySeries;
  t: number;
  ind: SeriesIndicators;
  rsi14: number;
}

function contextAt(params: OptionsParams, series: DailySeries, t: number): BarContext {
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

/** σ when the chain gives none (docs/rules/option-trades.md §4.3): the IV index, else max(floor, premium × (½ YZ20 + ½ YZ60)). */
export function fallbackSigma(params: OptionsParams, series: DailySeries, t: number, extras: SessionExtras): { sigma: number; source: SigmaSource; index: string | null; indexValue: number | null } {
  const index = params.ivIndexes[series.symbol];
  const value = index === undefined ? undefined : extras.ivIndexes?.get(index);
  if (index !== undefined && value !== undefined && value > 0) return { sigma: value / 100, source: 'index', index, indexValue: value };
  const realised = 0.5 * yangZhang(series, t, params.yzShort) + 0.5 * yangZhang(series, t, params.yzLong);
  return { sigma: Math.max(params.sigmaFloor, Number.isFinite(realised) ? params.ivPremium * realised : 0), source: 'realised', index: null, indexValue: null };
}

function halfSpreadOf(params: OptionsParams, symbol: string): number {
  return params.indexEtfs.includes(symbol) ? params.halfSpreadIndex : params.halfSpreadOther;
}

type ContractChoice = Pick<
  OptionOpenedData,
  'contractName' | 'expiry' | 'strike' | 'priceSource' | 'sigma' | 'sigmaSource' | 'ivIndex' | 'ivIndexAtEntry' | 'rate' | 'dividendYield' | 'halfSpread' | 'deltaAtEntry' | 'signalValue' | 'signalMark'
>;

/**
 * Contract selection after close t (docs/rules/option-trades.md §4.2): from the session's chain when it lists the
 * side (chain Δ, else BSM Δ with the contract's IV or the fallback σ; liquidity when known), else
 * from the model's Friday expiries and strike grid. Null when nothing qualifies.
 */
export function chooseContract(params: OptionsParams, series: DailySeries, t: number, side: OptionSide, extras: SessionExtras): ContractChoice | null {
  const symbol = series.symbol;
  const spot = series.close[t]!;
  const day = series.day[t]!;
  const fromDay = tradingDayOnOrAfter(day + 1);
  const rate = extras.riskFreeRate ?? params.defaultRate;
  const fallback = fallbackSigma(params, series, t, extras);
  const halfSpread = halfSpreadOf(params, symbol);
  const base = { rate, dividendYield: params.dividendYield, halfSpread, ivIndex: fallback.index, ivIndexAtEntry: fallback.indexValue };
  const deltaOf = (strike: number, expiry: number, sigma: number) =>
    bsmDelta({ side, spot, strike, years: yearsBetween(day, expiry), rate, dividendYield: params.dividendYield, sigma });
  const listed = (extras.optionChains?.get(symbol)?.contracts ?? []).filter((c) => c.side === side && c.strike > 0);
  if (listed.length > 0) {
    const expiries = [...new Set(listed.map((c) => dayNumber(c.expiry)))];
    const expiry = chooseExpiry(expiries, fromDay, params);
    if (expiry === null) return null;
    const candidates = listed
      .filter((c) => dayNumber(c.expiry) === expiry)
      .map((quote) => ({ quote, strike: quote.strike, signed: quote.delta ?? deltaOf(quote.strike, expiry, quote.iv ?? fallback.sigma) }))
      .map((c) => ({ ...c, delta: Math.abs(c.signed) }));
    const pick = rankStrikes(candidates, spot, params).find((c) => liquidEnough(c.quote, params.minOpenInterest, params.maxSpreadOfMid));
    if (!pick) return null;
    const fromChain = pick.quote.iv !== undefined && pick.quote.iv > 0;
    const sigma = fromChain ? pick.quote.iv! : fallback.sigma;
    const expiryIso = isoFromDayNumber(expiry);
    const mid = modelValue({ side, strike: pick.strike, expiry: expiryIso, ...base }, spot, day, sigma);
    return {
      ...base,
      ...(fromChain ? { ivIndex: null, ivIndexAtEntry: null } : {}),
      contractName: occName(symbol, expiryIso, side, pick.strike),
      expiry: expiryIso,
      strike: pick.strike,
      priceSource: 'chain',
      sigma,
      sigmaSource: fromChain ? 'chain' : fallback.source,
      deltaAtEntry: pick.signed,
      // Enter at the ask, mark at the bid (h applied to the model when the quote has no side).
      signalValue: pick.quote.ask > 0 ? pick.quote.ask : askOf(mid, halfSpread),
      signalMark: pick.quote.bid > 0 ? pick.quote.bid : bidOf(mid, halfSpread),
    };
  }
  const expiry = chooseExpiry(modelExpiries(fromDay, fromDay + params.dteFallback[1]), fromDay, params);
  if (expiry === null) return null;
  const sigma = fallback.sigma;
  const step = strikeStep(symbol, spot, params.indexEtfs);
  // |Δ| in [0.35, 0.55] lies well within two standard deviations of the close.
  const spread = 2 * sigma * Math.sqrt(Math.max(yearsBetween(day, expiry), 1 / 365));
  const candidates: { strike: number; delta: number; signed: number }[] = [];
  for (let k = Math.max(1, Math.floor((spot * Math.exp(-spread)) / step)); k * step <= spot * Math.exp(spread) + step; k += 1) {
    const strike = Math.round(k * step * 1000) / 1000;
    const signed = deltaOf(strike, expiry, sigma);
    candidates.push({ strike, delta: Math.abs(signed), signed });
  }
  const pick = rankStrikes(candidates, spot, params)[0];
  if (!pick) return null;
  const expiryIso = isoFromDayNumber(expiry);
  const mid = modelValue({ side, strike: pick.strike, expiry: expiryIso, ...base }, spot, day, sigma);
  return {
    ...base,
    contractName: occName(symbol, expiryIso, side, pick.strike),
    expiry: expiryIso,
    strike: pick.strike,
    priceSource: 'model',
    sigma,
    sigmaSource: fallback.source,
    deltaAtEntry: pick.signed,
    signalValue: askOf(mid, halfSpread),
    signalMark: bidOf(mid, halfSpread),
  };
}

function openedEvent(series: DailySeries, t: number, ideaId: string, data: OptionOpenedData): IdeaEvent {
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
function openedData(params: OptionsParams, ctx: BarContext, side: OptionSide, kind: OptionAlertKind, extras: SessionExtras, session: { date: string; now: string }, survivorshipBiased: boolean): OptionOpenedData | null {
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

/**
 * The σ of a session: on the entry bar the entry's own (close t's: the entry and the bar's open,
 * High, Low and close marks are valued at one σ, so a gap cannot book a profit the position never
 * had); after it the chain's IV for the contract, an index σ scaled by index(t)/index(entry), else
 * the sticky σ.
 */
function sigmaToday(state: OptionState, quote: OptionChainContract | undefined, extras: SessionExtras, entryBar: boolean): number {
  if (entryBar) return state.sigma;
  if (quote?.iv !== undefined && quote.iv > 0) return quote.iv;
  if (state.sigmaSource === 'index' && state.ivIndex !== null && state.ivIndexAtEntry) {
    const now = extras.ivIndexes?.get(state.ivIndex);
    if (now !== undefined && now > 0) return (state.sigma * now) / state.ivIndexAtEntry;
  }
  return state.sigma;
}

/** The session chain's quote of a chain-priced trade's contract; none on the entry bar (its marks take the entry's σ). */
function quoteOf(state: OptionState, extras: SessionExtras, entryBar: boolean): OptionChainContract | undefined {
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
function updateTrade(params: OptionsParams, state: OptionState, series: DailySeries, extras: SessionExtras, emit: EmitEvent<OptionEventData>): void {
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

function sessionEvents(params: OptionsParams, state: OptionState, ideaId: string, series: DailySeries, extras: SessionExtras): IdeaEvent[] {
  const events: IdeaEvent[] = [];
  const barDate = isoFromDayNumber(series.day[series.day.length - 1]!);
  updateTrade(params, state, series, extras, (type, level, price, data) => {
    const event: IdeaEvent = { ideaId, engine: 'options', market: series.market, symbol: series.symbol, type, level, barDate, price, data };
    events.push(event);
    applyOptionEvent(state, event);
  });
  return events;
}

/** The one side that fires on bar t, or null when none or both do. */
function firingSide(alerts: { CALL: OptionAlertKind | null; PUT: OptionAlertKind | null }): { side: OptionSide; kind: OptionAlertKind } | null {
  if (alerts.CALL !== null && alerts.PUT === null) return { side: 'CALL', kind: alerts.CALL };
  if (alerts.PUT !== null && alerts.CALL === null) return { side: 'PUT', kind: alerts.PUT };
  return null;
}

interface Candidate {
  symbol: string;
  score: number[];
  data: OptionOpenedData;
  ctx: BarContext;
}

/** A new alert of the session (one side fires on a free, warmed-up underlying past its cooldown), before its contract is chosen. */
interface Alert {
  member: SessionInput<OptionsParams, OptionState>['universe'][number];
  ctx: BarContext;
  side: OptionSide;
  kind: OptionAlertKind;
}

/** The session's new alerts (docs/rules/option-trades.md §4.1), before the contract choice and the capacity. */
function sessionAlerts(input: SessionInput<OptionsParams, OptionState>): Alert[] {
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

/**
 * The underlyings whose option chain the session reads (`extras.optionChains`), each with the one
 * expiry it needs or null for every expiry: an open chain-priced trade with a bar on the session
 * past its entry bar (its contract's quote marks it; the entry bar is valued at the entry's σ), and
 * each new alert (its contract is chosen from the chain). The runner asks the source for these
 * chains only (a chain request per open contract and per new signal).
 */
export function optionChainNeeds(input: SessionInput<OptionsParams, OptionState>): Map<string, string | null> {
  const day = dayNumber(input.session.date);
  const needs = new Map<string, string | null>();
  for (const idea of input.openIdeas) {
    const series = input.bars.get(idea.symbol);
    if (idea.state.priceSource !== 'chain' || idea.state.entryPending || !series || series.day[series.day.length - 1] !== day) continue;
    needs.set(idea.symbol, needs.has(idea.symbol) && needs.get(idea.symbol) !== idea.state.expiry ? null : idea.state.expiry);
  }
  for (const alert of sessionAlerts(input)) needs.set(alert.member.symbol, null);
  return needs;
}

function runOptionsSession(input: SessionInput<OptionsParams, OptionState>): IdeaEvent[] {
  const { params, session, bars, openIdeas, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  for (const idea of openIdeas) {
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const state: OptionState = { ...idea.state, lastMark: { ...idea.state.lastMark } };
    const entryBar = state.entryPending;
    events.push(...sessionEvents(params, state, idea.ideaId, series, extras));
    const t = series.close.length - 1;
    if (state.closed || t + 1 < params.warmupBars) continue;
    // A repeat of the trade's side while it is open.
    const fired = firingSide(optionAlertsAt(params, contextAt(params, series, t)));
    if (fired === null || fired.side !== state.side) continue;
    const quote = quoteOf(state, extras, entryBar);
    const sigma = sigmaToday(state, quote, extras, entryBar);
    const close = series.close[t]!;
    const markValue = quote && quote.bid > 0 ? quote.bid : bidOf(modelValue(state, close, day, sigma), state.halfSpread);
    const data: OptionRepeatData = { alertKind: fired.kind, markValue, stockClose: close, sigma };
    const event: IdeaEvent = { ideaId: idea.ideaId, engine: 'options', market: series.market, symbol: series.symbol, type: 'alert_repeat', level: '', barDate: session.date, price: null, data };
    events.push(event);
  }
  const candidates: Candidate[] = [];
  for (const alert of sessionAlerts(input)) {
    const data = openedData(params, alert.ctx, alert.side, alert.kind, extras, session, alert.member.survivorshipBiased);
    if (data === null) continue;
    candidates.push({ symbol: alert.member.symbol, score: [data.strengthScore], data, ctx: alert.ctx });
  }
  for (const pick of rankAndCap(candidates, params.capacityPerDay).kept) {
    events.push(openedEvent(pick.ctx.series, pick.ctx.t, ideaIdOf('options', pick.symbol, session.date), pick.data));
  }
  return events;
}

/**
 * docs/rules/track-record.md §6.4 b: a trade of side `variant` ('CALL' by default) forced open at `signalIndex`
 * (the alert conditions skipped; the kind is the side's alert when it fired, else breakout /
 * breakdown), its contract chosen by the model, run through the same update code. [] when no
 * contract qualifies.
 */
function simulateOptions(input: { params: OptionsParams; series: DailySeries; signalIndex: number; ideaId: string; variant?: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const side: OptionSide = input.variant === 'PUT' ? 'PUT' : 'CALL';
  const view = viewThrough(series, signalIndex);
  const ctx = contextAt(params, view, signalIndex);
  const kind = optionAlertsAt(params, ctx)[side] ?? (side === 'CALL' ? 'breakout' : 'breakdown');
  const date = isoFromDayNumber(view.day[signalIndex]!);
  const data = openedData(params, ctx, side, kind, {}, { date, now: '' }, false);
  if (data === null) return [];
  const opened = openedEvent(view, signalIndex, ideaId, data);
  const events: IdeaEvent[] = [opened];
  const state = applyOptionEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, state, ideaId, viewThrough(series, end), {}));
  }
  return events;
}

export function createOptionsEngine(params: OptionsParams = OPTIONS_PARAMS): EngineDefinition<OptionsParams, OptionState, OptionTrade> {
  return {
    id: 'options',
    calendar: 'us',
    ruleVersion: OPTIONS_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: params.timeStopSessions,
    runSession: runOptionsSession,
    openState: (events) => {
      let state: OptionState | null = null;
      for (const event of events) state = applyOptionEvent(state, event);
      return state && !state.closed ? state : null;
    },
    fold: (events, mark, now) => foldOptionRow(events, mark, now, params),
    cooldownKey: (event) => event.symbol,
    simulate: simulateOptions,
    outcome: optionOutcome,
  };
}

export const optionsEngine = createOptionsEngine();
