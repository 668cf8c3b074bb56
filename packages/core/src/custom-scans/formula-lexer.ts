/**
 * The tokens of a custom scan's formula (issue 26, docs/custom-scans.md, "The formula language") and
 * the error every mistake in a formula is reported with. The parser (formula.ts) pulls the tokens one
 * at a time, so the first mistake from the left is the one reported.
 */

/**
 * A mistake in a formula: where it is (`position`, a 0-based character offset into the formula) and
 * what it is (`problem`, a sentence without the position). `message` is both, e.g.
 * `Unknown field "rsx" at position 0 (did you mean rsi?)`.
 */
export class FormulaError extends Error {
  readonly position: number;
  readonly problem: string;

  constructor(problem: string, position: number, hint?: string) {
    super(`${problem} at position ${position}${hint ? ` (${hint})` : ''}`);
    this.name = 'FormulaError';
    this.position = position;
    this.problem = problem;
  }
}

export type Token =
  /** A name or a keyword; `lower` is its text in lower case. */
  | { type: 'name'; pos: number; text: string; lower: string }
  | { type: 'number'; pos: number; text: string; value: number }
  | { type: 'string'; pos: number; text: string; value: string }
  /** `<`, `<=`, `>`, `>=`, `=` (also `==`), `!=` (also `<>`), `(`, `)`, `,`; `value` is the canonical form. */
  | { type: 'symbol'; pos: number; text: string; value: string }
  | { type: 'end'; pos: number; text: '' };

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isNameStart = (c: string | undefined) => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNamePart = (c: string | undefined) => isNameStart(c) || isDigit(c);
const isSpace = (c: string) => /\s/.test(c);

/** Two-character symbols first, so `<=` is not read as `<` then `=`. */
const SYMBOLS: readonly (readonly [string, string])[] = [
  ['<=', '<='],
  ['>=', '>='],
  ['==', '='],
  ['!=', '!='],
  ['<>', '!='],
  ['<', '<'],
  ['>', '>'],
  ['=', '='],
  ['(', '('],
  [')', ')'],
  [',', ','],
];

/** How a token shows in a message: its text in quotes (cut short when long), or "the end of the formula". */
export function describeToken(token: Token): string {
  if (token.type === 'end') return 'the end of the formula';
  const text = token.text.length > 24 ? `${token.text.slice(0, 21)}…` : token.text;
  return token.type === 'string' ? `the string ${text}` : `"${text}"`;
}

/** The tokens of a formula, read on demand with one token of lookahead. Every mistake is a FormulaError. */
export class Lexer {
  private offset = 0;
  private ahead: Token | null = null;

  constructor(private readonly text: string) {}

  /** The next token, without consuming it. */
  peek(): Token {
    if (!this.ahead) this.ahead = this.read();
    return this.ahead;
  }

  /** The next token, consumed. */
  next(): Token {
    const token = this.peek();
    this.ahead = null;
    return token;
  }

  private read(): Token {
    const text = this.text;
    while (this.offset < text.length && isSpace(text[this.offset]!)) this.offset += 1;
    const pos = this.offset;
    if (pos >= text.length) return { type: 'end', pos, text: '' };
    const c = text[pos]!;
    if (isNameStart(c)) {
      let end = pos + 1;
      while (isNamePart(text[end])) end += 1;
      this.offset = end;
      const name = text.slice(pos, end);
      return { type: 'name', pos, text: name, lower: name.toLowerCase() };
    }
    if (isDigit(c) || ((c === '-' || c === '.') && this.startsNumber(pos))) return this.readNumber(pos);
    if (c === '"' || c === "'") return this.readString(pos, c);
    for (const [symbol, value] of SYMBOLS) {
      if (text.startsWith(symbol, pos)) {
        this.offset = pos + symbol.length;
        return { type: 'symbol', pos, text: symbol, value };
      }
    }
    const shown = c === '-' ? '"-" (a minus sign goes right before its number, as in -3)' : `character "${c}"`;
    throw new FormulaError(`Unexpected ${shown}`, pos);
  }

  /** A `-` or `.` starts a number when a digit follows (`-3`, `.5`, `-.5`). */
  private startsNumber(pos: number): boolean {
    const text = this.text;
    let at = pos;
    if (text[at] === '-') at += 1;
    if (text[at] === '.') at += 1;
    return isDigit(text[at]);
  }

  /** `-`? digits (`.` digits)? (`e` `+`|`-`? digits)?, or the same with the fraction alone (`.5`). */
  private readNumber(pos: number): Token {
    const text = this.text;
    let end = pos;
    if (text[end] === '-') end += 1;
    while (isDigit(text[end])) end += 1;
    if (text[end] === '.' && isDigit(text[end + 1])) {
      end += 1;
      while (isDigit(text[end])) end += 1;
    }
    if (text[end] === 'e' || text[end] === 'E') {
      let at = end + 1;
      if (text[at] === '+' || text[at] === '-') at += 1;
      if (isDigit(text[at])) {
        while (isDigit(text[at])) at += 1;
        end = at;
      }
    }
    // `14abc`, `1.`, `2e`, `1.2.3`: a number runs into something that cannot follow it.
    if (isNamePart(text[end]) || text[end] === '.') {
      let stop = end;
      while (isNamePart(text[stop]) || text[stop] === '.') stop += 1;
      throw new FormulaError(`Malformed number "${cut(text.slice(pos, stop))}"`, pos);
    }
    this.offset = end;
    const raw = text.slice(pos, end);
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new FormulaError(`Number "${cut(raw)}" is too large`, pos);
    // -0 reads as 0: one number, one expression (the printer writes 0 as "0").
    return { type: 'number', pos, text: raw, value: value === 0 ? 0 : value };
  }

  /** A string in double or single quotes; `\` escapes a quote or itself. */
  private readString(pos: number, quote: string): Token {
    const text = this.text;
    let value = '';
    let at = pos + 1;
    for (;;) {
      const c = text[at];
      if (c === undefined) throw new FormulaError('Unterminated string (no closing quote)', pos);
      if (c === quote) break;
      if (c === '\\') {
        const escaped = text[at + 1];
        if (escaped !== '"' && escaped !== "'" && escaped !== '\\') {
          throw new FormulaError('Unknown escape in a string: only \\", \\\' and \\\\ are allowed', at);
        }
        value += escaped;
        at += 2;
      } else {
        value += c;
        at += 1;
      }
    }
    this.offset = at + 1;
    return { type: 'string', pos, text: text.slice(pos, at + 1), value };
  }
}

const cut = (text: string) => (text.length > 24 ? `${text.slice(0, 21)}…` : text);
