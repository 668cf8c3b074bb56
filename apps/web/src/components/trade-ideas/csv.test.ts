import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes numbers as numbers, empties for null, and defuses spreadsheet formulas in text', () => {
    expect(csvField(-1.25)).toBe('-1.25');
    expect(csvField(null)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('builds a header row and one CRLF-ended row per item', () => {
    const text = toCsv(
      [
        { header: 'Symbol', value: (row: { s: string; p: number }) => row.s },
        { header: 'Profit, %', value: (row) => row.p },
      ],
      [
        { s: 'AAPL', p: 1.5 },
        { s: 'BRK.B', p: -2 },
      ],
    );
    expect(text).toBe('Symbol,"Profit, %"\r\nAAPL,1.5\r\nBRK.B,-2\r\n');
  });
});
