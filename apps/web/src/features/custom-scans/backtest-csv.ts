/**
 * A finished backtest's tables as CSV (pure, no React): each horizon's rows (this scan, random
 * entries, the benchmark) with the horizon's verdict, and the worst entries. Figures are unformatted
 * (returns and shares as fractions, 0.05 = +5 %), each 95 % interval as its low and high, days as
 * YYYY-MM-DD; a '—' on screen is an empty cell.
 */
import type { BacktestResultBody, BacktestStats, CsvColumn } from '@signalboard/core';
import { VERDICT_TEXT, verdictOf, type BacktestHorizon } from './backtest-model';

/** One row of a horizon's table, as HorizonSection lists them. */
export interface BacktestRow {
  horizon: BacktestHorizon;
  /** 'This scan', 'Random entries', or the benchmark's symbol. */
  entries: string;
  stats: BacktestStats | null;
  mean: number | null;
  /** The mean excess over the benchmark, said under the table: on the scan's row. */
  excess: number | null;
  from: string;
  to: string;
}

export function backtestRows(result: BacktestResultBody): BacktestRow[] {
  const window = { from: result.from, to: result.to };
  return result.horizons.flatMap((horizon) => {
    const rows: BacktestRow[] = [
      { horizon, entries: 'This scan', stats: horizon.scan, mean: horizon.scan.mean, excess: result.benchmark ? horizon.excess_mean : null, ...window },
      { horizon, entries: 'Random entries', stats: horizon.random, mean: horizon.random.mean, excess: null, ...window },
    ];
    if (result.benchmark) rows.push({ horizon, entries: result.benchmark, stats: null, mean: horizon.benchmark_mean, excess: null, ...window });
    return rows;
  });
}

export const BACKTEST_CSV: CsvColumn<BacktestRow>[] = [
  { header: 'From', value: (row) => row.from },
  { header: 'To', value: (row) => row.to },
  { header: 'Held (sessions)', value: (row) => row.horizon.horizon },
  { header: 'Verdict', value: (row) => VERDICT_TEXT[verdictOf(row.horizon)] },
  { header: 'Entries', value: (row) => row.entries },
  { header: 'N', value: (row) => row.stats?.n },
  { header: 'Mean', value: (row) => row.mean },
  { header: 'Mean low (95%)', value: (row) => row.stats?.mean_low },
  { header: 'Mean high (95%)', value: (row) => row.stats?.mean_high },
  { header: 'Median', value: (row) => row.stats?.median },
  { header: 'Share positive', value: (row) => row.stats?.positive?.rate },
  { header: 'Share positive low (95%)', value: (row) => row.stats?.positive?.low },
  { header: 'Share positive high (95%)', value: (row) => row.stats?.positive?.high },
  { header: 'Mean excess over benchmark', value: (row) => row.excess },
  { header: 'Entries too recent (left out)', value: (row) => (row.stats === row.horizon.scan ? row.horizon.immature : null) },
];

export type WorstEntry = BacktestResultBody['worst'][number];

export const WORST_CSV: CsvColumn<WorstEntry>[] = [
  { header: 'Symbol', value: (row) => row.symbol },
  { header: 'Entry date', value: (row) => row.date },
  { header: '21-session return', value: (row) => row.return_21 },
];

export const BACKTEST_FILE = 'custom-scan-backtest';
export const WORST_FILE = 'custom-scan-backtest-worst-entries';
