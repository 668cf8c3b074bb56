import { dayNumber, isoFromDayNumber, newYorkInstantMs } from '../../../market/trading-calendar';
import { roundTo, roundCentUp } from '../../kit/prices';
import { cooldownAllows, compareCodePoints, rankAndCap } from '../../kit/selection';
import { indicatorsOf } from '../../kit/series';
import { ideaIdOf, type DailySeries, type IdeaEvent, type SessionInput, type UniverseMember } from '../../types';
import type { DropExtras } from './extras';
import { dropNewsOf } from './news';
import type { DropParams } from './params';
import type { DropOpenedData, DropOptionContract, DropState, DropType } from './state';

/**
 * The drop items' signals (docs/rules/drop-items.md §5): the items' ids and keys, "Best of S&P 500",
 * the S / L / O triggers, the day's ranked and capped candidates, and the `opened` event of a trigger.
 */

/** The idea id of an item: one idea per (symbol, type, signal session). */
export function dropIdeaId(symbol: string, type: DropType, signalDate: string): string {
  return `${ideaIdOf('drop', symbol, signalDate)}.${type}`;
}

/** The cooldown and dedupe key: (symbol, type). */
export function dropKey(symbol: string, type: DropType): string {
  return `${symbol}|${type}`;
}

export const typeOfIdeaId = (ideaId: string) => ideaId.slice(ideaId.lastIndexOf('.') + 1) as DropType;

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
export function bestOfSp500(params: DropParams, date: string, bars: ReadonlyMap<string, DailySeries>, universe: readonly UniverseMember[], extras: DropExtras): string[] {
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
  context: { now: string; extras: DropExtras; member: UniverseMember | null; option: DropOptionContract | null },
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

export function openedEvent(series: DailySeries, t: number, ideaId: string, data: DropOpenedData): IdeaEvent {
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

/** A new signal of the session, before the capacity and O's contract choice. */
export interface DropCandidate {
  symbol: string;
  score: number[];
  series: DailySeries;
  trigger: DropTrigger;
  member: UniverseMember;
}

/** The day's new signals per type, ranked and capped (before O's contract choice). Exported for the runner (news for new items). */
export function dropSignals(input: SessionInput<DropParams, DropState, DropExtras>, withOptions: boolean): { S: DropCandidate[]; L: DropCandidate[]; O: DropCandidate[]; dropped: number } {
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
