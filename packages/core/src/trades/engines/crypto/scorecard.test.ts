import { describe, expect, it } from 'vitest';
import { cryptoScorecard } from '../../../contract/crypto-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { stampEvents } from '../../kit/replay';
import type { IdeaEvent } from '../../types';
import { cryptoEngine } from './engine';
import { computeCryptoScorecard, cryptoSignalLog, type CryptoCloses, type CryptoSignalChange } from './scorecard';

/**
 * docs/rules/crypto.md §3.4 on a small hand-made log: forward returns at 7, 30 and 90 days counted once
 * d + k has passed, Sell scored with the sign flipped, the baseline over every day of the window
 * (coins weighted as they appear among the signals), the BTC benchmark; checked by hand and by an
 * independent recomputation written with date strings and plain objects.
 */

// 60 daily closes from 2025-01-01 (index 0) to 2025-03-01 (index 59): AAA = 100 + i, BBB = 200 − i, BTC = 1000 · (1 + i / 100).
const START = dayNumber('2025-01-01');
const date = (i: number) => isoFromDayNumber(START + i);
const closesOf = (f: (i: number) => number): CryptoCloses => ({ day: Int32Array.from({ length: 60 }, (_, i) => START + i), close: Float64Array.from({ length: 60 }, (_, i) => f(i)) });
const CLOSES = new Map<string, CryptoCloses>([
  ['AAA', closesOf((i) => 100 + i)],
  ['BBB', closesOf((i) => 200 - i)],
  ['BTC', closesOf((i) => 1000 * (1 + i / 100))],
]);
// The pass of 2025-03-02 00:05 UTC: the last completed candle is 2025-03-01 (index 59).
const NOW = '2025-03-02T00:05:00.000Z';

const signal = (symbol: string, horizon: CryptoSignalChange['horizon'], from: CryptoSignalChange['from'], to: CryptoSignalChange['to'], i: number, origin: CryptoSignalChange['origin'] = 'replayed'): CryptoSignalChange => ({
  symbol,
  horizon,
  from,
  to,
  date: date(i),
  close: CLOSES.get(symbol)!.close[i]!,
  ruleVersion: 'crypto@1.0.0',
  origin,
});
const LOG: CryptoSignalChange[] = [
  signal('BBB', 'Short', 'Hold', 'Sell', 5),
  signal('AAA', 'Short', 'Hold', 'Buy', 10),
  signal('AAA', 'Medium', 'Hold', 'Buy', 15),
  signal('AAA', 'Short', 'Buy', 'Sell', 20),
  signal('BBB', 'Short', 'Sell', 'Buy', 50),
];

/** The same rules, written again without the implementation's helpers: dates as strings, closes as objects. */
function independent(log: readonly CryptoSignalChange[], asOf: string, windowFrom: string, windowTo: string, days: readonly number[]) {
  const closeAt: Record<string, Record<string, number>> = {};
  for (const [symbol, series] of CLOSES) {
    closeAt[symbol] = {};
    series.day.forEach((day, i) => (closeAt[symbol]![isoFromDayNumber(day)] = series.close[i]!));
  }
  const plus = (iso: string, k: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + k * 86_400_000).toISOString().slice(0, 10);
  const fwd = (symbol: string, iso: string, k: number): number | null => {
    const end = plus(iso, k);
    if (end > asOf) return null;
    const a = closeAt[symbol]?.[iso];
    const b = closeAt[symbol]?.[end];
    return a === undefined || b === undefined ? null : b / a - 1;
  };
  const base = (symbol: string, k: number) => {
    const values: number[] = [];
    for (let iso = windowFrom; iso <= windowTo; iso = plus(iso, 1)) {
      const r = fwd(symbol, iso, k);
      if (r !== null) values.push(r);
    }
    return values.reduce((a, b) => a + b, 0) / values.length;
  };
  const avg = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);
  const out: Record<string, { n: number; pending: number; mean: number | null; baseline: number | null; benchMean: number | null; benchExcess: number | null; positives: number }> = {};
  for (const key of new Set(log.map((s) => `${s.horizon}/${s.to}`))) {
    const group = log.filter((s) => `${s.horizon}/${s.to}` === key);
    const sign = group[0]!.to === 'Sell' ? -1 : 1;
    for (const k of days) {
      const scores: number[] = [];
      const baselines: number[] = [];
      const bench: number[] = [];
      const excess: number[] = [];
      let pending = 0;
      for (const s of group) {
        const r = fwd(s.symbol, s.date, k);
        if (r === null) {
          pending += 1;
          continue;
        }
        scores.push(sign * r);
        baselines.push(sign * base(s.symbol, k));
        const b = fwd('BTC', s.date, k);
        if (b !== null) {
          bench.push(b);
          excess.push(sign * r - sign * b);
        }
      }
      out[`${key}/${k}`] = { n: scores.length, pending, mean: avg(scores), baseline: avg(baselines), benchMean: avg(bench), benchExcess: avg(excess), positives: scores.filter((s) => s > 0).length };
    }
  }
  return out;
}

describe('crypto signal scorecard', () => {
  const card = computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: NOW });

  it('parses with the contract; asOf is the last completed candle; the window runs from the first signal', () => {
    expect(cryptoScorecard.parse(card)).toEqual(card);
    expect(card).toMatchObject({ asOf: '2025-03-01', window: { from: '2025-01-06', to: '2025-03-01' }, days: [7, 30, 90], benchmarkSymbol: 'BTC', symbol: null });
    expect(card.groups.map((g) => `${g.horizon}/${g.label}/${g.signals}/${g.sign}`)).toEqual(['Short/Buy/2/1', 'Short/Sell/2/-1', 'Medium/Buy/1/1']);
  });

  it('by hand, Short/Buy at 7 days: AAA 117/110 − 1 and BBB 143/150 − 1; N 2, half positive', () => {
    const cell = card.groups[0]!.cells[0]!;
    const a = 117 / 110 - 1;
    const b = 143 / 150 - 1;
    expect(cell).toMatchObject({ days: 7, n: 2, pending: 0 });
    expect(cell.mean).toBeCloseTo((a + b) / 2, 15);
    expect(cell.median).toBeCloseTo((a + b) / 2, 15);
    expect(cell.sharePositive!.rate).toBe(0.5);
    // Two signals in different weeks: the bootstrap's means range over {a, b, (a + b) / 2}.
    expect(cell.meanInterval!.low).toBeCloseTo(b, 15);
    expect(cell.meanInterval!.high).toBeCloseTo(a, 15);
  });

  it('by hand, Short/Sell at 7 days: scored with the sign flipped; the BTC benchmark over the same windows', () => {
    const cell = card.groups[1]!.cells[0]!;
    const aaa = -(127 / 120 - 1);
    const bbb = -(188 / 195 - 1);
    expect(cell.mean).toBeCloseTo((aaa + bbb) / 2, 15);
    const btcAaa = 1.27 / 1.2 - 1;
    const btcBbb = 1.12 / 1.05 - 1;
    expect(cell.benchmark.n).toBe(2);
    expect(cell.benchmark.meanReturn).toBeCloseTo((btcAaa + btcBbb) / 2, 15);
    expect(cell.benchmark.meanExcess).toBeCloseTo((aaa + btcAaa + (bbb + btcBbb)) / 2, 15);
  });

  it('counts a forward return only once d + k has passed: pending otherwise', () => {
    const [buy7, buy30, buy90] = card.groups[0]!.cells;
    expect([buy7!.n, buy7!.pending, buy30!.n, buy30!.pending, buy90!.n, buy90!.pending]).toEqual([2, 0, 1, 1, 0, 2]);
    expect(buy90).toMatchObject({ mean: null, median: null, sharePositive: null, meanInterval: null, baseline: null, excess: null });
    // A day later nothing changes for 30 days (BBB's d + 30 is still ahead); 40 days later it counts.
    expect(computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: '2025-04-10T00:05:00.000Z' }).groups[0]!.cells[1]).toMatchObject({ n: 1, pending: 1 });
  });

  it('baseline over every day of the window, coins weighted as they appear: the independent recomputation agrees', () => {
    const expected = independent(LOG, '2025-03-01', '2025-01-06', '2025-03-01', [7, 30, 90]);
    for (const group of card.groups) {
      for (const cell of group.cells) {
        const want = expected[`${group.horizon}/${group.label}/${cell.days}`]!;
        expect([cell.n, cell.pending, cell.sharePositive?.rate ?? null]).toEqual([want.n, want.pending, want.n > 0 ? want.positives / want.n : null]);
        for (const [got, exp] of [
          [cell.mean, want.mean],
          [cell.baseline, want.baseline],
          [cell.excess, want.mean === null ? null : want.mean - want.baseline!],
          [cell.benchmark.meanReturn, want.benchMean],
          [cell.benchmark.meanExcess, want.benchExcess],
        ] as const) {
          if (exp === null) expect(got).toBeNull();
          else expect(got).toBeCloseTo(exp, 14);
        }
      }
    }
    // By hand: over the window's days d = 5 … 52 (d + 7 ≤ 59), AAA's 7-day return is 7 / (100 + d) and
    // BBB's −7 / (200 − d); Short/Sell weighs each coin once, with the sign flipped.
    let aaa = 0;
    let bbb = 0;
    for (let d = 5; d <= 52; d += 1) {
      aaa += 7 / (100 + d) / 48;
      bbb += -7 / (200 - d) / 48;
    }
    expect(card.groups[1]!.cells[0]!.baseline).toBeCloseTo((-aaa - bbb) / 2, 14);
    // Short/Buy holds AAA (d = 10) and BBB (d = 50): the same two coins, sign +1.
    expect(card.groups[0]!.cells[0]!.baseline).toBeCloseTo((aaa + bbb) / 2, 14);
  });

  it('scope: symbol filter, date window (the baseline follows it), origins never pooled', () => {
    const aaa = computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: NOW, scope: { symbol: 'aa' } });
    expect(aaa.groups.map((g) => `${g.horizon}/${g.label}/${g.signals}`)).toEqual(['Short/Buy/1', 'Short/Sell/1', 'Medium/Buy/1']);
    const windowed = computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: NOW, scope: { from: '2025-01-10', to: '2025-01-31' } });
    expect(windowed.window).toEqual({ from: '2025-01-10', to: '2025-01-31' });
    expect(windowed.groups.map((g) => `${g.horizon}/${g.label}/${g.signals}`)).toEqual(['Short/Buy/1', 'Short/Sell/1', 'Medium/Buy/1']);
    const expected = independent(LOG.filter((s) => s.date >= '2025-01-10' && s.date <= '2025-01-31'), '2025-03-01', '2025-01-10', '2025-01-31', [7, 30, 90]);
    expect(windowed.groups[0]!.cells[0]!.baseline).toBeCloseTo(expected['Short/Buy/7']!.baseline!, 14);
    const mixed = computeCryptoScorecard({ signals: [...LOG, signal('AAA', 'Short', 'Sell', 'Buy', 30, 'live')], closes: CLOSES, now: NOW });
    expect(mixed.groups.map((g) => `${g.origin}/${g.horizon}/${g.label}/${g.signals}`)).toEqual(['live/Short/Buy/1', 'replayed/Short/Buy/2', 'replayed/Short/Sell/2', 'replayed/Medium/Buy/1']);
    expect(() => computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: NOW, scope: { from: '2025-02-30' } })).toThrow('from must be a date (YYYY-MM-DD)');
  });

  it('is deterministic (seeded bootstrap): the same inputs, the same answer', () => {
    expect(JSON.stringify(computeCryptoScorecard({ signals: LOG, closes: CLOSES, now: NOW }))).toBe(JSON.stringify(card));
  });

  it('reads the signal log out of the stored events', () => {
    const events: IdeaEvent[] = [
      { ideaId: 'crypto.AAA.x', engine: 'crypto', market: 'CRYPTO', symbol: 'AAA', type: 'updated', level: '', barDate: date(10), price: 110, data: {} },
      { ideaId: 'crypto.AAA.x', engine: 'crypto', market: 'CRYPTO', symbol: 'AAA', type: 'signal_changed', level: 'Short', barDate: date(10), price: 110, data: { horizon: 'Short', from: 'Hold', to: 'Buy' } },
      { ideaId: 'swing.AAA.x', engine: 'swing', market: 'US', symbol: 'AAA', type: 'signal_changed', level: 'Short', barDate: date(10), price: 110, data: {} },
    ];
    expect(cryptoSignalLog(stampEvents(cryptoEngine, events, 'live', NOW))).toEqual([{ ...signal('AAA', 'Short', 'Hold', 'Buy', 10), origin: 'live' }]);
  });
});
