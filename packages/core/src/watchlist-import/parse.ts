/**
 * Reads a watchlist someone brings from another tool (docs/data-in-and-out.md "Watchlist import and
 * export"). Three layouts, told apart by their first non-blank line:
 * - a CSV whose header names a symbol column (`symbol`, `ticker` or `code`, any case); an `exchange`
 *   column, when there is one, is kept (our own export has it); other columns are ignored;
 * - TradingView's export: `NASDAQ:AAPL,NYSE:MSFT,###Section,...`, comma separated, possibly over
 *   several lines; `###Name` entries are section headers and are skipped;
 * - one symbol per line (a `NYSE:T` prefix is read there too).
 * Pure and zod-free: it never throws; whatever it cannot read is a problem naming its line. Which
 * listing a symbol is (US or Canada) is the server's business (it asks the market's symbol lookup).
 */
import { CsvReader, CsvSyntaxError, type CsvRecord } from '../csv/csv-reader';

/** The largest text an import takes, in UTF-8 bytes. */
export const WATCHLIST_IMPORT_MAX_BYTES = 1_000_000;
/** The most lines an import takes (blank lines count: they are lines of the file). */
export const WATCHLIST_IMPORT_MAX_LINES = 2_000;
/** The most symbols an import takes (a TradingView list is often one long line). */
export const WATCHLIST_IMPORT_MAX_ENTRIES = 2_000;
/** How much of a bad entry a problem quotes. */
const QUOTE_MAX_CHARS = 40;

export type WatchlistImportFormat = 'tradingview' | 'csv' | 'lines';

export interface WatchlistImportEntry {
  /** The 1-based line the entry is on. */
  line: number;
  /** The entry as written (trimmed). */
  raw: string;
  /** Upper-cased, without an exchange prefix: `AAPL`, `RY.TO`, `BRK.B`. */
  symbol: string;
  /** The exchange the entry names (`NASDAQ`, `TSX`, …, upper-cased), or null when it names none. */
  exchange: string | null;
}

export interface WatchlistImportProblem {
  line: number;
  message: string;
}

export interface WatchlistImportParse {
  /** null when the text was refused whole (too large) or held nothing. */
  format: WatchlistImportFormat | null;
  entries: WatchlistImportEntry[];
  problems: WatchlistImportProblem[];
}

/** Column headers that hold the symbol in a CSV, compared case-blind. */
export const WATCHLIST_SYMBOL_HEADERS = ['symbol', 'ticker', 'code'] as const;

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-^=]{0,19}$/;
const EXCHANGE = /^[A-Z][A-Z0-9_ ]{0,19}$/;

const quote = (text: string) => JSON.stringify(text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text);
const formatCount = (n: number) => n.toLocaleString('en-US');

/** UTF-8 length of a string without TextEncoder (core runs everywhere). */
function utf8Bytes(text: string, upTo = Number.POSITIVE_INFINITY): { bytes: number; index: number } {
  let bytes = 0;
  let index = 0;
  for (; index < text.length && bytes <= upTo; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00 && index + 1 < text.length) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return { bytes, index };
}

/** The 1-based line of `index` in `text` (CRLF, LF and CR each end a line). */
function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i += 1) {
    const char = text[i];
    if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line += 1;
  }
  return line;
}

/** The lines of a text, without their line ends (CRLF, LF, CR) and without a leading BOM. */
const splitLines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);

type Token = { ok: true; symbol: string; exchange: string | null } | { ok: false; message: string };

/** One entry of a list: `AAPL`, `nasdaq:aapl`, `RY.TO`, `TSX:RY`. */
export function readSymbolToken(token: string): Token {
  const text = token.trim().toUpperCase();
  if (text === '') return { ok: false, message: 'The entry is empty.' };
  const colon = text.indexOf(':');
  const exchange = colon >= 0 ? text.slice(0, colon).trim() : null;
  const symbol = colon >= 0 ? text.slice(colon + 1).trim() : text;
  if (exchange !== null && !EXCHANGE.test(exchange)) return { ok: false, message: `${quote(token.trim())} is not an EXCHANGE:SYMBOL pair.` };
  if (symbol === '') return { ok: false, message: `${quote(token.trim())} names no symbol after the exchange.` };
  if (symbol.length > 20) return { ok: false, message: `${quote(token.trim())} is longer than a symbol (20 characters at most).` };
  if (!SYMBOL.test(symbol)) return { ok: false, message: `${quote(token.trim())} is not a symbol (letters, digits and . - ^ = only).` };
  return { ok: true, symbol, exchange };
}

/** The index of the symbol column among a header's fields, or -1. */
const symbolColumnOf = (fields: readonly string[]) => fields.findIndex((field) => (WATCHLIST_SYMBOL_HEADERS as readonly string[]).includes(field.trim().toLowerCase()));

function detect(firstLine: string): WatchlistImportFormat {
  // The header read as the CSV reader will read it (a line that leaves a quote open is no header).
  const [header] = new CsvReader({ separator: csvSeparator(firstLine) }).push(`${firstLine.replace(/^\uFEFF/, '')}\n`);
  if (header && symbolColumnOf(header.fields) >= 0) return 'csv';
  return /[,]|###/.test(firstLine) ? 'tradingview' : 'lines';
}

/** The separator of a CSV, from its header line: a comma unless the header has none and a ; or tab. */
function csvSeparator(header: string): string {
  if (header.includes(',')) return ',';
  if (header.includes(';')) return ';';
  return header.includes('\t') ? '\t' : ',';
}

class Collector {
  readonly entries: WatchlistImportEntry[] = [];
  readonly problems: WatchlistImportProblem[] = [];
  /** Set once the entry limit is passed: nothing more is read. */
  full = false;

  add(line: number, raw: string, exchangeColumn?: string): void {
    if (this.full) return;
    if (this.entries.length + this.problems.length >= WATCHLIST_IMPORT_MAX_ENTRIES) {
      this.full = true;
      this.problems.push({ line, message: `More than ${formatCount(WATCHLIST_IMPORT_MAX_ENTRIES)} entries: this one and the rest were not read. Split the list into smaller files.` });
      return;
    }
    const token = readSymbolToken(raw);
    if (!token.ok) {
      this.problems.push({ line, message: token.message });
      return;
    }
    const column = exchangeColumn?.trim().toUpperCase();
    this.entries.push({ line, raw: raw.trim(), symbol: token.symbol, exchange: token.exchange ?? (column ? column : null) });
  }
}

function readList(lines: string[], out: Collector): void {
  lines.forEach((text, index) => {
    for (const part of text.split(',')) {
      const token = part.trim();
      if (token === '' || token.startsWith('###')) continue;
      out.add(index + 1, token);
    }
  });
}

function readCsv(text: string, out: Collector): void {
  const body = text.replace(/^\uFEFF/, '');
  const headerText = splitLines(body).find((line) => line.trim() !== '') ?? '';
  const reader = new CsvReader({ separator: csvSeparator(headerText) });
  let records: CsvRecord[] = reader.push(body);
  try {
    records = [...records, ...reader.end()];
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    out.problems.push({ line: error.line, message: `A quoted field is never closed (a " is missing); this line and the rest were not read.` });
  }
  const [header, ...rows] = records;
  if (!header) return;
  const symbolColumn = symbolColumnOf(header.fields);
  if (symbolColumn < 0) {
    out.problems.push({ line: header.line, message: 'The header names no symbol, ticker or code column.' });
    return;
  }
  const exchangeColumn = header.fields.findIndex((field) => field.trim().toLowerCase() === 'exchange');
  for (const row of rows) {
    if (row.fields.every((field) => field.trim() === '')) continue;
    const cell = row.fields[symbolColumn];
    if (cell === undefined || cell.trim() === '') {
      out.problems.push({ line: row.line, message: `The ${header.fields[symbolColumn]!.trim()} column is empty on this line.` });
      continue;
    }
    out.add(row.line, cell, exchangeColumn >= 0 ? row.fields[exchangeColumn] : undefined);
    if (out.full) return;
  }
}

/** Reads a pasted or uploaded watchlist; see the file's header for the layouts. Never throws. */
export function parseWatchlistText(text: string): WatchlistImportParse {
  const size = utf8Bytes(text, WATCHLIST_IMPORT_MAX_BYTES);
  if (size.bytes > WATCHLIST_IMPORT_MAX_BYTES) {
    return {
      format: null,
      entries: [],
      problems: [{ line: lineAt(text, size.index - 1), message: `The text is larger than 1 MB (${formatCount(WATCHLIST_IMPORT_MAX_BYTES)} bytes); it passes the limit on this line. Split it into smaller files.` }],
    };
  }
  const lines = splitLines(text);
  // A final line end is no line of its own.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length > WATCHLIST_IMPORT_MAX_LINES) {
    return {
      format: null,
      entries: [],
      problems: [{ line: WATCHLIST_IMPORT_MAX_LINES + 1, message: `The text has ${formatCount(lines.length)} lines; an import takes at most ${formatCount(WATCHLIST_IMPORT_MAX_LINES)}. Split it into smaller files.` }],
    };
  }
  const first = lines.find((line) => line.trim() !== '');
  if (first === undefined) return { format: null, entries: [], problems: [] };
  const format = detect(first);
  const out = new Collector();
  if (format === 'csv') readCsv(text, out);
  else readList(lines, out);
  out.problems.sort((a, b) => a.line - b.line);
  return { format, entries: out.entries, problems: out.problems };
}
