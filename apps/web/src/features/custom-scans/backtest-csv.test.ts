import { CSV_BOM, parseCsv, toCsv } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { RESULT } from './__fixtures__/backtest';
import { BACKTEST_CSV, backtestRows, WORST_CSV } from './backtest-csv';

const readBack = (text: string) => {
  expect(text.startsWith(CSV_BOM)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return parseCsv(text).map((record) => record.fields);
};

describe('the backtest CSVs', () => {
  it('hold each horizon’s rows with the verdict, figures unformatted and intervals as low and high', () => {
    const [header, ...rows] = readBack(toCsv(BACKTEST_CSV, backtestRows(RESULT)));
    expect(header).toEqual([
      'From',
      'To',
      'Held (sessions)',
      'Verdict',
      'Entries',
      'N',
      'Mean',
      'Mean low (95%)',
      'Mean high (95%)',
      'Median',
      'Share positive',
      'Share positive low (95%)',
      'Share positive high (95%)',
      'Mean excess over benchmark',
      'Entries too recent (left out)',
    ]);
    expect(rows).toHaveLength(9);
    expect(rows.slice(0, 3)).toEqual([
      ['2024-11-21', '2026-11-20', '5', 'Beats random entries', 'This scan', '140', '0.021', '0.012', '0.03', '0.018', '0.62', '0.54', '0.7', '0.018', '3'],
      ['2024-11-21', '2026-11-20', '5', 'Beats random entries', 'Random entries', '2800', '0.002', '-0.001', '0.005', '0.001', '0.51', '0.49', '0.53', '', ''],
      ['2024-11-21', '2026-11-20', '5', 'Beats random entries', 'SPY', '', '0.003', '', '', '', '', '', '', '', ''],
    ]);
    expect(rows.map((row) => `${row[2]} ${row[3]} ${row[4]}`).slice(3)).toEqual([
      '21 Not distinguishable from random entries This scan',
      '21 Not distinguishable from random entries Random entries',
      '21 Not distinguishable from random entries SPY',
      '63 Worse than random entries This scan',
      '63 Worse than random entries Random entries',
      '63 Worse than random entries SPY',
    ]);
    expect(rows[3]![13]).toBe('-0.0015');
  });

  it('has no benchmark row, and no excess, when the source has no benchmark', () => {
    const [, ...rows] = readBack(toCsv(BACKTEST_CSV, backtestRows({ ...RESULT, benchmark: null })));
    expect(rows.map((row) => row[4])).toEqual(['This scan', 'Random entries', 'This scan', 'Random entries', 'This scan', 'Random entries']);
    expect(rows.every((row) => row[13] === '')).toBe(true);
  });

  it('holds the worst entries: symbol, day and return', () => {
    expect(readBack(toCsv(WORST_CSV, RESULT.worst))).toEqual([
      ['Symbol', 'Entry date', '21-session return'],
      ['INTC', '2025-04-03', '-0.2512'],
      ['BA', '2025-03-10', '-0.1804'],
    ]);
  });
});
