/**
 * The formula as the screen checks it while the user types (docs/custom-scans.md "The formula
 * language"): core's parser, the same the server runs, so a mistake shows at once with its position.
 * The server still checks every run and save and is the authority.
 */
import { exprToGroups, FormulaError, parseFormula, printFormula, type ScanGroups } from '@signalboard/core';

export type FormulaCheck =
  | { state: 'empty' }
  | { state: 'error'; message: string; position: number }
  /** It parses and its nesting fits the builder's three groups. */
  | { state: 'groups'; groups: ScanGroups; formula: string }
  /** It parses, but its nesting does not fit the groups: it is edited as text. */
  | { state: 'nested'; formula: string };

export const NESTED_MESSAGE = 'This formula is edited as text: its nesting does not fit the three groups.';

export function checkFormula(text: string): FormulaCheck {
  if (text.trim() === '') return { state: 'empty' };
  try {
    const expr = parseFormula(text);
    const groups = exprToGroups(expr);
    const formula = printFormula(expr);
    return groups ? { state: 'groups', groups, formula } : { state: 'nested', formula };
  } catch (error) {
    if (error instanceof FormulaError) return { state: 'error', message: error.message, position: error.position };
    throw error;
  }
}

/** How much of the formula to show on each side of a mistake. */
const CONTEXT_CHARS = 30;

/**
 * The part of the formula around a mistake and where in it the mistake is: the screen draws a caret
 * under that character. Long formulas are cut with an ellipsis on the cut side.
 */
export function excerptAt(text: string, position: number): { excerpt: string; caret: number } {
  const at = Math.max(0, Math.min(position, text.length));
  const start = Math.max(0, at - CONTEXT_CHARS);
  const end = Math.min(text.length, at + CONTEXT_CHARS);
  const head = start > 0 ? '…' : '';
  const tail = end < text.length ? '…' : '';
  // One line: line breaks and tabs as spaces, so the caret stays under its character.
  const excerpt = `${head}${text.slice(start, end).replace(/\s/g, ' ')}${tail}`;
  return { excerpt, caret: head.length + at - start };
}
