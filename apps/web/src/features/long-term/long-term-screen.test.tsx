import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chartCalls } from '../../test/chart-mock';
import { detail, layeredRow, record, recordGroup, stats } from '../../test/trade-fixtures';
import { answerByStatus, answerPaged, captureDownloads, cardQueries, cleanUpAfterEach, ideaScreenRoutes, itShowsTheListStates, local, renderTradeScreen } from '../../test/trade-screen';
import { EMPTY_MESSAGE, LayeredScreen, LOADING_MESSAGE, TITLE } from './long-term-screen';

vi.mock('lightweight-charts', () => import('../../test/chart-mock'));

const AAPL = layeredRow({ Symbol: 'AAPL', CreatedAt: local(2026, 11, 18), IsNewTrade: false });
const MSFT = layeredRow({ Symbol: 'MSFT', CreatedAt: local(2026, 11, 20, 23, 59, 59), IsNewTrade: true, Origin: 'replayed' });
const NVDA = layeredRow({ Symbol: 'NVDA', CreatedAt: local(2026, 11, 21, 0, 0, 0), EntryPending: true });
const WON = layeredRow({
  Symbol: 'AMZN',
  CreatedAt: local(2026, 10, 2),
  IsActive: false,
  Status: 'Successful',
  IsTarget: true,
  CurrentProfit: 7.41,
  CloseReason: 'target',
  ClosedAt: local(2026, 11, 10),
});
const LOST = layeredRow({ Symbol: 'TSLA, Inc "B"', CreatedAt: local(2026, 10, 5), IsActive: false, Status: 'Failed', CurrentProfit: -9.5, CloseReason: 'stop', ClosedAt: local(2026, 11, 1) });
const ALL = [AAPL, MSFT, NVDA, WON, LOST];

const RECORD = record('layered', [recordGroup({ ruleVersion: 'layered@1.0.0', mature: null, allClosed: stats({ n: 12, dollarWeighted: { onDeployed: 0.021, onCommitted: 0.008, xirr: 0.034 } }) })]);

function setup(routes: Parameters<typeof renderTradeScreen>[1] = {}) {
  return renderTradeScreen(<LayeredScreen />, { ...ideaScreenRoutes('layered', 'all_stocks_scanner', answerByStatus(ALL), RECORD), ...routes });
}

const { cardSymbols, card } = cardQueries('Layered plans');

cleanUpAfterEach();

describe('Stock Layered Entry & Exit Plan screen', () => {
  itShowsTheListStates({
    setup,
    engine: 'layered',
    listPath: 'all_stocks_scanner',
    listName: 'Layered plans',
    loading: LOADING_MESSAGE,
    empty: 'No trades match the selected filters.',
    recovered: answerByStatus(ALL),
    shown: ['NVDA', 'MSFT', 'AAPL'],
  });

  it('shows the title, explanation and the active plans newest first, asking the server for active ones', async () => {
    const api = setup();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    expect(screen.getByText(/Buy in layers with limit orders/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Active' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Successful' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Failed' })).not.toBeChecked();
    await screen.findByRole('list', { name: 'Layered plans' });
    expect(cardSymbols()).toEqual(['NVDA', 'MSFT', 'AAPL']);
    expect(api.callsTo('all_stocks_scanner')[0]!.url.searchParams.get('status')).toBe('active');
    expect(api.unhandled).toEqual([]);
  });

  it('shows every field of a card, with NEW, Replayed and Pending entry badges where they apply', async () => {
    setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    const msft = card('MSFT');
    expect(within(msft).getByText('NEW')).toBeInTheDocument();
    expect(within(msft).getByText('Replayed')).toBeInTheDocument();
    expect(within(msft).getByText('Active')).toBeInTheDocument();
    expect(within(card('AAPL')).queryByText('NEW')).toBeNull();
    expect(within(card('AAPL')).queryByText('Replayed')).toBeNull();
    expect(within(card('NVDA')).getByText('Pending entry')).toBeInTheDocument();
    const text = card('AAPL').textContent;
    for (const part of ['Current profit', '−1.25%', 'Potential profit', '+4.00%', 'Entry price', '100.00', 'Exit price', '104.00', 'Current price', '98.50', 'Entries hit', '2/5', 'Exits hit', '0/5', 'Created', 'Updated']) {
      expect(text).toContain(part);
    }
  });

  it('lists the plan’s entry and exit levels with price, allocation and a reached mark on Show Plan', async () => {
    setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    const aapl = card('AAPL');
    const toggle = within(aapl).getByRole('button', { name: 'Show Plan' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(within(aapl).getByRole('button', { name: 'Hide Plan' })).toHaveAttribute('aria-expanded', 'true');
    const entries = within(aapl).getByRole('table', { name: 'Entry plan' });
    const rows = within(entries).getAllByRole('row').slice(1).map((row) => row.textContent);
    expect(rows).toEqual(['ENL585.7620.0% Not reached', 'ENL490.3220.0% Not reached', 'ENL394.8820.0% Not reached', 'ENL297.9220.0% Reached', 'ENL1100.0020.0% Reached']);
    const exits = within(aapl).getByRole('table', { name: 'Exit plan' });
    expect(within(exits).getAllByRole('row')).toHaveLength(6);
    expect(within(exits).getByText('EXL5').closest('tr')!.textContent).toBe('EXL5119.6020.0% Not reached');
    await userEvent.click(within(aapl).getByRole('button', { name: 'Hide Plan' }));
    await waitFor(() => expect(within(aapl).queryByRole('table', { name: 'Entry plan' })).toBeNull());
  });

  it('adds Successful and Failed plans when ticked, and shows nothing when no box is ticked', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Successful' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['NVDA', 'MSFT', 'AAPL', 'AMZN']));
    expect(within(card('AMZN')).getByText('Successful')).toBeInTheDocument();
    expect(api.callsTo('all_stocks_scanner').at(-1)!.url.searchParams.get('status')).toBe('active,successful');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Active' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['TSLA, Inc "B"', 'AMZN']));
    expect(within(card('TSLA, Inc "B"')).getByText('Failed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Successful' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
    // Nothing ticked: nothing to ask the server for (a call without a status would list every plan).
    expect(api.callsTo('all_stocks_scanner').every((call) => call.url.searchParams.has('status'))).toBe(true);
  });

  it('keeps plans created through 23:59:59 of the To Date and from the start of the From Date', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['MSFT', 'AAPL']));
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['MSFT']));
    const last = api.callsTo('all_stocks_scanner').at(-1)!.url.searchParams;
    expect(last.get('from')).toBe(new Date(2026, 10, 20, 0, 0, 0, 0).toISOString());
    expect(last.get('to')).toBe(new Date(2026, 10, 20, 23, 59, 59, 999).toISOString());
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '2026-11-21' } });
    expect(await screen.findByText('From Date is after To Date.')).toBeInTheDocument();
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
  });

  it('searches by symbol, case-insensitive contains, and scopes the track record to it', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by Symbol' }), 'sf');
    expect(cardSymbols()).toEqual(['MSFT']);
    await waitFor(() => expect(api.callsTo('trade_ideas/layered/track_record').at(-1)!.url.searchParams.get('symbol')).toBe('sf'));
    expect(api.callsTo('all_stocks_scanner').at(-1)!.url.searchParams.get('symbol')).toBe('sf');
  });

  it('exports the filtered rows as CSV, escaped', async () => {
    const download = captureDownloads();
    setup();
    await screen.findByRole('list', { name: 'Layered plans' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Active' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failed' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['TSLA, Inc "B"']));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(download.click).toHaveBeenCalledTimes(1);
    const lines = await download.lines();
    expect(lines[0]).toBe(
      'Symbol,Status,Origin,Entry pending,Created,Updated,Entry price,Exit price,Current price,Current profit %,Potential profit %,Entries hit,Exits hit,30-day high at creation,Stop,Close reason,Closed,Exit fill,Rule version,Id',
    );
    expect(lines[1]!.startsWith(`"TSLA, Inc ""B""",Failed,live,false,${LOST.CreatedAt},`)).toBe(true);
    expect(lines[1]).toContain(',-9.5,4,2/5,0/5,104,95.9,stop,');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
  });

  it('exports every page of the filtered list as CSV, not only the loaded one', async () => {
    const download = captureDownloads();
    // 2 rows a page stand for a long list.
    const api = setup({ 'GET all_stocks_scanner': answerPaged(ALL, () => [], (row) => row.CreatedAt, 2) });
    await screen.findByRole('list', { name: 'Layered plans' });
    expect(screen.getByText('2 plans loaded so far')).toBeInTheDocument();
    expect(cardSymbols()).toEqual(['NVDA', 'MSFT']);
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = await download.lines();
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['NVDA', 'MSFT', 'AAPL', '']);
    expect(api.callsTo('all_stocks_scanner').map((call) => call.url.searchParams.get('cursor'))).toEqual(expect.arrayContaining([null, '2']));
    // The loaded page is not asked for again.
    expect(api.callsTo('all_stocks_scanner').filter((call) => call.url.searchParams.get('cursor') === null)).toHaveLength(1);
  });

  it('shows the track record for the filters: "no mature cohort yet", the all-closed line and its caveat, greyed below N = 30', async () => {
    setup();
    const panel = await screen.findByRole('region', { name: 'Track record' });
    const group = await within(panel).findByRole('button', { name: /^All · Replayed · layered@1\.0\.0/ });
    expect(within(group).getByText('no mature cohort yet')).toBeInTheDocument();
    expect(group).toHaveTextContent('All closed so far: 12 closed, win rate 59.5% (44.5%–73.0%), mean +1.23% (includes immature cohorts; biased toward quick exits)');
    expect(group).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(group);
    // The panel opens with a transition: wait for it.
    expect(await within(panel).findByRole('columnheader', { name: /^All closed so far/ })).toHaveTextContent('includes immature cohorts; biased toward quick exits');
    expect(within(panel).queryByRole('columnheader', { name: /^Mature cohorts/ })).toBeNull();
    const winRate = within(panel).getByRole('row', { name: /Win rate/ });
    // All closed so far: N = 12 → greyed; the random-entry baseline (N = 840) is not.
    const [allClosed, baseline] = within(winRate).getAllByRole('cell');
    expect(within(allClosed!).getByText('59.5% (44.5%–73.0%)')).toHaveAttribute('data-few', 'true');
    expect(within(baseline!).getByText('52.0% (49.0%–55.0%)')).not.toHaveAttribute('data-few');
    expect(within(panel).getByRole('row', { name: /Dollar-weighted return/ })).toHaveTextContent('+2.10% on deployed · +0.80% on committed · XIRR +3.40%');
    expect(within(panel).getByText(/Greyed: fewer than 30 closed ideas/)).toBeInTheDocument();
    expect(within(panel).getByText(/Open ideas: 6/)).toHaveTextContent('Open ideas: 6 · average mark +1.40% · oldest 15 sessions');
  });

  it('opens an idea’s detail: the chart with its levels and markers, and the event log', async () => {
    const api = setup({
      'GET trade_ideas/layered/*': (url) =>
        url.pathname.endsWith('/track_record')
          ? { body: RECORD }
          : {
              body: detail({
                engine: 'layered',
                idea: AAPL,
                bars: [
                  { date: '2026-11-17', open: 101, high: 103, low: 100, close: 102, volume: 1e6 },
                  { date: '2026-11-18', open: 100, high: 101, low: 97.5, close: 98.5, volume: 2e6 },
                ],
                events: [
                  { type: 'opened', level: '', barDate: '2026-11-17', price: 102, data: {}, ruleVersion: 'layered@1.0.0', paramHash: '0123456789abcdef', origin: 'live', recordedAt: '2026-11-17T21:30:00.000Z' },
                  { type: 'level_hit', level: 'ENL2', barDate: '2026-11-18', price: 97.92, data: {}, ruleVersion: 'layered@1.0.0', paramHash: '0123456789abcdef', origin: 'live', recordedAt: '2026-11-18T21:30:00.000Z' },
                ],
              }),
            },
    });
    await screen.findByRole('list', { name: 'Layered plans' });
    await userEvent.click(within(card('AAPL')).getByRole('button', { name: 'Details of AAPL' }));
    const dialog = await screen.findByRole('dialog', { name: 'AAPL · idea detail' });
    const log = await within(dialog).findByRole('table');
    expect(within(log).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^2026-11-17Signal—102\.00Live/),
      expect.stringMatching(/^2026-11-18Level hitENL297\.92Live/),
    ]);
    await waitFor(() => expect(chartCalls.bars).toBe(2));
    expect(chartCalls.priceLines.map((line) => line.title)).toEqual(['Entry', 'ENL2', 'ENL3', 'ENL4', 'ENL5', 'EXL1', 'EXL2', 'EXL3', 'EXL4', 'EXL5', 'Stop', '30-day high at creation']);
    expect(chartCalls.markers.at(-1)!.map((marker) => `${marker.time} ${marker.text}`)).toEqual(['2026-11-17 Signal', '2026-11-18 ENL2']);
    expect(api.callsTo(`trade_ideas/layered/${AAPL.Id}`)).toHaveLength(1);
  });
});
