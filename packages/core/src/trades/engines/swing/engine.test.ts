import { describe, expect, it } from 'vitest';
import { swingTrade } from '../../../contract/trades';
import { isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { flatBars, risingBars, seriesOf, tradingDays, type Bar } from '../../kit/test-bars';
import { passTimeOf } from '../../kit/times';
import { earningsWithin, SWING_PARAMS, swingEligible, swingEngine, swingFactsAt } from './engine';
import { swingStatus } from './row';
import type { DailySeries, IdeaEvent, StoredIdeaEvent, UniverseMember } from '../../types';

// Flat base at 100 (ATR14 = 1, $100M a day). Entering at 100: T1 = 105, T2 = 110, stop 97.5 (Trend)
// or 96.5 (Price Drop).
const BASE = flatBars(270);
const b = (o: number, h: number, l: number, c: number, v = 1_000_000): Bar => ({ o, h, l, c, v });
const NOW = '2030-01-01T00:00:00.000Z';
const FLAT = b(100, 100.4, 99.6, 100);

function simulate(after: Bar[], variant: 'Trend' | 'Price Drop' = 'Trend'): IdeaEvent[] {
  const series = seriesOf('AAA', [...BASE, ...after]);
  return swingEngine.simulate({ params: SWING_PARAMS, series, signalIndex: 269, ideaId: 'swing.AAA.test', variant });
}

const stamp = (events: readonly IdeaEvent[]): StoredIdeaEvent[] =>
  events.map((event) => ({ ...event, ruleVersion: swingEngine.ruleVersion, paramHash: swingEngine.paramHash, origin: 'replayed', recordedAt: passTimeOf(event.barDate) }));
const rowOf = (events: readonly IdeaEvent[], mark: { price: number; at: string } | null = null) => swingTrade.parse(swingEngine.fold(stamp(events), mark, NOW));
const ofType = (events: readonly IdeaEvent[], type: string) => events.filter((e) => e.type === type);

describe('swing targets, stops and time stop (§2.2, §6.5 test 4)', () => {
  it('sets targets and the stop from the entry open, rounded up / down to the cent', () => {
    const events = simulate([b(100.01, 100.4, 99.6, 100)]);
    expect(events[1]).toMatchObject({ type: 'entry_filled', price: 100.01, data: { target1: 105.02, target2: 110.02, stop: 97.51 } });
    expect(simulate([FLAT], 'Price Drop')[1]!.data).toMatchObject({ stop: 96.5 });
  });

  it('a sell limit does not fill at High = target; it fills at the target above it, also on a gap', () => {
    expect(ofType(simulate([FLAT, b(104, 105, 103, 104)]), 'target_hit')).toHaveLength(0);
    expect(ofType(simulate([FLAT, b(104, 105.01, 103, 104)]), 'target_hit')).toEqual([expect.objectContaining({ level: 'T1', price: 105 })]);
    const gap = simulate([FLAT, b(112, 113, 111, 112)]);
    expect(ofType(gap, 'target_hit').map((e) => [e.level, e.price])).toEqual([
      ['T1', 105],
      ['T2', 110],
    ]);
    expect(ofType(gap, 'closed')[0]).toMatchObject({ price: 110, data: expect.objectContaining({ reason: 'target' }) });
    expect(rowOf(gap)).toMatchObject({ Status: 'Successful', IsProfit1: true, IsProfit2: true, IsActive: false, CurrentProfit: 7.5 });
  });

  it('stop: close = stop holds; below it exits at the next open, before a target on that bar', () => {
    expect(ofType(simulate([FLAT, b(99, 99, 97, 97.5)]), 'stop_hit')).toHaveLength(0);
    const events = simulate([FLAT, b(99, 99, 97, 97.49), b(98, 111, 97, 110)]);
    expect(ofType(events, 'stop_hit')[0]!.price).toBe(97.49);
    expect(ofType(events, 'target_hit')).toHaveLength(0);
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: 98, data: expect.objectContaining({ reason: 'stop', exitAt: 'open', fraction: 1 }) });
    expect(rowOf(events)).toMatchObject({ Status: 'Failed', CloseReason: 'stop', ExitPrice: 98, CurrentProfit: -2 });
    // Price Drop's disaster stop is 3.5 ATR below the entry.
    expect(ofType(simulate([FLAT, b(99, 99, 96, 96.5)], 'Price Drop'), 'stop_hit')).toHaveLength(0);
    expect(ofType(simulate([FLAT, b(99, 99, 96, 96.49)], 'Price Drop'), 'stop_hit')).toHaveLength(1);
  });

  it('time stop at the close of session 21 (entry bar = 1); T1 only is Partial', () => {
    const twenty = [b(100, 105.5, 99.6, 100), ...Array.from({ length: 19 }, () => FLAT)];
    expect(ofType(simulate(twenty), 'closed')).toHaveLength(0);
    const events = simulate([...twenty, b(100, 100.4, 99.6, 102)]);
    expect(ofType(events, 'time_stop')).toHaveLength(1);
    expect(ofType(events, 'closed')[0]).toMatchObject({ price: 102, data: expect.objectContaining({ reason: 'time', exitAt: 'close', sessionsHeld: 21, fraction: 0.5 }) });
    // CurrentProfit = 100 × (½ · 5 % + ½ · (102/100 − 1)) = 3.5.
    expect(rowOf(events)).toMatchObject({ Status: 'Partial', IsProfit1: true, IsProfit2: false, CurrentProfit: 3.5, CloseReason: 'time' });
  });

  it('shows the signal price while pending (profit 0) and marks an active trade at the quote', () => {
    expect(rowOf(simulate([]))).toMatchObject({ EntryPending: true, EntryPrice: 100, CurrentProfit: 0, Status: 'Active', Target1Price: 105, Target2Price: 110 });
    const row = rowOf(simulate([FLAT]), { price: 103, at: '2030-01-01T15:00:00.000Z' });
    expect(row).toMatchObject({ CurrentPrice: 103, CurrentProfit: 3, DateUpdated: '2030-01-01T15:00:00.000Z' });
  });

  it('statuses: Active, Successful, Partial, Failed', () => {
    expect(swingStatus({ IsActive: true, IsProfit1: true, IsProfit2: true })).toBe('Active');
    expect(swingStatus({ IsActive: false, IsProfit1: true, IsProfit2: true })).toBe('Successful');
    expect(swingStatus({ IsActive: false, IsProfit1: true, IsProfit2: false })).toBe('Partial');
    expect(swingStatus({ IsActive: false, IsProfit1: false, IsProfit2: false })).toBe('Failed');
  });
});

describe('swing outcome (§6.1)', () => {
  it('answers the blended return of both halves at their fills, net of 5 bps a side', () => {
    const events = stamp(simulate([FLAT, b(104, 105.5, 103, 104), ...Array.from({ length: 18 }, () => FLAT), b(100, 100.4, 99.6, 102)], 'Price Drop'));
    const outcome = swingEngine.outcome(events, swingEngine.fold(events, null, NOW))!;
    const leg = (price: number) => (price * 0.9995) / (100 * 1.0005) - 1;
    expect(outcome).toMatchObject({ types: ['Price Drop'], closed: true, status: 'Partial', closeReason: 'time', holdingSessions: 21, deployed: null });
    expect(outcome.returnPct).toBeCloseTo(0.5 * leg(105) + 0.5 * leg(102), 12);
    expect(swingEngine.outcome(stamp(simulate([])), rowOf(simulate([])))).toBeNull();
  });
});

describe('swing universe (§2.1)', () => {
  it('needs close ≥ $10, a $50M mean dollar volume over the 20 sessions before t, and 260 bars', () => {
    const at = (close: number, volume: number, length = 260) => {
      const series = seriesOf('A', flatBars(length, close, 0.1, volume));
      return swingEligible(SWING_PARAMS, series, length - 1);
    };
    expect(at(10, 5_000_000)).toBe(true);
    expect(at(9.99, 6_000_000)).toBe(false);
    expect(at(10, 4_999_999)).toBe(false);
    expect(at(10, 5_000_000, 259)).toBe(false);
  });

  it('tags earnings within 21 sessions', () => {
    const next = tradingDays('2024-05-02', 22);
    expect(earningsWithin('2024-05-01', next[20], 21)).toBe(true);
    expect(earningsWithin('2024-05-01', next[21], 21)).toBe(false);
    expect(earningsWithin('2024-05-01', '2024-04-30', 21)).toBe(false);
    expect(earningsWithin('2024-05-01', undefined, 21)).toBe(false);
  });
});

// Uptrend 50 → 109.8 (+0.2 a day, ±0.5, 1M shares). Price Drop: a −5.8 bar to 104 (6 % below the
// 10-session high 110.3; RSI2 ≈ 3). Trend: one more rising bar on twice the volume.
function dropSeries(symbol: string, close = 104, fractalLow = false): DailySeries {
  const bars = risingBars(300, 50, 0.2);
  if (fractalLow) bars[272] = { ...bars[272]!, l: 103.4 };
  bars.push(b(109.8, 109.9, close - 0.5, close));
  return seriesOf(symbol, bars);
}

function trendSeries(symbol: string, volume = 2_000_000): DailySeries {
  const bars = risingBars(301, 50, 0.2);
  bars[300] = { ...bars[300]!, v: volume };
  return seriesOf(symbol, bars);
}

function runOn(seriesList: DailySeries[], sessions = 1, earnings?: Record<string, string>): StoredIdeaEvent[] {
  const days = seriesList[0]!.day;
  const members = seriesList.map((s): UniverseMember => ({ symbol: s.symbol, market: 'US', survivorshipBiased: true }));
  return replay(swingEngine, {
    series: new Map(seriesList.map((s) => [s.symbol, s])),
    sessions: [...days.subarray(days.length - sessions)].map((d) => isoFromDayNumber(d)),
    universeFor: () => members,
    extras: () => ({ earnings: new Map(Object.entries(earnings ?? {})) }),
    origin: 'replayed',
  });
}

describe('swing signals (§2.1)', () => {
  it('Price Drop: close > SMA200, RSI2 < 5, drop ≥ max(5 %, 2.5 × ATR%)', () => {
    const [opened] = ofType(runOn([dropSeries('AAA')]), 'opened');
    expect(opened).toMatchObject({ symbol: 'AAA', price: 104, data: expect.objectContaining({ tradeType: 'Price Drop', stopAtr: 3.5, nearSupport: false, supportLevel: null }) });
    expect(opened!.data.rsi2).toBeLessThan(5);
    // 104.9 is 4.9 % below the 10-session high: no signal.
    expect(ofType(runOn([dropSeries('AAA', 104.9)]), 'opened')).toHaveLength(0);
    const row = swingTrade.parse(swingEngine.fold(stamp([opened!]), null, NOW));
    expect(row).toMatchObject({ IsDrop: true, TradeType: 'Price Drop', SurvivorshipBiased: true, EarningsSoon: false });
  });

  it('NearSupport: the highest confirmed swing low ≤ close within 1 ATR14', () => {
    const [opened] = ofType(runOn([dropSeries('AAA', 104, true)]), 'opened');
    expect(opened!.data).toMatchObject({ nearSupport: true, supportLevel: 103.4 });
  });

  it('Trend: a 252-session closing high on 1.5× volume in an aligned uptrend; the broken high is support', () => {
    const [opened] = ofType(runOn([trendSeries('AAA')], 1, { AAA: '2030-01-01' }), 'opened');
    expect(opened!.data).toMatchObject({ tradeType: 'Trend', stopAtr: 2.5, nearSupport: true, volumeRatio: 2, earningsSoon: false });
    expect(opened!.data.supportLevel).toBeCloseTo(109.8, 9);
    expect(ofType(runOn([trendSeries('AAA', 1_499_999)]), 'opened')).toHaveLength(0);
  });

  it('warm-up: no signal before bar 260', () => {
    const short = seriesOf('AAA', [...risingBars(258, 60, 0.2), b(111.4, 111.5, 104.5, 105)]);
    expect(ofType(runOn([short]), 'opened')).toHaveLength(0);
  });

  it('capacity: 10 Price Drops a day, lowest RSI2 first (a deeper drop ranks ahead of tickers)', () => {
    const list = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((s) => dropSeries(s));
    list.push(dropSeries('Z', 103));
    const opened = ofType(runOn(list), 'opened').map((e) => e.symbol);
    expect(opened).toHaveLength(10);
    expect(opened).toContain('Z');
    expect(opened).not.toContain('J');
  });

  it('one open idea per symbol, and a 10-session cooldown after the last idea closed', () => {
    const series = dropSeries('AAA');
    const t = series.day.length - 1;
    const date = isoFromDayNumber(series.day[t]!);
    const session = (cooldowns: Map<string, string>, openIdeas: never[] = []) =>
      swingEngine.runSession({
        params: SWING_PARAMS,
        session: { date, now: passTimeOf(date) },
        bars: new Map([['AAA', series]]),
        universe: [{ symbol: 'AAA', market: 'US', survivorshipBiased: false }],
        openIdeas,
        cooldowns,
        extras: {},
      });
    expect(session(new Map([['AAA', isoFromDayNumber(series.day[t - 9]!)]]))).toHaveLength(0);
    expect(ofType(session(new Map([['AAA', isoFromDayNumber(series.day[t - 10]!)]])), 'opened')).toHaveLength(1);
    const open = swingEngine.openState(stamp(simulate([])))!;
    const busy = session(new Map(), [{ ideaId: 'swing.AAA.x', symbol: 'AAA', market: 'US', ruleVersion: 'swing@1.0.0', state: open }] as never[]);
    expect(ofType(busy, 'opened')).toHaveLength(0);
  });
});

describe('swing points at the engine (§6.5 test 3)', () => {
  it('a fractal at bar i changes no support decision before bar i + 2', () => {
    const withFractal = risingBars(300, 50, 0.2);
    withFractal[297] = { ...withFractal[297]!, l: 108 };
    const series = seriesOf('AAA', withFractal);
    const before = swingFactsAt(SWING_PARAMS, seriesOf('AAA', withFractal.slice(0, 299)), 298, 'Price Drop');
    const plain = swingFactsAt(SWING_PARAMS, seriesOf('AAA', risingBars(299, 50, 0.2)), 298, 'Price Drop');
    expect(before.supportLevel).toBe(plain.supportLevel);
    expect(swingFactsAt(SWING_PARAMS, series, 299, 'Price Drop').supportLevel).toBe(108);
  });
});
