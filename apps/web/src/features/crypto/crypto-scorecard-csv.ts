/**
 * The crypto signal scorecard as its tables show it (pure, no React): the tables of each horizon
 * (`tablesOf`) and every row of them as one CSV row (`scorecardRows`, `SCORECARD_CSV`), horizon by
 * horizon in the tabs' order. Figures are unformatted (returns and shares as fractions, 0.05 = +5 %),
 * each 95 % interval as its low and high; a '—' on screen is an empty cell.
 */
import type { CryptoScorecard, CryptoScorecardCell, CryptoScorecardGroup, CsvColumn } from '@signalboard/core';
import { FEW_IDEAS } from '../../components/trade-ideas/track-record-csv';

export const HORIZONS = ['Short', 'Medium', 'Long'] as const;
export const HORIZON_LABEL = { Short: 'Short-term', Medium: 'Medium-term', Long: 'Long-term' } as const;
const ORIGIN_LABEL = { live: 'Live', replayed: 'Replayed' } as const;
const LABEL_ORDER = { Buy: 0, Sell: 1, Hold: 2 } as const;

export interface ScorecardTableModel {
  title: string;
  horizon: (typeof HORIZONS)[number];
  origin: string;
  ruleVersion: string;
  groups: CryptoScorecardGroup[];
}

/** Groups of one horizon, by rule version and origin (the two origins are never merged, §0.5). */
export function tablesOf(card: CryptoScorecard, horizon: (typeof HORIZONS)[number]): ScorecardTableModel[] {
  const tables = new Map<string, ScorecardTableModel>();
  for (const group of card.groups) {
    if (group.horizon !== horizon) continue;
    const key = `${group.origin}|${group.ruleVersion}`;
    const origin = ORIGIN_LABEL[group.origin];
    const table = tables.get(key) ?? { title: `${HORIZON_LABEL[horizon]} · ${origin} · ${group.ruleVersion}`, horizon, origin, ruleVersion: group.ruleVersion, groups: [] };
    table.groups.push(group);
    tables.set(key, table);
  }
  for (const table of tables.values()) table.groups.sort((a, b) => LABEL_ORDER[a.label] - LABEL_ORDER[b.label]);
  return [...tables.values()];
}

/** One row of a scorecard table: a label's figures k days after its signal changes. */
export interface ScorecardRow {
  table: ScorecardTableModel;
  group: CryptoScorecardGroup;
  cell: CryptoScorecardCell;
  benchmarkSymbol: string;
}

/** Every row of every table, in the order the tabs and tables show them. */
export function scorecardRows(card: CryptoScorecard): ScorecardRow[] {
  return HORIZONS.flatMap((horizon) =>
    tablesOf(card, horizon).flatMap((table) => table.groups.flatMap((group) => group.cells.map((cell) => ({ table, group, cell, benchmarkSymbol: card.benchmarkSymbol })))),
  );
}

export const SCORECARD_CSV: CsvColumn<ScorecardRow>[] = [
  { header: 'Horizon', value: (row) => HORIZON_LABEL[row.table.horizon] },
  { header: 'Origin', value: (row) => row.table.origin },
  { header: 'Rule version', value: (row) => row.table.ruleVersion },
  { header: 'Signal', value: (row) => row.group.label },
  { header: 'Signal changes', value: (row) => row.group.signals },
  { header: 'After (days)', value: (row) => row.cell.days },
  { header: 'N', value: (row) => row.cell.n },
  { header: 'Pending', value: (row) => row.cell.pending },
  { header: 'Mean', value: (row) => row.cell.mean },
  { header: 'Mean low (95%)', value: (row) => row.cell.meanInterval?.low },
  { header: 'Mean high (95%)', value: (row) => row.cell.meanInterval?.high },
  { header: 'Share positive', value: (row) => row.cell.sharePositive?.rate },
  { header: 'Share positive low (95%)', value: (row) => row.cell.sharePositive?.low },
  { header: 'Share positive high (95%)', value: (row) => row.cell.sharePositive?.high },
  { header: 'Baseline', value: (row) => row.cell.baseline },
  { header: 'Excess', value: (row) => row.cell.excess },
  { header: 'Benchmark', value: (row) => row.benchmarkSymbol },
  { header: 'Benchmark mean', value: (row) => row.cell.benchmark.meanReturn },
  { header: 'Benchmark N', value: (row) => row.cell.benchmark.n },
  { header: 'Excess over benchmark', value: (row) => row.cell.benchmark.meanExcess },
  { header: `Greyed (fewer than ${FEW_IDEAS} signals)`, value: (row) => row.cell.n < FEW_IDEAS },
];

export const SCORECARD_FILE = 'crypto-trades-track-record';
