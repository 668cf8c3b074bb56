import { describe, expect, it } from 'vitest';
import { dayNumber, isoFromDayNumber } from '../../market/trading-calendar';
import { type DailySeries } from '../types';
import { BASELINE_DRAWS, baselineSeed, baselineSummary, createBaseline, lastIndexBefore, tercileOf } from './baseline';
import { sha256Hex } from './sha256';
import { nyseSessions, outcome, toyEngine, toySeries } from './test-engine';

const DAYS = nyseSessions(120);
const D = isoFromDayNumber(DAYS[80]!); // the entry day of the real ideas
// 45 warm symbols with volatility rising with the index (so terciles are S00–S14, S15–S29, S30–S44),
// one that starts too late to be warm on D (COLD), one without a bar on D (GAP).
const SYMBOLS = Array.from({ length: 45 }, (_, i) => `S${String(i).padStart(2, '0')}`);
const series = new Map<string, DailySeries>();
SYMBOLS.forEach((symbol, i) => series.set(symbol, toySeries(symbol, i + 1, DAYS, 0.004 + i * 0.001)));
series.set('COLD', toySeries('COLD', 99, DAYS.slice(60), 0.02));
series.set('GAP', toySeries('GAP', 98, DAYS.filter((day) => day !== DAYS[80]), 0.02));
const universe = [...SYMBOLS, 'COLD', 'GAP', 'MISSING'];
const NOW = '2023-12-29T22:00:00Z';

function baselineFor(engine = toyEngine(), draws?: number) {
  return createBaseline({ engine, series, universeOn: () => universe, now: NOW, ...(draws ? { draws } : {}) });
}

describe('the seed', () => {
  it('is the first 8 bytes of SHA-256("baseline|engine|ruleVersion|paramHash|ideaId|d")', () => {
    const engine = toyEngine();
    const hex = sha256Hex(`baseline|swing|swing@1.0.0|0123456789abcdef|swing.S20.2023-04-28|2023-05-01`).slice(0, 16);
    const seed = baselineSeed(engine, 'swing.S20.2023-04-28', '2023-05-01');
    expect(Array.from(seed, (byte) => byte.toString(16).padStart(2, '0')).join('')).toBe(hex);
  });
});

describe('the warm universe and its ATR% terciles', () => {
  it('finds the signal bar as the last bar before the entry day', () => {
    const days = Int32Array.from([10, 11, 14, 15]);
    expect(lastIndexBefore(days, 14)).toBe(1);
    expect(lastIndexBefore(days, 10)).toBe(-1);
    expect(lastIndexBefore(days, 99)).toBe(3);
  });

  it('puts a value on a cut point in the lower tercile', () => {
    expect(tercileOf(0.01, [0.01, 0.02])).toBe(0);
    expect(tercileOf(0.015, [0.01, 0.02])).toBe(1);
    expect(tercileOf(0.02, [0.01, 0.02])).toBe(1);
    expect(tercileOf(0.021, [0.01, 0.02])).toBe(2);
  });

  it('leaves out cold symbols, symbols without a bar on d and unknown ones, and splits the rest in thirds', () => {
    const { terciles, cuts } = baselineFor().warmUniverse(D);
    const all = terciles.flat().map((w) => w.symbol);
    expect(all).toHaveLength(45);
    expect(all).not.toContain('COLD');
    expect(all).not.toContain('GAP');
    expect(terciles.map((t) => t.length)).toEqual([15, 15, 15]);
    expect(cuts[0]).toBeLessThan(cuts[1]);
    // Volatility rises with the index, so the low tercile holds the calm symbols.
    expect(terciles[0].every((w) => Number(w.symbol.slice(1)) < 20)).toBe(true);
    expect(terciles[2].every((w) => Number(w.symbol.slice(1)) > 25)).toBe(true);
    // Signal bar: the session before D.
    for (const w of terciles.flat()) expect(series.get(w.symbol)!.day[w.signalIndex]).toBe(DAYS[79]);
  });

  it('takes COLD once it is warm (≥ warmupBars bars through the signal bar)', () => {
    // COLD starts at session 60, so by session 100 it has 40 bars through the signal bar (≥ 30).
    const later = isoFromDayNumber(DAYS[100]!);
    expect(baselineFor().warmUniverse(later).terciles.flat().map((w) => w.symbol)).toContain('COLD');
  });
});

describe('the draws', () => {
  const idea = (symbol: string, atrPct: number, ideaId = `swing.${symbol}.${isoFromDayNumber(DAYS[79]!)}`) =>
    outcome({ ideaId, symbol, entryDate: D, createdAt: isoFromDayNumber(DAYS[79]!), atrPct });

  it("draws K distinct symbols from the idea's tercile, never its own symbol", () => {
    const b = baselineFor(toyEngine(), 10);
    const { terciles, cuts } = b.warmUniverse(D);
    const own = terciles[1][3]!;
    const drawn = b.drawSymbols(idea(own.symbol, own.atrPct));
    expect(tercileOf(own.atrPct, cuts)).toBe(1);
    expect(drawn).toHaveLength(10);
    expect(new Set(drawn.map((w) => w.symbol)).size).toBe(10);
    expect(drawn.map((w) => w.symbol)).not.toContain(own.symbol);
    const middle = new Set(terciles[1].map((w) => w.symbol));
    for (const w of drawn) expect(middle.has(w.symbol)).toBe(true);
  });

  it('takes the whole pool (less the own symbol) when it holds fewer than K = 20', () => {
    const b = baselineFor();
    const own = b.warmUniverse(D).terciles[2][0]!;
    const drawn = b.drawSymbols(idea(own.symbol, own.atrPct));
    expect(BASELINE_DRAWS).toBe(20);
    expect(drawn).toHaveLength(14);
    expect(drawn.map((w) => w.symbol).sort()).toEqual(b.warmUniverse(D).terciles[2].slice(1).map((w) => w.symbol));
  });

  it('runs the engine at the same signal bar: every draw enters at the open of d', () => {
    const b = baselineFor(toyEngine(), 5);
    const own = b.warmUniverse(D).terciles[0][0]!;
    const draws = b.drawsFor(idea(own.symbol, own.atrPct));
    expect(draws).toHaveLength(5);
    for (const d of draws) {
      expect(d.entryDate).toBe(D);
      expect(d.closed).toBe(true);
      expect(d.origin).toBe('replayed');
      expect(d.ruleVersion).toBe('swing@1.0.0');
      const s = series.get(d.symbol)!;
      const entry = lastIndexBefore(s.day, dayNumber(D)) + 1;
      // Toy engine: exit at the close of session 5, less 5 bps per side.
      expect(d.returnPct).toBeCloseTo(s.close[entry + 4]! / s.open[entry]! - 1 - 0.001, 12);
    }
  });

  it('is deterministic: same idea, same draws and outcomes — whatever order the universe comes in', () => {
    const own = baselineFor().warmUniverse(D).terciles[1][0]!;
    const first = baselineFor(toyEngine(), 8).drawsFor(idea(own.symbol, own.atrPct));
    const reversed = createBaseline({ engine: toyEngine(), series, universeOn: () => [...universe].reverse(), now: NOW, draws: 8 });
    expect(reversed.drawsFor(idea(own.symbol, own.atrPct))).toEqual(first);
    expect(baselineFor(toyEngine(), 8).drawsFor(idea(own.symbol, own.atrPct))).toEqual(first);
  });

  it('changes when the seed changes (another idea id, or another parameter hash)', () => {
    const b = baselineFor(toyEngine(), 6);
    const own = b.warmUniverse(D).terciles[0][0]!;
    const symbols = (drawn: { symbol: string }[]) => drawn.map((w) => w.symbol);
    const base = symbols(b.drawSymbols(idea(own.symbol, own.atrPct, 'swing.X.1')));
    expect(symbols(b.drawSymbols(idea(own.symbol, own.atrPct, 'swing.X.2')))).not.toEqual(base);
    const rehashed = { ...toyEngine(), paramHash: 'fedcba9876543210' };
    expect(symbols(baselineFor(rehashed, 6).drawSymbols(idea(own.symbol, own.atrPct, 'swing.X.1')))).not.toEqual(base);
  });

  it('skips an idea without a finite ATR%', () => {
    expect(baselineFor().drawSymbols(idea('S01', Number.NaN))).toEqual([]);
  });
});

describe('baselineSummary', () => {
  it('reports n, the win rate with its Wilson interval, the mean and the dollar-weighted return', () => {
    const draws = [
      outcome({ returnPct: 0.1, deployed: 2000, pnl: 200 }),
      outcome({ returnPct: -0.05, deployed: 10000, pnl: -500 }),
      outcome({ returnPct: 0.02, deployed: 2000, pnl: 40 }),
    ];
    const s = baselineSummary(draws);
    expect(s.n).toBe(3);
    expect(s.winRate!.rate).toBeCloseTo(2 / 3, 12);
    expect(s.meanReturn).toBeCloseTo(0.07 / 3, 12);
    expect(s.dollarWeighted).toBeCloseTo(-260 / 14000, 12);
  });

  it('has no dollar-weighted figure without dollars, and nulls when empty', () => {
    expect(baselineSummary([outcome()]).dollarWeighted).toBeNull();
    expect(baselineSummary([])).toEqual({ n: 0, winRate: null, meanReturn: null, dollarWeighted: null });
  });
});
