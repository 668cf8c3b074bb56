import { describe, expect, it } from 'vitest';
import { dayNumber } from '../market/trading-calendar';
import { BACKTEST_COST_BPS, createBacktest, RANDOM_DRAWS, type BacktestSymbol } from './backtest';
import { compileScan } from './evaluate';
import { parseFormula } from './formula';

const START = dayNumber('2025-01-01');
const LENGTH = 200;
const c = BACKTEST_COST_BPS / 10_000;

/** Bars on consecutive days from START; open = close of the day before (the first: its close). */
function symbolOf(symbol: string, closes: (i: number) => number, length = LENGTH): BacktestSymbol {
  const close = Float64Array.from({ length }, (_, i) => closes(i));
  const open = Float64Array.from({ length }, (_, i) => (i === 0 ? close[0]! : close[i - 1]!) + 0.5);
  const high = Float64Array.from({ length }, (_, i) => Math.max(open[i]!, close[i]!) + 1);
  const low = Float64Array.from({ length }, (_, i) => Math.min(open[i]!, close[i]!) - 1);
  const volume = new Float64Array(length).fill(1000);
  return { symbol, bars: { open, high, low, close, volume }, day: Int32Array.from({ length }, (_, i) => START + i), facts: {} };
}

const sessions = (from: number, to: number) => Int32Array.from({ length: to - from + 1 }, (_, i) => START + from + i);
const seed = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);

function run(formula: string, symbols: BacktestSymbol[], replay = sessions(20, LENGTH - 1)) {
  const backtest = createBacktest({ compiled: compileScan(parseFormula(formula)), symbols, sessions: replay, benchmark: null, seed });
  while (!backtest.step(7));
  return backtest.result();
}

describe('createBacktest', () => {
  // Above 100 from bar 50 to bar 59, then again from bar 80 on.
  const stepUp = symbolOf('UP', (i) => ((i >= 50 && i < 60) || i >= 80 ? 110 + i * 0.1 : 90));
  const flat = symbolOf('FLAT', () => 90);

  it('enters a symbol at the next open each time it newly enters the results, and not while it stays in', () => {
    const result = run('close > 100', [stepUp, flat]);
    expect(result.entries).toBe(2);
    // Bought at the open of bars 51 and 81.
    expect(result.worst.map((entry) => entry.date).sort()).toEqual(['2025-02-21', '2025-03-23']);
  });

  it('counts the forward return from the entry open to the h-th close, net of the cost on both sides', () => {
    const result = run('close > 100', [stepUp, flat]);
    const five = result.horizons.find((h) => h.horizon === 5)!;
    const expected = [51, 81].map((bar) => (stepUp.bars.close[bar + 4]! * (1 - c)) / (stepUp.bars.open[bar]! * (1 + c)) - 1);
    expect(five.scan.n).toBe(2);
    expect(five.scan.mean).toBeCloseTo((expected[0]! + expected[1]!) / 2, 12);
    expect(five.scan.positive!.rate).toBe(expected.filter((r) => r > 0).length / 2);
  });

  it('decides each session on the bars up to it: changing later bars changes no entry', () => {
    const changed = symbolOf('UP', (i) => (i > 85 ? 1 : (i >= 50 && i < 60) || i >= 80 ? 110 + i * 0.1 : 90));
    const before = run('close > 100', [stepUp, flat], sessions(20, 85));
    const after = run('close > 100', [changed, flat], sessions(20, 85));
    expect(after.entries).toBe(before.entries);
    expect(after.worst.map((entry) => entry.date).sort()).toEqual(before.worst.map((entry) => entry.date).sort());
  });

  it('leaves out entries of a month that is not mature at the horizon', () => {
    // The replay ends 30 sessions after the second entry's month started: 63 sessions are not there yet.
    const result = run('close > 100', [stepUp, flat], sessions(20, 110));
    const long = result.horizons.find((h) => h.horizon === 63)!;
    expect(long.scan.n + long.immature).toBe(2);
    expect(long.immature).toBeGreaterThanOrEqual(1);
  });

  it("draws RANDOM_DRAWS other symbols of the entry's ATR% tercile that session, the same for the same seed", () => {
    /** Bars around `closes` with a daily range of ± `range` of the close (ATR% about 2 × range); open = the close before. */
    const ranged = (symbol: string, closes: (i: number) => number, range: number): BacktestSymbol => {
      const close = Float64Array.from({ length: LENGTH }, (_, i) => closes(i));
      const open = Float64Array.from({ length: LENGTH }, (_, i) => close[Math.max(0, i - 1)]!);
      const high = Float64Array.from({ length: LENGTH }, (_, i) => Math.max(open[i]!, close[i]!) * (1 + range));
      const low = Float64Array.from({ length: LENGTH }, (_, i) => Math.min(open[i]!, close[i]!) * (1 - range));
      return { symbol, bars: { open, high, low, close, volume: new Float64Array(LENGTH).fill(1000) }, day: Int32Array.from({ length: LENGTH }, (_, i) => START + i), facts: {} };
    };
    // The entry is the most volatile; 20 others are volatile and rise 0.2 % a session (every 5-session
    // hold gains), 41 are calm and flat (every hold loses its costs). The top tercile is the entry and
    // the 20: drawn from it, every random entry gains; drawn from all, most would lose.
    const entry = ranged('UP', (i) => ((i >= 50 && i < 60) || i >= 80 ? 110 + i * 0.1 : 90), 0.06);
    const volatile = Array.from({ length: 20 }, (_, k) => ranged(`V${k}`, (i) => 50 * 1.002 ** i, 0.04 + k * 0.0005));
    const calm = Array.from({ length: 41 }, (_, k) => ranged(`C${k}`, () => 60, 0.001 + k * 0.00001));
    const symbols = [entry, ...calm, ...volatile];
    const one = run('close > 100', symbols);
    expect(one.horizons).toEqual(run('close > 100', symbols).horizons);
    const five = one.horizons.find((h) => h.horizon === 5)!;
    expect(five.scan.n).toBe(2);
    expect(five.random.n).toBe(five.scan.n * RANDOM_DRAWS);
    expect(five.random.positive!.rate).toBe(1);
    // With fewer others in the tercile than RANDOM_DRAWS, each of them once.
    const few = run('close > 100', [entry, ...calm, ...volatile.slice(0, 5)]).horizons.find((h) => h.horizon === 5)!;
    expect(few.random.n).toBeLessThan(few.scan.n * RANDOM_DRAWS);
    expect(few.random.n).toBeGreaterThan(0);
  });

  it('compares with the benchmark over the same windows and compounds the equity of 21-session holds', () => {
    const bench = symbolOf('SPY', (i) => 400 + i);
    const backtest = createBacktest({
      compiled: compileScan(parseFormula('close > 100')),
      symbols: [stepUp, flat],
      sessions: sessions(20, LENGTH - 1),
      benchmark: { symbol: 'SPY', day: bench.day, open: bench.bars.open, close: bench.bars.close },
      seed,
    });
    expect(backtest.step(1_000)).toBe(true);
    expect(backtest.done).toBe(backtest.total);
    const result = backtest.result();
    const five = result.horizons.find((h) => h.horizon === 5)!;
    const benchExpected = [51, 81].map((bar) => bench.bars.close[bar + 4]! / bench.bars.open[bar]! - 1);
    expect(five.benchmarkMean).toBeCloseTo((benchExpected[0]! + benchExpected[1]!) / 2, 12);
    expect(result.benchmark).toBe('SPY');
    expect(result.equity).toHaveLength(LENGTH - 20);
    expect(result.equity[0]!.value).toBe(1);
    // Only UP is ever held: the curve ends at the product of its two 21-session holds' daily returns.
    const hold = (bar: number) => ((stepUp.bars.close[bar + 20]! * (1 - c)) / (stepUp.bars.open[bar]! * (1 + c)));
    expect(result.equity.at(-1)!.value).toBeCloseTo(hold(51) * hold(81), 10);
  });

  it('refuses a result before the replay is done', () => {
    const backtest = createBacktest({ compiled: compileScan(parseFormula('close > 100')), symbols: [stepUp], sessions: sessions(20, 40), benchmark: null, seed });
    backtest.step(3);
    expect(backtest.done).toBe(3);
    expect(() => backtest.result()).toThrow('not finished');
  });
});
