import { describe, expect, it } from 'vitest';
import { optionTrade } from '../../../contract/option-trades';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { roundCentUp } from '../../kit/prices';
import { viewThrough } from '../../kit/series';
import { flatBars, seriesOf, truncatedCopy, type Bar } from '../../kit/test-bars';
import { passTimeOf } from '../../kit/times';
import { engineEvent, type Cooldowns, type DailySeries, type IdeaEvent, type OpenIdea, type StoredIdeaEvent } from '../../types';
import { fallbackSigma } from './contract-choice';
import { optionChainNeeds, optionsEngine } from './engine';
import type { OptionsExtras } from './extras';
import { OPTIONS_PARAMS, type OptionsParams } from './params';
import { askOf, bidOf, modelValue, type ContractTerms } from './pricing';
import type { OptionEventData, OptionOpenedData, OptionState } from './state';

// A flat base at 100 (High/Low ± 0.5, ATR14 = 1): σ = max(0.15, 1.10 × YZ) = 0.15 (YZ ≈ 0.10), h = 3 %.
const BASE = flatBars(270);
const b = (o: number, h: number, l: number, c: number, v = 1_000_000): Bar => ({ o, h, l, c, v });
const FLAT = b(100, 100.5, 99.5, 100);
const NOW = '2030-01-01T00:00:00.000Z';
const SIGNAL = 269;

const seriesWith = (after: Bar[], symbol = 'AAA') => seriesOf(symbol, [...BASE, ...after]);
const dateAt = (series: DailySeries, i: number) => isoFromDayNumber(series.day[i]!);

function simulate(after: Bar[], variant: 'CALL' | 'PUT' = 'CALL', params: OptionsParams = OPTIONS_PARAMS): IdeaEvent[] {
  return optionsEngine.simulate({ params, series: seriesWith(after), signalIndex: SIGNAL, ideaId: 'options.AAA.test', variant });
}
const stamp = (events: readonly IdeaEvent[]): StoredIdeaEvent[] =>
  events.map((event) => ({ ...event, ruleVersion: optionsEngine.ruleVersion, paramHash: optionsEngine.paramHash, origin: 'replayed', recordedAt: passTimeOf(event.barDate) }));
const rowOf = (events: readonly IdeaEvent[], now = NOW, mark: { price: number; at: string } | null = null) => optionTrade.parse(optionsEngine.fold(stamp(events), mark, now));
const ofType = (events: readonly IdeaEvent[], type: string) => events.filter((e) => e.type === type);
const openedOf = (events: readonly IdeaEvent[]): OptionOpenedData => {
  const event = engineEvent<OptionEventData>(events[0]!);
  if (event.type !== 'opened') throw new Error(`expected an opened event, got ${event.type}`);
  return event.data;
};
const termsOf = (events: readonly IdeaEvent[]): ContractTerms => openedOf(events);

/** The bid the model gives on `date` at `spot` (σ 0.15 unless told). */
const bidAt = (terms: ContractTerms, spot: number, date: string, sigma = 0.15) => bidOf(modelValue(terms, spot, dayNumber(date), sigma), terms.halfSpread);

/** Bisection on a monotone cent-valued function: the adjacent spots where `test` turns from false to true. */
function edge(test: (spot: number) => boolean, low: number, high: number): [number, number] {
  let lo = low;
  let hi = high;
  for (let i = 0; i < 200; i += 1) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (test(mid)) hi = mid;
    else lo = mid;
  }
  return [lo, hi];
}

function runOn(list: DailySeries[], options: { openIdeas?: OpenIdea<OptionState>[]; cooldowns?: Cooldowns; extras?: OptionsExtras; params?: OptionsParams } = {}): IdeaEvent[] {
  const series = list[0]!;
  const date = dateAt(series, series.day.length - 1);
  return optionsEngine.runSession({
    params: options.params ?? OPTIONS_PARAMS,
    session: { date, now: passTimeOf(date) },
    bars: new Map(list.map((s) => [s.symbol, s])),
    universe: list.map((s) => ({ symbol: s.symbol, market: 'US', survivorshipBiased: false })),
    openIdeas: options.openIdeas ?? [],
    cooldowns: options.cooldowns ?? new Map(),
    extras: options.extras ?? {},
  });
}

const BREAKOUT = b(100, 101.5, 99.9, 101);
const BREAKDOWN = b(100, 100.1, 98.5, 99);

describe('contract and pricing at the signal (§4.2, §4.3)', () => {
  it('picks a Friday ~35 DTE from t + 1 and |Δ| closest to 0.45 on the $1 grid; EntryValue shows the close-t value while pending', () => {
    const events = simulate([]);
    const data = openedOf(events);
    const series = seriesWith([]);
    const fromDay = tradingDayOnOrAfter(series.day[SIGNAL]! + 1);
    const dte = dayNumber(data.expiry) - fromDay;
    expect(dte).toBeGreaterThanOrEqual(32);
    expect(dte).toBeLessThanOrEqual(38);
    expect(new Date(`${data.expiry}T00:00:00Z`).getUTCDay()).toBe(5);
    expect(data).toMatchObject({ side: 'CALL', sigma: 0.15, sigmaSource: 'realised', priceSource: 'model', halfSpread: 0.03, rate: 0.04, dividendYield: 0 });
    expect(Number.isInteger(data.strike)).toBe(true);
    expect(Math.abs(data.deltaAtEntry - 0.45)).toBeLessThan(0.05);
    expect(data.contractName).toBe(`AAA${data.expiry.slice(2, 4)}${data.expiry.slice(5, 7)}${data.expiry.slice(8, 10)}C${String(data.strike * 1000).padStart(8, '0')}`);
    const value = modelValue(data, 100, series.day[SIGNAL]!, 0.15);
    expect(data.signalValue).toBe(askOf(value, 0.03));
    expect(rowOf(events)).toMatchObject({ EntryPending: true, EntryValue: data.signalValue, Current_Value: bidOf(value, 0.03), ProfitPercent: 0, Status: 'Active', IsActive: true, SignalPrice: 100 });
  });

  it('the realised σ is max(0.15, 1.10 × (½ YZ20 + ½ YZ60)); a PUT is priced as a put', () => {
    const volatile = seriesOf('VOL', Array.from({ length: 270 }, (_, i) => (i % 2 === 0 ? b(100, 103, 97, 102) : b(102, 104, 98, 100))));
    const sigma = fallbackSigma(OPTIONS_PARAMS, volatile, 269, {});
    expect(sigma.source).toBe('realised');
    expect(sigma.sigma).toBeGreaterThan(0.15);
    const put = openedOf(simulate([], 'PUT'));
    expect(put.deltaAtEntry).toBeLessThan(-0.35);
    expect(put.contractName).toMatch(/P\d{8}$/);
  });

  it('enters at the t + 1 open value, rounded up to the cent with h', () => {
    const events = simulate([b(100.5, 100.9, 100.1, 100.5)]);
    const series = seriesWith([FLAT]);
    const entry = askOf(modelValue(termsOf(events), 100.5, series.day[SIGNAL + 1]!, 0.15), 0.03);
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: entry });
    const row = rowOf(events);
    expect(row).toMatchObject({ EntryPending: false, EntryValue: entry, Current_Value: bidAt(termsOf(events), 100.5, dateAt(series, SIGNAL + 1)), CurrentPriceStock: 100.5 });
    expect(row.ProfitPercent).toBe(Math.round((row.Current_Value / entry - 1) * 10000) / 100);
  });
});

describe('close rules (§4.4, §6.5 test 4)', () => {
  const opened = simulate([FLAT]);
  const terms = termsOf(opened);
  const entry = opened[1]!.price!;
  const series = seriesWith([FLAT, FLAT]);
  const day2 = dateAt(series, SIGNAL + 2);
  const stop = Math.floor(entry * 50 + 1e-9) / 100;
  const target = Math.ceil(entry * 130 - 1e-9) / 100;
  // The Low at which a call's bid first reaches the stop, and the High at which it first reaches the target.
  const [stopLow, aboveStop] = edge((spot) => bidAt(terms, spot, day2) > stop, 50, 100);
  const [belowTarget, targetHigh] = edge((spot) => bidAt(terms, spot, day2) >= target, 100, 150);

  it('stop: the worst value (the Low for a call) at 50 % of EntryValue fills at the stop; a cent above holds', () => {
    expect(bidAt(terms, stopLow, day2)).toBeLessThanOrEqual(stop);
    expect(bidAt(terms, aboveStop, day2)).toBeGreaterThan(stop);
    expect(ofType(simulate([FLAT, b(100, 100.5, aboveStop, 100)]), 'closed')).toHaveLength(0);
    const events = simulate([FLAT, b(100, 100.5, stopLow, 100)]);
    expect(ofType(events, 'stop_hit')[0]).toMatchObject({ level: 'STOP', price: stop });
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: stop, data: expect.objectContaining({ reason: 'stop', exitAt: 'close', sessionsHeld: 2 }) });
    expect(rowOf(events)).toMatchObject({ Status: 'Failed', IsActive: false, IsTargetHit: false, CloseReason: 'stop', ExitValue: stop, Current_Value: stop });
  });

  it('a gapped option stop fills at the open’s value', () => {
    const events = simulate([FLAT, b(90, 91, 89, 90.5)]);
    const atOpen = bidAt(terms, 90, day2);
    expect(atOpen).toBeLessThan(stop);
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: atOpen, data: expect.objectContaining({ reason: 'stop', exitAt: 'open' }) });
    expect(rowOf(events).ProfitPercent).toBe(Math.round((atOpen / entry - 1) * 10000) / 100);
  });

  it('target: the best value (the High for a call) at 130 % fills at the target, IsTargetHit, Successful', () => {
    expect(ofType(simulate([FLAT, b(100, belowTarget, 99.5, 100)]), 'closed')).toHaveLength(0);
    const events = simulate([FLAT, b(100, targetHigh, 99.5, 100)]);
    expect(ofType(events, 'target_hit')[0]).toMatchObject({ level: 'TARGET', price: target });
    expect(rowOf(events)).toMatchObject({ Status: 'Successful', IsTargetHit: true, CloseReason: 'target', ExitValue: target, ProfitPercent: Math.round((target / entry - 1) * 10000) / 100 });
    // A gap through the target fills at the target too (a limit).
    expect(ofType(simulate([FLAT, b(110, 111, 109, 110)]), 'closed')[0]).toMatchObject({ price: target, data: expect.objectContaining({ reason: 'target', exitAt: 'open' }) });
  });

  it('stop and target on one bar: the stop', () => {
    const events = simulate([FLAT, b(100, targetHigh + 1, stopLow - 1, 100)]);
    expect(ofType(events, 'target_hit')).toHaveLength(0);
    expect(ofType(events, 'closed')[0]!.data).toMatchObject({ reason: 'stop' });
  });

  it('a put is stopped by the High and reaches its target at the Low', () => {
    const put = simulate([FLAT], 'PUT');
    const putTerms = termsOf(put);
    const putEntry = put[1]!.price!;
    expect(ofType(simulate([FLAT, b(100, 100.5, 95, 100)], 'PUT'), 'closed')[0]!.data).toMatchObject({ reason: 'target' });
    expect(ofType(simulate([FLAT, b(100, 106, 99.5, 100)], 'PUT'), 'closed')[0]).toMatchObject({ price: Math.floor(putEntry * 50 + 1e-9) / 100, data: expect.objectContaining({ reason: 'stop' }) });
    expect(bidAt(putTerms, 106, day2)).toBeLessThanOrEqual(Math.floor(putEntry * 50 + 1e-9) / 100);
  });

  it('time: the close of session 10 (entry bar = 1) at the marked value; Failed with its return', () => {
    const nine = Array.from({ length: 9 }, () => FLAT);
    expect(ofType(simulate(nine), 'closed')).toHaveLength(0);
    const events = simulate([...nine, b(100, 100.5, 99.5, 100.2)]);
    const last = dateAt(seriesWith([...nine, FLAT]), SIGNAL + 10);
    const mark = bidAt(terms, 100.2, last);
    expect(ofType(events, 'time_stop')).toHaveLength(1);
    expect(ofType(events, 'closed')[0]).toMatchObject({ barDate: last, price: mark, data: expect.objectContaining({ reason: 'time', exitAt: 'close', sessionsHeld: 10 }) });
    expect(rowOf(events)).toMatchObject({ Status: 'Failed', CloseReason: 'time', ExitValue: mark, IsTargetHit: false });
  });

  it('time: the first close with DTE ≤ the minimum (7; 30 here to reach it within the hold)', () => {
    const expiryDay = dayNumber(openedOf(opened).expiry);
    const entryDay = seriesWith([FLAT]).day[SIGNAL + 1]!;
    const minDte = expiryDay - entryDay - 3;
    const events = simulate(Array.from({ length: 9 }, () => FLAT), 'CALL', { ...OPTIONS_PARAMS, minDte });
    const closed = ofType(events, 'closed')[0]!;
    expect(closed.data).toMatchObject({ reason: 'time' });
    expect(closed.barDate).toBe(isoFromDayNumber(tradingDayOnOrAfter(entryDay + 3)));
    expect(ofType(events, 'time_stop')[0]!.data).toMatchObject({ dte: expiryDay - dayNumber(closed.barDate) });
  });

  it('outcome: counted under its side and its Volume tag, the option return, MAE from the worst mark, holding sessions', () => {
    const events = simulate([FLAT, b(100, 100.5, 99.2, 99.4), b(99.4, 99.8, 99.2, 99.5), b(100, targetHigh + 0.5, 99.5, 100)]);
    const row = rowOf(events);
    const outcome = optionsEngine.outcome(stamp(events), row)!;
    const day3 = dateAt(seriesWith([FLAT, FLAT, FLAT]), SIGNAL + 2);
    expect(outcome).toMatchObject({ types: ['CALL', row.VolumeSpikeCheck === '1' ? 'Volume tag' : 'No Volume tag'], closed: true, closeReason: 'target', status: 'Successful', holdingSessions: 4, exitAt: 'close', deployed: null });
    expect(outcome.returnPct).toBeCloseTo(target / entry - 1, 12);
    expect(outcome.maxAdverseExcursion).toBeCloseTo(bidAt(terms, 99.4, day3) / entry - 1, 12);
    expect(outcome.maxAdverseExcursion).toBeLessThan(-0.1);
    expect(outcome.atrPct).toBeCloseTo(1 / 100, 12);
    expect(optionsEngine.outcome(stamp(simulate([])), rowOf(simulate([])))).toBeNull();
  });
});

describe('alerts and strength inputs (§4.1)', () => {
  it('CALL breakout and PUT breakdown; no alert on a flat bar; warm-up 260 bars', () => {
    expect(ofType(runOn([seriesWith([BREAKOUT])]), 'opened')[0]!.data).toMatchObject({ side: 'CALL', alertKind: 'breakout' });
    expect(ofType(runOn([seriesWith([BREAKDOWN])]), 'opened')[0]!.data).toMatchObject({ side: 'PUT', alertKind: 'breakdown' });
    expect(runOn([seriesWith([FLAT])])).toHaveLength(0);
    // Close = the prior 20 highest close: no breakout.
    expect(runOn([seriesWith([b(100, 101, 99.9, 100)])])).toHaveLength(0);
    expect(runOn([seriesOf('AAA', [...flatBars(258), BREAKOUT])])).toHaveLength(0);
    expect(runOn([seriesOf('AAA', [...flatBars(259), BREAKOUT])])).toHaveLength(1);
  });

  // Ten falling sessions from 100 to 90 after a swing low of 89.8 at bar 200; bar t closes up from its open near it.
  const falling = (lowAt200 = 89.8, volume = 1_000_000, close = 90.2) => {
    const bars = [...BASE];
    bars[200] = b(100, 100.5, lowAt200, 100);
    for (let i = 1; i <= 10; i += 1) bars.push(b(101 - i, 101.5 - i, 99.5 - i, 100 - i));
    bars.push(b(89.8, 90.4, 89.7, close, volume));
    return seriesOf('AAA', bars);
  };

  it('CALL bounce: Low within 0.5 ATR14 of a confirmed swing low, close > open, RSI14 < 35; SwingCheck, Volume, oversold', () => {
    const [opened] = ofType(runOn([falling()]), 'opened');
    expect(opened!.data).toMatchObject({ side: 'CALL', alertKind: 'bounce', swingCheck: '1', volumeSpikeCheck: '0', volumeSwingCheck: '0', rsiStatus: 'oversold', strengthScore: 25 });
    // Volume exactly 2.0 × the 20-session mean: the spike, and it is on the swing bar.
    expect(ofType(runOn([falling(89.8, 2_000_000)]), 'opened')[0]!.data).toMatchObject({ volumeSpikeCheck: '1', volumeSwingCheck: '1', strengthScore: 100 });
    expect(ofType(runOn([falling(89.8, 1_999_999)]), 'opened')[0]!.data).toMatchObject({ volumeSpikeCheck: '0', strengthScore: 25 });
    // No swing low near the Low: no bounce.
    expect(runOn([falling(95)])).toHaveLength(0);
  });

  it('PUT rejection: High within 0.5 ATR14 of a confirmed swing high, close < open, RSI14 > 65', () => {
    const bars = [...BASE];
    bars[200] = b(100, 110.2, 99.5, 100);
    for (let i = 1; i <= 10; i += 1) bars.push(b(99 + i, 100.5 + i, 98.5 + i, 100 + i));
    bars.push(b(110.2, 110.3, 109.6, 109.8));
    const [opened] = ofType(runOn([seriesOf('AAA', bars)]), 'opened');
    expect(opened!.data).toMatchObject({ side: 'PUT', alertKind: 'rejection', swingCheck: '1', rsiStatus: 'overbought', strengthScore: 15 });
  });

  it('both sides fire: no idea', () => {
    const bars = [...BASE];
    bars[200] = b(100, 102, 99.5, 100);
    const both = seriesOf('AAA', [...bars, b(102, 102.2, 100.9, 101)]);
    expect(runOn([both])).toHaveLength(0);
    // Without the swing high only the breakout fires.
    expect(ofType(runOn([seriesOf('AAA', [...BASE, b(102, 102.2, 100.9, 101)])]), 'opened')).toHaveLength(1);
  });

  it('a swing point is usable from bar i + 2: the decision on bar t is the same whatever bars follow it', () => {
    const full = falling();
    const extended = seriesOf('AAA', [...BASE, ...Array.from({ length: 10 }, (_, i) => b(100 - i, 100.5 - i, 99 - i, 99.5 - i)), b(89, 89.5, 88, 89), b(90, 91, 89.5, 90.5), b(91, 92, 90, 91)]);
    for (const series of [full, extended]) {
      for (const t of [series.day.length - 3, series.day.length - 2]) {
        const view = viewThrough(series, t);
        const copy = truncatedCopy(series, t + 1);
        expect(JSON.stringify(runOn([view]))).toBe(JSON.stringify(runOn([copy])));
      }
    }
  });
});

describe('limits (§0.3, §4.1)', () => {
  it('capacity: 10 a day, by strength, then ticker', () => {
    const list = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'].map((s) => seriesWith([BREAKOUT], s));
    list.push(seriesWith([b(100, 101.5, 99.9, 101, 3_000_000)], 'Z'));
    const opened = ofType(runOn(list), 'opened');
    expect(opened.map((e) => e.symbol)).toEqual(['Z', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    expect(opened[0]!.data).toMatchObject({ strengthScore: 50, volumeSpikeCheck: '1' });
  });

  it('cooldown: 5 sessions after the last idea closed', () => {
    const series = seriesWith([BREAKOUT]);
    const t = series.day.length - 1;
    expect(runOn([series], { cooldowns: new Map([['AAA', dateAt(series, t - 4)]]) })).toHaveLength(0);
    expect(runOn([series], { cooldowns: new Map([['AAA', dateAt(series, t - 5)]]) })).toHaveLength(1);
  });

  it('one open idea per underlying, either side; a repeat of its side adds alert_repeat and raises AlertCount', () => {
    const series = seriesWith([BREAKOUT, b(101, 101.3, 100.95, 101.2), b(101.2, 101.3, 97, 97.5)]);
    const events = replay(optionsEngine, {
      series: new Map([['AAA', series]]),
      sessions: [dateAt(series, 270), dateAt(series, 271), dateAt(series, 272)],
      universeFor: () => [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }],
      origin: 'replayed',
    });
    expect(events.map((e) => e.type)).toEqual(['opened', 'entry_filled', 'alert_repeat', 'stop_hit', 'closed']);
    const beforeStop = events.slice(0, 3);
    expect(rowOf(beforeStop)).toMatchObject({ AlertCount: 2, IsActive: true });
    expect(beforeStop[2]!.data).toMatchObject({ alertKind: 'breakout', stockClose: 101.2 });
    // A PUT alert while a CALL is open: neither a repeat nor a new idea.
    const open = optionsEngine.openState(stamp(events.slice(0, 2)))!;
    const idea: OpenIdea<OptionState> = { ideaId: events[0]!.ideaId, symbol: 'AAA', market: 'US', ruleVersion: optionsEngine.ruleVersion, state: open };
    const putDay = seriesWith([BREAKOUT, FLAT, BREAKDOWN]);
    const other = runOn([putDay], { openIdeas: [idea] });
    expect(ofType(other, 'opened')).toHaveLength(0);
    expect(ofType(other, 'alert_repeat')).toHaveLength(0);
  });

  it('EarningsInWindow: earnings in sessions t + 1 .. t + 10', () => {
    const series = seriesWith([BREAKOUT]);
    const date = dateAt(series, 270);
    const sessions = [];
    for (let day = dayNumber(date) + 1; sessions.length < 11; day += 1) if (tradingDayOnOrAfter(day) === day) sessions.push(isoFromDayNumber(day));
    const tag = (earnings: string) => ofType(runOn([series], { extras: { earnings: new Map([['AAA', earnings]]) } }), 'opened')[0]!.data.earningsInWindow;
    expect(tag(sessions[9]!)).toBe(true);
    expect(tag(sessions[10]!)).toBe(false);
    expect(tag(date)).toBe(false);
  });

  it('NewTrade: created less than 24 hours ago', () => {
    const events = stamp(ofType(runOn([seriesWith([BREAKOUT])]), 'opened'));
    const created = Date.parse(events[0]!.data.createdAt as string);
    expect(optionsEngine.fold(events, null, new Date(created + 86_399_999).toISOString()).NewTrade).toBe(true);
    expect(optionsEngine.fold(events, null, new Date(created + 86_400_000).toISOString()).NewTrade).toBe(false);
  });
});

describe('chains, IV indexes and corporate actions (extras)', () => {
  const series = seriesWith([BREAKOUT, b(101.2, 101.5, 100.8, 101)]);
  const t = 270;
  const date = dateAt(series, t);
  // The last Friday on or before t + 35 (Fridays are the day numbers ≡ 1 mod 7): DTE within [21, 60].
  const expiry = isoFromDayNumber(dayNumber(date) + 35 - ((((dayNumber(date) + 35 - 1) % 7) + 7) % 7));
  const quote = (strike: number, delta: number, bid: number, ask: number, openInterest = 1000) => ({ expiry, strike, side: 'CALL' as const, bid, ask, iv: 0.3, delta, openInterest });
  const chain = () => ({
    underlying: 'AAA',
    contracts: [quote(99, 0.6, 4, 4.2), quote(100, 0.5, 3.4, 3.6), quote(101, 0.44, 2.9, 3.1, 100), quote(102, 0.38, 2.4, 2.6), { ...quote(100, -0.5, 3, 3.2), side: 'PUT' as const }],
  });

  it('selects from the chain (its Δ, liquidity), enters pending at the ask, then enters and marks with the model at the chain’s IV of close t', () => {
    const extras = (d: string): OptionsExtras =>
      d === date
        ? { optionChains: new Map([['AAA', chain()]]) }
        : { optionChains: new Map([['AAA', { underlying: 'AAA', contracts: [{ ...quote(100, 0.5, 3.1, 3.3) }] }]]) };
    const events = replay(optionsEngine, { series: new Map([['AAA', series]]), sessions: [date, dateAt(series, t + 1)], universeFor: () => [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }], origin: 'replayed', extras });
    const data = openedOf(events);
    // 101 is closest to Δ 0.45 but has open interest 100 < 500: the next candidate, 100 (|0.50 − 0.45| < |0.38 − 0.45|).
    expect(data).toMatchObject({ priceSource: 'chain', strike: 100, deltaAtEntry: 0.5, sigma: 0.3, sigmaSource: 'chain', signalValue: 3.6, signalMark: 3.4, expiry });
    expect(rowOf(events.slice(0, 1))).toMatchObject({ PriceSource: 'chain', EntryValue: 3.6, Sigma: 0.3, DeltaAtEntry: 0.5 });
    const entryValue = askOf(modelValue(data, 101.2, dayNumber(dateAt(series, t + 1)), 0.3), 0.03);
    // The entry session's chain (its bid 3.1) is not read: the mark is the model's bid at the trade's σ.
    const markValue = bidOf(modelValue(data, 101, dayNumber(dateAt(series, t + 1)), 0.3), 0.03);
    expect(markValue).not.toBe(3.1);
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: entryValue, data: expect.objectContaining({ markValue, sigma: 0.3 }) });
    expect(rowOf(events.slice(0, 2))).toMatchObject({ Current_Value: markValue, EntryValue: entryValue });
  });

  it('a gap against a put: the entry and the entry bar’s marks at one σ (close t’s chain IV), so no target at the open from that session’s chain; later sessions are marked at the chain’s bid', () => {
    // BREAKDOWN closes at 99 (a PUT alert); the entry bar gaps up to 103, against the put. Each later
    // session's chain quotes the contract at a far higher IV (0.9: the gap in its realised volatility)
    // and a bid to match, which at a second σ on the entry bar would value the put at ~9 against an
    // entry of ~0.9. From the session after the entry bar the trade is marked at the chain's bid.
    const gapped = seriesWith([BREAKDOWN, b(103, 103.5, 102.5, 103), b(103, 103.4, 102.6, 103)]);
    const put = (strike: number, delta: number, bid: number, ask: number, iv: number) => ({ expiry, strike, side: 'PUT' as const, bid, ask, iv, delta, openInterest: 1000 });
    const signalChain = { underlying: 'AAA', contracts: [put(97, -0.3, 0.5, 0.53, 0.2), put(98, -0.38, 0.75, 0.79, 0.2), put(99, -0.45, 1.0, 1.05, 0.2), put(100, -0.52, 1.4, 1.46, 0.2)] };
    const laterChain = { underlying: 'AAA', contracts: [put(99, -0.3, 8.8, 9.1, 0.9)] };
    const sessions = [date, dateAt(gapped, t + 1), dateAt(gapped, t + 2)];
    const events = replay(optionsEngine, {
      series: new Map([['AAA', gapped]]),
      sessions,
      universeFor: () => [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }],
      origin: 'replayed',
      extras: (d) => ({ optionChains: new Map([['AAA', d === date ? signalChain : laterChain]]) }),
    });
    const data = openedOf(events);
    expect(data).toMatchObject({ side: 'PUT', priceSource: 'chain', strike: 99, sigma: 0.2, sigmaSource: 'chain' });
    const entryDay = dayNumber(sessions[1]!);
    const entry = askOf(modelValue(data, 103, entryDay, 0.2), 0.03);
    expect(events.map((event) => [event.type, event.barDate])).toEqual([['opened', date], ['entry_filled', sessions[1]], ['target_hit', sessions[2]], ['closed', sessions[2]]]);
    expect(events[1]).toMatchObject({ price: entry, data: expect.objectContaining({ sigma: 0.2, markValue: bidOf(modelValue(data, 103, entryDay, 0.2), 0.03) }) });
    // After the entry bar, still open and at a loss (the gap went against it) ...
    const row = rowOf(events.slice(0, 2), NOW, { price: 103, at: `${sessions[1]}T20:00:00.000Z` });
    expect(row).toMatchObject({ Status: 'Active', IsTargetHit: false, EntryValue: entry, Current_Value: bidOf(modelValue(data, 103, entryDay, 0.2), 0.03) });
    expect(row.ProfitPercent).toBeLessThan(0);
    // ... then marked at the next session's chain (its bid 8.8 and IV 0.9): the target is hit there.
    expect(events[3]).toMatchObject({ price: roundCentUp(entry * 1.3), data: expect.objectContaining({ reason: 'target' }) });
  });

  it('no liquid candidate in the chain: no idea', () => {
    const illiquid = { underlying: 'AAA', contracts: [quote(100, 0.5, 3, 3.6), quote(101, 0.44, 2.9, 3.1, 10)] };
    expect(runOn([viewThrough(series, t)], { extras: { optionChains: new Map([['AAA', illiquid]]) } })).toHaveLength(0);
  });

  it('SPY: σ from VIX, scaled by VIX(t)/VIX(entry) for the marks after the entry bar (the entry bar at the entry’s σ); h = 1.5 %', () => {
    // The session after the entry breaks out again: its alert_repeat carries that session's σ.
    const spy = seriesOf('SPY', [...BASE, BREAKOUT, b(101, 101.3, 100.95, 101), b(101, 101.3, 100.95, 101.2)]);
    const spyDate = dateAt(spy, t);
    const vix = (d: string): OptionsExtras => ({ ivIndexes: new Map([['VIX', d === spyDate ? 20 : 22]]), riskFreeRate: 0.05 });
    const sessions = [spyDate, dateAt(spy, t + 1), dateAt(spy, t + 2)];
    const events = replay(optionsEngine, { series: new Map([['SPY', spy]]), sessions: sessions.slice(0, 2), universeFor: () => [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], origin: 'replayed', extras: vix });
    expect(openedOf(events)).toMatchObject({ sigma: 0.2, sigmaSource: 'index', ivIndex: 'VIX', ivIndexAtEntry: 20, halfSpread: 0.015, rate: 0.05 });
    expect(events[1]!.price).toBe(askOf(modelValue(openedOf(events), 101, dayNumber(dateAt(spy, t + 1)), 0.2), 0.015));
    expect(events[1]!.data).toMatchObject({ sigma: 0.2, markValue: bidOf(modelValue(openedOf(events), 101, dayNumber(dateAt(spy, t + 1)), 0.2), 0.015) });
    const state = optionsEngine.openState(stamp(events))!;
    const next = runOn([spy], { openIdeas: [{ ideaId: events[0]!.ideaId, symbol: 'SPY', market: 'US', ruleVersion: optionsEngine.ruleVersion, state }], extras: vix(sessions[2]!) });
    expect(next.map((event) => event.type)).toEqual(['alert_repeat']);
    const scaled = (0.2 * 22) / 20;
    expect(next[0]!.data).toMatchObject({ sigma: scaled, markValue: bidOf(modelValue(openedOf(events), 101.2, dayNumber(sessions[2]!), scaled), 0.015) });
  });

  it('a split closes an entered trade at its last pre-split value; a pending one is voided', () => {
    const opened = simulate([FLAT]);
    const state = optionsEngine.openState(stamp(opened))!;
    const idea: OpenIdea<OptionState> = { ideaId: 'options.AAA.test', symbol: 'AAA', market: 'US', ruleVersion: optionsEngine.ruleVersion, state };
    const split = seriesWith([FLAT, b(50, 50.5, 49.5, 50)]);
    const events = runOn([split], { openIdeas: [idea], extras: { corporateActions: new Set(['AAA']) } });
    expect(events.map((e) => e.type)).toEqual(['closed']);
    expect(events[0]).toMatchObject({ price: bidAt(termsOf(opened), 100, dateAt(split, SIGNAL + 1)), data: expect.objectContaining({ reason: 'corporate_action' }) });
    const pending = optionsEngine.openState(stamp(simulate([])))!;
    const voided = runOn([seriesWith([FLAT])], { openIdeas: [{ ...idea, state: pending }], extras: { corporateActions: new Set(['AAA']) } });
    expect(voided.map((e) => e.type)).toEqual(['voided']);
    expect(rowOf([...simulate([]), ...voided])).toMatchObject({ IsActive: false, CloseReason: 'void', ProfitPercent: 0 });
  });

  it('marks an active trade at an underlying quote with the model', () => {
    const events = simulate([FLAT]);
    const at = `${dateAt(seriesWith([FLAT, FLAT]), SIGNAL + 2)}T15:00:00.000Z`;
    const row = rowOf(events, NOW, { price: 102, at });
    expect(row).toMatchObject({ CurrentPriceStock: 102, Current_Value: bidAt(termsOf(events), 102, at.slice(0, 10)), LastUpdatedDate: at });
    // A mark with the chain's bid for the contract (a chain-priced trade): that value, the profit from it.
    const quoted = rowOf(events, NOW, { price: 102, at, optionValue: 4.05 } as { price: number; at: string });
    expect(quoted).toMatchObject({ CurrentPriceStock: 102, Current_Value: 4.05, ProfitPercent: Math.round((4.05 / quoted.EntryValue - 1) * 10_000) / 100 });
  });

  it('optionChainNeeds: the chains a session reads, each new alert (every expiry) and each open chain-priced trade past its entry bar (its expiry)', () => {
    const alerting = viewThrough(series, t);
    const quiet = seriesWith([FLAT], 'BBB');
    const entered = seriesWith([FLAT], 'CCC');
    const base = { params: OPTIONS_PARAMS, session: { date, now: passTimeOf(date) }, cooldowns: new Map(), extras: {} };
    const universe = [alerting, quiet, entered].map((s) => ({ symbol: s.symbol, market: 'US' as const, survivorshipBiased: false }));
    const bars = new Map([alerting, quiet, entered].map((s) => [s.symbol, s]));
    expect([...optionChainNeeds({ ...base, bars, universe, openIdeas: [] })]).toEqual([['AAA', null]]);
    // CCC holds a chain-priced trade: its expiry; a model-priced one reads no chain, nor one on its
    // entry bar (valued at the entry's σ); an open underlying raises no new alert.
    const opened = (symbol: string, priceSource: 'chain' | 'model', entryPending = false): OpenIdea<OptionState> => ({ ideaId: `options.${symbol}.x`, symbol, market: 'US', ruleVersion: optionsEngine.ruleVersion, state: { ...optionsEngine.openState(stamp(simulate([FLAT])))!, symbol, priceSource, entryPending } });
    expect([...optionChainNeeds({ ...base, bars, universe, openIdeas: [opened('CCC', 'chain')] })]).toEqual([['CCC', openedOf(simulate([FLAT])).expiry], ['AAA', null]]);
    expect([...optionChainNeeds({ ...base, bars, universe, openIdeas: [opened('CCC', 'chain', true)] })]).toEqual([['AAA', null]]);
    expect([...optionChainNeeds({ ...base, bars, universe, openIdeas: [opened('CCC', 'model'), opened('AAA', 'chain')] })]).toEqual([['AAA', openedOf(simulate([FLAT])).expiry]]);
  });
});
