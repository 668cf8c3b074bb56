/**
 * The one CSV writer of every export (docs/data-in-and-out.md "Exports"): RFC 4180, comma-separated,
 * CRLF line ends, a field quoted when it holds a comma, a quote or a line break, quotes doubled.
 * - UTF-8 with a byte-order mark first, so Excel opens accented names and "—" as UTF-8.
 * - A text cell a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
 *   return) gets a leading apostrophe: a symbol or a note can never become a formula.
 * - Numbers are written as numbers with a "." decimal point and no thousands separator, never in
 *   exponent notation; a non-finite number is an empty cell.
 * - A Date is written as its ISO 8601 instant (UTC); a day is a "YYYY-MM-DD" string already.
 */

export type CsvValue = string | number | boolean | Date | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

/** The byte-order mark that starts every file (U+FEFF, written as EF BB BF in UTF-8). */
export const CSV_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  // 1e21 → "1000000000000000000000", 1.5e-7 → "0.00000015": the same digits, the point moved.
  const [, sign, head, tail = '', exponentText] = match;
  const digits = `${head}${tail}`;
  const point = 1 + Number(exponentText);
  const plain = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? `${digits}${'0'.repeat(point - digits.length)}` : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}${plain}`;
}

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return numberText(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  let text = typeof value === 'boolean' ? String(value) : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line end) of the given cells. */
export const csvLine = (cells: readonly CsvValue[]): string => cells.map(csvCell).join(',');

/** The whole file: the byte-order mark, the header line, then one line per row, each ending in CRLF. */
export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [csvLine(columns.map((column) => column.header))];
  for (const row of rows) lines.push(csvLine(columns.map((column) => column.value(row))));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

/** Columns that read a record's own keys, in the given order: `recordColumns(['a', 'b'])`. */
export function recordColumns<K extends string>(keys: readonly K[]): CsvColumn<Record<K, CsvValue>>[] {
  return keys.map((key) => ({ header: key, value: (row) => row[key] }));
}
