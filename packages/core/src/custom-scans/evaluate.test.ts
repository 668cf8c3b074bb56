import { describe, expect, it, vi } from 'vitest';
import { randomBars, seeded } from '../indicators/test-series';
import { fieldsOf, type Comparison, type Condition, type FieldRef, type ScanExpr } from './ast';
import { compileScan, runScan, type ScanValue } from './evaluate';
import * as fieldSeriesModule from './field-series';
import { fieldSeries, type ScanBars, type ScanFacts } from './field-series';

// docs/custom-scans.md, "Conditions" and "Runs as of a date".

const f = (field: string, ...params: number[]): FieldRef => ({ field, params });
const compare = (left: FieldRef, op: Comparison, right: number | FieldRef): Condition => ({
  kind: 'compare',
  left,
  op,
  right: typeof right === 'number' ? { kind: 'number', value: right } : { kind: 'field', ref: right },
});
const between = (left: FieldRef, low: number, high: number): Condition => ({ kind: 'between', left, low, high });
const cross = (left: FieldRef, direction: 'above' | 'below', right: number | FieldRef, within = 1): Condition => ({
  kind: 'cross',
  left,
  direction,
  right: typeof right === 'number' ? { kind: 'number', value: right } : { kind: 'field', ref: right },
  within,
});
const isIn = (left: FieldRef, values: string[], negated = false): Condition => ({ kind: 'in', left, values, negated });
const and = (...items: ScanExpr[]): ScanExpr => ({ kind: 'and', items });
const or = (...items: ScanExpr[]): ScanExpr => ({ kind: 'or', items });
const not = (item: ScanExpr): ScanExpr => ({ kind: 'not', item });

/** Bars whose every price is the close, with a volume of 1. */
function flat(closes: number[]): ScanBars {
  const close = Float64Array.from(closes);
  return { open: close, high: close, low: close, close, volume: new Float64Array(closes.length).fill(1) };
}
const cut = (b: ScanBars, end: number): ScanBars => ({
  open: b.open.subarray(0, end + 1),
  high: b.high.subarray(0, end + 1),
  low: b.low.subarray(0, end + 1),
  close: b.close.subarray(0, end + 1),
  volume: b.volume.subarray(0, end + 1),
});
const matches = (expr: ScanExpr, b: ScanBars, facts: ScanFacts = {}, end?: number) => compileScan(expr).matches(b, facts, end);

describe('cross', () => {
  const closes = [5, 5, 5, 5, 5, 5, 11, 11, 11, 11]; // crosses above 10 at session 6
  it('counts a cross on the first session of the window (end − within + 1), not one earlier', () => {
    expect(matches(cross(f('close'), 'above', 10, 4), flat(closes))).toBe(true); // window 6..9
    expect(matches(cross(f('close'), 'above', 10, 3), flat(closes))).toBe(false); // window 7..9
    expect(matches(cross(f('close'), 'above', 10, 1), flat(closes), {}, 6)).toBe(true); // within 1: today
    expect(matches(cross(f('close'), 'above', 10, 1), flat(closes), {}, 7)).toBe(false);
    expect(matches(cross(f('close'), 'above', 10, 5), flat(closes), {}, 5)).toBe(false); // not yet, as of 5
  });

  it('goes from at or below to above (below: from at or above to below)', () => {
    expect(matches(cross(f('close'), 'above', 10), flat([10, 11]))).toBe(true);
    expect(matches(cross(f('close'), 'above', 10), flat([10, 10]))).toBe(false);
    expect(matches(cross(f('close'), 'above', 10), flat([11, 12]))).toBe(false);
    expect(matches(cross(f('close'), 'above', 10), flat([12, 9]))).toBe(false);
    expect(matches(cross(f('close'), 'below', 10), flat([10, 9]))).toBe(true);
    expect(matches(cross(f('close'), 'below', 10), flat([11, 10]))).toBe(false);
    expect(matches(cross(f('close'), 'below', 10), flat([11, 9]))).toBe(true);
  });

  it('does not count a session with NaN on either side, nor one before the first bar', () => {
    expect(matches(cross(f('close'), 'above', 10), flat([Number.NaN, 11]))).toBe(false);
    expect(matches(cross(f('close'), 'above', 10, 2), flat([9, 11, Number.NaN]))).toBe(true); // session 1 counts
    expect(matches(cross(f('close'), 'above', 10, 5), flat([11]))).toBe(false);
    expect(matches(cross(f('close'), 'above', 10, 500), flat([5, 11, 12]))).toBe(true); // a window longer than the history
    // change_pct(1) is NaN on bar 0, so it cannot cross on bar 1.
    expect(matches(cross(f('change_pct', 1), 'above', 0, 3), flat([10, 11]))).toBe(false);
    expect(matches(cross(f('change_pct', 1), 'above', 0, 3), flat([10, 9, 11]))).toBe(true);
  });

  it('a fact is the same every session, so it never crosses', () => {
    expect(matches(cross(f('days_to_earnings'), 'above', 3, 10), flat([1, 2, 3]), { daysToEarnings: 5 })).toBe(false);
  });

  it('crosses between two fields as the definition over their series says', () => {
    const next = seeded(5);
    let hits = 0;
    for (let trial = 0; trial < 200; trial += 1) {
      const b = randomBars(trial, 120);
      const [left, right] = trial % 2 ? [f('ema', 5), f('sma', 20)] : [f('close'), f('ema', 10)];
      const direction = next() < 0.5 ? 'above' : 'below';
      const within = 1 + Math.floor(next() * 15);
      const end = Math.floor(next() * 120);
      const l = fieldSeries(left, b, end);
      const r = fieldSeries(right, b, end);
      let expected = false;
      for (let s = Math.max(1, end - within + 1); s <= end; s += 1) {
        if (direction === 'above' ? l[s - 1]! <= r[s - 1]! && l[s]! > r[s]! : l[s - 1]! >= r[s - 1]! && l[s]! < r[s]!) expected = true;
      }
      hits += +expected;
      expect(matches(cross(left, direction, right, within), b, {}, end), `trial ${trial}`).toBe(expected);
    }
    expect(hits).toBeGreaterThan(20);
  });
});

describe('compare, between and text', () => {
  const b = flat([10, 20]);
  it('compares numbers; NaN or a missing fact is no match for every comparison', () => {
    expect(matches(compare(f('close'), '=', 20), b)).toBe(true);
    expect(matches(compare(f('close'), '!=', 20), b)).toBe(false);
    expect(matches(compare(f('close'), '>', f('change_pct', 1)), b)).toBe(false); // 20 > 100 is false
    expect(matches(compare(f('change_pct', 1), '>=', 100), b)).toBe(true);
    for (const op of ['<', '<=', '>', '>=', '=', '!='] as const) {
      expect(matches(compare(f('change_pct', 5), op, 0), b), op).toBe(false);
      expect(matches(compare(f('close'), op, f('sma', 5)), b), op).toBe(false);
      expect(matches(compare(f('days_to_earnings'), op, 3), b, { daysToEarnings: null }), op).toBe(false);
    }
    expect(matches(between(f('close'), 20, 30), b)).toBe(true);
    expect(matches(between(f('close'), 10, 19.99), b)).toBe(false);
    expect(matches(between(f('change_pct', 5), -1e9, 1e9), b)).toBe(false);
    expect(matches(compare(f('days_to_earnings'), '<=', 5), b, { daysToEarnings: 5 })).toBe(true);
    expect(matches(compare(f('news_sentiment'), '>', 0), b, { newsSentiment: 2 })).toBe(true);
  });

  it('compares texts trimmed and without regard to case; a missing text is no match, negated or not', () => {
    const energy = isIn(f('sector'), [' ENERGY', 'Utilities']);
    expect(matches(energy, b, { sector: 'energy ' })).toBe(true);
    expect(matches(energy, b, { sector: 'Tech' })).toBe(false);
    expect(matches(isIn(f('exchange'), ['nyse'], true), b, { exchange: 'NYSE' })).toBe(false);
    expect(matches(isIn(f('exchange'), ['nyse'], true), b, { exchange: 'NASDAQ' })).toBe(true);
    for (const sector of [null, undefined, '', '   ']) {
      expect(matches(energy, b, { sector })).toBe(false);
      expect(matches(isIn(f('sector'), ['Energy'], true), b, { sector })).toBe(false);
      // `not` over the whole condition is plain logic: not (false) is true.
      expect(matches(not(energy), b, { sector })).toBe(true);
    }
  });
});

describe('and, or, not', () => {
  const T = compare(f('days_to_earnings'), '>=', 0);
  const F = compare(f('days_to_earnings'), '<', 0);
  const b = flat([1]);
  it.each([
    ['T and T', and(T, T), true],
    ['T and F', and(T, F), false],
    ['F or T', or(F, T), true],
    ['F or F', or(F, F), false],
    ['not F', not(F), true],
    ['not (T and F)', not(and(T, F)), true],
    ['F or not T', or(F, not(T)), false],
    ['T and (F or T) and not F', and(T, or(F, T), not(F)), true],
    ['not not T', not(not(T)), true],
    ['empty and', and(), true],
    ['empty or', or(), false],
  ])('%s', (_, expr, expected) => {
    expect(matches(expr, b, { daysToEarnings: 3 })).toBe(expected);
  });

  it('answers every value in fieldsOf order, also of conditions a short cut skipped', () => {
    const b2 = randomBars(3, 260);
    const expr = or(T, and(compare(f('rsi', 14), '<', 30), compare(f('close'), '>', f('sma', 200))), isIn(f('sector'), ['Energy']), compare(f('rsi', 14), '>', 100));
    const compiled = compileScan(expr);
    expect(compiled.columns).toEqual(['days_to_earnings', 'rsi(14)', 'close', 'sma(200)', 'sector']);
    expect(compiled.fields).toEqual(fieldsOf(expr));
    const { matched, values } = compiled.evaluateSymbol(b2, { daysToEarnings: 4, sector: ' Energy ' });
    expect(matched).toBe(true);
    expect(values).toEqual([4, fieldSeries(f('rsi', 14), b2, 259)[259], b2.close[259], fieldSeries(f('sma', 200), b2, 259)[259], 'Energy']);
    expect(compiled.valuesIfMatch(b2, { daysToEarnings: 4, sector: 'Energy' })).toEqual(values);
    expect(compiled.valuesIfMatch(b2, { daysToEarnings: -1 })).toBeNull();
  });
});

describe('missing data', () => {
  it('too little history, no bars or an end that is no bar index: no match, all values null, never a throw', () => {
    const expr = and(compare(f('close'), '>', f('sma', 200)), compare(f('rsi', 14), '<', 70), cross(f('adx', 14), 'above', 20, 5));
    const compiled = compileScan(expr);
    for (const b of [flat([]), flat([1]), randomBars(1, 30), randomBars(2, 199)]) {
      expect(compiled.matches(b, {})).toBe(false);
      expect(compiled.evaluateSymbol(b, {}).matched).toBe(false);
    }
    expect(compiled.evaluateSymbol(flat([]), {})).toEqual({ matched: false, values: [null, null, null, null] });
    const b = randomBars(3, 50);
    for (const end of [-1, 50, 1.5, Number.NaN]) expect(compiled.evaluateSymbol(b, {}, end)).toEqual({ matched: false, values: [null, null, null, null] });
    expect(compiled.evaluateSymbol(b, {}).values.map((value) => value === null)).toEqual([false, true, false, false]);
  });

  it('refuses what the parser never makes: unknown fields, refused parameters, mixed kinds, a bad within', () => {
    expect(() => compileScan(compare(f('rsx'), '<', 30))).toThrow(RangeError);
    expect(() => compileScan(compare(f('rsi', 500), '<', 30))).toThrow(RangeError);
    expect(() => compileScan(compare(f('sector'), '=', 3))).toThrow(RangeError);
    expect(() => compileScan(isIn(f('close'), ['3']))).toThrow(RangeError);
    expect(() => compileScan(compare(f('close'), '<', f('exchange')))).toThrow(RangeError);
    expect(() => compileScan(cross(f('close'), 'above', 3, 0))).toThrow(RangeError);
    expect(() => compileScan(cross(f('close'), 'above', 3, 1.5))).toThrow(RangeError);
  });
});

describe('runScan', () => {
  it('answers the matching symbols in order with their values, each as of its end', () => {
    const compiled = compileScan(and(compare(f('close'), '>=', 10), isIn(f('exchange'), ['NYSE'])));
    const found = runScan(compiled, [
      { symbol: 'A', bars: flat([5, 12]), facts: { exchange: 'nyse' } },
      { symbol: 'B', bars: flat([12, 5]), facts: { exchange: 'NYSE' } },
      { symbol: 'C', bars: flat([12, 5]), facts: { exchange: 'NYSE' }, end: 0 },
      { symbol: 'D', bars: flat([]), facts: { exchange: 'NYSE' } },
      { symbol: 'E', bars: flat([20]), facts: {} },
    ]);
    expect(found).toEqual([
      { symbol: 'A', values: [12, 'nyse'] },
      { symbol: 'C', values: [12, 'NYSE'] },
    ]);
  });
});

// ---- Random scans: the as-of rule, and a plain interpreter written from docs/custom-scans.md ----

const NUMBER_FIELDS: [string, number[], number, number][] = [
  ['close', [], 80, 120],
  ['change_pct', [1], -2, 2],
  ['change_pct', [20], -10, 10],
  ['pct_below_high', [21], 0, 10],
  ['pct_above_low', [252], 0, 30],
  ['rsi', [14], 30, 70],
  ['rsi', [2], 10, 90],
  ['sma', [50], 80, 120],
  ['ema', [20], 80, 120],
  ['pct_from_sma', [20], -5, 5],
  ['pct_from_ema', [10], -5, 5],
  ['atr', [14], 1, 3],
  ['atr_pct', [5], 1, 3],
  ['adx', [14], 10, 40],
  ['rvol', [], 0.6, 1.4],
  ['avg_dollar_volume', [20], 8e7, 1.2e8],
  ['gap_pct', [], -1, 1],
  ['vp_distance_pct', [], 0, 4],
  ['days_to_earnings', [], 0, 30],
  ['news_sentiment', [], -3, 3],
];
const PRICE_FIELDS = [f('close'), f('sma', 50), f('ema', 20), f('sma', 10)];

function randomExpr(next: () => number, depth: number): ScanExpr {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const r = next();
  if (depth > 0 && r < 0.35) {
    const items = Array.from({ length: 2 + Math.floor(next() * 3) }, () => randomExpr(next, depth - 1));
    return r < 0.2 ? and(...items) : or(...items);
  }
  if (depth > 0 && r < 0.45) return not(randomExpr(next, depth - 1));
  const [field, params, low, high] = pick(NUMBER_FIELDS);
  const value = low + next() * (high - low);
  const kind = next();
  if (kind < 0.3) return compare(f(field, ...params), pick(['<', '<=', '>', '>=', '!='] as const), value);
  if (kind < 0.45) return between(f(field, ...params), value, value + (high - low) / 2);
  if (kind < 0.6) return compare(pick(PRICE_FIELDS), pick(['<', '>'] as const), pick(PRICE_FIELDS));
  if (kind < 0.75) return cross(f(field, ...params), next() < 0.5 ? 'above' : 'below', value, 1 + Math.floor(next() * 10));
  if (kind < 0.85) return cross(pick(PRICE_FIELDS), next() < 0.5 ? 'above' : 'below', pick(PRICE_FIELDS), 1 + Math.floor(next() * 20));
  return isIn(f(pick(['sector', 'exchange'])), next() < 0.5 ? ['Energy', 'NYSE'] : [' energy', 'nasdaq '], next() < 0.3);
}

/** The rule book read literally: every field's series, no short cuts. */
function interpret(expr: ScanExpr, b: ScanBars, facts: ScanFacts, end: number): boolean {
  if (expr.kind === 'and') return expr.items.map((item) => interpret(item, b, facts, end)).every(Boolean);
  if (expr.kind === 'or') return expr.items.map((item) => interpret(item, b, facts, end)).some(Boolean);
  if (expr.kind === 'not') return !interpret(expr.item, b, facts, end);
  if (expr.kind === 'in') {
    const raw = expr.left.field === 'sector' ? facts.sector : facts.exchange;
    const text = raw?.trim().toLowerCase();
    if (!text) return false;
    return expr.values.some((value) => value.trim().toLowerCase() === text) !== expr.negated;
  }
  const series = (ref: FieldRef) => fieldSeries(ref, b, end, facts);
  const left = series(expr.left);
  if (expr.kind === 'between') return left[end]! >= expr.low && left[end]! <= expr.high;
  const right = expr.right.kind === 'number' ? new Float64Array(end + 1).fill(expr.right.value) : series(expr.right.ref);
  if (expr.kind === 'compare') {
    const [a, c] = [left[end]!, right[end]!];
    if (Number.isNaN(a) || Number.isNaN(c)) return false;
    return { '<': a < c, '<=': a <= c, '>': a > c, '>=': a >= c, '=': a === c, '!=': a !== c }[expr.op];
  }
  for (let s = Math.max(1, end - expr.within + 1); s <= end; s += 1) {
    const [l0, l1, r0, r1] = [left[s - 1]!, left[s]!, right[s - 1]!, right[s]!];
    if (expr.direction === 'above' ? l0 <= r0 && l1 > r1 : l0 >= r0 && l1 < r1) return true;
  }
  return false;
}

const valueOf = (ref: FieldRef, b: ScanBars, facts: ScanFacts, end: number): ScanValue => {
  if (ref.field === 'sector' || ref.field === 'exchange') return (ref.field === 'sector' ? facts.sector : facts.exchange)?.trim() || null;
  const value = fieldSeries(ref, b, end, facts)[end]!;
  return Number.isNaN(value) ? null : value;
};

describe('random scans', () => {
  const next = seeded(26);
  const SECTORS = ['Energy', ' energy ', 'Tech', null, undefined, ''];
  const EXCHANGES = ['NYSE', 'nasdaq', null];
  const cases = Array.from({ length: 300 }, (_, k) => {
    const length = 40 + Math.floor(next() * 260);
    const end = next() < 0.2 ? Math.floor(next() * length) : length - 1 - Math.floor(next() * Math.min(40, length));
    const facts: ScanFacts = {
      sector: SECTORS[k % SECTORS.length],
      exchange: EXCHANGES[k % EXCHANGES.length],
      daysToEarnings: k % 4 === 0 ? null : Math.floor(next() * 40),
      newsSentiment: k % 5 === 0 ? null : Math.floor(next() * 7) - 3,
    };
    return { expr: randomExpr(next, 3), bars: randomBars(k, length), facts, end };
  });

  it('as of end equals a run on the bars cut after end, with one compiled scan over many symbols', () => {
    let matched = 0;
    for (const [k, { expr, bars, facts, end }] of cases.entries()) {
      const compiled = compileScan(expr);
      const asOf = compiled.evaluateSymbol(bars, facts, end);
      const onCut = compiled.evaluateSymbol(cut(bars, end), facts);
      expect(onCut, `case ${k}`).toEqual(asOf);
      expect(compiled.evaluateSymbol(bars, facts, end), `case ${k} again`).toEqual(asOf);
      matched += +asOf.matched;
    }
    expect(matched).toBeGreaterThan(60);
    expect(matched).toBeLessThan(240);
  });

  it('agrees with the plain interpreter, values included', () => {
    for (const [k, { expr, bars, facts, end }] of cases.entries()) {
      const result = compileScan(expr).evaluateSymbol(bars, facts, end);
      expect(result.matched, `case ${k}: ${JSON.stringify(expr)}`).toBe(interpret(expr, bars, facts, end));
      expect(result.values, `case ${k}`).toEqual(fieldsOf(expr).map((ref) => valueOf(ref, bars, facts, end)));
    }
  });

  it('one compiled scan answers the same over a universe of mixed lengths as fresh ones do', () => {
    const expr = or(cross(f('close'), 'above', f('sma', 10), 250), and(cross(f('rsi', 14), 'below', 50, 30), compare(f('adx', 14), '>', 15)));
    const compiled = compileScan(expr);
    const universe = cases.map(({ bars, facts, end }, k) => ({ symbol: `S${k}`, bars, facts, end }));
    const expected = universe.filter(({ bars, facts, end }) => compileScan(expr).matches(bars, facts, end)).map(({ symbol }) => symbol);
    expect(runScan(compiled, universe).map(({ symbol }) => symbol)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(30);
  });
});

describe('compileScan with memoize', () => {
  it('answers what a plain compiled scan answers at every bar index, over several symbols and fields', () => {
    const expr = and(compare(f('rsi', 14), '<', 60), cross(f('ema', 10), 'above', f('sma', 30), 3), compare(f('adx', 14), '>', 10), compare(f('atr_pct', 14), '<', f('pct_from_ema', 20)));
    const plain = compileScan(expr);
    const memoized = compileScan(expr, { memoize: true });
    for (const seed of [3, 4, 5]) {
      const b: ScanBars = randomBars(seed, 160);
      for (let end = 0; end < 160; end += 1) {
        expect(memoized.evaluateSymbol(b, {}, end), `seed ${seed}, end ${end}`).toEqual(plain.evaluateSymbol(b, {}, end));
      }
    }
  });

  it('reads nothing after the run index: the same answers as the bars cut after it', () => {
    const expr = and(compare(f('rsi', 14), '<', 55), compare(f('adx', 14), '>', 5));
    const memoized = compileScan(expr, { memoize: true });
    const b: ScanBars = randomBars(9, 120);
    for (let end = 30; end < 120; end += 7) expect(memoized.evaluateSymbol(b, {}, end)).toEqual(compileScan(expr).evaluateSymbol(cut(b, end), {}));
  });
});

describe('rsi and adx in one pass', () => {
  // evaluate.ts `Pair`: once most symbols read both fields, a compiled scan computes them together
  // (field-series.ts fillRsiAdx); the answers are those of a fresh compiled scan for each symbol.
  const universe = Array.from({ length: 120 }, (_, s) => randomBars(100 + s, s % 10 === 0 ? 20 + s / 10 : 90));

  it.each([
    ['both read for every symbol', and(compare(f('rsi', 14), '<', 101), cross(f('rsi', 14), 'above', f('adx', 10), 5)), true],
    ['adx read only when the rsi passes', and(compare(f('rsi', 7), '<', 50), compare(f('adx', 14), '>', 20)), undefined],
    ['adx first, rsi behind an or', or(compare(f('adx', 14), '>', 25), between(f('rsi', 14), 40, 60), compare(f('close'), '>', f('ema', 20))), undefined],
  ])('%s: the same answers and values as a fresh compiled scan', (_, expr, fuses) => {
    const fused = vi.spyOn(fieldSeriesModule, 'fillRsiAdx');
    try {
      const shared = compileScan(expr);
      for (const [s, b] of universe.entries()) {
        const end = s % 3 === 0 ? b.close.length - 1 - (s % 7) : undefined;
        expect(shared.evaluateSymbol(b, {}, end), `symbol ${s}`).toEqual(compileScan(expr).evaluateSymbol(b, {}, end));
      }
      if (fuses) expect(fused).toHaveBeenCalled();
    } finally {
      fused.mockRestore();
    }
  });
});
