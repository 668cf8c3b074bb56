/**
 * Which format a price file most likely has, from its first few KB: the separator that splits the
 * lines into the same number (≥ 5) of fields, whether the first line is a header, the columns by their
 * header names (matched without regard to case, spaces, underscores, dashes, dots and Stooq's `<…>`),
 * the decimal comma, and the date format that reads every sampled date. Where it cannot be sure it
 * says why (`problem`); the preview then asks the user to confirm or choose.
 */
import { parseCsv, type CsvRecord } from '../csv/csv-reader';
import { isMissingValue, parsePriceDate, parsePriceNumber, trimField } from './price-values';
import { PRICE_DATE_FORMATS, PRICE_SEPARATORS, type PriceColumnMapping, type PriceDateFormat, type PriceFileDetection, type PriceFileLayout, type PriceSeparator } from './types';

type Role = keyof PriceColumnMapping;

/** Header names (normalised) and the column each stands for. */
const HEADER_ROLES: Readonly<Record<string, Role>> = {
  date: 'date',
  day: 'date',
  datetime: 'date',
  timestamp: 'date',
  tradedate: 'date',
  open: 'open',
  openprice: 'open',
  high: 'high',
  highprice: 'high',
  low: 'low',
  lowprice: 'low',
  close: 'close',
  closeprice: 'close',
  closingprice: 'close',
  last: 'close',
  adjclose: 'adjClose',
  adjustedclose: 'adjClose',
  adjclosingprice: 'adjClose',
  volume: 'volume',
  vol: 'volume',
  symbol: 'symbol',
  ticker: 'symbol',
  code: 'symbol',
};

const REQUIRED: readonly Role[] = ['date', 'open', 'high', 'low', 'close'];
const SAMPLE_RECORDS = 10;

/** `Adj Close`, `adj_close`, `ADJCLOSE`, `<VOL>` → `adjclose`, `vol`. */
export function normalisePriceHeader(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.<>"'*()]/g, '');
}

/** A field that reads as a number or a date (so its line is data, not a header). */
function looksLikeValue(field: string): boolean {
  return /\d/.test(field) && /^[\d\s.,:/+\-eETZ]+$/.test(field.trim());
}

function recordsOf(text: string, separator: PriceSeparator): CsvRecord[] {
  try {
    return parseCsv(text, { separator });
  } catch {
    return [];
  }
}

function mappingFromHeader(headers: string[]): { mapping: Partial<PriceColumnMapping>; names: string[] } {
  const mapping: Partial<PriceColumnMapping> = {};
  const names = headers.map(normalisePriceHeader);
  names.forEach((name, index) => {
    const role = HEADER_ROLES[name];
    if (role && mapping[role] === undefined) mapping[role] = index;
  });
  return { mapping, names };
}

function layoutOf(names: string[], mapping: PriceColumnMapping): PriceFileLayout {
  const joined = names.join(',');
  if (joined === 'date,open,high,low,close,adjclose,volume') return 'yahoo';
  if (joined === 'date,open,high,low,close,volume' || (mapping.symbol !== null && joined.startsWith('ticker,per,date,time,open,high,low,close,vol'))) return 'stooq';
  return 'custom';
}

/** The positional guess for a file without a header: Date, Open, High, Low, Close[, Volume] or Yahoo's 7. */
function positionalMapping(columns: number): PriceColumnMapping | null {
  const base = { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: null, volume: null, symbol: null };
  if (columns === 5) return base;
  if (columns === 6) return { ...base, volume: 5 };
  if (columns === 7) return { ...base, adjClose: 5, volume: 6 };
  return null;
}

function dateFormatsReading(dates: string[]): PriceDateFormat[] {
  return PRICE_DATE_FORMATS.filter((format) => dates.every((date) => !Number.isNaN(parsePriceDate(date, format))));
}

export function detectPriceFileFormat(head: string): PriceFileDetection {
  let text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  // The last line may be cut where the head ends: read whole lines only.
  const lastBreak = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  if (lastBreak > 0 && lastBreak < text.length - 1) text = text.slice(0, lastBreak + 1);
  let best: { separator: PriceSeparator; records: CsvRecord[]; score: number } | null = null;
  for (const separator of PRICE_SEPARATORS) {
    const records = recordsOf(text, separator);
    const columns = records[0]?.fields.length ?? 0;
    if (columns < 5) continue;
    // Ties (a decimal comma splits ';' lines on ',' too, into fewer fields) go to more columns.
    const score = records.filter((record) => record.fields.length === columns).length * 1000 + Math.min(columns, 999);
    if (!best || score > best.score) best = { separator, records, score };
  }
  if (!best) {
    return { format: null, headers: [], sample: [], problem: 'No columns found: a price file has at least a date, open, high, low and close, separated by commas, semicolons, tabs or |.' };
  }
  const { separator, records } = best;
  const first = records[0]!.fields;
  const header = !first.some(looksLikeValue);
  const headers = header ? first.map((field) => field.trim()) : [];
  // yfinance: `Price,Close,High,…` then `Ticker,AAPL,…` and `Date,,,…`: the date is the first column.
  const yfinance = header && normalisePriceHeader(first[0] ?? '') === 'price' && normalisePriceHeader(records[1]?.fields[0] ?? '') === 'ticker' && normalisePriceHeader(records[2]?.fields[0] ?? '') === 'date';
  const extraHeaderLines = yfinance ? 2 : 0;
  const data = (header ? records.slice(1 + extraHeaderLines) : records).map((record) => record.fields);
  const sample = data.slice(0, SAMPLE_RECORDS);
  const problems: string[] = [];
  let mapping: PriceColumnMapping | null;
  let names: string[] = [];
  if (header) {
    const found = mappingFromHeader(yfinance ? ['Date', ...headers.slice(1)] : headers);
    names = found.names;
    const missing = REQUIRED.filter((role) => found.mapping[role] === undefined);
    if (missing.length > 0) {
      return { format: null, headers, sample, problem: `The header names no ${missing.join(', ')} column: choose the columns.` };
    }
    const { date, open, high, low, close, adjClose, volume, symbol } = found.mapping as PriceColumnMapping;
    mapping = { date, open, high, low, close, adjClose: adjClose ?? null, volume: volume ?? null, symbol: symbol ?? null };
  } else {
    mapping = positionalMapping(first.length);
    if (!mapping) return { format: null, headers, sample, problem: `The file has no header and ${first.length} columns: choose the columns.` };
    problems.push(`The file has no header: its columns are taken as ${first.length === 7 ? "Yahoo's" : 'Date, Open, High, Low, Close' + (first.length === 6 ? ', Volume' : '')}; check them.`);
  }
  const priceColumns = [mapping.open, mapping.high, mapping.low, mapping.close, mapping.adjClose].filter((index): index is number => index !== null);
  const prices = data.flatMap((fields) => priceColumns.map((index) => trimField(fields[index] ?? ''))).filter((value) => !isMissingValue(value));
  const decimalComma = separator !== ',' && prices.some((value) => /^-?\d+,\d+$/.test(value) || /\d\.\d{3},\d/.test(value));
  const unreadable = prices.find((value) => Number.isNaN(parsePriceNumber(value, decimalComma)));
  if (unreadable !== undefined) problems.push(`"${unreadable}" is not a number: check the separator and the decimal mark.`);
  const dates = data.map((fields) => trimField(fields[mapping.date] ?? '')).filter((value) => value.length > 0);
  const formats = dateFormatsReading(dates);
  let dateFormat: PriceDateFormat = formats[0] ?? 'YYYY-MM-DD';
  if (dates.length === 0) problems.push('The file has no data lines in its first part.');
  else if (formats.length === 0) problems.push(`"${dates.find((date) => dateFormatsReading([date]).length === 0) ?? dates[0]}" is a date in no known format: choose the date format.`);
  else if (formats.includes('MM/DD/YYYY') && formats.includes('DD/MM/YYYY')) {
    dateFormat = 'MM/DD/YYYY';
    problems.push(`Dates like "${dates[0]}" may be month first or day first: choose the date format.`);
  }
  const layout = header ? layoutOf(names, mapping) : 'custom';
  const format = { layout, separator, decimalComma, dateFormat, header, ...(yfinance ? { extraHeaderLines } : {}), mapping } as const;
  return { format, headers, sample, problem: problems.length > 0 ? problems.join(' ') : null };
}
