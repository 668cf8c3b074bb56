/**
 * The results of a run as the screen shows them: the columns (symbol, name, price, change % and one
 * per field the scan reads, as the server names them), each value's format by its unit (docs/ui.md
 * "Numbers"), the order the user sorts by, and the CSV of exactly what the table shows.
 */
import { figureSourceLabel, toCsv, type RunScanResponse, type ScanColumn, type ScanResultRow } from '@signalboard/core';
import { formatPrice, formatSignedPercent, formatVolume } from '../../components/format';
import { monthDayYear } from '../../components/en-us-format';

export type ColumnUnit = ScanColumn['unit'];
export type CellValue = number | string | null;

export interface ResultColumn {
  /** 'symbol', 'name', 'price', 'change_pct', or the field's key ('rsi(14)'). */
  id: string;
  label: string;
  unit: ColumnUnit;
  value: (row: ScanResultRow) => CellValue;
  /** Coloured green up, red down (with its sign): a change, not a level. */
  signed: boolean;
}

const MINUS = '\u2212';
/** Fields whose value is a change of price: shown with the gain and loss colours. */
const CHANGE_FIELDS = new Set(['change_pct', 'gap_pct']);

/** The table's columns for an answer: the four of every scan, then one per field the scan reads. */
export function resultColumns(response: Pick<RunScanResponse, 'columns'>): ResultColumn[] {
  return [
    { id: 'symbol', label: 'Symbol', unit: 'text', value: (row) => row.symbol, signed: false },
    { id: 'name', label: 'Name', unit: 'text', value: (row) => row.name, signed: false },
    { id: 'price', label: 'Price', unit: 'price', value: (row) => row.price, signed: false },
    { id: 'change_pct', label: 'Change %', unit: 'percent', value: (row) => row.change_pct, signed: true },
    ...response.columns.map(
      (column, index): ResultColumn => ({
        id: column.key,
        label: column.label,
        unit: column.unit,
        value: (row) => row.values[index] ?? null,
        signed: CHANGE_FIELDS.has(column.field),
      }),
    ),
  ];
}

const signedInteger = (value: number) => (value > 0 ? `+${value}` : value < 0 ? `${MINUS}${Math.abs(value)}` : '0');

/** A value as the table writes it, by its unit: prices to 2 decimals, percentages with sign, dollars compact. */
export function formatCell(value: CellValue, unit: ColumnUnit): string {
  if (value === null) return 'N/A';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) return 'N/A';
  switch (unit) {
    case 'percent':
      return formatSignedPercent(value);
    case 'ratio':
      return `${formatPrice(value)}×`;
    case 'dollars':
      return `$${formatVolume(value)}`;
    case 'days':
      return String(Math.round(value));
    case 'count':
      return signedInteger(Math.round(value));
    case 'text':
      return String(value);
    default:
      // price and points
      return formatPrice(value);
  }
}

export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  column: string;
  direction: SortDirection;
}

function compareValues(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base', numeric: true });
}

/**
 * The rows in the order asked: by the column's value, missing values last whichever the direction,
 * ties in the answer's order (the universe's). Without a sort, the answer's order.
 */
export function sortRows(rows: readonly ScanResultRow[], columns: readonly ResultColumn[], sort: SortState | null): ScanResultRow[] {
  const column = sort ? columns.find((candidate) => candidate.id === sort.column) : undefined;
  if (!sort || !column) return [...rows];
  const factor = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: column.value(row) }))
    .sort((a, b) => {
      const aMissing = a.value === null || (typeof a.value === 'number' && !Number.isFinite(a.value));
      const bMissing = b.value === null || (typeof b.value === 'number' && !Number.isFinite(b.value));
      if (aMissing !== bMissing) return aMissing ? 1 : -1;
      const order = aMissing ? 0 : compareValues(a.value, b.value) * factor;
      return order !== 0 ? order : a.index - b.index;
    })
    .map(({ row }) => row);
}

/** A header's next sort: ascending first, then descending, then back. */
export function nextSort(current: SortState | null, column: string): SortState {
  if (current?.column === column) return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: 'ascending' };
}

/** The CSV's last column: whether the row's figures come from an imported price file (the table's 'Imported' marker). */
export const IMPORTED_CSV_HEADER = 'Imported prices';

/** The CSV of the table as shown: its columns and its rows in their order, numbers as the answer gives them, then 'Imported prices' (yes / no). */
export function resultsCsv(columns: readonly ResultColumn[], rows: readonly ScanResultRow[]): string {
  return toCsv(
    [...columns.map((column) => ({ header: column.label, value: column.value })), { header: IMPORTED_CSV_HEADER, value: (row: ScanResultRow) => (row.imported ? 'yes' : 'no') }],
    rows,
  );
}

/** The header's source: 'Simulated market', 'Simulated market, imported prices for 3 symbols'. */
export const resultsSourceLabel = (response: Pick<RunScanResponse, 'source' | 'imported_symbols'>) => figureSourceLabel(response.source, response.imported_symbols ?? 0);

/** 'custom-scan-sp500-2026-11-20.csv'. */
export const csvFileName = (response: Pick<RunScanResponse, 'universe' | 'as_of'>) => `custom-scan-${response.universe}-${response.as_of ?? 'no-date'}.csv`;

/** A session date (YYYY-MM-DD) as the screen writes it: 'Nov 20, 2026' (the day itself, no time zone shift). */
export function formatSessionDate(isoDay: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDay);
  if (!match) return isoDay;
  return monthDayYear(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** '12 matches of 503 symbols', '1 match of 1 symbol'. */
export function matchesSummary(response: Pick<RunScanResponse, 'matches' | 'universe_size'>): string {
  const { matches, universe_size: size } = response;
  return `${matches} ${matches === 1 ? 'match' : 'matches'} of ${size} ${size === 1 ? 'symbol' : 'symbols'}`;
}

/** The empty state's sentence (the screen's words). */
export const noMatchesMessage = (asOf: string | null) =>
  asOf ? `No symbol matches these conditions as of ${formatSessionDate(asOf)}.` : 'No symbol of this universe had daily bars to scan.';
