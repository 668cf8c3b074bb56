import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_FORMULAS } from './adversarial-formulas';
import { COMPARISONS, type Condition, type FieldRef, type Operand, type ScanExpr, type ScanGroups, exprToGroups, groupsToExpr } from './ast';
import { SCAN_FIELDS } from './fields';
import { FormulaError, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH, parseFormula, printFormula } from './formula';

const ref = (field: string, ...params: number[]): FieldRef => ({ field, params });
const num = (value: number): Operand => ({ kind: 'number', value });
const fld = (field: string, ...params: number[]): Operand => ({ kind: 'field', ref: ref(field, ...params) });
const rsiBelow30: Condition = { kind: 'compare', left: ref('rsi', 14), op: '<', right: num(30) };
const closeAbove5: Condition = { kind: 'compare', left: ref('close'), op: '>', right: num(5) };
const rvolAtLeast2: Condition = { kind: 'compare', left: ref('rvol'), op: '>=', right: num(2) };
const energy: Condition = { kind: 'in', left: ref('sector'), values: ['Energy'], negated: false };

/** The FormulaError of a formula the parser must refuse (anything else thrown fails the test). */
function errorOf(text: string): FormulaError {
  try {
    parseFormula(text);
  } catch (error) {
    if (error instanceof FormulaError) return error;
    throw error;
  }
  throw new Error(`parsed, but should not have: ${text}`);
}

describe('parseFormula', () => {
  it("parses the issue's example to the exact expression", () => {
    expect(parseFormula('rsi(14) < 30 and close > sma(200) and pct_below_high(21) >= 10 and rvol >= 1.5')).toEqual({
      kind: 'and',
      items: [
        { kind: 'compare', left: ref('rsi', 14), op: '<', right: num(30) },
        { kind: 'compare', left: ref('close'), op: '>', right: fld('sma', 200) },
        { kind: 'compare', left: ref('pct_below_high', 21), op: '>=', right: num(10) },
        { kind: 'compare', left: ref('rvol'), op: '>=', right: num(1.5) },
      ],
    });
  });

  it('fills in the parameters left out, and reads keywords and names in any case', () => {
    expect(parseFormula('rsi < 30')).toEqual(rsiBelow30);
    expect(parseFormula('change_pct > pct_below_high')).toEqual({ kind: 'compare', left: ref('change_pct', 1), op: '>', right: fld('pct_below_high', 21) });
    expect(parseFormula('RSI(14) < 30 AND Close > 5 Or RVOL >= 2')).toEqual({ kind: 'or', items: [{ kind: 'and', items: [rsiBelow30, closeAbove5] }, rvolAtLeast2] });
  });

  it('binds and tighter than or, and not tighter than both', () => {
    expect(parseFormula('rsi < 30 or close > 5 and rvol >= 2')).toEqual({ kind: 'or', items: [rsiBelow30, { kind: 'and', items: [closeAbove5, rvolAtLeast2] }] });
    expect(parseFormula('rsi < 30 and close > 5 or rvol >= 2')).toEqual({ kind: 'or', items: [{ kind: 'and', items: [rsiBelow30, closeAbove5] }, rvolAtLeast2] });
    expect(parseFormula('not rsi < 30 and close > 5')).toEqual({ kind: 'and', items: [{ kind: 'not', item: rsiBelow30 }, closeAbove5] });
    expect(parseFormula('not rsi < 30 or close > 5')).toEqual({ kind: 'or', items: [{ kind: 'not', item: rsiBelow30 }, closeAbove5] });
  });

  it('groups with parentheses, and a parenthesised condition is the condition', () => {
    expect(parseFormula('(rsi < 30 or close > 5) and rvol >= 2')).toEqual({ kind: 'and', items: [{ kind: 'or', items: [rsiBelow30, closeAbove5] }, rvolAtLeast2] });
    expect(parseFormula('not (rsi < 30 and close > 5)')).toEqual({ kind: 'not', item: { kind: 'and', items: [rsiBelow30, closeAbove5] } });
    expect(parseFormula('((rsi < 30))')).toEqual(rsiBelow30);
  });

  it('flattens lists of the same kind, parenthesised or not, and keeps not not', () => {
    expect(parseFormula('rsi < 30 and (close > 5 and rvol >= 2)')).toEqual({ kind: 'and', items: [rsiBelow30, closeAbove5, rvolAtLeast2] });
    expect(parseFormula('(rsi < 30 or close > 5) or (rvol >= 2 or sector = "Energy")')).toEqual({ kind: 'or', items: [rsiBelow30, closeAbove5, rvolAtLeast2, energy] });
    expect(parseFormula('((rsi < 30 and close > 5)) and ((rvol >= 2))')).toEqual({ kind: 'and', items: [rsiBelow30, closeAbove5, rvolAtLeast2] });
    expect(parseFormula('not not rsi < 30')).toEqual({ kind: 'not', item: { kind: 'not', item: rsiBelow30 } });
  });

  it('reads every comparison, its aliases, negative, fractional and exponent numbers, without whitespace', () => {
    const ops = COMPARISONS.map((op) => (parseFormula(`close ${op} 1`) as { op: string }).op);
    expect(ops).toEqual(['<', '<=', '>', '>=', '=', '!=']);
    expect(parseFormula('close == 1')).toEqual({ kind: 'compare', left: ref('close'), op: '=', right: num(1) });
    expect(parseFormula('close <> 1')).toEqual({ kind: 'compare', left: ref('close'), op: '!=', right: num(1) });
    const rights = ['-3', '.5', '-0.25', '2e6', '1.5E-3', '1e+21', '-0'].map((n) => (parseFormula(`gap_pct > ${n}`) as { right: Operand }).right);
    expect(rights).toEqual([num(-3), num(0.5), num(-0.25), num(2e6), num(0.0015), num(1e21), num(0)]);
    expect(Object.is((rights[6] as { value: number }).value, 0)).toBe(true);
    expect(parseFormula('rsi(14)<30 and(close>=sma(200))')).toEqual(parseFormula('rsi(14) < 30 and (close >= sma(200))'));
    expect(parseFormula('\n\trsi<30\r\n')).toEqual(rsiBelow30);
  });

  it('reads between, whose "and" is its own', () => {
    expect(parseFormula('rsi between 30 and 50')).toEqual({ kind: 'between', left: ref('rsi', 14), low: 30, high: 50 });
    expect(parseFormula('rsi(7) between -1 and -1 and close > 5')).toEqual({ kind: 'and', items: [{ kind: 'between', left: ref('rsi', 7), low: -1, high: -1 }, closeAbove5] });
  });

  it('reads crosses above and below, against a number or a field, within 1 by default', () => {
    expect(parseFormula('close crosses above sma(50)')).toEqual({ kind: 'cross', left: ref('close'), direction: 'above', right: fld('sma', 50), within: 1 });
    expect(parseFormula('RSI CROSSES BELOW 30 WITHIN 3')).toEqual({ kind: 'cross', left: ref('rsi', 14), direction: 'below', right: num(30), within: 3 });
    expect(parseFormula('ema crosses above sma within 250')).toEqual({ kind: 'cross', left: ref('ema', 20), direction: 'above', right: fld('sma', 50), within: 250 });
  });

  it('reads text conditions as in lists: =, !=, in and not in, with either quote and escapes', () => {
    expect(parseFormula('sector = "Energy"')).toEqual(energy);
    expect(parseFormula("sector != 'Energy'")).toEqual({ ...energy, negated: true });
    expect(parseFormula('exchange in ("NYSE", \'NASDAQ\')')).toEqual({ kind: 'in', left: ref('exchange'), values: ['NYSE', 'NASDAQ'], negated: false });
    expect(parseFormula('exchange NOT IN ("TSX")')).toEqual({ kind: 'in', left: ref('exchange'), values: ['TSX'], negated: true });
    expect(parseFormula(String.raw`sector = "a\"b\\c'd"`)).toEqual({ ...energy, values: [`a"b\\c'd`] });
    expect(parseFormula(String.raw`sector = 'it\'s'`)).toEqual({ ...energy, values: ["it's"] });
  });
});

describe('parseFormula refuses', () => {
  it.each([
    ['', 0, 'The formula is empty'],
    ['  \n ', 0, 'The formula is empty'],
    ['rsi < 30 close > 5', 9, 'Unexpected "close" after a complete condition'],
    ['rsi < 30)', 8, 'this ")" closes no "("'],
    ['(rsi < 30', 9, 'Expected ")" but found the end of the formula'],
    ['rsi <', 5, 'Expected a number or a field but found the end of the formula'],
    ['rsi 30', 4, 'Expected a comparison (<, <=, >, >=, =, !=), between or crosses after rsi(14) but found "30"'],
    ['sector 30', 7, 'Expected =, !=, in or not in after sector'],
    ['and rsi < 3', 0, 'Expected a field, "not" or "(" but found "and"'],
    ['rsi < 30 and', 12, 'the end of the formula'],
    ['()', 1, 'Expected a field, "not" or "(" but found ")"'],
    ['not', 3, 'the end of the formula'],
    ['rsi( < 3', 5, 'Expected a parameter of rsi but found "<"'],
    ['rsi() < 3', 4, 'Expected a parameter of rsi but found ")"'],
    ['rsi(14 < 3', 7, 'Expected ")" but found "<"'],
    ['rsi(1000) < 3', 4, 'rsi: period must be a whole number from 2 to 100'],
    ['rsi(14.5) < 3', 4, 'rsi: period must be a whole number from 2 to 100'],
    ['close(5) > 1', 6, 'close takes no parameters'],
    ['rsi(14, 3) < 3', 8, 'rsi takes at most 1 parameter'],
    ['pct_below_high(20) > 1', 15, 'pct_below_high: sessions must be one of 21, 63, 126, 252'],
    ['sector < "x"', 7, 'sector is a text field'],
    ['sector = 5', 9, 'sector is a text field: expected a string'],
    ['sector = close', 9, 'sector is a text field: expected a string'],
    ['rsi = "x"', 6, 'rsi is a number field'],
    ['close > sector', 8, 'sector is a text field: only a number field'],
    ['close crosses above exchange', 20, 'exchange is a text field'],
    ['sector between 1 and 2', 7, 'sector is a text field: "between" needs a number field'],
    ['sector crosses above 3', 7, 'sector is a text field: "crosses" needs a number field'],
    ['rsi in ("a")', 4, 'rsi is a number field: "in" needs a text field'],
    ['rsi not in ("a")', 4, 'rsi is a number field: "not in" needs a text field'],
    ['sector not = "a"', 7, 'Expected =, !=, in or not in after sector but found "not"'],
    ['sector in "a"', 10, 'Expected "(" but found the string "a"'],
    ['sector in ()', 11, 'Expected a string in quotes but found ")"'],
    ['sector in ("a", 3)', 16, 'Expected a string in quotes but found "3"'],
    ['sector in ("a"', 14, 'Expected ")" but found the end of the formula'],
    ['rsi between 50 and 30', 12, 'between: the low bound 50 is above the high bound 30'],
    ['rsi between 1 or 2', 14, 'Expected "and" (between low and high) but found "or"'],
    ['rsi between sma and 2', 12, 'Expected the low bound of between but found "sma"'],
    ['rsi between 1 and close', 18, 'Expected the high bound of between'],
    ['close crosses sideways 3', 14, 'Expected "above" or "below" after "crosses"'],
    ['close crosses above "x"', 20, 'Expected a number or a field but found the string "x"'],
    ['close crosses above 3 within 0', 29, 'within: the sessions must be a whole number from 1 to 250'],
    ['close crosses above 3 within 1.5', 29, 'within: the sessions must be a whole number from 1 to 250'],
    ['close crosses above 3 within 251', 29, 'within: the sessions must be a whole number from 1 to 250'],
    ['close crosses above 3 within', 28, 'Expected a number of sessions after "within"'],
    ['close > 1e999', 8, 'Number "1e999" is too large'],
    ['close > 30and rsi < 3', 8, 'Malformed number "30and"'],
    ['close > 1.', 8, 'Malformed number "1."'],
    ['close > 2e', 8, 'Malformed number "2e"'],
    ['close $ 3', 6, 'Unexpected character "$"'],
    ['close > - 3', 8, 'Unexpected "-"'],
    ['close ! 3', 6, 'Unexpected character "!"'],
    ['sector = "abc', 9, 'Unterminated string'],
    ['sector = "a\\nb"', 11, 'Unknown escape in a string'],
  ])('%j at position %i: %s', (text, position, problem) => {
    const error = errorOf(text);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('FormulaError');
    expect(error.position).toBe(position);
    expect(error.message).toContain(problem);
    expect(error.message.startsWith(`${error.problem} at position ${position}`)).toBe(true);
  });

  it('an unknown field, naming it and suggesting the closest name within two edits', () => {
    expect(errorOf('rsx < 30').message).toBe('Unknown field "rsx" at position 0 (did you mean rsi?)');
    expect(errorOf('close > 1 and pct_below_hi(21) > 3').message).toBe('Unknown field "pct_below_hi" at position 14 (did you mean pct_below_high?)');
    expect(errorOf('close > SMAA').message).toBe('Unknown field "SMAA" at position 8 (did you mean sma?)');
    expect(errorOf('volume > 3').message).toBe('Unknown field "volume" at position 0');
    expect(errorOf('a < 3').message).toBe('Unknown field "a" at position 0');
  });

  it(`a formula over ${MAX_FORMULA_LENGTH} characters, and accepts one of exactly ${MAX_FORMULA_LENGTH}`, () => {
    const padded = `rsi < 30${' '.repeat(MAX_FORMULA_LENGTH - 8)}`;
    expect(padded).toHaveLength(2000);
    expect(parseFormula(padded)).toEqual(rsiBelow30);
    const error = errorOf(`${padded} `);
    expect(error.position).toBe(2000);
    expect(error.message).toBe('The formula is longer than 2000 characters (2001) at position 2000');
  });

  it(`a formula over ${MAX_FORMULA_LENGTH} characters written out in full, at the condition that passes the limit`, () => {
    // 222 × `rsi<3` is 1,994 characters; written out, each condition is `rsi(14) < 3` (15 characters with ` or `).
    const short = Array.from({ length: 222 }, () => 'rsi<3').join(' or ');
    expect(short).toHaveLength(1994);
    const error = errorOf(short);
    // Condition i ends at 15·i + 11 written out: the first past 2,000 is i = 133, typed at 9 · 133.
    expect(error.position).toBe(1197);
    expect(error.message).toBe('Written out in full (every parameter, canonical spaces) the formula is 3326 characters, over the limit of 2000; it passes the limit in the condition at position 1197');
    const fits = Array.from({ length: 133 }, () => 'rsi<3').join(' or ');
    expect(printFormula(parseFormula(fits))).toHaveLength(1991);
  });

  it(`nesting deeper than ${MAX_FORMULA_DEPTH} levels of "(" and "not", and accepts ${MAX_FORMULA_DEPTH}`, () => {
    const parens = (n: number) => `${'('.repeat(n)}rsi < 30${')'.repeat(n)}`;
    expect(parseFormula(parens(32))).toEqual(rsiBelow30);
    expect(errorOf(parens(33)).position).toBe(32);
    expect(errorOf(parens(33)).message).toContain('nested deeper than 32 levels at position 32');
    const nots = (n: number) => `${'not '.repeat(n)}rsi < 30`;
    let expected: ScanExpr = rsiBelow30;
    for (let i = 0; i < 32; i += 1) expected = { kind: 'not', item: expected };
    expect(parseFormula(nots(32))).toEqual(expected);
    expect(errorOf(nots(33)).position).toBe(128);
    // `not (` is two levels: 16 of them are 32, one more `not` is the 33rd.
    expect(() => parseFormula(`${'not ('.repeat(16)}rsi < 30${')'.repeat(16)}`)).not.toThrow();
    expect(errorOf(`${'not ('.repeat(16)}not rsi < 30${')'.repeat(16)}`).position).toBe(80);
    // Levels are what encloses a point, not a count over the formula: side by side groups do not add up.
    expect(() => parseFormula(Array.from({ length: 5 }, () => parens(32)).join(' and '))).not.toThrow();
    // Parameters, in lists and `not in` nest nothing.
    expect(() => parseFormula(`${'('.repeat(32)}sector not in ("a") and rsi(14) < 3${')'.repeat(32)}`)).not.toThrow();
  });
});

describe('printFormula', () => {
  it('prints canonical lower case with every parameter, and only the parentheses precedence needs', () => {
    expect(printFormula(parseFormula('RSI < 30 AND (Close > 5 OR rvol >= 2)'))).toBe('rsi(14) < 30 and (close > 5 or rvol >= 2)');
    expect(printFormula(parseFormula('((rsi < 30 and close > 5)) or (rvol >= 2)'))).toBe('rsi(14) < 30 and close > 5 or rvol >= 2');
    expect(printFormula(parseFormula('not (rsi < 30)'))).toBe('not rsi(14) < 30');
    expect(printFormula(parseFormula('not (rsi < 30 or close > 5)'))).toBe('not (rsi(14) < 30 or close > 5)');
    expect(printFormula(parseFormula('not (not (rsi < 30 and close > 5))'))).toBe('not not (rsi(14) < 30 and close > 5)');
    expect(printFormula(parseFormula('(not rsi < 30) and not (close > 5)'))).toBe('not rsi(14) < 30 and not close > 5');
  });

  it('prints each form of condition', () => {
    expect(printFormula(parseFormula('close==1e21'))).toBe('close = 1e+21');
    expect(printFormula(parseFormula('close<>.5'))).toBe('close != 0.5');
    expect(printFormula(parseFormula('rsi(7) between -1 and 2.5'))).toBe('rsi(7) between -1 and 2.5');
    expect(printFormula(parseFormula('close crosses above sma(50) within 3'))).toBe('close crosses above sma(50) within 3');
    expect(printFormula(parseFormula('close crosses below 3 within 1'))).toBe('close crosses below 3');
    expect(printFormula(parseFormula("sector in ('Energy')"))).toBe('sector = "Energy"');
    expect(printFormula(parseFormula('sector not in ("Energy")'))).toBe('sector != "Energy"');
    expect(printFormula(parseFormula("exchange in ('NYSE','NASDAQ')"))).toBe('exchange in ("NYSE", "NASDAQ")');
    expect(printFormula(parseFormula('exchange not in ("A", "B")'))).toBe('exchange not in ("A", "B")');
    expect(printFormula({ ...energy, values: [`it's "x" \\ y`] })).toBe(String.raw`sector = "it's \"x\" \\ y"`);
  });
});

// ---- Generators: valid expressions as the parser produces them (defaults filled, lists flattened, no -0).

const numberFields = SCAN_FIELDS.filter((spec) => spec.kind === 'number');
const textFields = SCAN_FIELDS.filter((spec) => spec.kind === 'text');
const fieldArb = (specs: typeof SCAN_FIELDS): fc.Arbitrary<FieldRef> =>
  fc.constantFrom(...specs).chain((spec) =>
    (spec.params.length === 0
      ? fc.constant<number[]>([])
      : fc.tuple(...spec.params.map((p) => (p.choices ? fc.constantFrom(...p.choices) : fc.integer({ min: p.min, max: p.max }))))
    ).map((params) => ({ field: spec.name, params: [...params] })),
  );
const numberArb = fc
  .oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0.1, 1e21, 1e-7, -2.5e-300))
  .map((n) => (n === 0 ? 0 : n));
const operandArb: fc.Arbitrary<Operand> = fc.oneof(
  numberArb.map((value) => ({ kind: 'number' as const, value })),
  fieldArb(numberFields).map((r) => ({ kind: 'field' as const, ref: r })),
);
const conditionArb: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ kind: fc.constant('compare' as const), left: fieldArb(numberFields), op: fc.constantFrom(...COMPARISONS), right: operandArb }),
  fc.tuple(fieldArb(numberFields), numberArb, numberArb).map(([left, a, b]) => ({ kind: 'between' as const, left, low: Math.min(a, b), high: Math.max(a, b) })),
  fc.record({
    kind: fc.constant('cross' as const),
    left: fieldArb(numberFields),
    direction: fc.constantFrom('above' as const, 'below' as const),
    right: operandArb,
    within: fc.integer({ min: 1, max: 250 }),
  }),
  fc.record({
    kind: fc.constant('in' as const),
    left: fieldArb(textFields),
    values: fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom('"', "'", '\\', '\\"', ' and ', ')')), { minLength: 1, maxLength: 4 }),
    negated: fc.boolean(),
  }),
);
const depth = { depthIdentifier: 'scan-expr', maxDepth: 5, depthSize: 'small' as const };
const { expr: exprArb } = fc.letrec<{ expr: ScanExpr; and: ScanExpr; or: ScanExpr; not: ScanExpr }>((tie) => ({
  expr: fc.oneof(depth, conditionArb, tie('and'), tie('or'), tie('not')),
  and: fc.array(fc.oneof(depth, conditionArb, tie('or'), tie('not')), { minLength: 2, maxLength: 4 }).map((items) => ({ kind: 'and' as const, items })),
  or: fc.array(fc.oneof(depth, conditionArb, tie('and'), tie('not')), { minLength: 2, maxLength: 4 }).map((items) => ({ kind: 'or' as const, items })),
  not: tie('expr').map((item) => ({ kind: 'not' as const, item })),
}));

describe('round trips', () => {
  it('builder groups → expression → formula → expression → the same groups', () => {
    const groupsArb: fc.Arbitrary<ScanGroups> = fc.record({
      all: fc.array(conditionArb, { maxLength: 4 }),
      any: fc.array(conditionArb, { maxLength: 4 }),
      none: fc.array(conditionArb, { maxLength: 4 }),
    });
    const examples: ScanGroups[] = [
      { all: [rsiBelow30, closeAbove5], any: [rvolAtLeast2, energy], none: [{ ...energy, values: ['Utilities', 'Financials'] }] },
      { all: [], any: [rsiBelow30, closeAbove5], none: [] },
      { all: [], any: [], none: [rsiBelow30] },
    ];
    fc.assert(
      fc.property(groupsArb, (groups) => {
        const expr = groupsToExpr(groups);
        fc.pre(expr !== null);
        const back = exprToGroups(parseFormula(printFormula(expr!)));
        expect(back).toEqual(exprToGroups(expr!));
        // One any-of row is a requirement like an all-of row: the builder shows it there.
        if (groups.any.length !== 1) expect(back).toEqual(groups);
      }),
      { numRuns: 300, examples: examples.map((g) => [g]) },
    );
  });

  it('every expression the parser can produce prints to a formula that parses back to it', () => {
    fc.assert(
      fc.property(exprArb, (expr) => {
        const text = printFormula(expr);
        // Longer than the limit written out, it is no expression the parser produces.
        if (text.length > MAX_FORMULA_LENGTH) return void expect(() => parseFormula(text)).toThrow(FormulaError);
        expect(parseFormula(text)).toEqual(expr);
        expect(printFormula(parseFormula(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });
});

// ---- Fuzz: whatever the text, a result or a FormulaError, quickly.

const TOKENS = [
  '(', ')', ',', 'and', 'or', 'not', 'in', 'between', 'crosses', 'above', 'below', 'within', 'AND', 'Not',
  'rsi', 'rsi(14)', 'rsi(', 'close', 'sma(200)', 'pct_below_high(21)', 'sector', 'exchange', 'rsx', 'volume',
  '<', '<=', '>', '>=', '=', '==', '!=', '<>', '!', '-', '.', 'e',
  '30', '-3', '1.5', '2e6', '1e999', '0', '3', '"Energy"', "'x'", '"', "'", '\\', '"a\\"b"', ' ', '\n', '$',
];
const tokenText = (separator: string) => fc.array(fc.constantFrom(...TOKENS), { maxLength: 400 }).map((tokens) => tokens.join(separator));
/** A valid formula with one cut, insertion or deletion somewhere. */
const mutated = fc
  .tuple(exprArb.map(printFormula), fc.nat(), fc.nat({ max: 20 }), fc.constantFrom('', ...TOKENS))
  .map(([text, at, drop, insert]) => text.slice(0, at % (text.length + 1)) + insert + text.slice((at % (text.length + 1)) + drop));
const nested = fc
  .tuple(fc.integer({ min: 0, max: 1100 }), fc.constantFrom('(', 'not ', 'not (', '(not '), fc.boolean())
  .map(([n, open, closed]) => `${open.repeat(n)}rsi < 30${closed ? ')'.repeat(n) : ''}`);

/** The formula parses (and prints back to itself) or answers a FormulaError with a position inside it; its speed is the bench's (none may take 50 ms). */
function parsesOrRefuses(text: string): void {
  let expr: ScanExpr | null = null;
  try {
    expr = parseFormula(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaError);
    const position = (error as FormulaError).position;
    expect(Number.isInteger(position) && position >= 0 && position <= text.length).toBe(true);
  }
  if (expr) {
    const printed = printFormula(expr);
    expect(printFormula(parseFormula(printed))).toBe(printed);
  }
}

describe('fuzz', () => {
  it('any string parses or is refused with a FormulaError (how fast: the bench)', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 2100 })), parsesOrRefuses), { numRuns: 400 });
  });

  it.each(ADVERSARIAL_FORMULAS.map((text) => [text.slice(0, 24), text]))('%j…, at the worst, too', (_, text) => {
    for (let i = 0; i < 5; i += 1) parsesOrRefuses(text);
  });

  it("strings of the language's tokens, mutated formulas and deep nesting do too", () => {
    fc.assert(fc.property(fc.oneof(tokenText(' '), tokenText(''), mutated, nested), parsesOrRefuses), { numRuns: 1500 });
  });
});
