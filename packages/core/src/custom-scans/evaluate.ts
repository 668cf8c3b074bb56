/**
 * The evaluator of custom scans (issue 26, docs/custom-scans.md): a scan's expression compiled once
 * into closures, then run over a universe symbol by symbol as of a bar index.
 *
 * - A condition on a value that is not there (NaN: too little history, a zero divisor, bad data; a
 *   missing fact) is false, and so are `!=` and `not in` on it: unknown is never a match. `not`
 *   over a whole condition is plain logic and turns that false into true.
 * - `cross … within W` is true when for some session s in end − W + 1..end the left side was at or
 *   below the right side at s − 1 and above it at s (`below`: at or above, then below); a session
 *   with NaN on either side at s − 1 or s does not count, nor one whose s − 1 is before the first bar.
 * - Texts (sector, exchange) compare trimmed and without regard to case; a blank text is missing.
 * - Each field (by `fieldKey`) is computed at most once per symbol, and only when a condition reads
 *   it: `and` stops at its first false item and `or` at its first true one, cheap items first (the
 *   answer does not depend on the order). Only the trailing values the conditions read are computed
 *   (today, and W + 1 values for a cross), into buffers the compiled scan keeps across symbols.
 * - A run as of `end` reads bars 0..end only (field-series.ts), so it answers what a run on the bars
 *   cut after `end` answers. The facts are those as of the run date.
 * A compiled scan is not re-entrant (it keeps per-symbol state); it is synchronous, so one compiled
 * scan serves one run at a time on one thread.
 */
import { fieldKey, fieldsOf, type Comparison, type Condition, type FieldRef, type ScanExpr } from './ast';
import { barCount, fieldSeries, fillRsiAdx, resolveField, type ResolvedField, type ScanBars, type ScanFacts } from './field-series';

export type { ScanBars, ScanFacts } from './field-series';

/** A cell of the results table: a number field's value, a text field's text, null when missing. */
export type ScanValue = number | string | null;

export interface SymbolEvaluation {
  matched: boolean;
  /** The value of each field the scan reads as of `end`, in `fieldsOf(expr)` order. */
  values: ScanValue[];
}

export interface CompiledScan {
  readonly expr: ScanExpr;
  /** The fields the scan reads, each once, in `fieldsOf(expr)` order: the results table's columns. */
  readonly fields: readonly FieldRef[];
  /** `fieldKey` of each of `fields` (`rsi(14)`, `close`): the columns' keys. */
  readonly columns: readonly string[];
  /**
   * Whether the symbol matches as of bar index `end` (default: its last bar). An `end` that is not
   * a bar index of these bars (or no bars at all) is no match; never throws on data.
   */
  matches(bars: ScanBars, facts: ScanFacts, end?: number): boolean;
  /** `matches`, and the values of every field as of `end` (all null when `end` is no bar index). */
  evaluateSymbol(bars: ScanBars, facts: ScanFacts, end?: number): SymbolEvaluation;
  /** The values as `evaluateSymbol` gives them when the symbol matches, else null (without computing the values). */
  valuesIfMatch(bars: ScanBars, facts: ScanFacts, end?: number): ScanValue[] | null;
}

/** One symbol of a run: its bars, its facts as of the run date and the run's bar index (default: the last bar). */
export interface ScanSymbol {
  symbol: string;
  bars: ScanBars;
  facts: ScanFacts;
  end?: number;
}

/** A matching symbol with its values, in `CompiledScan.fields` order. */
export interface ScanMatch {
  symbol: string;
  values: ScanValue[];
}

/** A text fact as compared (`match`: trimmed, lower case) and as shown (`display`: trimmed); both null when missing. */
interface TextValue {
  display: string | null;
  match: string | null;
}

const MISSING_TEXT: TextValue = Object.freeze({ display: null, match: null });

/** One distinct field of the scan and its values for the symbol being evaluated. */
interface Slot {
  field: ResolvedField;
  /** The most trailing values a condition reads: 1 (today), W + 1 for a cross within W. */
  trailing: number;
  /** Values at end − count + 1..end, oldest first: buffer[count − 1] is the value at `end`. */
  buffer: Float64Array;
  count: number;
  text: TextValue;
  /** The evaluation these values belong to. */
  stamp: number;
  /** The last evaluation that read the values (computed then or before, by a fused pass). */
  asked: number;
}

/**
 * The scan's rsi and adx fields, computed in one pass (field-series.ts `fillRsiAdx`) for a symbol
 * where either is read while most recent symbols read both (`fuse`): the pass costs little more
 * than the ADX alone, but it is wasted on a symbol that stops before the second condition.
 */
interface Pair {
  rsi: Slot;
  adx: Slot;
  /** Of the recent symbols that read either field (halved as it reaches PAIR_WINDOW), those that read both. */
  either: number;
  both: number;
  fuse: boolean;
}

/** Symbols over which a Pair counts how often both fields are read. */
const PAIR_WINDOW = 256;

interface Compiled {
  test: () => boolean;
  /** A rough cost, to run cheap items of `and` / `or` first. */
  cost: number;
}

/** Bars a cost estimate assumes (one year of daily bars). */
const TYPICAL_BARS = 260;
/** Distinct texts remembered in their compared form before the memo starts over. */
const TEXT_MEMO_SIZE = 1024;
const NO_BARS: ScanBars = { open: new Float64Array(0), high: new Float64Array(0), low: new Float64Array(0), close: new Float64Array(0), volume: new Float64Array(0) };
const NO_FACTS: ScanFacts = Object.freeze({});

export interface CompileOptions {
  /**
   * Keep each symbol's whole series of the recursive indicators (RSI, EMA, ATR, ADX and the fields
   * made from them) for as long as its bars object lives, keyed by that object: a replay that
   * evaluates the same bars as of every session computes them once instead of once per session.
   * Same values (the value at i reads bars 0..i only); memory: 8 bytes per bar per such field.
   * The bars must not change while memoized.
   */
  memoize?: boolean;
}

/** A comparison that is false when either side is NaN (`!=` included). */
function comparer(op: Comparison): (a: number, b: number) => boolean {
  switch (op) {
    case '<':
      return (a, b) => a < b;
    case '<=':
      return (a, b) => a <= b;
    case '>':
      return (a, b) => a > b;
    case '>=':
      return (a, b) => a >= b;
    case '=':
      return (a, b) => a === b;
    case '!=':
      return (a, b) => a === a && b === b && a !== b;
  }
}

/** Every condition of an expression, left to right. */
function eachCondition(expr: ScanExpr, visit: (condition: Condition) => void): void {
  if (expr.kind === 'and' || expr.kind === 'or') for (const item of expr.items) eachCondition(item, visit);
  else if (expr.kind === 'not') eachCondition(expr.item, visit);
  else visit(expr);
}

/**
 * The scan compiled for evaluation over many symbols. Throws a RangeError for an expression the
 * parser never produces: an unknown field or refused parameters, a text field in a comparison or a
 * cross, a number field in `in`, a `within` that is not a whole number of at least 1.
 */
export function compileScan(expr: ScanExpr, options: CompileOptions = {}): CompiledScan {
  const fields = fieldsOf(expr);
  /** Per field key: each symbol's whole series of a `whole` field, when memoized (backtests). */
  const memo = options.memoize ? new Map<string, WeakMap<ScanBars, Float64Array>>() : null;
  const slots = new Map<string, Slot>();
  for (const ref of fields) {
    const field = resolveField(ref);
    slots.set(field.key, { field, trailing: 1, buffer: new Float64Array(0), count: 0, text: MISSING_TEXT, stamp: 0, asked: -1 });
  }
  const slotOf = (ref: FieldRef, kind: 'number' | 'text'): Slot => {
    const slot = slots.get(fieldKey(ref))!;
    if (slot.field.kind !== kind) {
      throw new RangeError(kind === 'number' ? `"${slot.field.key}" is a text field: use =, !=, in or not in` : `"${slot.field.key}" is a number field: compare it with a number`);
    }
    return slot;
  };
  eachCondition(expr, (condition) => {
    if (condition.kind === 'in') {
      slotOf(condition.left, 'text');
      return;
    }
    const refs = [condition.left, ...(condition.kind !== 'between' && condition.right.kind === 'field' ? [condition.right.ref] : [])];
    const trailing = condition.kind === 'cross' ? condition.within + 1 : 1;
    if (condition.kind === 'cross' && !(Number.isInteger(condition.within) && condition.within >= 1)) {
      throw new RangeError(`A cross looks back within a whole number of sessions of at least 1, got ${condition.within}`);
    }
    for (const ref of refs) {
      const slot = slotOf(ref, 'number');
      slot.trailing = Math.max(slot.trailing, trailing);
    }
  });
  const ordered = fields.map((ref) => slots.get(fieldKey(ref))!);
  for (const slot of ordered) slot.buffer = new Float64Array(Math.min(slot.trailing, 64));
  const named = (name: string) => (memo ? undefined : ordered.find((slot) => slot.field.ref.field.toLowerCase() === name));
  const [rsiSlot, adxSlot] = [named('rsi'), named('adx')];
  const pair: Pair | null = rsiSlot && adxSlot ? { rsi: rsiSlot, adx: adxSlot, either: 0, both: 0, fuse: false } : null;

  // The symbol being evaluated; `generation` tells the slots' values of this one from older ones.
  let bars = NO_BARS;
  let facts = NO_FACTS;
  let end = -1;
  let generation = 0;
  const textMemo = new Map<string, TextValue>();

  /** Makes room for the slot's trailing values as of `end` and marks them this symbol's; answers their first index. */
  const claim = (slot: Slot): number => {
    const count = Math.min(slot.trailing, end + 1);
    if (slot.buffer.length < count) slot.buffer = new Float64Array(Math.min(slot.trailing, Math.max(count, 2 * slot.buffer.length)));
    slot.count = count;
    slot.stamp = generation;
    return end - count + 1;
  };
  /** The slot's trailing values as of `end`, computed on first use for this symbol. */
  const numbers = (slot: Slot): Float64Array => {
    slot.asked = generation;
    if (slot.stamp === generation) return slot.buffer;
    if (pair !== null && pair.fuse && (slot === pair.rsi || slot === pair.adx)) {
      fillRsiAdx(bars, pair.rsi.field, claim(pair.rsi), pair.rsi.buffer, pair.adx.field, claim(pair.adx), pair.adx.buffer, end);
    } else if (memo && slot.field.whole) {
      const from = claim(slot);
      // The value at i reads bars 0..i only (field-series.ts): the whole series, computed once, answers every `end`.
      let bySymbol = memo.get(slot.field.key);
      if (!bySymbol) memo.set(slot.field.key, (bySymbol = new WeakMap()));
      let series = bySymbol.get(bars);
      if (!series) bySymbol.set(bars, (series = fieldSeries(slot.field.ref, bars, barCount(bars) - 1, facts)));
      slot.buffer.set(series.subarray(from, end + 1));
    } else {
      slot.field.fill(bars, facts, claim(slot), end, slot.buffer);
    }
    return slot.buffer;
  };
  const text = (slot: Slot): TextValue => {
    if (slot.stamp !== generation) {
      const raw = slot.field.text(facts);
      let value = raw === null ? MISSING_TEXT : textMemo.get(raw);
      if (value === undefined) {
        const display = raw!.trim();
        value = display === '' ? MISSING_TEXT : { display, match: display.toLowerCase() };
        if (textMemo.size >= TEXT_MEMO_SIZE) textMemo.clear();
        textMemo.set(raw!, value);
      }
      slot.text = value;
      slot.stamp = generation;
    }
    return slot.text;
  };

  const costOf = (slot: Slot) => slot.field.cost(slot.trailing, TYPICAL_BARS);

  const compileCondition = (condition: Condition): Compiled => {
    if (condition.kind === 'in') {
      const slot = slotOf(condition.left, 'text');
      const wanted = condition.values.map((value) => value.trim().toLowerCase());
      const negated = condition.negated;
      const test = () => {
        const value = text(slot).match;
        if (value === null) return false;
        return wanted.includes(value) !== negated;
      };
      return { test, cost: 0 };
    }
    const left = slotOf(condition.left, 'number');
    if (condition.kind === 'between') {
      const { low, high } = condition;
      const test = () => {
        const value = numbers(left)[left.count - 1]!;
        return value >= low && value <= high;
      };
      return { test, cost: costOf(left) };
    }
    const right = condition.right.kind === 'field' ? slotOf(condition.right.ref, 'number') : null;
    const constant = condition.right.kind === 'number' ? condition.right.value : Number.NaN;
    const cost = costOf(left) + (right ? costOf(right) : 0);
    if (condition.kind === 'compare') {
      const compare = comparer(condition.op);
      const test = () => {
        const value = numbers(left)[left.count - 1]!;
        if (value !== value) return false;
        return compare(value, right ? numbers(right)[right.count - 1]! : constant);
      };
      return { test, cost };
    }
    const { within } = condition;
    const above = condition.direction === 'above';
    const test = () => {
      const l = numbers(left);
      const r = right ? numbers(right) : null;
      // Sessions s = end − back with s − 1 ≥ 0; buffers hold at least span + 1 trailing values.
      const span = Math.min(within, end);
      for (let back = 0; back < span; back += 1) {
        const now = l[left.count - 1 - back]!;
        const before = l[left.count - 2 - back]!;
        const otherNow = r ? r[right!.count - 1 - back]! : constant;
        const otherBefore = r ? r[right!.count - 2 - back]! : constant;
        if (above ? before <= otherBefore && now > otherNow : before >= otherBefore && now < otherNow) return true;
      }
      return false;
    };
    return { test, cost };
  };

  const compileExpr = (node: ScanExpr): Compiled => {
    if (node.kind === 'not') {
      const inner = compileExpr(node.item);
      return { test: () => !inner.test(), cost: inner.cost };
    }
    if (node.kind !== 'and' && node.kind !== 'or') return compileCondition(node);
    const parts = node.items.map(compileExpr).sort((a, b) => a.cost - b.cost);
    const cost = parts.reduce((sum, part) => sum + part.cost, 0);
    if (parts.length === 1) return parts[0]!;
    const tests = parts.map((part) => part.test);
    // An empty `and` is true and an empty `or` false, as in logic (the parser makes neither).
    const test =
      node.kind === 'and'
        ? () => {
            for (let i = 0; i < tests.length; i += 1) if (!tests[i]!()) return false;
            return true;
          }
        : () => {
            for (let i = 0; i < tests.length; i += 1) if (tests[i]!()) return true;
            return false;
          };
    return { test, cost };
  };
  const root = compileExpr(expr).test;

  /** Starts the evaluation of a symbol; false when `at` is no bar index of the bars. */
  const begin = (symbolBars: ScanBars, symbolFacts: ScanFacts, at: number | undefined): boolean => {
    if (pair !== null && (pair.rsi.asked === generation || pair.adx.asked === generation)) {
      // The symbol before read one or both: fuse while three in four of the recent ones read both.
      pair.either += 1;
      if (pair.rsi.asked === pair.adx.asked) pair.both += 1;
      if (pair.either >= PAIR_WINDOW) {
        pair.either >>= 1;
        pair.both >>= 1;
      }
      pair.fuse = pair.either >= 16 && 4 * pair.both >= 3 * pair.either;
    }
    generation += 1;
    bars = symbolBars;
    facts = symbolFacts;
    const count = barCount(symbolBars);
    end = at ?? count - 1;
    return Number.isInteger(end) && end >= 0 && end < count;
  };
  const valueOf = (slot: Slot): ScanValue => {
    if (slot.field.kind === 'text') return text(slot).display;
    const value = numbers(slot)[slot.count - 1]!;
    return value === value ? value : null;
  };
  const values = (valid: boolean): ScanValue[] => ordered.map((slot) => (valid ? valueOf(slot) : null));

  return {
    expr,
    fields,
    columns: ordered.map((slot) => slot.field.key),
    matches: (symbolBars, symbolFacts, at) => begin(symbolBars, symbolFacts, at) && root(),
    evaluateSymbol: (symbolBars, symbolFacts, at) => {
      const valid = begin(symbolBars, symbolFacts, at);
      return { matched: valid && root(), values: values(valid) };
    },
    valuesIfMatch: (symbolBars, symbolFacts, at) => (begin(symbolBars, symbolFacts, at) && root() ? values(true) : null),
  };
}

/**
 * Runs a compiled scan over a universe: the symbols that match as of their `end` (default: their
 * last bar), in the order given, each with its values in `compiled.fields` order.
 */
export function runScan(compiled: CompiledScan, symbols: Iterable<ScanSymbol>): ScanMatch[] {
  const matches: ScanMatch[] = [];
  for (const { symbol, bars, facts, end } of symbols) {
    const values = compiled.valuesIfMatch(bars, facts, end);
    if (values !== null) matches.push({ symbol, values });
  }
  return matches;
}
