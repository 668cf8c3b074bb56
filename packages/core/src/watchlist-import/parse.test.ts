import { describe, expect, it } from 'vitest';
import { CSV_BOM } from '../csv/csv-writer';
import { parseWatchlistText, WATCHLIST_IMPORT_MAX_BYTES, WATCHLIST_IMPORT_MAX_ENTRIES, WATCHLIST_IMPORT_MAX_LINES } from './parse';

const symbols = (text: string) => parseWatchlistText(text).entries.map((entry) => [entry.line, entry.exchange ? `${entry.exchange}:${entry.symbol}` : entry.symbol]);

describe('parseWatchlistText: TradingView', () => {
  it('reads EXCHANGE:SYMBOL pairs over several lines and skips ###sections', () => {
    const text = '###Tech,NASDAQ:AAPL,nyse:msft,\r\n###Canada,TSX:RY,SHOP.TO\r\nT';
    const parse = parseWatchlistText(text);
    expect(parse.format).toBe('tradingview');
    expect(parse.problems).toEqual([]);
    expect(symbols(text)).toEqual([[1, 'NASDAQ:AAPL'], [1, 'NYSE:MSFT'], [2, 'TSX:RY'], [2, 'SHOP.TO'], [3, 'T']]);
    expect(parse.entries[1]).toEqual({ line: 1, raw: 'nyse:msft', symbol: 'MSFT', exchange: 'NYSE' });
  });

  it('names the line of every bad entry and keeps the good ones', () => {
    const parse = parseWatchlistText('NASDAQ:AAPL,not a symbol,NYSE:\nFX:EUR/USD,BRK.B,:X');
    expect(parse.entries.map((entry) => entry.symbol)).toEqual(['AAPL', 'BRK.B']);
    expect(parse.problems).toEqual([
      { line: 1, message: '"not a symbol" is not a symbol (letters, digits and . - ^ = only).' },
      { line: 1, message: '"NYSE:" names no symbol after the exchange.' },
      { line: 2, message: '"FX:EUR/USD" is not a symbol (letters, digits and . - ^ = only).' },
      { line: 2, message: '":X" is not an EXCHANGE:SYMBOL pair.' },
    ]);
  });
});

describe('parseWatchlistText: CSV', () => {
  it('finds the symbol column by any of symbol/ticker/code, ignores other columns, keeps an exchange column', () => {
    const text = `${CSV_BOM}Name,TICKER,Exchange\r\n"Apple, Inc.",aapl,NASDAQ\r\n"Royal ""Bank""",RY.TO,TSX\r\n\r\n"Two\r\nlines",T,\r\n`;
    const parse = parseWatchlistText(text);
    expect(parse.format).toBe('csv');
    expect(parse.problems).toEqual([]);
    expect(parse.entries).toEqual([
      { line: 2, raw: 'aapl', symbol: 'AAPL', exchange: 'NASDAQ' },
      { line: 3, raw: 'RY.TO', symbol: 'RY.TO', exchange: 'TSX' },
      { line: 5, raw: 'T', symbol: 'T', exchange: null },
    ]);
    expect(symbols('code;weight\nMSFT;3\n')).toEqual([[2, 'MSFT']]);
    expect(symbols('Symbol\nNYSE:T\n')).toEqual([[2, 'NYSE:T']]);
  });

  it('reports empty symbol cells, bad symbols and an unclosed quote by line', () => {
    const parse = parseWatchlistText('symbol,note\nAAPL,ok\n,empty\n$$$,x\nMSFT,"open\nNVDA,x');
    expect(parse.entries.map((entry) => entry.symbol)).toEqual(['AAPL']);
    expect(parse.problems).toEqual([
      { line: 3, message: 'The symbol column is empty on this line.' },
      { line: 4, message: '"$$$" is not a symbol (letters, digits and . - ^ = only).' },
      { line: 5, message: 'A quoted field is never closed (a " is missing); this line and the rest were not read.' },
    ]);
  });
});

describe('parseWatchlistText: one symbol per line', () => {
  it('reads each line, with LF, CRLF or CR, a BOM, blank lines and surrounding spaces', () => {
    const text = `${CSV_BOM} aapl \r\n\r\nRY.TO\rTSX:TD\n\nbad symbol!\n`;
    const parse = parseWatchlistText(text);
    expect(parse.format).toBe('lines');
    expect(symbols(text)).toEqual([[1, 'AAPL'], [3, 'RY.TO'], [4, 'TSX:TD']]);
    expect(parse.problems).toEqual([{ line: 6, message: '"bad symbol!" is not a symbol (letters, digits and . - ^ = only).' }]);
  });

  it('answers nothing for blank text', () => {
    expect(parseWatchlistText('')).toEqual({ format: null, entries: [], problems: [] });
    expect(parseWatchlistText(' \n\r\n ')).toEqual({ format: null, entries: [], problems: [] });
  });
});

describe('parseWatchlistText: limits', () => {
  it(`refuses more than ${WATCHLIST_IMPORT_MAX_LINES} lines, naming the first line past the limit`, () => {
    expect(parseWatchlistText(`${'A\n'.repeat(WATCHLIST_IMPORT_MAX_LINES)}`).entries).toHaveLength(WATCHLIST_IMPORT_MAX_LINES);
    const parse = parseWatchlistText('A\n'.repeat(WATCHLIST_IMPORT_MAX_LINES + 1));
    expect(parse.entries).toEqual([]);
    expect(parse.problems).toEqual([{ line: 2001, message: 'The text has 2,001 lines; an import takes at most 2,000. Split it into smaller files.' }]);
  });

  it('refuses more than 1 MB (UTF-8 bytes), naming the line where it passes the limit', () => {
    const line = `${'é'.repeat(99)}\n`; // 199 bytes a line
    const text = line.repeat(Math.ceil(WATCHLIST_IMPORT_MAX_BYTES / 199) + 1);
    const parse = parseWatchlistText(text);
    expect(parse.entries).toEqual([]);
    expect(parse.problems).toEqual([{ line: Math.floor(WATCHLIST_IMPORT_MAX_BYTES / 199) + 1, message: 'The text is larger than 1 MB (1,000,000 bytes); it passes the limit on this line. Split it into smaller files.' }]);
    expect(parseWatchlistText('A,'.repeat(WATCHLIST_IMPORT_MAX_BYTES / 2)).problems[0]!.line).toBe(1);
  });

  it(`reads at most ${WATCHLIST_IMPORT_MAX_ENTRIES} entries of one long line`, () => {
    const parse = parseWatchlistText(Array.from({ length: 2500 }, (_, i) => `NYSE:S${i}`).join(','));
    expect(parse.entries).toHaveLength(WATCHLIST_IMPORT_MAX_ENTRIES);
    expect(parse.problems).toEqual([{ line: 1, message: 'More than 2,000 entries: this one and the rest were not read. Split the list into smaller files.' }]);
  });
});

describe('parseWatchlistText: fuzz', () => {
  it('never throws on random text, and every problem names a line of the text', () => {
    let seed = 29;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ['A', 'z', '1', '.', ':', ',', ';', '\t', '"', '\n', '\r', '\r\n', ' ', '#', '###', 'é', '\uFEFF', 'symbol', 'Ticker', 'NASDAQ:', 'TSX:', '.TO', '^', '=', '/', '\u0000', '😀'];
    for (let round = 0; round < 2000; round += 1) {
      const text = Array.from({ length: Math.floor(random() * 60) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const parse = parseWatchlistText(text);
      const lineCount = text.split(/\r\n|\n|\r/).length;
      for (const problem of parse.problems) {
        expect(Number.isInteger(problem.line), JSON.stringify(text)).toBe(true);
        expect(problem.line).toBeGreaterThanOrEqual(1);
        expect(problem.line).toBeLessThanOrEqual(lineCount);
        expect(problem.message.length).toBeGreaterThan(0);
      }
      for (const entry of parse.entries) {
        expect(entry.line).toBeGreaterThanOrEqual(1);
        expect(entry.symbol).toMatch(/^[A-Z0-9][A-Z0-9.\-^=]{0,19}$/);
      }
    }
  });
});
