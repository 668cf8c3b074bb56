/**
 * The values of a price file's fields: dates in each PriceDateFormat, numbers with a decimal point or
 * comma, the missing-value words, and symbols (from a column or a file name). Hot path: hand-written
 * scanners over char codes, no regular expression per field.
 */
import type { PriceDateFormat } from './types';

const ZERO = 48;
const SPACE = 32;
const T_UPPER = 84;

interface DateSpec {
  order: 'ymd' | 'mdy' | 'dmy';
  /** The separator's char code; 0 for none (YYYYMMDD). */
  separator: number;
}

const DATE_SPECS: Record<PriceDateFormat, DateSpec> = {
  'YYYY-MM-DD': { order: 'ymd', separator: 45 },
  YYYYMMDD: { order: 'ymd', separator: 0 },
  'YYYY/MM/DD': { order: 'ymd', separator: 47 },
  'MM/DD/YYYY': { order: 'mdy', separator: 47 },
  'DD/MM/YYYY': { order: 'dmy', separator: 47 },
  'DD.MM.YYYY': { order: 'dmy', separator: 46 },
  'DD-MM-YYYY': { order: 'dmy', separator: 45 },
};

/** Years a daily bar may carry (wider would let a mistaken format through as a date). */
export const PRICE_YEAR_MIN = 1800;
export const PRICE_YEAR_MAX = 2199;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * The day number of `text` in `format`, or NaN. Separated formats take 1- or 2-digit days and months;
 * a time after the date (`2024-01-02 00:00:00`, `…T16:00:00Z`) is ignored. `text` is trimmed.
 */
export function parsePriceDate(text: string, format: PriceDateFormat): number {
  const spec = DATE_SPECS[format];
  const length = text.length;
  let index = 0;
  const parts = [0, 0, 0];
  for (let part = 0; part < 3; part += 1) {
    if (part > 0 && spec.separator !== 0) {
      if (text.charCodeAt(index) !== spec.separator) return Number.NaN;
      index += 1;
    }
    const yearPart = spec.order === 'ymd' ? part === 0 : part === 2;
    const min = yearPart || spec.separator === 0 ? (yearPart ? 4 : 2) : 1;
    const max = yearPart ? 4 : 2;
    let value = 0;
    let digits = 0;
    while (digits < max && index < length) {
      const digit = text.charCodeAt(index) - ZERO;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
      digits += 1;
      index += 1;
    }
    if (digits < min) return Number.NaN;
    parts[part] = value;
  }
  if (index < length) {
    const next = text.charCodeAt(index);
    if (next !== SPACE && next !== T_UPPER) return Number.NaN;
  }
  const [a, b, c] = parts as [number, number, number];
  const [year, month, day] = spec.order === 'ymd' ? [a, b, c] : spec.order === 'mdy' ? [c, a, b] : [c, b, a];
  if (year < PRICE_YEAR_MIN || year > PRICE_YEAR_MAX || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return Number.NaN;
  return daysFromCivil(year, month, day);
}

const isoCache = new Map<number, string>();

/** The ISO date of a day number (cached: a history has a few thousand distinct days). */
export function isoOfDay(day: number): string {
  let iso = isoCache.get(day);
  if (iso === undefined) {
    iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
    if (isoCache.size < 200_000) isoCache.set(day, iso);
  }
  return iso;
}

/** Words that mean "no value" (Yahoo's `null`, pandas' `NaN`, `N/A`, `-`), and the empty field. */
export function isMissingValue(text: string): boolean {
  if (text.length === 0) return true;
  if (text.length > 4) return false;
  const lower = text.toLowerCase();
  return lower === 'null' || lower === 'nan' || lower === 'n/a' || lower === 'na' || lower === '-';
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
const DOT = 46;
const COMMA = 44;
const NBSP = 0xa0;
const NARROW_NBSP = 0x202f;
const APOSTROPHE = 39;

/**
 * A decimal number as written in a price file, or NaN: an optional sign, digits optionally grouped by
 * three (the other mark of ',' and '.', a space, a no-break space or an apostrophe), the decimal mark
 * ('.' or, with `decimalComma`, ','), and an optional exponent. No hex, no Infinity, no empty string.
 * Up to 15 significant digits the value is mantissa ÷ 10^k, which is exactly what Number() reads.
 */
export function parsePriceNumber(text: string, decimalComma: boolean): number {
  const length = text.length;
  if (length === 0) return Number.NaN;
  const decimalMark = decimalComma ? COMMA : DOT;
  const groupMark = decimalComma ? DOT : COMMA;
  let index = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 45 || first === 43) {
    negative = first === 45;
    index = 1;
  }
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let groupRun = -1; // digits since the last group mark (-1: none seen yet)
  let inFraction = false;
  let slow = false;
  for (; index < length; index += 1) {
    const code = text.charCodeAt(index);
    const digit = code - ZERO;
    if (digit >= 0 && digit <= 9) {
      if (digits > 0 || digit !== 0) digits += 1;
      mantissa = mantissa * 10 + digit;
      if (inFraction) fractionDigits += 1;
      else if (groupRun >= 0) groupRun += 1;
      continue;
    }
    if (code === decimalMark && !inFraction) {
      if (groupRun >= 0 && groupRun !== 3) return Number.NaN;
      inFraction = true;
      continue;
    }
    if (!inFraction && (code === groupMark || code === SPACE || code === NBSP || code === NARROW_NBSP || code === APOSTROPHE)) {
      if (index === (negative || first === 43 ? 1 : 0) || (groupRun >= 0 && groupRun !== 3)) return Number.NaN;
      groupRun = 0;
      slow = true;
      continue;
    }
    if ((code === 101 || code === 69) && index > 0) {
      const exponent = text.slice(index + 1);
      if (!/^[+-]?\d{1,3}$/.test(exponent)) return Number.NaN;
      if (groupRun >= 0 && groupRun !== 3 && !inFraction) return Number.NaN;
      return withExponent(text.slice(0, index), decimalComma, Number(exponent));
    }
    return Number.NaN;
  }
  const lastDigit = text.charCodeAt(length - 1) - ZERO;
  if (lastDigit < 0 || lastDigit > 9) {
    // "12." is read as 12; a sign alone or a trailing group mark is not a number.
    if (!(text.charCodeAt(length - 1) === decimalMark && length > 1 && text.charCodeAt(length - 2) - ZERO >= 0 && text.charCodeAt(length - 2) - ZERO <= 9)) return Number.NaN;
  }
  if (groupRun >= 0 && groupRun !== 3 && !inFraction) return Number.NaN;
  if (digits > 15 || fractionDigits > 22 || slow) return negative ? -plainNumber(text, decimalComma) : plainNumber(text, decimalComma);
  const value = mantissa / POWERS_OF_TEN[fractionDigits]!;
  return negative ? -value : value;
}

/** Number() of the text without group marks and with '.' as the decimal mark (already validated). */
function plainNumber(text: string, decimalComma: boolean): number {
  let plain = '';
  for (const char of text) {
    if (char >= '0' && char <= '9') plain += char;
    else if (char === (decimalComma ? ',' : '.')) plain += '.';
  }
  return Number(plain);
}

function withExponent(body: string, decimalComma: boolean, exponent: number): number {
  const value = parsePriceNumber(body, decimalComma);
  return Number.isNaN(value) ? Number.NaN : Number(`${value}e${exponent}`);
}

/** Trims spaces and tabs around a field, without allocating when there are none. */
export function trimField(text: string): string {
  const length = text.length;
  if (length === 0) return text;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(length - 1);
  return first === SPACE || last === SPACE || first === 9 || last === 9 || first === NBSP || last === NBSP ? text.trim() : text;
}

/**
 * A symbol as Signalboard writes it: upper case, no spaces, Stooq's `.US` suffix removed
 * (`aapl.us` → `AAPL`, `brk-b.us` → `BRK-B`); null when it is no symbol.
 */
export function normalisePriceSymbol(raw: string): string | null {
  let symbol = raw.trim().toUpperCase();
  if (symbol.endsWith('.US')) symbol = symbol.slice(0, -3);
  return /^[A-Z0-9^][A-Z0-9.\-^=]{0,19}$/.test(symbol) ? symbol : null;
}

/**
 * The symbol a file name stands for: its directories and extension (.csv, .txt, .tsv, .dat) and a
 * browser's copy number (`AAPL (1).csv`) removed, then normalisePriceSymbol: `AAPL.csv` → AAPL,
 * `aapl.us.txt` → AAPL (Stooq), `^GSPC.csv` → ^GSPC, `RY.TO.csv` → RY.TO; null when it is no symbol.
 */
export function symbolFromFileName(name: string): string | null {
  const base = name.split(/[\\/]/).pop() ?? '';
  const stem = base.replace(/\.(csv|txt|tsv|dat)$/i, '').replace(/\s*\(\d+\)$/, '');
  return normalisePriceSymbol(stem);
}
