/**
 * An RFC 4180 reader that takes its text in chunks (a file is streamed, never held whole): every
 * record carries the line it starts on, so a refusal can name it. Reads CRLF, LF and lone CR line
 * ends, quoted fields with doubled quotes and line breaks inside, and a byte-order mark at the start.
 * A blank line is no record. Lenient where spreadsheets are: a quote inside an unquoted field, or
 * text after a closing quote, is kept as text. Only a quote left open at the end is an error.
 */

export interface CsvRecord {
  /** The 1-based line the record starts on. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(`Line ${line}: ${message}`);
    this.name = 'CsvSyntaxError';
  }
}

export interface CsvReaderOptions {
  /** The field separator, one character: ',' by default (';' and '\t' are common too). */
  separator?: string;
}

type State = 'fieldStart' | 'unquoted' | 'quoted' | 'quoteInQuoted' | 'afterQuoted';

export class CsvReader {
  private readonly separator: string;
  private state: State = 'fieldStart';
  private field = '';
  private fields: string[] = [];
  private started = false;
  private line = 1;
  private recordLine = 1;
  private pendingCr = false;
  private first = true;

  constructor(options: CsvReaderOptions = {}) {
    this.separator = options.separator ?? ',';
    if (this.separator.length !== 1 || /["\r\n]/.test(this.separator)) {
      throw new Error(`A CSV separator is one character other than a quote or a line break, not ${JSON.stringify(this.separator)}`);
    }
  }

  /** Reads a chunk; answers the records it completed. */
  push(chunk: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    let index = 0;
    if (this.first && chunk.length > 0) {
      this.first = false;
      if (chunk.charCodeAt(0) === 0xfeff) index = 1;
    }
    // Fast path: a whole line without a quote, at a record's start, is split at once (indexOf and
    // split); the next line break and quote are remembered so each is searched for once per chunk.
    let nextLf = -2;
    let nextCr = -2;
    let nextQuote = -2;
    while (index < chunk.length) {
      if (this.state === 'fieldStart' && !this.started && !this.pendingCr) {
        if (nextLf !== -1 && nextLf < index) nextLf = chunk.indexOf('\n', index);
        if (nextCr !== -1 && nextCr < index) nextCr = chunk.indexOf('\r', index);
        const lineEnd = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
        if (lineEnd !== -1) {
          if (nextQuote !== -1 && nextQuote < index) nextQuote = chunk.indexOf('"', index);
          if (nextQuote === -1 || nextQuote > lineEnd) {
            if (lineEnd > index) out.push({ line: this.recordLine, fields: chunk.slice(index, lineEnd).split(this.separator) });
            this.line += 1;
            this.recordLine = this.line;
            index = lineEnd + 1;
            if (lineEnd === nextCr) {
              if (index === chunk.length) this.pendingCr = true;
              else if (chunk.charCodeAt(index) === 10) index += 1;
            }
            continue;
          }
        }
      }
      this.step(chunk[index]!, out);
      index += 1;
    }
    return out;
  }

  /** The character-by-character reader: quoted fields, and the tail of a chunk that ends mid-line. */
  private step(char: string, out: CsvRecord[]): void {
    if (this.pendingCr) {
      this.pendingCr = false;
      if (char === '\n') {
        // The LF of a CRLF: the line was counted at the CR.
        if (this.state === 'quoted') this.field += char;
        return;
      }
    }
    const lineEnd = char === '\n' || char === '\r';
    if (char === '\r') this.pendingCr = true;
    if (this.state === 'quoted') {
      if (char === '"') this.state = 'quoteInQuoted';
      else {
        this.field += char;
        if (lineEnd) this.line += 1;
      }
      return;
    }
    if (this.state === 'quoteInQuoted' && char === '"') {
      this.field += '"';
      this.state = 'quoted';
      return;
    }
    if (char === this.separator) {
      this.fields.push(this.field);
      this.field = '';
      this.started = true;
      this.state = 'fieldStart';
    } else if (lineEnd) {
      const record = this.finishRecord();
      if (record) out.push(record);
      this.line += 1;
      this.recordLine = this.line;
    } else if (char === '"' && this.state === 'fieldStart') {
      this.state = 'quoted';
      this.started = true;
    } else {
      this.field += char;
      this.started = true;
      this.state = this.state === 'fieldStart' || this.state === 'unquoted' ? 'unquoted' : 'afterQuoted';
    }
  }

  /** Ends the text: answers the last record, or throws CsvSyntaxError when a quote is still open. */
  end(): CsvRecord[] {
    if (this.state === 'quoted') throw new CsvSyntaxError(this.recordLine, 'a quoted field is never closed (a " is missing)');
    const record = this.finishRecord();
    return record ? [record] : [];
  }

  private finishRecord(): CsvRecord | null {
    const record = this.started ? { line: this.recordLine, fields: [...this.fields, this.field] } : null;
    this.fields = [];
    this.field = '';
    this.started = false;
    this.state = 'fieldStart';
    return record;
  }
}

/** Every record of a whole text. */
export function parseCsv(text: string, options: CsvReaderOptions = {}): CsvRecord[] {
  const reader = new CsvReader(options);
  return [...reader.push(text), ...reader.end()];
}
