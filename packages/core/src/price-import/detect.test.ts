import { describe, expect, it } from 'vitest';
import { detectPriceFileFormat } from './detect';
import { PriceFileParser } from './price-file-parser';

const YAHOO = 'Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,187.15,188.44,183.89,185.64,184.73,82488700\n2024-01-03,184.22,185.88,183.43,184.25,183.35,58414500\n';
const STOOQ = 'Date,Open,High,Low,Close,Volume\n2024-01-02,187.15,188.44,183.89,185.64,82488700\n2024-01-03,184.22,185.88,183.43,184.25,58414500\n';
const STOOQ_BULK = '<TICKER>,<PER>,<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<VOL>,<OPENINT>\nAAPL.US,D,20240102,000000,187.15,188.44,183.89,185.64,82488700,0\n';

describe('detectPriceFileFormat', () => {
  it('knows Yahoo and Stooq (the per-symbol CSV and the bulk .txt)', () => {
    const yahoo = detectPriceFileFormat(YAHOO);
    expect(yahoo.problem).toBeNull();
    expect(yahoo.format).toEqual({
      layout: 'yahoo',
      separator: ',',
      decimalComma: false,
      dateFormat: 'YYYY-MM-DD',
      header: true,
      mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: 5, volume: 6, symbol: null },
    });
    expect(yahoo.headers).toEqual(['Date', 'Open', 'High', 'Low', 'Close', 'Adj Close', 'Volume']);
    expect(yahoo.sample[0]).toEqual(['2024-01-02', '187.15', '188.44', '183.89', '185.64', '184.73', '82488700']);
    expect(detectPriceFileFormat(STOOQ).format).toMatchObject({ layout: 'stooq', mapping: { adjClose: null, volume: 5 } });
    expect(detectPriceFileFormat(STOOQ_BULK).format).toMatchObject({
      layout: 'stooq',
      dateFormat: 'YYYYMMDD',
      mapping: { symbol: 0, date: 2, open: 4, high: 5, low: 6, close: 7, volume: 8, adjClose: null },
    });
  });

  it('reads a BOM, CRLF, quoted headers, other names and cases, and a head cut mid-line', () => {
    const text = '\ufeff"trade_date";"OPEN";"high";"Low";"closing price";"adj_close";"vol";"Ticker"\r\n02.01.2024;187,15;188,44;183,89;185,64;184,73;82488700;AAPL\r\n03.01.2024;184,22;185,88;183,43;184,25;183,35;58414500;AAPL\r\n15.01.2024;18';
    const { format, problem, headers } = detectPriceFileFormat(text);
    expect(problem).toBeNull();
    expect(headers[0]).toBe('trade_date');
    expect(format).toEqual({
      layout: 'custom',
      separator: ';',
      decimalComma: true,
      dateFormat: 'DD.MM.YYYY',
      header: true,
      mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: 5, volume: 6, symbol: 7 },
    });
  });

  it('reads yfinance’s three header lines', () => {
    const text = 'Price,Adj Close,Close,High,Low,Open,Volume\nTicker,AAPL,AAPL,AAPL,AAPL,AAPL,AAPL\nDate,,,,,,\n2024-01-02,184.73,185.64,188.44,183.89,187.15,82488700\n';
    const { format, problem, sample } = detectPriceFileFormat(text);
    expect(problem).toBeNull();
    expect(sample).toEqual([['2024-01-02', '184.73', '185.64', '188.44', '183.89', '187.15', '82488700']]);
    expect(format).toMatchObject({ layout: 'custom', header: true, extraHeaderLines: 2, mapping: { date: 0, adjClose: 1, close: 2, high: 3, low: 4, open: 5, volume: 6, symbol: null } });
    const parser = new PriceFileParser(format!, { symbol: 'AAPL' });
    const bars = [...parser.push(text), ...parser.end()];
    expect(parser.problems).toEqual([]);
    expect(bars).toMatchObject([{ line: 4, date: '2024-01-02', open: 187.15, close: 185.64, adjClose: 184.73 }]);
  });

  it('reads tabs and pipes, and a decimal comma without a header', () => {
    expect(detectPriceFileFormat(YAHOO.replaceAll(',', '\t')).format).toMatchObject({ separator: '\t', layout: 'yahoo' });
    expect(detectPriceFileFormat(STOOQ.replaceAll(',', '|')).format).toMatchObject({ separator: '|', layout: 'stooq' });
    const noHeader = detectPriceFileFormat('2024-01-02;187,15;188,44;183,89;185,64;82488700\n2024-01-03;184,22;185,88;183,43;184,25;58414500\n');
    expect(noHeader.format).toMatchObject({ separator: ';', decimalComma: true, header: false, layout: 'custom', mapping: { date: 0, close: 4, volume: 5 } });
    expect(noHeader.problem).toMatch(/no header/);
  });

  it('asks when day and month could be either way round, and tells when the dates allow one', () => {
    const ambiguous = detectPriceFileFormat('Date,Open,High,Low,Close\n01/02/2024,1,2,1,2\n01/03/2024,1,2,1,2\n');
    expect(ambiguous.format?.dateFormat).toBe('MM/DD/YYYY');
    expect(ambiguous.problem).toMatch(/month first or day first/);
    const dayFirst = detectPriceFileFormat('Date,Open,High,Low,Close\n01/02/2024,1,2,1,2\n13/02/2024,1,2,1,2\n');
    expect(dayFirst.format?.dateFormat).toBe('DD/MM/YYYY');
    expect(dayFirst.problem).toBeNull();
    expect(detectPriceFileFormat('Date,Open,High,Low,Close\n2024.01.02,1,2,1,2\n').problem).toMatch(/"2024.01.02" is a date in no known format/);
  });

  it('says what it cannot tell', () => {
    expect(detectPriceFileFormat('').format).toBeNull();
    expect(detectPriceFileFormat('just some text\nand more\n').problem).toMatch(/No columns/);
    const unnamed = detectPriceFileFormat('When,A,B,C,D,E\n2024-01-02,1,2,3,4,5\n');
    expect(unnamed.format).toBeNull();
    expect(unnamed.problem).toBe('The header names no date, open, high, low, close column: choose the columns.');
    expect(unnamed.sample).toEqual([['2024-01-02', '1', '2', '3', '4', '5']]);
    expect(detectPriceFileFormat('Date,Open,High,Low,Close\n2024-01-02,1;5,2,1,2\n').problem).toMatch(/not a number/);
  });
});
