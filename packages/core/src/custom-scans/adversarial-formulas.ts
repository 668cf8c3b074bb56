/**
 * The worst cases for the formula lexer and its recursive parser, each near the 2,000-character
 * limit: formula.test.ts checks that each parses or answers a FormulaError, and the bench
 * (bench/custom-scans.bench.ts) that none takes 50 ms (issue 26). Not exported from the package.
 */
export const ADVERSARIAL_FORMULAS: readonly string[] = [
  'a'.repeat(2000), 'rsi'.repeat(666), `"${'x'.repeat(1998)}"`, `"${'\\"'.repeat(666)}`, '('.repeat(2000), ')'.repeat(2000), 'not '.repeat(500),
  'rsi<3 and '.repeat(199), `sector in (${'"a",'.repeat(495)}"b")`, ' '.repeat(2000), '1'.repeat(2000), '-'.repeat(2000), `rsi(${'1,'.repeat(995)}`,
  `${'(not '.repeat(399)}`, `close > ${'9'.repeat(400)}`, 'rsi between 1 and '.repeat(111),
  ...['(', 'not ', 'not (', '(not '].flatMap((open) => [`${open.repeat(32)}rsi < 30${')'.repeat(32)}`, `${open.repeat(33)}rsi < 30${')'.repeat(33)}`, `${open.repeat(1100)}rsi < 30`]),
];
