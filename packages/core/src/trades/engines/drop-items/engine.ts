import type { DropItem } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber, newYorkInstantMs } from '../../../market/trading-calendar';
import { paramHash } from '../../kit/param-hash';
import { roundCentDown, roundCentUp, roundTo } from '../../kit/prices';
import { cooldownAllows, compareCodePoints, rankAndCap } from '../../kit/selection';
import { indexOnOrBefore, indicatorsOf, viewThrough } from '../../kit/series';
import { ideaIdOf, type CloseReason, type DailySeries, type EmitEvent, type EngineDefinition, type IdeaEvent, type SessionExtras, type SessionInput, type UniverseMember } from '../../types';
import { dropNewsOf } from './news';
import { askValue, bidValue, type DropOptionPricer } from './option';
import { dropOptionPricer } from './option-pricer';
import { dropOutcome, foldDropRow } from './row';
import { applyDropEvent, foldDrop, type DropClosedData, type DropEntryData, type DropEventData, type DropOpenedData, type DropOptionContract, type DropState, type DropType } from './state';

/**
 * Engine `drop@1.1.0` (docs/rules/drop-items.md §5): the drop items of screen drop. S (short-term) and L
 * (long-term, contrarian) on the day's "Best of S&P 500", O (a CALL) on the OPTION_ALERT
 * underlyings. Items are independent of the swing and option engines; O's contract comes from the
 * option engine's pricing, passed in as `optionPricer` (no pricer: no O items).
 */

export interface DropParams {
  warmupBars: number;
  /** Best of S&P 500: SMA200(t) > SMA200(t − bestSlopeLag); momentum close(t − skip)/close(t − lookback) − 1; top ⌈n × bestFraction⌉. */
  bestSlopeLagSessions: number;
  momentumSkipSessions: number;
  momentumLookbackSessions: number;
  bestFraction: number;
  /** S: drop from the sHighSessions high ≥ max(sMinDrop, sAtrMultiple × ATR%), close > SMA200. */
  sHighSessions: number;
  sMinDrop: number;
  sAtrMultiple: number;
  sTargetPct: number;
  sStopAtr: number;
  sTimeStopSessions: number;
  sCooldownSessions: number;
  /** L: drop from the lHighSessions high ≥ lMinDrop; target lTargetOfHigh × that high (also the void price). */
  lHighSessions: number;
  lMinDrop: number;
  lTargetOfHigh: number;
  lStopOfEntry: number;
  lTimeStopSessions: number;
  lCooldownSessions: number;
  /** O: drop from the oHighSessions high ≥ max(oMinDrop, oAtrMultiple × ATR%), close > SMA200. */
  oHighSessions: number;
  oMinDrop: number;
  oAtrMultiple: number;
  /** O's barriers on the option: target 1 + oTargetPct/100, stop 1 − oStopPct/100 of the entry value. */
  oTargetPct: number;
  oStopPct: number;
  oTimeStopSessions: number;
  oMinDte: number;
  oCooldownSessions: number;
  /** Per type and day. */
  capacityPerType: number;
  /** Sentiment is 'Neutral' below this many headlines. */
  minHeadlines: number;
}

export const DROP_PARAMS: DropParams = {
  warmupBars: 260,
  bestSlopeLagSessions: 21,
  momentumSkipSessions: 21,
  momentumLookbackSessions: 252,
  bestFraction: 0.5,
  sHighSessions: 20,
  sMinDrop: 0.07,
  sAtrMultiple: 3,
  sTargetPct: 5,
  sStopAtr: 3.5,
  sTimeStopSessions: 21,
  sCooldownSessions: 10,
  lHighSessions: 252,
  lMinDrop: 0.2,
  lTargetOfHigh: 0.95,
  lStopOfEntry: 0.7,
  lTimeStopSessions: 252,
  lCooldownSessions: 63,
  oHighSessions: 5,
  oMinDrop: 0.04,
  oAtrMultiple: 2,
  oTargetPct: 30,
  oStopPct: 50,
  oTimeStopSessions: 10,
  oMinDte: 7,
  oCooldownSessions: 10,
  capacityPerType: 10,
  minHeadlines: 3,
};

/**
 * 1.1.0: one σ for an O item's entry and its bar (docs/strategies/option-sigma.md), as options@1.1.0.
 * 1.0.0 priced the entry at close t's σ but valued the entry bar's open, High, Low and close at that
 * session's chain IV and bid, so a gap against the CALL that raised the IV booked a target at the
 * entry's own open.
 */
export const DROP_RULE_VERSION = 'drop@1.1.0';

/** The idea id of an item: one idea per (symbol, type, signal session). */
export function dropIdeaId(symbol: string, type: DropType, signalDate: string): string {
  return `${ideaIdOf('drop', symbol, signalDate)}.${type}`;
}

/** The cooldown and dedupe key: (symbol, type). */
export function dropKey(symbol: string, type: DropType): string {
  return `${symbol}|${type}`;
}

const typeOfIdeaId = (ideaId: string) => ideaId.slice(ideaId.lastIndexOf('.') + 1) as DropType;

/** The highest of values[t−n+1 .. t] and the index of its first occurrence; null when the window is short. */
function highWithIndex(values: ArrayLike<number>, t: number, n: number): { high: number; index: number } | null {
  if (t - n + 1 < 0) return null;
  let index = t - n + 1;
  for (let i = index + 1; i <= t; i += 1) if (values[i]! > values[index]!) index = i;
  return { high: values[index]!, index };
}

/** ceil(n × fraction) with the float noise of e.g. 0.5 × 7 removed. */
const ceilShare = (n: number, fraction: number) => Math.ceil(n * fraction - 1e-9);

/**
 * "Best of S&P 500" on the session (docs/rules/drop-items.md §5): the index members with ≥ warm-up bars (a bar
 * on the session included) and SMA200(t) > SMA200(t − 21), ranked by close(t − 21)/close(t − 252) − 1,
 * the top ⌈n/2⌉, ties by ticker (code point).
 */
export function bestOfSp500(params: DropParams, date: string, bars: ReadonlyMap<string, DailySeries>, universe: readonly UniverseMember[], extras: SessionExtras): string[] {
  const day = dayNumber(date);
  const ranked: { symbol: string; momentum: number }[] = [];
  const seen = new Set<string>();
  for (const member of universe) {
    if (seen.has(member.symbol)) continue;
    seen.add(member.symbol);
    if (extras.dropIndexMembers && !extras.dropIndexMembers.has(member.symbol)) continue;
    const series = bars.get(member.symbol);
    if (!series) continue;
    const t = series.close.length - 1;
    if (series.day[t] !== day || t + 1 < params.warmupBars) continue;
    const ind = indicatorsOf(series);
    if (!(ind.sma200[t]! > ind.sma200[t - params.bestSlopeLagSessions]!)) continue;
    const momentum = series.close[t - params.momentumSkipSessions]! / series.close[t - params.momentumLookbackSessions]! - 1;
    if (!Number.isFinite(momentum)) continue;
    ranked.push({ symbol: member.symbol, momentum });
  }
  ranked.sort((a, b) => b.momentum - a.momentum || compareCodePoints(a.symbol, b.symbol));
  return ranked.slice(0, ceilShare(ranked.length, params.bestFraction)).map((entry) => entry.symbol);
}

/** A trigger on bar t: the reference high, the drop, the threshold used and the rank score. */
export interface DropTrigger {
  type: DropType;
  referenceHigh: number;
  referenceIndex: number;
  drop: number;
  threshold: number;
  dropAtr: number;
  score: number;
}

/** The drop of bar t from the window's high, with the threshold and rank; `force` skips the conditions (simulate). */
export function dropTriggerAt(params: DropParams, type: DropType, series: DailySeries, t: number, force = false): DropTrigger | null {
  if (t + 1 < params.warmupBars && !force) return null;
  const ind = indicatorsOf(series);
  const close = series.close[t]!;
  const atr = ind.atr14[t]!;
  const window = type === 'S' ? params.sHighSessions : type === 'L' ? params.lHighSessions : params.oHighSessions;
  const ref = highWithIndex(series.high, t, Math.min(window, t + 1));
  if (!ref) return null;
  const drop = (ref.high - close) / ref.high;
  const threshold = type === 'S' ? Math.max(params.sMinDrop, params.sAtrMultiple * (atr / close)) : type === 'L' ? params.lMinDrop : Math.max(params.oMinDrop, params.oAtrMultiple * (atr / close));
  const dropAtr = (ref.high - close) / atr;
  if (!force) {
    if (!(drop >= threshold)) return null;
    if (type !== 'L' && !(close > ind.sma200[t]!)) return null;
  }
  return { type, referenceHigh: ref.high, referenceIndex: ref.index, drop, threshold, dropAtr, score: type === 'L' ? drop : dropAtr };
}

const finite = (value: number, fallback = 0) => (Number.isFinite(value) ? value : fallback);

/** The `opened` data of a trigger on bar t (news and sector from `extras`; O's contract given). */
export function dropOpenedData(
  params: DropParams,
  series: DailySeries,
  t: number,
  trigger: DropTrigger,
  context: { now: string; extras: SessionExtras; member: UniverseMember | null; option: DropOptionContract | null },
): DropOpenedData {
  const ind = indicatorsOf(series);
  const close = series.close[t]!;
  const atr = ind.atr14[t]!;
  const symbol = series.symbol;
  const referenceDay = series.day[trigger.referenceIndex]!;
  const nowMs = Date.parse(context.now);
  const news = dropNewsOf(context.extras.dropNews?.get(symbol), symbol, newYorkInstantMs(referenceDay, 0), Number.isFinite(nowMs) ? nowMs : newYorkInstantMs(series.day[t]! + 1, 0), params.minHeadlines);
  return {
    stockType: trigger.type,
    dropThreshold: roundTo(100 * trigger.threshold, 2),
    dropObserved: roundTo(100 * trigger.drop, 2),
    referenceHigh: trigger.referenceHigh,
    referenceHighDate: isoFromDayNumber(referenceDay),
    atr: finite(atr),
    atrPct: finite(atr / close),
    dropAtr: finite(trigger.dropAtr),
    stopAtr: trigger.type === 'S' ? params.sStopAtr : 0,
    stopFraction: trigger.type === 'L' ? params.lStopOfEntry : trigger.type === 'O' ? 1 - params.oStopPct / 100 : 0,
    fixedTarget: trigger.type === 'L' ? roundCentUp(params.lTargetOfHigh * trigger.referenceHigh) : null,
    timeStopSessions: trigger.type === 'S' ? params.sTimeStopSessions : trigger.type === 'L' ? params.lTimeStopSessions : params.oTimeStopSessions,
    stockNews: news.stockNews,
    sentiment: news.sentiment,
    sentimentScore: news.score,
    headlineCount: news.headlineCount,
    newsTag: news.newsTag,
    sectorName: context.extras.sectors?.get(symbol) ?? context.member?.sector ?? null,
    linkedSwingTradeId: context.extras.swingTradeIds?.get(symbol) ?? null,
    option: context.option,
    createdAt: context.now,
    survivorshipBiased: context.member?.survivorshipBiased ?? false,
  };
}

function openedEvent(series: DailySeries, t: number, ideaId: string, data: DropOpenedData): IdeaEvent {
  return {
    ideaId,
    engine: 'drop',
    market: series.market,
    symbol: series.symbol,
    type: 'opened',
    level: '',
    barDate: isoFromDayNumber(series.day[t]!),
    price: series.close[t]!,
    data,
  };
}

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
function updateOptionItem(params: DropParams, pricer: DropOptionPricer, state: DropState, series: DailySeries, extras: SessionExtras, emit: EmitEvent<DropEventData>): void {
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

function sessionEvents(params: DropParams, pricer: DropOptionPricer | null, state: DropState, ideaId: string, series: DailySeries, removed: boolean, extras: SessionExtras): IdeaEvent[] {
  const events: IdeaEvent[] = [];
  const barDate = isoFromDayNumber(series.day[series.day.length - 1]!);
  const emit: EmitEvent<DropEventData> = (type, level, price, data) => {
    const event: IdeaEvent = { ideaId, engine: 'drop', market: series.market, symbol: series.symbol, type, level, barDate, price, data };
    events.push(event);
    applyDropEvent(state, event);
  };
  if (state.stockType === 'O') {
    // Without the pricer an O item cannot be continued; it waits (the lead wires the pricer).
    if (pricer) updateOptionItem(params, pricer, state, series, extras, emit);
  } else updateStockItem(params, state, series, removed, emit);
  return events;
}

/** A new signal of the session, before the capacity and O's contract choice. */
export interface DropCandidate {
  symbol: string;
  score: number[];
  series: DailySeries;
  trigger: DropTrigger;
  member: UniverseMember;
}

/** The day's new signals per type, ranked and capped (before O's contract choice). Exported for the runner (news for new items). */
export function dropSignals(input: SessionInput<DropParams, DropState>, withOptions: boolean): { S: DropCandidate[]; L: DropCandidate[]; O: DropCandidate[]; dropped: number } {
  const { params, session, bars, universe, openIdeas, cooldowns, extras } = input;
  const day = dayNumber(session.date);
  const open = new Set(openIdeas.map((idea) => dropKey(idea.symbol, idea.state.stockType)));
  const best = new Set(bestOfSp500(params, session.date, bars, universe, extras));
  const lists: Record<DropType, DropCandidate[]> = { S: [], L: [], O: [] };
  const seen = new Set<string>();
  for (const member of universe) {
    if (seen.has(member.symbol)) continue;
    seen.add(member.symbol);
    const series = bars.get(member.symbol);
    if (!series) continue;
    const t = series.close.length - 1;
    if (series.day[t] !== day || t + 1 < params.warmupBars) continue;
    const types: DropType[] = [];
    if (best.has(member.symbol) && !extras.removals?.has(member.symbol)) types.push('S', 'L');
    if (withOptions && extras.dropOptionUnderlyings?.has(member.symbol)) types.push('O');
    for (const type of types) {
      const key = dropKey(member.symbol, type);
      if (open.has(key)) continue;
      const cooldown = type === 'S' ? params.sCooldownSessions : type === 'L' ? params.lCooldownSessions : params.oCooldownSessions;
      if (!cooldownAllows(series, t, cooldowns, key, cooldown)) continue;
      const trigger = dropTriggerAt(params, type, series, t);
      if (trigger) lists[type].push({ symbol: member.symbol, score: [trigger.score], series, trigger, member });
    }
  }
  const s = rankAndCap(lists.S, params.capacityPerType);
  const l = rankAndCap(lists.L, params.capacityPerType);
  // O: every candidate in rank order; the contract choice may skip some (see runDropSession).
  const o = rankAndCap(lists.O, lists.O.length);
  return { S: s.kept, L: l.kept, O: o.kept, dropped: s.dropped + l.dropped };
}

function runDropSession(pricer: DropOptionPricer | null, input: SessionInput<DropParams, DropState>): IdeaEvent[] {
  const { params, session, bars, openIdeas, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  for (const idea of openIdeas) {
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const state: DropState = { ...idea.state };
    const removed = state.stockType !== 'O' && (extras.removals?.has(idea.symbol) ?? false);
    events.push(...sessionEvents(params, pricer, state, idea.ideaId, series, removed, extras));
  }
  const picks = dropSignals(input, pricer !== null);
  const open = (pick: DropCandidate, option: DropOptionContract | null) => {
    const t = pick.series.close.length - 1;
    const data = dropOpenedData(params, pick.series, t, pick.trigger, { now: session.now, extras, member: pick.member, option });
    events.push(openedEvent(pick.series, t, dropIdeaId(pick.symbol, pick.trigger.type, session.date), data));
  };
  for (const pick of picks.S) open(pick, null);
  for (const pick of picks.L) open(pick, null);
  if (pricer) {
    let created = 0;
    for (const pick of picks.O) {
      if (created >= params.capacityPerType) break;
      const contract = pricer.chooseCall({ series: pick.series, sessionDate: session.date, extras });
      if (!contract) continue;
      open(pick, contract);
      created += 1;
    }
  }
  return events;
}

/** docs/rules/track-record.md §6.4 b: an item of type `variant` ('S' by default) forced open at `signalIndex`, run through the same update code. */
function simulateDrop(pricer: DropOptionPricer | null, input: { params: DropParams; series: DailySeries; signalIndex: number; ideaId: string; variant?: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const type: DropType = input.variant === 'L' || input.variant === 'O' ? input.variant : 'S';
  if (type === 'O' && !pricer) return [];
  const signalView = viewThrough(series, signalIndex);
  const trigger = dropTriggerAt(params, type, signalView, signalIndex, true);
  if (!trigger) return [];
  const date = isoFromDayNumber(series.day[signalIndex]!);
  const option = type === 'O' ? pricer!.chooseCall({ series: signalView, sessionDate: date, extras: {} }) : null;
  if (type === 'O' && !option) return [];
  const data = dropOpenedData(params, signalView, signalIndex, trigger, { now: '', extras: {}, member: null, option });
  const opened = openedEvent(signalView, signalIndex, ideaId, data);
  const events: IdeaEvent[] = [opened];
  const state = applyDropEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, pricer, state, ideaId, viewThrough(series, end), false, {}));
  }
  return events;
}

export interface DropEngineOptions {
  params?: DropParams;
  /** The option engine's contract choice and pricing (type O); null: no O items. */
  optionPricer?: DropOptionPricer | null;
}

export function createDropEngine(options: DropEngineOptions = {}): EngineDefinition<DropParams, DropState, DropItem> {
  const params = options.params ?? DROP_PARAMS;
  const pricer = options.optionPricer ?? null;
  return {
    id: 'drop',
    calendar: 'us',
    ruleVersion: DROP_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: Math.max(params.sTimeStopSessions, params.lTimeStopSessions, params.oTimeStopSessions),
    maxHoldSessionsOf: (type) => (type === 'S' ? params.sTimeStopSessions : type === 'L' ? params.lTimeStopSessions : type === 'O' ? params.oTimeStopSessions : Math.max(params.sTimeStopSessions, params.lTimeStopSessions, params.oTimeStopSessions)),
    runSession: (input) => runDropSession(pricer, input),
    openState: (events) => {
      const state = foldDrop(events);
      return state && !state.closed ? state : null;
    },
    fold: (events, mark, now) => foldDropRow(events, mark, now, params),
    cooldownKey: (event) => dropKey(event.symbol, typeOfIdeaId(event.ideaId)),
    simulate: (input) => simulateDrop(pricer, input),
    outcome: dropOutcome,
  };
}

/** The registered engine: O items choose and price their CALL with the options engine's code (option-pricer.ts). */
export const dropEngine = createDropEngine({ optionPricer: dropOptionPricer });
