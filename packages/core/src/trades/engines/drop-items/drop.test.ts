import { describe, expect, it } from 'vitest';
import { dropItem } from '../../../contract/drop-items';
import { isoFromDayNumber } from '../../../market/trading-calendar';
import { indicatorsOf } from '../../kit/series';
import { flatBars, risingBars, seriesOf, type Bar } from '../../kit/test-bars';
import { passTimeOf } from '../../kit/times';
import type { DailySeries, IdeaEvent, OpenIdea, StoredIdeaEvent, UniverseMember } from '../../types';
import { createDropEngine, dropEngine } from './engine';
import type { DropExtras, DropHeadline } from './extras';
import { DROP_PARAMS } from './params';
import { bestOfSp500, dropTriggerAt } from './signals';
import type { DropState, DropType } from './state';
import { testPricer } from './test-pricer';

const b = (o: number, h: number, l: number, c: number, v = 1_000_000): Bar => ({ o, h, l, c, v });
const NOW = '2030-01-01T00:00:00.000Z';
const FLAT = b(100, 100.4, 99.6, 100);
const ofType = (events: readonly IdeaEvent[], type: string) => events.filter((e) => e.type === type);

function stampWith(engine: typeof dropEngine, events: readonly IdeaEvent[]): StoredIdeaEvent[] {
  return events.map((event) => ({ ...event, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin: 'replayed', recordedAt: passTimeOf(event.barDate) }));
}
const stamp = (events: readonly IdeaEvent[]) => stampWith(dropEngine, events);
const rowOf = (events: readonly IdeaEvent[], mark: { price: number; at: string; optionValue?: number } | null = null, engine = dropEngine) =>
  dropItem.parse(engine.fold(stampWith(engine, events), mark, NOW));

// Flat base at 100 (ATR14 = 1). For L, bar 100's High is 150 (the 52-week high: target 142.5).
const BASE = flatBars(270);
const BASE_L = flatBars(270);
BASE_L[100] = { ...BASE_L[100]!, h: 150 };

function simulate(after: Bar[], variant: DropType = 'S', engine = dropEngine): IdeaEvent[] {
  const series = seriesOf('AAA', [...(variant === 'L' ? BASE_L : BASE), ...after]);
  return engine.simulate({ params: DROP_PARAMS, series, signalIndex: 269, ideaId: 'drop.AAA.test.' + variant, variant });
}

describe('drop S and L fills, stops and time stops (§5.1)', () => {
  it('S: entry at the open, target Entry × 1.05 rounded up, stop Entry − 3.5 × ATR14(t) rounded down', () => {
    const events = simulate([b(100.01, 100.4, 99.6, 100)]);
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: 100.01, data: { target: 105.02, stop: 96.51 } });
  });

  it('S target: a sell limit; High = target does not fill, above it fills at the target, also on a gap', () => {
    expect(ofType(simulate([FLAT, b(104, 105, 103, 104)]), 'target_hit')).toHaveLength(0);
    const hit = simulate([FLAT, b(104, 105.01, 103, 104)]);
    expect(ofType(hit, 'closed')[0]).toMatchObject({ price: 105, data: expect.objectContaining({ reason: 'target' }) });
    const gap = simulate([FLAT, b(112, 113, 111, 112)]);
    expect(ofType(gap, 'closed')[0]).toMatchObject({ price: 105 });
    expect(rowOf(gap)).toMatchObject({ StockIsTarget: true, StockIsActive: false, Status: 'Deactivated', ProfitPercentage: 5, TargetValue: 105, ExitPrice: 105 });
  });

  it('S stop: close = stop holds; below it exits at the next open', () => {
    expect(ofType(simulate([FLAT, b(99, 99, 96, 96.5)]), 'stop_hit')).toHaveLength(0);
    const events = simulate([FLAT, b(99, 99, 96, 96.49), b(98, 111, 97, 110)]);
    expect(ofType(events, 'stop_hit')[0]!.price).toBe(96.49);
    expect(ofType(events, 'target_hit')).toHaveLength(0);
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: 98, data: expect.objectContaining({ reason: 'stop', exitAt: 'open' }) });
    expect(rowOf(events)).toMatchObject({ CloseReason: 'stop', ExitPrice: 98, ProfitPercentage: -2, StockIsTarget: false });
  });

  it('S time stop at the close of session 21 (entry bar = 1)', () => {
    const twenty = Array.from({ length: 20 }, () => FLAT);
    expect(ofType(simulate(twenty), 'closed')).toHaveLength(0);
    const events = simulate([...twenty, b(100, 100.4, 99.6, 102)]);
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: 102, data: expect.objectContaining({ reason: 'time', exitAt: 'close', sessionsHeld: 21 }) });
  });

  it('L: target 0.95 × the 52-week high; void when the entry bar opens at or above it', () => {
    const voided = simulate([b(142.5, 143, 140, 141)], 'L');
    expect(voided.map((e) => e.type)).toEqual(['opened', 'voided']);
    expect(rowOf(voided)).toMatchObject({ CloseReason: 'void', StockIsActive: false, ProfitPercentage: 0, ExitPrice: null, TargetValue: 142.5 });
    expect(dropEngine.outcome(stamp(voided), rowOf(voided))).toBeNull();
    const entered = simulate([b(142.49, 142.5, 140, 141)], 'L');
    expect(entered[1]).toMatchObject({ type: 'entry_filled', price: 142.49, data: { target: 142.5, stop: 99.74 } });
    // The target fills only when High > 142.5.
    expect(ofType(simulate([b(100, 101, 99, 100), b(140, 142.51, 139, 141)], 'L'), 'target_hit')).toHaveLength(1);
  });

  it('L stop: close < 0.70 × Entry, exit at the next open; time stop at session 252', () => {
    expect(ofType(simulate([FLAT, b(71, 71, 69, 70)], 'L'), 'stop_hit')).toHaveLength(0);
    const stopped = simulate([FLAT, b(71, 71, 69, 69.99), b(69, 70, 68, 69.5)], 'L');
    expect(ofType(stopped, 'closed')[0]).toMatchObject({ price: 69, data: expect.objectContaining({ reason: 'stop', exitAt: 'open' }) });
    const long = Array.from({ length: 251 }, () => FLAT);
    expect(ofType(simulate(long, 'L'), 'closed')).toHaveLength(0);
    expect(ofType(simulate([...long, b(100, 100.4, 99.6, 101)], 'L'), 'closed')[0]).toMatchObject({ price: 101, data: expect.objectContaining({ reason: 'time', sessionsHeld: 252 }) });
  });

  it('leaving the index closes an open S or L item at the close (index_exit); an O item ignores it', () => {
    const series = seriesOf('AAA', [...BASE, FLAT, b(100, 100.4, 99, 99.5)]);
    const t = series.day.length - 1;
    const date = isoFromDayNumber(series.day[t]!);
    const state = dropEngine.openState(stamp(dropEngine.simulate({ params: DROP_PARAMS, series: seriesOf('AAA', [...BASE, FLAT]), signalIndex: 269, ideaId: 'drop.AAA.x.S' })))!;
    const events = dropEngine.runSession({
      params: DROP_PARAMS,
      session: { date, now: passTimeOf(date) },
      bars: new Map([['AAA', series]]),
      universe: [],
      openIdeas: [{ ideaId: 'drop.AAA.x.S', symbol: 'AAA', market: 'US', ruleVersion: 'drop@1.1.0', state }],
      cooldowns: new Map(),
      extras: { removals: new Set(['AAA']) },
    });
    expect(events).toEqual([expect.objectContaining({ type: 'closed', price: 99.5, data: expect.objectContaining({ reason: 'index_exit', exitAt: 'close' }) })]);
  });

  it('shows the signal price while pending (profit 0), and marks an active item at the quote', () => {
    expect(rowOf(simulate([]))).toMatchObject({ EntryPending: true, StockEntryPrice: 100, ProfitPercentage: 0, Status: 'Active', TargetValue: 105, StockIsActive: true });
    const row = rowOf(simulate([FLAT]), { price: 103, at: '2030-01-01T15:00:00.000Z' });
    expect(row).toMatchObject({ StockCurrentPrice: 103, ProfitPercentage: 3, StockUpdatedDate: '2030-01-01T15:00:00.000Z' });
  });
});

describe('drop outcome (§6.1)', () => {
  it('S and L: exit / entry − 1 net of 5 bps a side, with holding sessions, MAE and the status', () => {
    const events = stamp(simulate([FLAT, b(99, 99, 96, 96.49), b(98, 111, 97, 110)]));
    const outcome = dropEngine.outcome(events, dropEngine.fold(events, null, NOW))!;
    expect(outcome).toMatchObject({ types: ['S'], closed: true, status: 'Failed', closeReason: 'stop', holdingSessions: 3, exitAt: 'open' });
    expect(outcome.atrPct).toBeCloseTo(0.01, 12);
    expect(outcome.returnPct).toBeCloseTo((98 * 0.9995) / (100 * 1.0005) - 1, 12);
    expect(outcome.maxAdverseExcursion).toBeCloseTo(96.49 / 100 - 1, 12);
    const won = stamp(simulate([FLAT, b(104, 105.5, 103, 104)]));
    expect(dropEngine.outcome(won, dropEngine.fold(won, null, NOW))).toMatchObject({ status: 'Successful', closeReason: 'target' });
    expect(dropEngine.outcome(stamp(simulate([])), rowOf(simulate([])))).toBeNull();
  });
});

// Uptrend 50 → 109.8 (+0.2 a day, ±0.5; ATR14 = 1). The drop bar closes at `close`: S fires from
// 7 % below the 20-session high 110.3 (≤ 102.579), L from 20 % (≤ 88.24), O from 4 % of the
// 5-session high (≤ 105.888).
function dropSeries(symbol: string, close: number, step = 0.2, length = 300): DailySeries {
  const bars = risingBars(length, 50, step);
  const last = bars[length - 1]!.c;
  bars.push(b(last, last + 0.1, close - 0.5, close));
  return seriesOf(symbol, bars);
}

function session(list: DailySeries[], options: { extras?: DropExtras; cooldowns?: Map<string, string>; openIdeas?: OpenIdea<DropState>[]; members?: UniverseMember[]; engine?: typeof dropEngine } = {}) {
  const days = list[0]!.day;
  const date = isoFromDayNumber(days[days.length - 1]!);
  const engine = options.engine ?? dropEngine;
  return engine.runSession({
    params: DROP_PARAMS,
    session: { date, now: passTimeOf(date) },
    bars: new Map(list.map((s) => [s.symbol, s])),
    universe: options.members ?? list.map((s) => ({ symbol: s.symbol, market: 'US', sector: 'Industrials', survivorshipBiased: false })),
    openIdeas: options.openIdeas ?? [],
    cooldowns: options.cooldowns ?? new Map(),
    extras: options.extras ?? {},
  });
}
const opened = (events: readonly IdeaEvent[], type?: DropType) => ofType(events, 'opened').filter((e) => type === undefined || e.data.stockType === type);

describe('Best of S&P 500 (§5)', () => {
  const date = (s: DailySeries) => isoFromDayNumber(s.day[s.day.length - 1]!);
  const members = (list: DailySeries[]) => list.map((s): UniverseMember => ({ symbol: s.symbol, market: 'US', survivorshipBiased: false }));
  const best = (list: DailySeries[], extras: DropExtras = {}) => bestOfSp500(DROP_PARAMS, date(list[0]!), new Map(list.map((s) => [s.symbol, s])), members(list), extras);

  it('ranks members with a rising SMA200 by 12-minus-1-month momentum and keeps the top ceil(n/2)', () => {
    const list = [0.2, 0.1, 0.3, 0.05, 0.15].map((step, i) => seriesOf(`R${i}`, risingBars(300, 50, step)));
    // A falling SMA200 is not a member, and does not count in n.
    list.push(seriesOf('F', risingBars(300, 150, -0.2)));
    expect(best(list)).toEqual(['R2', 'R0', 'R4']);
    // Momentum skips the last month: close(t − 21) / close(t − 252) − 1.
    const t = 299;
    const momentum = (s: DailySeries) => s.close[t - 21]! / s.close[t - 252]! - 1;
    expect(momentum(list[2]!)).toBeGreaterThan(momentum(list[0]!));
  });

  it('breaks ties by ticker (code point), needs 260 bars and a bar on the session, and follows the index members', () => {
    const same = (symbol: string) => seriesOf(symbol, risingBars(300, 50, 0.2));
    expect(best([same('b'), same('B'), same('A')])).toEqual(['A', 'B']);
    expect(best([same('B'), seriesOf('A', risingBars(259, 50, 0.2), '2023-02-15')])).toEqual(['B']);
    expect(best([same('B'), same('A')], { dropIndexMembers: new Set(['B']) })).toEqual(['B']);
    const sma = indicatorsOf(same('A')).sma200;
    expect(sma[299]!).toBeGreaterThan(sma[278]!);
  });
});

describe('drop triggers (§5.1)', () => {
  it('S: drop from the 20-session high ≥ 7 % (the larger of 7 % and 3 × ATR%), close > SMA200', () => {
    const [item] = opened(session([dropSeries('AAA', 102.57)]), 'S');
    expect(item).toMatchObject({ ideaId: expect.stringMatching(/\.S$/), price: 102.57, data: expect.objectContaining({ dropThreshold: 7, timeStopSessions: 21 }) });
    expect(item!.data.referenceHigh).toBeCloseTo(110.3, 9);
    expect(item!.data.dropObserved).toBe(7.01);
    expect(opened(session([dropSeries('AAA', 102.6)]), 'S')).toHaveLength(0);
    const row = rowOf([item!]);
    expect(row).toMatchObject({ StockType: 'S', DropThreshold: 7, DropObserved: 7.01, StockSectorName: 'Industrials', TargetValue: 107.7, StockNews: 'No recent news.', Sentiment: 'Neutral', NewsTag: 'no identifiable news', OptionChainId: null });
  });

  it('S: the threshold is 3 × ATR% when that is larger, and what it used is recorded', () => {
    // ±1.5 bars: ATR ≈ 3.7 on the drop bar, so 3 × ATR% ≈ 11.6 % > 7 %.
    const bars = risingBars(300, 50, 0.2, 1.5);
    bars.push(b(109.8, 109.9, 96.5, 97));
    const series = seriesOf('AAA', bars);
    const t = 300;
    const atr = indicatorsOf(series).atr14[t]!;
    const trigger = dropTriggerAt(DROP_PARAMS, 'S', series, t)!;
    expect(trigger.threshold).toBeCloseTo((3 * atr) / 97, 15);
    expect(trigger.threshold).toBeGreaterThan(0.07);
    // A 9.3 % drop clears 7 % but not 3 × ATR% (≈ 10.3 %).
    const shallow = risingBars(300, 50, 0.2, 1.5);
    shallow.push(b(109.8, 109.9, 100.5, 101));
    expect(dropTriggerAt(DROP_PARAMS, 'S', seriesOf('AAA', shallow), t)).toBeNull();
    // close ≤ SMA200: no S.
    const below = risingBars(300, 50, 0.2);
    below.push(b(109.8, 109.9, 85, 88));
    expect(dropTriggerAt(DROP_PARAMS, 'S', seriesOf('AAA', below), t)).toBeNull();
  });

  it('L: drop from the 52-week high ≥ 20 %, target 0.95 × that high', () => {
    const [item] = opened(session([dropSeries('AAA', 88.2)]), 'L');
    expect(item!.data).toMatchObject({ dropThreshold: 20, dropObserved: 20.04, fixedTarget: 104.79, timeStopSessions: 252 });
    expect(rowOf([item!])).toMatchObject({ TargetValue: 104.79, StockType: 'L' });
    expect(opened(session([dropSeries('AAA', 88.3)]), 'L')).toHaveLength(0);
  });

  it('S and L need the symbol in the Best of S&P 500 on t', () => {
    const weak = dropSeries('AAA', 88.2);
    const strong = seriesOf('BBB', risingBars(301, 50, 0.4));
    expect(opened(session([weak, strong]))).toHaveLength(0);
    expect(opened(session([weak, strong], { extras: { dropIndexMembers: new Set(['AAA']) } }))).toHaveLength(1);
  });

  it('warm-up: no signal before bar 260', () => {
    expect(opened(session([dropSeries('AAA', 88.2, 0.2, 258)]))).toHaveLength(0);
    expect(opened(session([dropSeries('AAA', 88.2, 0.2, 259)]))).toHaveLength(1);
  });

  it('dedupe per (symbol, type) and cooldowns of 10 sessions for S and 63 for L', () => {
    const series = dropSeries('AAA', 102.5);
    const t = series.day.length - 1;
    const at = (k: number) => isoFromDayNumber(series.day[t - k]!);
    expect(opened(session([series], { cooldowns: new Map([['AAA|S', at(9)]]) }))).toHaveLength(0);
    expect(opened(session([series], { cooldowns: new Map([['AAA|S', at(10)], ['AAA|L', at(0)]]) }))).toHaveLength(1);
    const deep = dropSeries('AAA', 88.2);
    expect(opened(session([deep], { cooldowns: new Map([['AAA|L', at(62)]]) }), 'L')).toHaveLength(0);
    expect(opened(session([deep], { cooldowns: new Map([['AAA|L', at(63)]]) }), 'L')).toHaveLength(1);
    const openS = dropEngine.openState(stamp(opened(session([series]), 'S')))!;
    const busy = session([deep], { openIdeas: [{ ideaId: 'drop.AAA.x.S', symbol: 'AAA', market: 'US', ruleVersion: 'drop@1.1.0', state: openS }] });
    expect(opened(busy).map((e) => e.data.stockType)).toEqual(['L']);
    expect(dropEngine.cooldownKey(opened(busy)[0]!)).toBe('AAA|L');
  });

  it('capacity: 10 per type a day; S by the drop in ATR units, then ticker', () => {
    const letters = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const list = letters.map((s) => dropSeries(s, 102.5));
    list.push(dropSeries('Z', 101));
    // Slower risers fill the lower half of the Best of S&P 500.
    for (let i = 0; i < 11; i += 1) list.push(seriesOf(`W${i}`, risingBars(301, 50, 0.05)));
    const symbols = opened(session(list), 'S').map((e) => e.symbol);
    expect(symbols).toHaveLength(10);
    expect(symbols).toContain('Z');
    expect(symbols).not.toContain('J');
  });
});

describe('drop news, sentiment and sector (§5.2)', () => {
  const series = dropSeries('AAA', 102.5);
  const t = series.day.length - 1;
  const signalDate = isoFromDayNumber(series.day[t]!);
  // The 20-session high is bar 299's, the session before t.
  const highDate = isoFromDayNumber(series.day[t - 1]!);
  const at = (date: string, hour: number) => `${date}T${String(hour).padStart(2, '0')}:00:00.000Z`;
  const withNews = (news: DropHeadline[], extras: DropExtras = {}) => opened(session([series], { extras: { dropNews: new Map([['AAA', news]]), ...extras } }), 'S')[0]!;

  it('summarises the headlines from the reference high through the pass; none: No recent news.', () => {
    const item = withNews([
      { datetime: at(highDate, 15), headline: 'Widget maker slides on weak demand', summary: 'Shares fell after a weak demand report.' },
      { datetime: at('2020-01-01', 15), headline: 'Old story from years ago', summary: 'Ignored.' },
      { datetime: at('2031-01-01', 15), headline: 'A story from the future', summary: 'Ignored.' },
    ]);
    expect(item.data.headlineCount).toBe(1);
    expect(item.data.stockNews).toContain('weak demand');
    expect(item.data.stockNews).not.toContain('Ignored');
    expect(withNews([]).data.stockNews).toBe('No recent news.');
    const long = withNews(Array.from({ length: 6 }, (_, i) => ({ datetime: at(signalDate, 14 + i), headline: `Headline number ${i} about the company plans`, summary: 'A long summary sentence that goes on about the company and its many plans for growth. '.repeat(3) })));
    expect((long.data.stockNews as string).length).toBeLessThanOrEqual(300);
  });

  it('labels the weighted score: Positive ≥ 0.2, Negative ≤ −0.2, Neutral between and below 3 headlines', () => {
    const scored = (scores: number[]) => withNews(scores.map((score, i) => ({ datetime: at(signalDate, 15), headline: `Item ${i}`, summary: '', score })));
    expect(scored([0.2, 0.2, 0.2]).data).toMatchObject({ sentiment: 'Positive' });
    expect(scored([0.19, 0.19, 0.19]).data).toMatchObject({ sentiment: 'Neutral' });
    expect(scored([-0.2, -0.2, -0.2]).data).toMatchObject({ sentiment: 'Negative', newsTag: 'no identifiable news' });
    expect(scored([0.9, 0.9]).data).toMatchObject({ sentiment: 'Neutral', headlineCount: 2 });
    // Weighted by 0.5^(age_h / 24): a day-old −1 and a fresh +1 give (1 − 0.5) / 1.5 = 1/3.
    const pass = Date.parse(passTimeOf(signalDate));
    const weighted = withNews([
      { datetime: new Date(pass).toISOString(), headline: 'Fresh', summary: '', score: 1 },
      { datetime: new Date(pass - 24 * 3_600_000).toISOString(), headline: 'Day old', summary: '', score: -1 },
      { datetime: new Date(pass).toISOString(), headline: 'Neutral one', summary: '', score: 0 },
    ]);
    expect(weighted.data.sentimentScore as number).toBeCloseTo(0.5 / 2.5, 12);
    // The local lexicon scores headlines that come without a score.
    expect(withNews([1, 2, 3].map((i) => ({ datetime: at(signalDate, 15), headline: `Shares surge ${i}`, summary: 'Strong growth and record profit.' }))).data).toMatchObject({ sentiment: 'Positive' });
  });

  it('NewsTag: news-driven on earnings, guidance or a regulator, or a score ≤ −0.3', () => {
    const one = (headline: string, score?: number) => withNews([{ datetime: at(signalDate, 15), headline, summary: '', ...(score === undefined ? {} : { score }) }]).data.newsTag;
    expect(one('Company cuts full-year guidance')).toBe('news-driven');
    expect(one('Quarterly earnings disappoint')).toBe('news-driven');
    expect(one('FTC opens antitrust review')).toBe('news-driven');
    expect(one('CEO speaks at a conference', -0.3)).toBe('news-driven');
    expect(one('CEO speaks at a conference', -0.29)).toBe('no identifiable news');
  });

  it('sector from the extras first, else the universe member; the linked swing trade from the extras', () => {
    const item = withNews([], { sectors: new Map([['AAA', 'Energy']]), swingTradeIds: new Map([['AAA', 'swing.AAA.2024-01-02']]) });
    expect(rowOf([item])).toMatchObject({ StockSectorName: 'Energy', LinkedSwingTradeId: 'swing.AAA.2024-01-02' });
  });
});

describe('drop O items (§5.1 O, §4.3–4.4 through the option pricer)', () => {
  const engine = createDropEngine({ optionPricer: testPricer() });
  const oRow = (events: readonly IdeaEvent[], mark: { price: number; at: string; optionValue?: number } | null = null) => rowOf(events, mark, engine);
  const sim = (after: Bar[]) => simulate(after, 'O', engine);
  const underlying = { dropIndexMembers: new Set<string>(), dropOptionUnderlyings: new Set(['AAA']) };

  it('no pricer, no O item', () => {
    // dropEngine (the registered one) has the option engine's pricer; an engine created without one makes no O.
    const bare = createDropEngine();
    expect(opened(session([dropSeries('AAA', 105.8)], { extras: underlying, engine: bare }))).toHaveLength(0);
    expect(simulate([FLAT], 'O', bare)).toEqual([]);
  });

  it('trigger: drop from the 5-session high ≥ max(4 %, 2 × ATR%), close > SMA200, on OPTION_ALERT underlyings', () => {
    const [item] = opened(session([dropSeries('AAA', 105.8)], { extras: underlying, engine }));
    expect(item!.data).toMatchObject({ stockType: 'O', dropThreshold: 4, option: expect.objectContaining({ strike: 106, contractName: expect.stringMatching(/^AAA\d{6}C00106000$/) }) });
    expect(opened(session([dropSeries('AAA', 106)], { extras: underlying, engine }))).toHaveLength(0);
    expect(opened(session([dropSeries('AAA', 105.8)], { extras: { dropIndexMembers: new Set<string>() }, engine }))).toHaveLength(0);
    expect(opened(session([dropSeries('AAA', 105.8)], { extras: underlying, engine: createDropEngine({ optionPricer: testPricer({ noContract: new Set(['AAA']) }) }) }))).toHaveLength(0);
    const row = oRow([item!]);
    expect(row).toMatchObject({ StockType: 'O', OptionEntryValue: 4.8, OptionCurrentValue: 4.8, TargetValue: 6.24, OptionProfitPercent: 0, EntryPending: true });
  });

  it('enters at the open’s value, targets 1.30 × and stops at 0.50 × the entry value (stop first)', () => {
    // Strike 100, value = S − 100 + 5: the entry at open 100 is 5.00; target 6.50, stop 2.50.
    const events = sim([FLAT, b(100, 101.49, 99, 101)]);
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: 5, data: { target: 6.5, stop: 2.5, optionEntryValue: 5, underlyingEntry: 100 } });
    expect(ofType(events, 'closed')).toHaveLength(0);
    const hit = sim([FLAT, b(100, 101.5, 99, 101)]);
    expect(ofType(hit, 'closed')[0]).toMatchObject({ price: 6.5, data: expect.objectContaining({ reason: 'target' }) });
    expect(oRow(hit)).toMatchObject({ StockIsTarget: true, OptionExitValue: 6.5, OptionProfitPercent: 30, ProfitPercentage: 1, ExitPrice: 101 });
    const both = sim([FLAT, b(100, 102, 97.5, 101)]);
    expect(ofType(both, 'closed')[0]).toMatchObject({ price: 2.5, data: expect.objectContaining({ reason: 'stop', exitAt: 'close' }) });
    // A gap through the stop fills at the open's value.
    const gap = sim([FLAT, b(97, 98, 96, 97.5)]);
    expect(ofType(gap, 'closed')[0]).toMatchObject({ price: 2, data: expect.objectContaining({ reason: 'stop', exitAt: 'open' }) });
    const outcome = engine.outcome(stampWith(engine, gap), engine.fold(stampWith(engine, gap), null, NOW))!;
    expect(outcome).toMatchObject({ types: ['O'], status: 'Failed', closeReason: 'stop' });
    expect(outcome.returnPct).toBeCloseTo(2 / 5 - 1, 12);
  });

  it('time stop: the close of session 10, or the first close with DTE ≤ 7; marks come from the caller', () => {
    const nine = Array.from({ length: 9 }, () => FLAT);
    expect(ofType(sim(nine), 'closed')).toHaveLength(0);
    expect(oRow(sim(nine), { price: 100.5, at: '2030-01-01T15:00:00.000Z', optionValue: 5.5 })).toMatchObject({ OptionCurrentValue: 5.5, OptionProfitPercent: 10, ProfitPercentage: 0.5 });
    const ten = sim([...nine, b(100, 100.4, 99.6, 100.2)]);
    expect(ofType(ten, 'closed')[0]).toMatchObject({ price: 5.2, data: expect.objectContaining({ reason: 'time', sessionsHeld: 10 }) });
    const short = createDropEngine({ optionPricer: testPricer({ dteDays: 12 }) });
    const early = simulate(nine, 'O', short);
    const closed = ofType(early, 'closed')[0]!;
    expect(closed.data).toMatchObject({ reason: 'time' });
    expect(closed.data.sessionsHeld as number).toBeLessThan(10);
    expect(ofType(early, 'time_stop')[0]!.data.dte as number).toBeLessThanOrEqual(7);
  });
});
