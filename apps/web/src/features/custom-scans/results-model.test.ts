import { CSV_BOM, parseCsv, type RunScanResponse } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { formatCell, matchesSummary, nextSort, noMatchesMessage, resultColumns, resultsCsv, sortRows } from './results-model';

const ANSWER: Pick<RunScanResponse, 'columns' | 'rows'> = {
  columns: [
    { key: 'rsi(14)', field: 'rsi', params: [14], label: 'RSI(14)', unit: 'points' },
    { key: 'sector', field: 'sector', params: [], label: 'Sector', unit: 'text' },
  ],
  rows: [
    { symbol: 'MSFT', name: 'Microsoft', price: 400, change_pct: 0.5, values: [25.1, 'Technology'] },
    { symbol: 'AAPL', name: 'Apple, Inc.', price: 175, change_pct: -1.25, values: [null, 'Technology'] },
    { symbol: 'XOM', name: '=cmd', price: null, change_pct: 2, values: [28.44, 'Energy'] },
  ],
};
const columns = resultColumns(ANSWER);
const order = (sort: Parameters<typeof sortRows>[2]) => sortRows(ANSWER.rows, columns, sort).map((row) => row.symbol);

describe('results', () => {
  it('has the four columns of every scan, then one per field, as the server names them', () => {
    expect(columns.map((column) => [column.id, column.label])).toEqual([
      ['symbol', 'Symbol'],
      ['name', 'Name'],
      ['price', 'Price'],
      ['change_pct', 'Change %'],
      ['rsi(14)', 'RSI(14)'],
      ['sector', 'Sector'],
    ]);
  });

  it('sorts by any column, missing values last both ways, ties in the universe order', () => {
    expect(order(null)).toEqual(['MSFT', 'AAPL', 'XOM']);
    expect(order({ column: 'symbol', direction: 'ascending' })).toEqual(['AAPL', 'MSFT', 'XOM']);
    expect(order({ column: 'price', direction: 'ascending' })).toEqual(['AAPL', 'MSFT', 'XOM']);
    expect(order({ column: 'price', direction: 'descending' })).toEqual(['MSFT', 'AAPL', 'XOM']);
    expect(order({ column: 'rsi(14)', direction: 'descending' })).toEqual(['XOM', 'MSFT', 'AAPL']);
    expect(order({ column: 'sector', direction: 'ascending' })).toEqual(['XOM', 'MSFT', 'AAPL']);
    expect(order({ column: 'sector', direction: 'descending' })).toEqual(['MSFT', 'AAPL', 'XOM']);
  });

  it('goes ascending on a new header, then flips', () => {
    expect(nextSort(null, 'price')).toEqual({ column: 'price', direction: 'ascending' });
    expect(nextSort({ column: 'price', direction: 'ascending' }, 'price')).toEqual({ column: 'price', direction: 'descending' });
    expect(nextSort({ column: 'price', direction: 'descending' }, 'price')).toEqual({ column: 'price', direction: 'ascending' });
    expect(nextSort({ column: 'price', direction: 'descending' }, 'symbol')).toEqual({ column: 'symbol', direction: 'ascending' });
  });

  it('writes the CSV of the table as shown: its headers, its rows in order, numbers unformatted, text made safe', () => {
    const rows = sortRows(ANSWER.rows, columns, { column: 'change_pct', direction: 'descending' });
    const text = resultsCsv(columns, rows);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.slice(1)).toBe(
      [
        'Symbol,Name,Price,Change %,RSI(14),Sector,Imported prices',
        "XOM,'=cmd,,2,28.44,Energy,no",
        'MSFT,Microsoft,400,0.5,25.1,Technology,no',
        'AAPL,"Apple, Inc.",175,-1.25,,Technology,no',
        '',
      ].join('\r\n'),
    );
    // Read back as a spreadsheet does: the cells as the table shows them (the formula defused).
    expect(parseCsv(text).map((record) => record.fields)[3]).toEqual(['AAPL', 'Apple, Inc.', '175', '-1.25', '', 'Technology', 'no']);
  });

  it('formats each unit as the screen writes numbers', () => {
    expect(formatCell(175, 'price')).toBe('175.00');
    expect(formatCell(-1.25, 'percent')).toBe('−1.25%');
    expect(formatCell(2, 'percent')).toBe('+2.00%');
    expect(formatCell(1.534, 'ratio')).toBe('1.53×');
    expect(formatCell(12_300_000, 'dollars')).toBe('$12.3M');
    expect(formatCell(6, 'days')).toBe('6');
    expect(formatCell(-3, 'count')).toBe('−3');
    expect(formatCell(3, 'count')).toBe('+3');
    expect(formatCell(28.444, 'points')).toBe('28.44');
    expect(formatCell(null, 'points')).toBe('N/A');
    expect(formatCell('Energy', 'text')).toBe('Energy');
  });

  it('counts the matches against the universe, and says so when nothing matches', () => {
    expect(matchesSummary({ matches: 3, universe_size: 503 })).toBe('3 matches of 503 symbols');
    expect(matchesSummary({ matches: 1, universe_size: 1 })).toBe('1 match of 1 symbol');
    expect(noMatchesMessage('2026-11-20')).toBe('No symbol matches these conditions as of Nov 20, 2026.');
  });
});
