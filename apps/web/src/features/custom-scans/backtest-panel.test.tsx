import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { parseCsv } from '@signalboard/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatFraction, formatShare } from '../../components/trade-ideas/idea-format';
import { chartCalls, resetChartCalls } from '../../test/chart-mock';
import { inTurn } from '../../test/mock-api';
import { CANCELLED_BACKTEST, DONE, FAILED, QUEUED, RESULT, RUNNING } from './__fixtures__/backtest';
import { FIRST_RENDER, LIST, SAVED, renderScans, screenWidth } from './__fixtures__/scans';
import { DATA_CHANGED_POLL_MS, scanBacktestQuery } from './api/backtest';
import { DATA_CHANGED, DATA_CHANGED_WAITING } from './backtest-model';
import { CANCELLED, EARLIER_VERSION, NOT_SAVED } from './backtest-panel';
import { formatSessionDate } from './results-model';

vi.mock('lightweight-charts', async () => ({ ...(await import('../../test/chart-mock')), LineSeries: {} }));

beforeEach(() => {
  screenWidth(true);
  resetChartCalls();
});
afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const panel = () => screen.getByRole('region', { name: 'Would this have worked?' });
const inPanel = () => within(panel());

async function openOversold() {
  const list = await screen.findByRole('list', { name: 'Saved scans' }, FIRST_RENDER);
  await userEvent.click(within(list).getByRole('button', { name: 'Open Oversold' }));
}

/** A horizon's table as text: each row's header and cells. */
function tableRows(horizon: number): string[][] {
  const table = inPanel().getByRole('table', { name: `Returns after ${horizon} sessions` });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [within(row).getByRole('rowheader').textContent ?? '', ...within(row).getAllByRole('cell').map((cell) => cell.textContent ?? '')]);
}

describe('Custom Scans: backtest ("Would this have worked?")', () => {
  it('asks for a saved scan first', async () => {
    const api = renderScans();
    await screen.findByRole('list', { name: 'Saved scans' }, FIRST_RENDER);
    expect(inPanel().getByText(NOT_SAVED)).toBeInTheDocument();
    expect(inPanel().queryByRole('button')).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.path.endsWith('/backtest'))).toEqual([]);
  });

  it('opens a scan without a backtest (404): Run backtest starts one, shows its progress, polls until done, then the result', async () => {
    const api = renderScans({
      'GET scans/7/backtest': inTurn({ status: 404, body: { msg: 'No backtest of this scan yet.' } }, { body: RUNNING }, { body: DONE }),
      'POST scans/7/backtest': { body: QUEUED },
    });
    await openOversold();
    expect(await inPanel().findByText('No backtest of this scan yet.')).toBeInTheDocument();
    await userEvent.click(inPanel().getByRole('button', { name: 'Run backtest' }));
    expect(await inPanel().findByText('Waiting for the backtest to start...')).toBeInTheDocument();
    expect(inPanel().getByRole('button', { name: 'Cancel backtest' })).toBeEnabled();
    // Polled about every second while it runs.
    expect(await inPanel().findByText('Replaying session 120 of 501', {}, { timeout: 4_000 })).toBeInTheDocument();
    const bar = inPanel().getByRole('progressbar', { name: 'Backtest progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '120');
    expect(bar).toHaveAttribute('aria-valuemax', '501');
    expect(bar).toHaveAttribute('aria-valuetext', 'Replaying session 120 of 501');
    await inPanel().findByRole('table', { name: 'Returns after 5 sessions' }, { timeout: 4_000 });
    expect(inPanel().queryByRole('progressbar')).not.toBeInTheDocument();
    // Finished: no more reads.
    const reads = api.calls.filter((call) => call.method === 'GET' && call.path === 'scans/7/backtest').length;
    expect(reads).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(api.calls.filter((call) => call.method === 'GET' && call.path === 'scans/7/backtest')).toHaveLength(3);
    expect(api.calls.filter((call) => call.method === 'POST' && call.path === 'scans/7/backtest')).toHaveLength(1);
    expect(api.unhandled).toEqual([]);
  });

  it('shows a stored result at once on opening: per horizon the three rows, the verdict, the excess and the entries left out', async () => {
    const api = renderScans({ 'GET scans/7/backtest': { body: DONE } });
    await openOversold();
    await inPanel().findByRole('table', { name: 'Returns after 5 sessions' });
    expect(tableRows(5)).toEqual([
      ['This scan', '140', '+2.10%+1.20% to +3.00%', '+1.80%', '62.0%54.0%–70.0%'],
      ['Random entriessame universe, days and volatility', '2800', '+0.20%−0.10% to +0.50%', '+0.10%', '51.0%49.0%–53.0%'],
      ["SPYeach entry's own window", '—', '+0.30%', '—', '—'],
    ]);
    const section = (horizon: number) => within(inPanel().getByRole('region', { name: `Held ${horizon} sessions` }));
    expect(section(5).getByText('Beats random entries')).toBeInTheDocument();
    expect(section(21).getByText('Not distinguishable from random entries')).toBeInTheDocument();
    expect(section(63).getByText('Worse than random entries')).toBeInTheDocument();
    expect(section(5).getByText('3 entries too recent for 5 sessions (left out of the figures)')).toBeInTheDocument();
    expect(section(63).getByText('47 entries too recent for 63 sessions (left out of the figures)')).toBeInTheDocument();
    expect(section(21).getByText(/Mean excess over SPY:/)).toHaveTextContent('Mean excess over SPY: −0.15%');
    expect(inPanel().getByText('Nov 21, 2024 – Nov 20, 2026 · 501 sessions · 503 symbols · 143 entries')).toBeInTheDocument();
    expect(inPanel().getByRole('note')).toHaveTextContent(RESULT.survivorship);

    // The equity curve: drawn, and its text alternative.
    const chart = await inPanel().findByRole('img', { name: /^Equal-weight entries held 21 sessions/ });
    expect(chart).toHaveAccessibleName('Equal-weight entries held 21 sessions, Nov 21, 2024 to Nov 26, 2024: final value +5.00%, max drawdown −10.00%.');
    expect(chartCalls.bars).toBe(4);
    expect(inPanel().getByText(/^Final value:/)).toHaveTextContent('Final value: +5.00%');
    expect(inPanel().getByText(/^Max drawdown:/)).toHaveTextContent('Max drawdown: −10.00%');

    const worst = inPanel().getByRole('table', { name: 'Worst entries' });
    expect(within(worst).getAllByRole('row').map((row) => row.textContent)).toEqual(['SymbolEntry date21-session return', 'INTCApr 3, 2025−25.12%', 'BAMar 10, 2025−18.04%']);
    expect(inPanel().queryByRole('button', { name: /Run/ })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('exports each horizon’s table and the worst entries as CSV: the rows on screen, read back', async () => {
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (blobs.push(blob), 'blob:csv')), revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScans({ 'GET scans/7/backtest': { body: DONE } });
    await openOversold();
    await inPanel().findByRole('table', { name: 'Returns after 5 sessions' });
    await userEvent.click(inPanel().getByRole('button', { name: 'Export backtest CSV' }));
    await userEvent.click(inPanel().getByRole('button', { name: 'Export worst entries CSV' }));
    expect(clicked.mock.contexts.map((link) => (link as HTMLAnchorElement).download.replace(/\d{4}-\d{2}-\d{2}/, 'DAY'))).toEqual([
      'custom-scan-backtest-DAY.csv',
      'custom-scan-backtest-worst-entries-DAY.csv',
    ]);
    for (const blob of blobs) expect([...new Uint8Array(await blob.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [, ...rows] = parseCsv(await blobs[0]!.text()).map((record) => record.fields);
    const fraction = (cell: string) => formatFraction(cell === '' ? null : Number(cell));
    const share = (cell: string) => (cell === '' ? '—' : formatShare(Number(cell)));
    for (const horizon of [5, 21, 63]) {
      const shown = tableRows(horizon).map(([label, ...cells]) => [label!.replace(/(same universe|each entry).*$/, ''), ...cells]);
      const written = rows
        .filter((row) => row[2] === String(horizon))
        .map(([, , , , entries, n, mean, low, high, median, positive, positiveLow, positiveHigh]) => [
          entries,
          n || '—',
          `${fraction(mean!)}${low ? `${fraction(low)} to ${fraction(high!)}` : ''}`,
          fraction(median!),
          `${share(positive!)}${positiveLow ? `${share(positiveLow)}–${share(positiveHigh!)}` : ''}`,
        ]);
      expect(written).toEqual(shown);
    }
    const worst = within(inPanel().getByRole('table', { name: 'Worst entries' })).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    const worstCsv = parseCsv(await blobs[1]!.text()).map((record) => record.fields).slice(1);
    expect(worstCsv.map(([symbol, day, ret]) => [symbol, formatSessionDate(day!), formatFraction(Number(ret))])).toEqual(worst);
  });

  it('says when the result is of an earlier version of the scan, and Run again starts it', async () => {
    const api = renderScans({ 'GET scans/7/backtest': { body: { ...DONE, current: false } }, 'POST scans/7/backtest': { body: { ...DONE, version: 2 } } });
    await openOversold();
    expect(await inPanel().findByText(EARLIER_VERSION)).toBeInTheDocument();
    expect(inPanel().getByRole('table', { name: 'Returns after 21 sessions' })).toBeInTheDocument();
    await userEvent.click(inPanel().getByRole('button', { name: 'Run again' }));
    await waitFor(() => expect(inPanel().queryByText(EARLIER_VERSION)).not.toBeInTheDocument());
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['scans/7/backtest']);
  });

  it('reads the backtest again when the saved scan gets a new version', async () => {
    const v2 = { ...SAVED, version: 2 };
    const api = renderScans({
      'GET scans': inTurn({ body: LIST }, { body: { ...LIST, scans: [v2, LIST.scans[1]] } }),
      'GET scans/7/backtest': inTurn({ body: DONE }, { body: { ...DONE, current: false } }),
      'PUT scans/7': { body: { msg: 'Scan saved.', scan: v2 } },
    });
    await openOversold();
    await inPanel().findByRole('table', { name: 'Returns after 5 sessions' });
    expect(inPanel().queryByText(EARLIER_VERSION)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await inPanel().findByText(EARLIER_VERSION)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('says so in plain words when the imported prices changed: the replay on them shows its progress, then only its own result', async () => {
    const rerun = { ...RUNNING, data_changed: true };
    const fresh = { ...DONE, data_version: '0a1b2c3d', result: { ...RESULT, from: '2022-02-08', sessions: 1_190 } };
    const api = renderScans({ 'GET scans/7/backtest': inTurn({ body: { ...QUEUED, data_changed: true } }, { body: rerun }, { body: fresh }) });
    await openOversold();
    expect(await inPanel().findByText(DATA_CHANGED)).toBeInTheDocument();
    expect(DATA_CHANGED).toBe('The imported prices changed since this backtest: it runs again on them.');
    expect(inPanel().queryByRole('table')).not.toBeInTheDocument();
    expect(await inPanel().findByText('Replaying session 120 of 501', {}, { timeout: 4_000 })).toBeInTheDocument();
    expect(inPanel().getByText(DATA_CHANGED)).toBeInTheDocument();
    await inPanel().findByRole('table', { name: 'Returns after 5 sessions' }, { timeout: 4_000 });
    expect(inPanel().queryByText(DATA_CHANGED)).not.toBeInTheDocument();
    // Longer than two years (older imported prices): the range it covered, in words.
    expect(inPanel().getByText('Feb 8, 2022 – Nov 20, 2026 · 1,190 sessions · 503 symbols · 143 entries')).toBeInTheDocument();
    expect(inPanel().getByText("The universe's imported prices go back further than two years, so this backtest covers Feb 8, 2022 – Nov 20, 2026 (five years at most).")).toBeInTheDocument();
    expect(inPanel().getByText("Run on the imported prices of its universe's imported symbols (data 0a1b2c3d).")).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('labels a result of the earlier prices while it waits for the other backtest, and reads it again', async () => {
    renderScans({ 'GET scans/7/backtest': { body: { ...DONE, data_changed: true } } });
    await openOversold();
    expect(await inPanel().findByText(DATA_CHANGED_WAITING)).toBeInTheDocument();
    expect(inPanel().getByRole('table', { name: 'Returns after 5 sessions' })).toBeInTheDocument();
    expect(inPanel().queryByText(/^Finished/)).not.toBeInTheDocument();
    expect(inPanel().queryByText(/go back further than two years/)).not.toBeInTheDocument();
    // Read again every 10 s (the read that finds the other backtest finished starts the replay); a result of the prices as they are is not.
    const interval = scanBacktestQuery(7, 1).refetchInterval as unknown as (query: { state: { data: unknown } }) => number | false;
    expect(interval({ state: { data: { ...DONE, data_changed: true } } })).toBe(DATA_CHANGED_POLL_MS);
    expect(interval({ state: { data: DONE } })).toBe(false);
  });

  it('cancels a running backtest: DELETE, then it reads "Backtest cancelled." with Run again', async () => {
    const api = renderScans({
      'GET scans/7/backtest': inTurn({ body: RUNNING }, { body: CANCELLED_BACKTEST }),
      'DELETE scans/7/backtest': { body: { msg: 'Cancelled the backtest of "Oversold".' } },
    });
    await openOversold();
    await userEvent.click(await inPanel().findByRole('button', { name: 'Cancel backtest' }));
    expect(await inPanel().findByText(CANCELLED)).toBeInTheDocument();
    expect(inPanel().getByRole('button', { name: 'Run again' })).toBeEnabled();
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['scans/7/backtest']);
    expect(api.unhandled).toEqual([]);
  });

  it('shows the stored error of a failed backtest, with Run again', async () => {
    renderScans({ 'GET scans/7/backtest': { body: FAILED } });
    await openOversold();
    expect(await inPanel().findByText(FAILED.error!)).toBeInTheDocument();
    expect(inPanel().getByText('The backtest failed.')).toBeInTheDocument();
    expect(inPanel().getByRole('button', { name: 'Run again' })).toBeInTheDocument();
  });

  it.each([
    [400, 'This scan reads news sentiment, which cannot be replayed: the news the server can read is today’s.'],
    [429, 'Your backtest of "Two lists" is still running, and one runs at a time. Wait for it to finish or cancel it, then start this one.'],
  ])('shows the msg of a refused start (%i)', async (status, msg) => {
    renderScans({ 'POST scans/7/backtest': { status, body: { msg } } });
    await openOversold();
    await userEvent.click(await inPanel().findByRole('button', { name: 'Run backtest' }));
    const alert = await inPanel().findByRole('alert');
    expect(alert).toHaveTextContent('The backtest could not be started.');
    expect(alert).toHaveTextContent(msg);
    expect(inPanel().getByRole('button', { name: 'Run backtest' })).toBeEnabled();
  });

  it('shows each horizon as cards on a phone', async () => {
    vi.restoreAllMocks();
    screenWidth(false);
    renderScans({ 'GET scans/7/backtest': { body: DONE } });
    await openOversold();
    const cards = await inPanel().findByRole('list', { name: 'Returns after 63 sessions' });
    expect(within(cards).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['This scan', 'Random entries', 'SPY']);
    expect(within(within(cards).getByRole('listitem', { name: 'This scan' })).getByText('N 96')).toBeInTheDocument();
    expect(within(within(cards).getByRole('listitem', { name: 'This scan' })).getByText('−7.00% to −1.20%')).toBeInTheDocument();
  });
});
