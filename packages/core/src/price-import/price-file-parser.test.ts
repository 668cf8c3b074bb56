import { describe, expect, it } from 'vitest';
import { detectPriceFileFormat } from './detect';
import { PriceFileParser } from './price-file-parser';
import { MAX_PROBLEMS_PER_CODE } from './problems';
import type { PriceBar, PriceFileFormat, PriceFileProblem } from './types';

const YAHOO_FORMAT: PriceFileFormat = {
  layout: 'yahoo',
  separator: ',',
  decimalComma: false,
  dateFormat: 'YYYY-MM-DD',
  header: true,
  mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: 5, volume: 6, symbol: null },
};

/** Parses `text` cut into the given chunk sizes (whole when none). */
function parse(text: string, format: PriceFileFormat, cuts: number[] = [], symbol?: string): { bars: PriceBar[]; problems: PriceFileProblem[] } {
  const parser = new PriceFileParser(format, symbol === undefined ? {} : { symbol });
  const bars: PriceBar[] = [];
  let at = 0;
  for (const cut of cuts) {
    bars.push(...parser.push(text.slice(at, cut)));
    at = cut;
  }
  bars.push(...parser.push(text.slice(at)), ...parser.end());
  return { bars, problems: parser.problems };
}

const detected = (text: string) => detectPriceFileFormat(text).format!;

describe('PriceFileParser: layouts', () => {
  it('reads a Yahoo download, its null rows a warning each', () => {
    const text = 'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,187.15,188.44,183.89,185.64,184.73,82488700\n2024-01-03,null,null,null,null,null,null\n2024-01-04,182.15,183.09,180.88,181.91,181.02,71983600\n';
    const { bars, problems } = parse(text, detected(text), [], 'aapl');
    expect(bars).toEqual([
      { line: 2, symbol: 'AAPL', date: '2024-01-02', day: 19724, open: 187.15, high: 188.44, low: 183.89, close: 185.64, adjClose: 184.73, volume: 82488700 },
      { line: 4, symbol: 'AAPL', date: '2024-01-04', day: 19726, open: 182.15, high: 183.09, low: 180.88, close: 181.91, adjClose: 181.02, volume: 71983600 },
    ]);
    expect(problems).toEqual([{ line: 3, severity: 'warning', code: 'null-row', message: 'Line 3: no prices on 2024-01-03 ("null"): the row is skipped' }]);
  });

  it('reads a Stooq file and Stooq’s bulk .txt with its ticker column', () => {
    const stooq = 'Date,Open,High,Low,Close,Volume\r\n2024-01-02,187.15,188.44,183.89,185.64,82488700\r\n';
    expect(parse(stooq, detected(stooq), [], 'SPY').bars[0]).toMatchObject({ symbol: 'SPY', close: 185.64, adjClose: null, volume: 82488700 });
    const bulk = '<TICKER>,<PER>,<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<VOL>,<OPENINT>\nAAPL.US,D,20240102,000000,187.15,188.44,183.89,185.64,82488700,0\nMSFT.US,D,20240102,000000,373.86,375.9,366.77,370.87,25258600,0\n';
    expect(parse(bulk, detected(bulk)).bars.map((bar) => [bar.symbol, bar.date, bar.close])).toEqual([
      ['AAPL', '2024-01-02', 185.64],
      ['MSFT', '2024-01-02', 370.87],
    ]);
  });

  it('reads a custom mapping: decimal commas with ";", quoted fields, a BOM, CRLF and columns in any order', () => {
    const text = '\ufeffSymbol;Volume;Close;Low;High;Open;Day\r\n"nvda";"1.234.567";"48,17";47,5;"48,9";"47,6";02.01.2024\r\nNVDA;1000;49;48;49,5;48,2;"03.01.2024"\r\n';
    const format: PriceFileFormat = { layout: 'custom', separator: ';', decimalComma: true, dateFormat: 'DD.MM.YYYY', header: true, mapping: { date: 6, open: 5, high: 4, low: 3, close: 2, adjClose: null, volume: 1, symbol: 0 } };
    const { bars, problems } = parse(text, format);
    expect(problems).toEqual([]);
    expect(bars).toEqual([
      { line: 2, symbol: 'NVDA', date: '2024-01-02', day: 19724, open: 47.6, high: 48.9, low: 47.5, close: 48.17, adjClose: null, volume: 1234567 },
      { line: 3, symbol: 'NVDA', date: '2024-01-03', day: 19725, open: 48.2, high: 49.5, low: 48, close: 49, adjClose: null, volume: 1000 },
    ]);
    expect(detected(text)).toEqual(format);
  });

  it('reads every date format into ISO dates', () => {
    const dates = { 'YYYY-MM-DD': '2024-07-05', YYYYMMDD: '20240705', 'YYYY/MM/DD': '2024/07/05', 'MM/DD/YYYY': '07/05/2024', 'DD/MM/YYYY': '05/07/2024', 'DD.MM.YYYY': '05.07.2024', 'DD-MM-YYYY': '05-07-2024' } as const;
    for (const [dateFormat, written] of Object.entries(dates)) {
      const { bars, problems } = parse(`Date,Open,High,Low,Close,Adj Close,Volume\n${written},1,2,1,2,2,10\n`, { ...YAHOO_FORMAT, dateFormat: dateFormat as keyof typeof dates });
      expect(problems, dateFormat).toEqual([]);
      expect(bars[0]!.date, dateFormat).toBe('2024-07-05');
    }
  });

  it('keeps a first line of data where the format expects a header', () => {
    const { bars, problems } = parse('2024-01-02,1,2,1,2,2,10\n2024-01-03,1,2,1,2,2,10\n', YAHOO_FORMAT);
    expect(problems).toEqual([]);
    expect(bars.map((bar) => bar.line)).toEqual([1, 2]);
  });

  it('takes the symbol option for a file without a symbol column, and leaves it null without either', () => {
    const text = 'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,1,2,1,2,2,\n';
    expect(parse(text, YAHOO_FORMAT).bars[0]).toMatchObject({ symbol: null, volume: null });
    expect(parse(text, YAHOO_FORMAT, [], '^gspc').bars[0]!.symbol).toBe('^GSPC');
  });
});

describe('PriceFileParser: row refusals name their lines', () => {
  const header = 'Date,Open,High,Low,Close,Adj Close,Volume\n';
  const cases: Array<[string, string, string]> = [
    ['2026-02-30,1,2,1,2,2,10', 'bad-date', 'Line 2: "2026-02-30" is not a date (YYYY-MM-DD)'],
    ['2024-01-02,1,2,1', 'too-few-fields', 'Line 2: 4 fields, where column 7 is expected'],
    ['2024-01-02,1,2x,1,2,2,10', 'bad-number', 'Line 2: the high "2x" is not a number'],
    ['2024-01-02,1,null,1,2,2,10', 'bad-number', 'Line 2: the high "null" is not a number'],
    ['2024-01-02,1,2,1,2,abc,10', 'bad-number', 'Line 2: the adjusted close "abc" is not a number'],
    ['2024-01-02,1,2,1,2,2,1O', 'bad-number', 'Line 2: the volume "1O" is not a number'],
    ['2024-01-02,0,2,1,2,2,10', 'non-positive-price', 'Line 2: the open is 0, not a positive price'],
    ['2024-01-02,1,2,-1,2,2,10', 'non-positive-price', 'Line 2: the low is -1, not a positive price'],
    ['2024-01-02,1,2,1,2,0,10', 'non-positive-price', 'Line 2: the adjusted close is 0, not a positive price'],
    ['2024-01-02,1,2,1,2,2,-10', 'negative-volume', 'Line 2: the volume is -10, below zero'],
    ['2024-01-02,1,1.5,1,2,2,10', 'inconsistent-ohlc', 'Line 2: the high 1.5 is below the close 2'],
    ['2024-01-02,3,2.5,1,2,2,10', 'inconsistent-ohlc', 'Line 2: the high 2.5 is below the open 3'],
    ['2024-01-02,1,2,1.5,2,2,10', 'inconsistent-ohlc', 'Line 2: the low 1.5 is above the open 1'],
  ];
  it.each(cases)('%s → %s', (row, code, message) => {
    const { bars, problems } = parse(`${header}${row}\n`, YAHOO_FORMAT);
    expect(bars).toEqual([]);
    expect(problems).toEqual([{ line: 2, severity: 'error', code, message }]);
  });

  it('accepts a high or low off by rounding (one part in a million)', () => {
    expect(parse(`${header}2024-01-02,100.0000001,100,99,99.5,99.5,10\n`, YAHOO_FORMAT).problems).toEqual([]);
  });

  it('refuses an empty symbol, an unclosed quote and a file without bars, with lines', () => {
    const format = { ...YAHOO_FORMAT, mapping: { ...YAHOO_FORMAT.mapping, symbol: 7 } };
    expect(parse(`${header}2024-01-02,1,2,1,2,2,10, \n`, format).problems).toMatchObject([{ line: 2, code: 'missing-symbol', message: 'Line 2: no symbol' }]);
    expect(parse(`${header}2024-01-02,1,2,1,2,2,10\n"2024-01-03,1,2,1,2,2,10\n`, YAHOO_FORMAT).problems).toMatchObject([{ line: 3, code: 'csv-syntax' }]);
    expect(parse(header, YAHOO_FORMAT).problems).toEqual([{ line: 1, severity: 'error', code: 'no-bars', message: 'Line 1: the file has no bars' }]);
    expect(parse('', YAHOO_FORMAT).problems).toMatchObject([{ line: 1, code: 'no-bars' }]);
    expect(parse(`${header}2024-01-02,null,null,null,null,null,null\n`, YAHOO_FORMAT).problems.map((problem) => problem.code)).toEqual(['null-row', 'no-bars']);
  });

  it('lists a code’s first rows and counts the rest on the first left out', () => {
    const rows = Array.from({ length: 250 }, (_, i) => `2024-02-3${i % 2},1,2,1,2,2,10`).join('\n');
    const { problems } = parse(`${header}${rows}\n`, YAHOO_FORMAT);
    expect(problems).toHaveLength(MAX_PROBLEMS_PER_CODE + 1);
    expect(problems.at(-1)).toEqual({ line: MAX_PROBLEMS_PER_CODE + 2, severity: 'error', code: 'bad-date', message: `Line ${MAX_PROBLEMS_PER_CODE + 2}: and 150 more like that (bad-date)` });
  });

  it('skips blank lines and lines of empty fields, and names lines after them', () => {
    const { bars, problems } = parse(`${header}\n,,,,,,\n2024-01-02,1,2,1,2,2,10\n\n2024-01-0x,1,2,1,2,2,10\n`, YAHOO_FORMAT);
    expect(bars.map((bar) => bar.line)).toEqual([4]);
    expect(problems).toMatchObject([{ line: 6, code: 'bad-date' }]);
  });

  it('refuses a mapping it cannot read', () => {
    expect(() => new PriceFileParser({ ...YAHOO_FORMAT, mapping: { ...YAHOO_FORMAT.mapping, high: 1 } })).toThrowError(RangeError);
    expect(() => new PriceFileParser({ ...YAHOO_FORMAT, mapping: { ...YAHOO_FORMAT.mapping, low: -1 } })).toThrowError(RangeError);
    expect(() => new PriceFileParser({ ...YAHOO_FORMAT, decimalComma: true })).toThrowError(RangeError);
  });
});

describe('PriceFileParser: streaming', () => {
  const text = '\ufeffSymbol,Date,Open,High,Low,Close,Adj Close,Volume\r\nAAPL,2024-01-02,187.15,188.44,183.89,185.64,184.73,82488700\r\n"MSFT","2024-01-02","373.86","375.9",366.77,370.87,369.1,"25,258,600"\r\nAAPL,2024-01-03,null,null,null,null,null,null\r\nAAPL,2024-01-0x,1,2,1,2,2,10\r\nMSFT,2024-01-03,1,2,1,1.5,1.5,10\r\n\r\nAAPL,2024-01-04,182.15,183.09,180.88,181.91,181.02,71983600';

  it('answers the same bars and problems however the text is cut', () => {
    const format = detected(text);
    expect(format.mapping.symbol).toBe(0);
    const whole = parse(text, format);
    expect(whole.bars.map((bar) => `${bar.line} ${bar.symbol} ${bar.date} ${bar.volume}`)).toEqual(['2 AAPL 2024-01-02 82488700', '3 MSFT 2024-01-02 25258600', '6 MSFT 2024-01-03 10', '8 AAPL 2024-01-04 71983600']);
    expect(whole.problems.map((problem) => `${problem.line} ${problem.code}`)).toEqual(['4 null-row', '5 bad-date']);
    for (let cut = 0; cut <= text.length; cut += 1) expect(parse(text, format, [cut])).toEqual(whole);
    for (let size = 1; size <= 7; size += 1) {
      const cuts = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => i * size);
      expect(parse(text, format, cuts)).toEqual(whole);
    }
  });
});
