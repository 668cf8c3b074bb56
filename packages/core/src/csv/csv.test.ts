import { describe, expect, it } from 'vitest';
import { CSV_BOM, CsvReader, CsvSyntaxError, csvCell, parseCsv, recordColumns, toCsv } from './index';

const fields = (text: string) => parseCsv(text).map((record) => record.fields);

describe('csvCell', () => {
  it('quotes what needs quoting and guards formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-5%')).toBe("'-5%");
    expect(csvCell('\tx')).toBe("'\tx");
  });

  it('writes numbers with a "." and never in exponent notation, dates as ISO instants', () => {
    expect(csvCell(-5.3)).toBe('-5.3');
    expect(csvCell(1234567.5)).toBe('1234567.5');
    expect(csvCell(1e21)).toBe('1000000000000000000000');
    expect(csvCell(1.5e-7)).toBe('0.00000015');
    expect(csvCell(-2e-8)).toBe('-0.00000002');
    expect(csvCell(-1.234e22)).toBe('-12340000000000000000000');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(new Date('2026-11-20T14:30:00Z'))).toBe('2026-11-20T14:30:00.000Z');
    expect(csvCell(new Date(Number.NaN))).toBe('');
  });
});

describe('toCsv', () => {
  it('starts with the BOM, ends every line with CRLF, and reads back', () => {
    const rows = [
      { symbol: 'AAPL', note: 'Apple, "the" one', change: -1.25, at: new Date('2026-11-20T21:00:00Z') },
      { symbol: 'RY.TO', note: 'two\r\nlines — é', change: 0.5, at: null },
    ];
    const text = toCsv(
      [
        { header: 'Symbol', value: (row: (typeof rows)[number]) => row.symbol },
        { header: 'Note', value: (row) => row.note },
        { header: 'Change %', value: (row) => row.change },
        { header: 'At', value: (row) => row.at },
      ],
      rows,
    );
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(fields(text)).toEqual([
      ['Symbol', 'Note', 'Change %', 'At'],
      ['AAPL', 'Apple, "the" one', '-1.25', '2026-11-20T21:00:00.000Z'],
      ['RY.TO', 'two\r\nlines — é', '0.5', ''],
    ]);
  });

  it('recordColumns reads keys in order', () => {
    expect(fields(toCsv(recordColumns(['b', 'a'] as const), [{ a: 1, b: 'x' }]))).toEqual([['b', 'a'], ['x', '1']]);
  });
});

describe('CsvReader', () => {
  it('reads CRLF, LF and CR line ends, blank lines, and names each record’s first line', () => {
    expect(parseCsv('a,b\r\n\r\n"x\ny",2\rlast,3\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['x\ny', '2'] },
      { line: 5, fields: ['last', '3'] },
    ]);
  });

  it('keeps empty fields, a quoted empty field, and a trailing separator', () => {
    expect(fields('a,,b\n"",x\nc,\n')).toEqual([['a', '', 'b'], ['', 'x'], ['c', '']]);
  });

  it('is lenient with stray quotes and strict with an open one', () => {
    expect(fields('ab"c,"d"e\n')).toEqual([['ab"c', 'de']]);
    expect(() => parseCsv('a\n"open,b\nc')).toThrowError(CsvSyntaxError);
    expect(() => parseCsv('a\n"open,b\nc')).toThrowError('Line 2: a quoted field is never closed');
  });

  it('takes another separator and drops the BOM', () => {
    expect(fields(`${CSV_BOM}Date;Close\n2026-11-20;"1,5"\n`, )).toEqual([['Date;Close'], ['2026-11-20;"1', '5"']]);
    expect(parseCsv(`${CSV_BOM}Date;Close\n2026-11-20;"1,5"\n`, { separator: ';' }).map((r) => r.fields)).toEqual([['Date', 'Close'], ['2026-11-20', '1,5']]);
    expect(parseCsv('a\tb\n', { separator: '\t' })[0]!.fields).toEqual(['a', 'b']);
    expect(() => new CsvReader({ separator: '"' })).toThrowError();
  });

  it('reads the same records however the text is cut into chunks', () => {
    const text = `${CSV_BOM}h1,h2\r\n"a ""q"" b","x\r\ny"\r\n\r\nplain,"",\r\n"end"`;
    const whole = parseCsv(text);
    for (let cut = 0; cut <= text.length; cut += 1) {
      const reader = new CsvReader();
      expect([...reader.push(text.slice(0, cut)), ...reader.push(text.slice(cut)), ...reader.end()]).toEqual(whole);
    }
    const reader = new CsvReader();
    const oneByOne = [...[...text].flatMap((char) => reader.push(char)), ...reader.end()];
    expect(oneByOne).toEqual(whole);
  });

  it('reads random text the same whole (whole lines split at once) as one character at a time', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ['a', '1', ',', ',', '"', '\n', '\n', '\r', '\r\n', ' ', '\ufeff'];
    for (let round = 0; round < 500; round += 1) {
      const text = Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const read = (chunks: string[]) => {
        const reader = new CsvReader();
        try {
          return [...chunks.flatMap((chunk) => reader.push(chunk)), ...reader.end()];
        } catch (error) {
          return String(error);
        }
      };
      const cut = Math.floor(random() * (text.length + 1));
      expect(read([text.slice(0, cut), text.slice(cut)])).toEqual(read([...text]));
    }
  });

  it('reads back whatever the writer wrote (random cells)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = ['a', 'Z', ' ', ',', '"', '\n', '\r', 'é', '—', ';', '1', '.', "'", '=', '-'];
    for (let round = 0; round < 200; round += 1) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Array.from({ length: 3 }, () => Array.from({ length: Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')),
      );
      const text = toCsv(recordColumns(['0', '1', '2'] as const), rows.map(([a, b, c]) => ({ 0: a, 1: b, 2: c })));
      expect(fields(text).slice(1)).toEqual(rows.map((row) => row.map((cell) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell))));
    }
  });
});
