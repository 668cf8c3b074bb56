import { MantineProvider } from '@mantine/core';
import { CSV_BOM, parseCsv, toCsv } from '@signalboard/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { record, recordGroup, stats } from '../../test/trade-fixtures';
import { cssVariablesResolver, theme } from '../../theme';
import { formatFraction, formatShare } from './idea-format';
import { TRACK_RECORD_CSV, trackRecordFigures } from './track-record-csv';
import { TrackRecordBody } from './track-record-panel';

afterEach(cleanup);

const BREAK_EVEN = 0.625;
const RECORD = record('layered', [
  recordGroup({ type: 'All', origin: 'replayed', ruleVersion: 'layered@1.0.0', mature: stats({ n: 18 }), allClosed: stats({ n: 26, profitFactor: null, exitReasons: { time_stop: 0.5, target: 0.5 } }) }),
  recordGroup({
    type: 'Level System',
    origin: 'live',
    ruleVersion: 'layered@1.0.0',
    mature: null,
    allClosed: stats({ dollarWeighted: { onDeployed: 0.031, onCommitted: 0.012, xirr: null }, avgLoss: null, meanInterval: null }),
    baseline: null,
    benchmark: { symbol: 'SPY', meanReturn: 0.008, meanExcess: -0.0000001 },
    open: { count: 0, avgMark: null, oldestSessions: null },
    voided: 0,
  }),
]);

const HEADER = ['Type', 'Origin', 'Rule version', 'Measure', 'Part', 'Column', 'Value', 'Low (95%)', 'High (95%)', 'Unit', 'Greyed (fewer than 30 closed)'];

/** The file as Excel and parseCsv read it: its records' fields, the header first. */
function readBack() {
  const text = toCsv(TRACK_RECORD_CSV, trackRecordFigures(RECORD, BREAK_EVEN));
  expect(text.startsWith(CSV_BOM)).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  return parseCsv(text).map((csvRecord) => csvRecord.fields);
}

describe('the track record CSV', () => {
  it('holds every figure of the tables, unformatted, with intervals as low and high', () => {
    const [header, ...rows] = readBack();
    expect(header).toEqual(HEADER);
    const find = (type: string, measure: string, column: string, part = '') => rows.filter((row) => row[0] === type && row[3] === measure && row[5] === column && row[4] === part);
    expect(find('All', 'Win rate (95% interval)', 'Mature cohorts')).toEqual([['All', 'Replayed', 'layered@1.0.0', 'Win rate (95% interval)', '', 'Mature cohorts', '0.595', '0.445', '0.73', 'fraction', 'true']]);
    expect(find('All', 'Mean return (95% interval)', 'All closed so far')[0]!.slice(6)).toEqual(['0.0123', '-0.004', '0.029', 'fraction', 'true']);
    expect(find('All', 'Win rate (95% interval)', 'Random entry')[0]!.slice(6)).toEqual(['0.52', '0.49', '0.55', 'fraction', 'false']);
    expect(find('All', 'N closed', 'Mature cohorts', 'Entry weeks')[0]!.slice(6)).toEqual(['17', '', '', 'count', 'false']);
    expect(find('All', 'Target-hit rate (break-even 62.5%)', 'All closed so far')[0]![6]).toBe('0.4');
    // '—' on screen: no row (no profit factor without losses; the baseline has no median).
    expect(find('All', 'Profit factor', 'All closed so far')).toEqual([]);
    expect(find('All', 'Profit factor', 'Mature cohorts')[0]!.slice(6, 8)).toEqual(['1.62', '']);
    expect(find('All', 'Median return', 'Random entry')).toEqual([]);
    expect(find('All', 'Exit reasons', 'All closed so far', 'time stop')[0]![6]).toBe('0.5');
    expect(find('All', 'Holding time (median / max)', 'Mature cohorts', 'Max')[0]!.slice(6, 10)).toEqual(['21', '', '', 'sessions']);
    expect(find('All', 'Open ideas', '', 'Average mark')[0]![6]).toBe('0.014');
    expect(find('All', 'Voided (not counted)', '')[0]![6]).toBe('2');
    // The second group: no mature column, no baseline, dollar-weighted figures, a tiny excess never in exponent form.
    expect(rows.some((row) => row[0] === 'Level System' && row[5] === 'Mature cohorts')).toBe(false);
    expect(find('Level System', 'Dollar-weighted return', 'All closed so far', 'On deployed')[0]![6]).toBe('0.031');
    expect(find('Level System', 'Dollar-weighted return', 'All closed so far', 'XIRR')).toEqual([]);
    expect(find('Level System', 'Ideas’ mean excess over the benchmark', 'SPY')[0]![6]).toBe('-0.0000001');
    expect(find('Level System', 'Open ideas', '', 'Count')[0]![6]).toBe('0');
    expect(find('Level System', 'Open ideas', '', 'Average mark')).toEqual([]);
    expect(find('Level System', 'Voided (not counted)', '')).toEqual([]);
    for (const row of rows) {
      expect(row).toHaveLength(HEADER.length);
      for (const cell of row.slice(6, 9)) if (cell !== '') expect(Number.isFinite(Number(cell))).toBe(true);
    }
  });

  it('matches the tables on screen cell by cell: a — where it has no figure, else each of its figures as the cell writes it', async () => {
    const [, ...rows] = readBack();
    render(
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <TrackRecordBody record={RECORD} targetHitBreakEven={BREAK_EVEN} />
      </MantineProvider>,
    );
    const SHARES = /^(Target-hit rate|Win rate|Break-even win rate|Exit reasons|Statuses)/;
    let compared = 0;
    for (const group of RECORD.groups) {
      const title = `${group.type} · ${group.origin === 'live' ? 'Live' : 'Replayed'} · ${group.ruleVersion}`;
      await userEvent.click(screen.getByRole('button', { name: new RegExp(`^${title}`) }));
      const table = within(await screen.findByRole('region', { name: `${title} figures, scrollable` })).getByRole('table');
      const [head, ...bodyRows] = within(table).getAllByRole('row');
      const columns = within(head!).getAllByRole('columnheader').slice(1).map((th) => th.firstChild!.textContent!);
      expect(bodyRows.length).toBeGreaterThan(10);
      for (const tr of bodyRows) {
        const measure = within(tr).getByRole('rowheader').textContent!;
        within(tr)
          .getAllByRole('cell')
          .forEach((td, index) => {
            const figures = rows.filter((row) => row[0] === group.type && row[3] === measure && row[5] === columns[index]);
            const text = td.textContent!;
            compared += 1;
            if (figures.length === 0) return expect(text, `${title} ${measure} ${columns[index]}`).toBe('—');
            for (const [, , , , part, , value, low, high, unit] of figures) {
              const write = (cell: string) =>
                unit === 'count' ? cell : unit === 'ratio' ? Number(cell).toFixed(2) : unit === 'sessions' ? `${cell} session` : SHARES.test(measure) ? formatShare(Number(cell)) : formatFraction(Number(cell));
              const written = [write(value!), ...(low ? [write(low), write(high!)] : [])];
              if (SHARES.test(measure) && part) written[0] = `${part} ${written[0]}`;
              for (const piece of written) expect(text, `${title} ${measure} ${columns[index]} ${part}`).toContain(piece);
            }
          });
      }
    }
    expect(compared).toBeGreaterThan(80);
  });
});
