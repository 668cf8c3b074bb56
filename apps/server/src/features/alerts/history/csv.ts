/**
 * CSV (RFC 4180): comma-separated, CRLF line ends, a field quoted when it holds a comma, a quote or a
 * line break, quotes doubled. A text cell a spreadsheet would run as a formula (starting with =, +, -,
 * @, tab or carriage return) gets a leading apostrophe; numbers are written as numbers.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'boolean' ? String(value) : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<C extends string>(columns: readonly C[], rows: ReadonlyArray<Record<C, CsvValue>>): string {
  const lines = [columns.map(csvCell).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(row[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
