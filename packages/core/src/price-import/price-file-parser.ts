/**
 * The streaming reader of a price file: text in chunks (never the whole file), bars out, and the
 * problems of each row. The row checks (docs/data-in-and-out.md "Daily price files"):
 * - refusals (severity 'error', the file is not stored): a quote never closed, a row without a mapped
 *   column, a date not in the format, a price or volume that is not a number, some but not all prices
 *   missing, a price ≤ 0, a negative volume, high below the open or close or low above them (beyond
 *   one part in a million, the rounding of a 6-decimal file), an empty symbol column, no bar at all;
 * - warnings: a row whose four prices are all missing (Yahoo writes `null` on days it has no prices)
 *   is skipped.
 * A row with several faults reports the first. Each code reports its first 100 rows; end() adds one
 * line per code saying how many more rows it had. Nothing in the text makes it throw; the
 * constructor throws a RangeError for a mapping it cannot read.
 */
import { CsvReader, CsvSyntaxError, type CsvRecord } from '../csv/csv-reader';
import { isMissingValue, isoOfDay, normalisePriceSymbol, parsePriceDate, parsePriceNumber, trimField } from './price-values';
import { PriceProblemList } from './problems';
import { PRICE_SEPARATORS, type PriceBar, type PriceFileFormat, type PriceFileProblem, type PriceProblemCode } from './types';

/** High below max(open, close) or low above min(open, close) by less than this fraction is rounding. */
export const OHLC_TOLERANCE = 1e-6;

export interface PriceFileParserOptions {
  /** The symbol of every bar when the mapping has no symbol column (e.g. from the file name). */
  symbol?: string;
}

export class PriceFileParser {
  private readonly list = new PriceProblemList();
  /** Bars answered so far. */
  bars = 0;
  private readonly reader: CsvReader;
  private readonly symbol: string | null;
  private readonly minFields: number;
  private headerPending: boolean;
  private extraHeaderLines: number;
  private lastLine = 0;
  private lastRawSymbol = '';
  private lastSymbol: string | null = null;
  private ended = false;

  constructor(private readonly format: PriceFileFormat, options: PriceFileParserOptions = {}) {
    if (!PRICE_SEPARATORS.includes(format.separator)) throw new RangeError(`Unknown separator ${JSON.stringify(format.separator)}`);
    if (format.decimalComma && format.separator === ',') throw new RangeError('A decimal comma needs another separator than ","');
    const { mapping } = format;
    const indexes = [mapping.date, mapping.open, mapping.high, mapping.low, mapping.close, mapping.adjClose, mapping.volume, mapping.symbol].filter((index): index is number => index !== null);
    if (indexes.some((index) => !Number.isInteger(index) || index < 0 || index > 1000)) throw new RangeError('A column index is a whole number from 0 to 1000');
    if (new Set(indexes).size !== indexes.length) throw new RangeError('Two roles are mapped to the same column');
    this.minFields = Math.max(...indexes) + 1;
    this.reader = new CsvReader({ separator: format.separator });
    this.headerPending = format.header;
    this.extraHeaderLines = format.header ? Math.max(0, Math.min(10, Math.floor(format.extraHeaderLines ?? 0))) : 0;
    this.symbol = options.symbol === undefined ? null : normalisePriceSymbol(options.symbol) ?? options.symbol;
  }

  /** The rows' problems so far (complete after end()). */
  get problems(): PriceFileProblem[] {
    return this.list.problems;
  }

  /** Any refusal so far. */
  get hasErrors(): boolean {
    return this.list.hasErrors;
  }

  /** Reads a chunk; answers the bars of the rows it completed. */
  push(chunk: string): PriceBar[] {
    return this.rows(this.reader.push(chunk));
  }

  /** Ends the file: the last bars; adds the overflow counts and, when nothing was read, 'no-bars'. */
  end(): PriceBar[] {
    if (this.ended) return [];
    this.ended = true;
    let bars: PriceBar[] = [];
    try {
      bars = this.rows(this.reader.end());
    } catch (error) {
      if (!(error instanceof CsvSyntaxError)) throw error;
      this.report(error.line, 'csv-syntax', error.message);
    }
    this.list.finish();
    if (this.bars === 0 && !this.hasErrors) {
      const line = Math.max(1, this.lastLine);
      this.report(line, 'no-bars', `Line ${line}: the file has no bars`);
    }
    return bars;
  }

  private report(line: number, code: PriceProblemCode, message: string): void {
    this.list.add(line, code, message);
  }

  private rows(records: CsvRecord[]): PriceBar[] {
    const bars: PriceBar[] = [];
    for (const record of records) {
      this.lastLine = record.line;
      if (this.headerPending) {
        this.headerPending = false;
        // A first line whose date column reads as a date is data, whatever the format says: kept, not lost.
        const date = record.fields[this.format.mapping.date];
        if (date === undefined || Number.isNaN(parsePriceDate(trimField(date), this.format.dateFormat))) continue;
        this.extraHeaderLines = 0;
      } else if (this.extraHeaderLines > 0) {
        this.extraHeaderLines -= 1;
        continue;
      }
      const bar = this.row(record);
      if (bar) bars.push(bar);
    }
    this.bars += bars.length;
    return bars;
  }

  private price(fields: string[], index: number): string {
    return trimField(fields[index]!);
  }

  private row({ line, fields }: CsvRecord): PriceBar | null {
    const { mapping, decimalComma, dateFormat } = this.format;
    if (fields.length < this.minFields) {
      if (fields.every(blank)) return null;
      this.report(line, 'too-few-fields', `Line ${line}: ${fields.length} ${fields.length === 1 ? 'field' : 'fields'}, where column ${this.minFields} is expected`);
      return null;
    }
    const dateText = trimField(fields[mapping.date]!);
    const day = parsePriceDate(dateText, dateFormat);
    if (Number.isNaN(day)) {
      if (dateText.length === 0 && fields.every(blank)) return null;
      this.report(line, 'bad-date', `Line ${line}: ${quote(dateText)} is not a date (${dateFormat})`);
      return null;
    }
    const texts = [this.price(fields, mapping.open), this.price(fields, mapping.high), this.price(fields, mapping.low), this.price(fields, mapping.close)];
    if (isMissingValue(texts[0]!) && isMissingValue(texts[1]!) && isMissingValue(texts[2]!) && isMissingValue(texts[3]!)) {
      this.report(line, 'null-row', `Line ${line}: no prices on ${isoOfDay(day)} (${quote(texts[0]!)}): the row is skipped`);
      return null;
    }
    const prices = [0, 0, 0, 0];
    for (let k = 0; k < 4; k += 1) {
      const value = isMissingValue(texts[k]!) ? Number.NaN : parsePriceNumber(texts[k]!, decimalComma);
      if (Number.isNaN(value)) {
        this.report(line, 'bad-number', `Line ${line}: the ${PRICE_NAMES[k]} ${quote(texts[k]!)} is not a number`);
        return null;
      }
      if (value <= 0) {
        this.report(line, 'non-positive-price', `Line ${line}: the ${PRICE_NAMES[k]} is ${texts[k]}, not a positive price`);
        return null;
      }
      prices[k] = value;
    }
    const [open, high, low, close] = prices as [number, number, number, number];
    if (high < Math.max(open, close) * (1 - OHLC_TOLERANCE) || low > Math.min(open, close) * (1 + OHLC_TOLERANCE)) {
      const fault = high < Math.max(open, close) * (1 - OHLC_TOLERANCE) ? `the high ${high} is below the ${open > close ? `open ${open}` : `close ${close}`}` : `the low ${low} is above the ${open < close ? `open ${open}` : `close ${close}`}`;
      this.report(line, 'inconsistent-ohlc', `Line ${line}: ${fault}`);
      return null;
    }
    let adjClose: number | null = null;
    if (mapping.adjClose !== null) {
      const text = this.price(fields, mapping.adjClose);
      if (!isMissingValue(text)) {
        adjClose = parsePriceNumber(text, decimalComma);
        if (Number.isNaN(adjClose)) return this.fail(line, 'bad-number', `the adjusted close ${quote(text)} is not a number`);
        if (adjClose <= 0) return this.fail(line, 'non-positive-price', `the adjusted close is ${text}, not a positive price`);
      }
    }
    let volume: number | null = null;
    if (mapping.volume !== null) {
      const text = this.price(fields, mapping.volume);
      if (!isMissingValue(text)) {
        volume = parsePriceNumber(text, decimalComma);
        if (Number.isNaN(volume)) return this.fail(line, 'bad-number', `the volume ${quote(text)} is not a number`);
        if (volume < 0) return this.fail(line, 'negative-volume', `the volume is ${text}, below zero`);
      }
    }
    let symbol = this.symbol;
    if (mapping.symbol !== null) {
      const raw = fields[mapping.symbol]!;
      if (raw !== this.lastRawSymbol || this.lastSymbol === null) {
        this.lastRawSymbol = raw;
        this.lastSymbol = normalisePriceSymbol(raw);
      }
      symbol = this.lastSymbol;
      if (symbol === null) return this.fail(line, 'missing-symbol', raw.trim().length === 0 ? 'no symbol' : `${quote(raw.trim())} is not a symbol`);
    }
    const date = dateFormat === 'YYYY-MM-DD' && dateText.length === 10 ? dateText : isoOfDay(day);
    return { line, symbol, date, day, open, high, low, close, adjClose, volume };
  }

  private fail(line: number, code: PriceProblemCode, what: string): null {
    this.report(line, code, `Line ${line}: ${what}`);
    return null;
  }
}

const PRICE_NAMES = ['open', 'high', 'low', 'close'] as const;
const blank = (field: string) => field.trim().length === 0;

/** A field as quoted in a message: at most 40 characters, control characters shown as �. */
function quote(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '\ufffd');
  return JSON.stringify(clean.length > 40 ? `${clean.slice(0, 40)}…` : clean);
}
