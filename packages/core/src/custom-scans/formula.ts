/**
 * The formula of a custom scan (issue 26, docs/custom-scans.md, "The formula language"): `parseFormula`
 * reads a formula into the scan's expression (ast.ts), `printFormula` writes an expression back as
 * the canonical formula. The parser is hand-written recursive descent over one token of lookahead
 * (formula-lexer.ts): no backtracking, time linear in the formula's length, and its recursion bounded
 * by MAX_FORMULA_DEPTH. Every mistake is a FormulaError with the position of the mistake.
 *
 * Grammar (keywords and names case-insensitive):
 *   expr      := andExpr ('or' andExpr)*
 *   andExpr   := notExpr ('and' notExpr)*
 *   notExpr   := 'not' notExpr | '(' expr ')' | condition
 *   condition := field ('<' | '<=' | '>' | '>=' | '=' | '==' | '!=' | '<>') operand
 *              | field 'between' number 'and' number
 *              | field 'crosses' ('above' | 'below') operand ['within' integer]
 *              | field ('=' | '!=') string
 *              | field ['not'] 'in' '(' string (',' string)* ')'
 *   field     := name ['(' number (',' number)* ')']
 *   operand   := number | field
 */
import { type Comparison, type Condition, type FieldRef, type Operand, type ScanExpr, fieldKey, isCondition } from './ast';
import { type FieldSpec, SCAN_FIELDS, paramProblem, scanField, withDefaults } from './fields';
import { FormulaError, Lexer, type Token, describeToken } from './formula-lexer';

export { FormulaError } from './formula-lexer';

/** The longest formula accepted, in characters. */
export const MAX_FORMULA_LENGTH = 2000;

/**
 * The deepest nesting accepted. Each grouping `(` and each `not` operator opens one level for what
 * it encloses, so the depth at a point of the formula is the number of grouping parentheses still
 * open plus the `not`s applying there: `not (a or b)` reaches depth 2, `((a))` depth 2, `not not a`
 * depth 2, `a and b` depth 0. The parentheses of a field's parameters (`rsi(14)`) and of an `in`
 * list, and the `not` of `not in`, nest nothing and do not count. The opening that would make depth
 * 33 is refused at its position.
 */
export const MAX_FORMULA_DEPTH = 32;

/** The most sessions a cross may look back (`within 250`). */
const MAX_WITHIN = 250;

/**
 * The expression of a formula, e.g. `rsi(14) < 30 and close > sma(200)`. Parameters left out take
 * their defaults (`rsi` is `rsi(14)`); `a and (b and c)` is one `and` of three; a text field's
 * `= "x"` / `!= "x"` is an `in` of one value (negated for `!=`). Throws a FormulaError, and nothing
 * else, for any formula that is not one.
 *
 * The length limit holds for the formula as typed and as `printFormula` writes it out (every
 * parameter, canonical spaces: `rsi<3` is `rsi(14) < 3`), so that every expression parsed prints to
 * a formula that parses again; past the limit written out, the error points at the condition where
 * the written-out formula passes it.
 */
export function parseFormula(text: string): ScanExpr {
  if (text.length > MAX_FORMULA_LENGTH) {
    throw new FormulaError(`The formula is longer than ${MAX_FORMULA_LENGTH} characters (${text.length})`, MAX_FORMULA_LENGTH);
  }
  const parser = new Parser(new Lexer(text));
  if (parser.lexer.peek().type === 'end') throw new FormulaError('The formula is empty', 0);
  const expr = parser.expr(0);
  const rest = parser.lexer.peek();
  if (rest.type !== 'end') {
    const hint = rest.type === 'symbol' && rest.value === ')' ? 'this ")" closes no "("' : 'join conditions with and / or';
    throw new FormulaError(`Unexpected ${describeToken(rest)} after a complete condition`, rest.pos, hint);
  }
  const written = write(expr);
  if (written.text.length > MAX_FORMULA_LENGTH) {
    // Conditions print in the order they were read: the first to end past the limit is where it is passed.
    const index = written.conditionEnds.findIndex((end) => end > MAX_FORMULA_LENGTH);
    const start = parser.conditionStarts[index < 0 ? parser.conditionStarts.length - 1 : index] ?? 0;
    throw new FormulaError(
      `Written out in full (every parameter, canonical spaces) the formula is ${written.text.length} characters, over the limit of ${MAX_FORMULA_LENGTH}; it passes the limit in the condition`,
      start,
    );
  }
  return expr;
}

const isName = (token: Token, ...names: string[]) => token.type === 'name' && names.includes(token.lower);
const isSymbol = (token: Token, ...values: string[]) => token.type === 'symbol' && values.includes(token.value);
const COMPARISON_SYMBOLS = ['<', '<=', '>', '>=', '=', '!='];
/** Words that are no field's name: the parser names them as misplaced rather than unknown. */
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'between', 'crosses', 'above', 'below', 'within']);

class Parser {
  /** Where each condition starts, in the order read (the order printFormula writes them). */
  readonly conditionStarts: number[] = [];

  constructor(readonly lexer: Lexer) {}

  /** expr := andExpr ('or' andExpr)*, flattened. `depth`: the levels open around it. */
  expr(depth: number): ScanExpr {
    const items = flattenInto('or', [], this.andExpr(depth));
    while (isName(this.lexer.peek(), 'or')) {
      this.lexer.next();
      flattenInto('or', items, this.andExpr(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private andExpr(depth: number): ScanExpr {
    const items = flattenInto('and', [], this.notExpr(depth));
    while (isName(this.lexer.peek(), 'and')) {
      this.lexer.next();
      flattenInto('and', items, this.notExpr(depth));
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private notExpr(depth: number): ScanExpr {
    const token = this.lexer.peek();
    const opens = isName(token, 'not') || isSymbol(token, '(');
    if (opens && depth >= MAX_FORMULA_DEPTH) {
      throw new FormulaError(`The formula is nested deeper than ${MAX_FORMULA_DEPTH} levels`, token.pos, 'each "(" and each "not" is a level');
    }
    if (isName(token, 'not')) {
      this.lexer.next();
      return { kind: 'not', item: this.notExpr(depth + 1) };
    }
    if (isSymbol(token, '(')) {
      this.lexer.next();
      const inner = this.expr(depth + 1);
      this.expect(')', `the "(" at position ${token.pos} is not closed`);
      return inner;
    }
    return this.condition();
  }

  private condition(): Condition {
    this.conditionStarts.push(this.lexer.peek().pos);
    const left = this.field('a field, "not" or "("');
    const spec = scanField(left.field)!;
    const token = this.lexer.next();
    if (token.type === 'symbol' && COMPARISON_SYMBOLS.includes(token.value)) return this.comparison(left, spec, token.value as Comparison, token);
    if (isName(token, 'between')) {
      this.requireNumberField(spec, token, 'between');
      const low = this.number('the low bound of between');
      this.expectName('and', 'between low and high');
      const high = this.number('the high bound of between');
      if (low.value > high.value) throw new FormulaError(`between: the low bound ${low.value} is above the high bound ${high.value}`, low.pos);
      return { kind: 'between', left, low: low.value, high: high.value };
    }
    if (isName(token, 'crosses')) {
      this.requireNumberField(spec, token, 'crosses');
      const way = this.lexer.next();
      if (!isName(way, 'above', 'below')) throw new FormulaError(`Expected "above" or "below" after "crosses" but found ${describeToken(way)}`, way.pos);
      const right = this.operand();
      let within = 1;
      if (isName(this.lexer.peek(), 'within')) {
        this.lexer.next();
        const n = this.number('a number of sessions after "within"');
        if (!Number.isInteger(n.value) || n.value < 1 || n.value > MAX_WITHIN) {
          throw new FormulaError(`within: the sessions must be a whole number from 1 to ${MAX_WITHIN}`, n.pos);
        }
        within = n.value;
      }
      return { kind: 'cross', left, direction: way.type === 'name' && way.lower === 'below' ? 'below' : 'above', right, within };
    }
    if (isName(token, 'in') || (isName(token, 'not') && isName(this.lexer.peek(), 'in'))) {
      const negated = token.type === 'name' && token.lower === 'not';
      if (negated) this.lexer.next();
      this.requireTextField(spec, token, negated ? '"not in"' : '"in"');
      this.expect('(', 'a list of strings follows "in"');
      const values = [this.string()];
      while (isSymbol(this.lexer.peek(), ',')) {
        this.lexer.next();
        values.push(this.string());
      }
      this.expect(')', 'the list of "in" is not closed');
      return { kind: 'in', left, values, negated };
    }
    const forms = spec.kind === 'text' ? '=, !=, in or not in' : 'a comparison (<, <=, >, >=, =, !=), between or crosses';
    throw new FormulaError(`Expected ${forms} after ${fieldKey(left)} but found ${describeToken(token)}`, token.pos);
  }

  private comparison(left: FieldRef, spec: FieldSpec, op: Comparison, opToken: Token): Condition {
    const next = this.lexer.peek();
    if (spec.kind === 'text') {
      if (op !== '=' && op !== '!=') throw new FormulaError(`${spec.name} is a text field: compare it with =, !=, in or not in, not "${opToken.text}"`, opToken.pos);
      if (next.type !== 'string') throw new FormulaError(`${spec.name} is a text field: expected a string in quotes but found ${describeToken(next)}`, next.pos);
      this.lexer.next();
      return { kind: 'in', left, values: [next.value], negated: op === '!=' };
    }
    if (next.type === 'string') throw new FormulaError(`${spec.name} is a number field: it compares with a number or a number field, not a string`, next.pos);
    return { kind: 'compare', left, op, right: this.operand() };
  }

  /** operand := number | field (a number field). */
  private operand(): Operand {
    const token = this.lexer.peek();
    if (token.type === 'number') {
      this.lexer.next();
      return { kind: 'number', value: token.value };
    }
    const ref = this.field('a number or a field');
    if (scanField(ref.field)!.kind !== 'number') throw new FormulaError(`${ref.field} is a text field: only a number field can be compared with or crossed`, token.pos);
    return { kind: 'field', ref };
  }

  /** field := name ['(' number (',' number)* ')'], checked against the catalogue, defaults filled in. */
  private field(expected: string): FieldRef {
    const token = this.lexer.next();
    if (token.type !== 'name' || KEYWORDS.has(token.lower)) throw new FormulaError(`Expected ${expected} but found ${describeToken(token)}`, token.pos);
    const spec = scanField(token.lower);
    if (!spec) {
      const near = closestField(token.lower);
      throw new FormulaError(`Unknown field "${cutName(token.text)}"`, token.pos, near ? `did you mean ${near}?` : undefined);
    }
    const given: number[] = [];
    if (isSymbol(this.lexer.peek(), '(')) {
      this.lexer.next();
      for (;;) {
        const n = this.number(`a parameter of ${spec.name}`);
        given.push(n.value);
        // paramProblem checks the count first, so this stops within the field's own parameters + 1.
        const problem = paramProblem(spec, given);
        if (problem) throw new FormulaError(problem, n.pos);
        if (!isSymbol(this.lexer.peek(), ',')) break;
        this.lexer.next();
      }
      this.expect(')', `the parameters of ${spec.name} are not closed`);
    }
    return { field: spec.name, params: withDefaults(spec, given) };
  }

  private number(what: string): { value: number; pos: number } {
    const token = this.lexer.next();
    if (token.type !== 'number') throw new FormulaError(`Expected ${what} but found ${describeToken(token)}`, token.pos);
    return { value: token.value, pos: token.pos };
  }

  private string(): string {
    const token = this.lexer.next();
    if (token.type !== 'string') throw new FormulaError(`Expected a string in quotes but found ${describeToken(token)}`, token.pos);
    return token.value;
  }

  private expect(symbol: string, hint: string): void {
    const token = this.lexer.next();
    if (!isSymbol(token, symbol)) throw new FormulaError(`Expected "${symbol}" but found ${describeToken(token)}`, token.pos, hint);
  }

  private expectName(name: string, why: string): void {
    const token = this.lexer.next();
    if (!isName(token, name)) throw new FormulaError(`Expected "${name}" (${why}) but found ${describeToken(token)}`, token.pos);
  }

  private requireNumberField(spec: FieldSpec, token: Token, form: string): void {
    if (spec.kind !== 'number') throw new FormulaError(`${spec.name} is a text field: "${form}" needs a number field`, token.pos);
  }

  private requireTextField(spec: FieldSpec, token: Token, form: string): void {
    if (spec.kind !== 'text') throw new FormulaError(`${spec.name} is a number field: ${form} needs a text field`, token.pos);
  }
}

/** Appends an expression to a list of `kind`, spreading it when it is a list of the same kind. */
function flattenInto(kind: 'and' | 'or', items: ScanExpr[], expr: ScanExpr): ScanExpr[] {
  if (expr.kind === kind) items.push(...expr.items);
  else items.push(expr);
  return items;
}

const cutName = (name: string) => (name.length > 24 ? `${name.slice(0, 21)}…` : name);

/** The catalogue's name nearest to an unknown one, at an edit distance of at most 2 (and below its length), or null. */
function closestField(name: string): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const spec of SCAN_FIELDS) {
    if (Math.abs(spec.name.length - name.length) >= bestDistance) continue;
    const distance = editDistance(name, spec.name);
    // A name of one or two letters is at distance 2 of too much to be a typo of any of it.
    if (distance < bestDistance && distance < name.length) {
      best = spec.name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions), two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The canonical formula of an expression: lower-case keywords, every field with its parameters
 * (`rsi(14)`, `close`), numbers as `String(n)`, strings in double quotes with `"` and `\` escaped,
 * and only the parentheses precedence needs (an `or` inside an `and`, an `and` or `or` inside a
 * `not`). `parseFormula` reads it back into the same expression.
 */
export function printFormula(expr: ScanExpr): string {
  return write(expr).text;
}

/** The formula of an expression, and where each condition of it ends in the text. */
function write(expr: ScanExpr): { text: string; conditionEnds: number[] } {
  const out = { text: '', conditionEnds: [] as number[] };
  const visit = (node: ScanExpr, grouped: boolean) => {
    if (grouped) out.text += '(';
    if (isCondition(node)) {
      out.text += printCondition(node);
      out.conditionEnds.push(out.text.length);
    } else if (node.kind === 'not') {
      out.text += 'not ';
      visit(node.item, node.item.kind === 'and' || node.item.kind === 'or');
    } else {
      node.items.forEach((item, i) => {
        if (i > 0) out.text += ` ${node.kind} `;
        visit(item, node.kind === 'and' && item.kind === 'or');
      });
    }
    if (grouped) out.text += ')';
  };
  visit(expr, false);
  return out;
}

function printCondition(condition: Condition): string {
  const left = fieldKey(condition.left);
  switch (condition.kind) {
    case 'compare':
      return `${left} ${condition.op} ${printOperand(condition.right)}`;
    case 'between':
      return `${left} between ${String(condition.low)} and ${String(condition.high)}`;
    case 'cross':
      return `${left} crosses ${condition.direction} ${printOperand(condition.right)}${condition.within === 1 ? '' : ` within ${String(condition.within)}`}`;
    case 'in':
      if (condition.values.length === 1) return `${left} ${condition.negated ? '!=' : '='} ${quote(condition.values[0]!)}`;
      return `${left} ${condition.negated ? 'not in' : 'in'} (${condition.values.map(quote).join(', ')})`;
  }
}

const printOperand = (operand: Operand) => (operand.kind === 'number' ? String(operand.value) : fieldKey(operand.ref));
const quote = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
