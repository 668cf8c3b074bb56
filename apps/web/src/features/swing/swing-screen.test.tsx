import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { csvCell, parseCsv } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { TRACK_RECORD_CSV, trackRecordFigures } from '../../components/trade-ideas/track-record-csv';
import { record, recordGroup, stats, swingRow } from '../../test/trade-fixtures';
import { answerPaged, box, captureDownloads, cardQueries, cleanUpAfterEach, ideaScreenRoutes, itShowsTheListStates, local, renderTradeScreen } from '../../test/trade-screen';
import { EMPTY_MESSAGE, kindsOf, LOADING_MESSAGE, statusShows, swingServerFilter, SwingScreen, TITLE } from './swing-screen';

const closed = { IsActive: false, CloseReason: 'target' as const };
const ACTIVE_TREND = swingRow({ Symbol: 'NVDA', DateCreated: local(2026, 11, 19), IsDrop: false, NearSupport: true });
const ACTIVE_DROP = swingRow({ Symbol: 'AMD', DateCreated: local(2026, 11, 20, 23, 59, 59), IsDrop: true, TradeType: 'Price Drop', Origin: 'replayed' });
const TREND_WON = swingRow({ Symbol: 'META', DateCreated: local(2026, 10, 1), ...closed, Status: 'Successful', IsProfit1: true, IsProfit2: true, CurrentProfit: 7.5 });
const TREND_PARTIAL = swingRow({ Symbol: 'ORCL', DateCreated: local(2026, 10, 3), ...closed, Status: 'Partial', IsProfit1: true, CloseReason: 'stop', CurrentProfit: -0.8 });
const DROP_LOST = swingRow({ Symbol: 'PYPL', DateCreated: local(2026, 10, 6), IsDrop: true, TradeType: 'Price Drop', ...closed, Status: 'Failed', CloseReason: 'stop', CurrentProfit: -6.2 });
const DROP_LEVEL_LOST = swingRow({ Symbol: 'INTC', DateCreated: local(2026, 10, 8), IsDrop: true, NearSupport: true, TradeType: 'Price Drop', ...closed, Status: 'Failed', CloseReason: 'time', CurrentProfit: -1.1 });
const ALL = [TREND_WON, ACTIVE_TREND, DROP_LOST, ACTIVE_DROP, TREND_PARTIAL, DROP_LEVEL_LOST];

const RECORD = record('swing', [
  recordGroup({ type: 'All', origin: 'replayed', mature: stats({ n: 18 }), allClosed: stats({ n: 26, profitFactor: null }) }),
  recordGroup({ type: 'Trend', origin: 'replayed' }),
]);

function setup(routes: Parameters<typeof renderTradeScreen>[1] = {}) {
  return renderTradeScreen(<SwingScreen />, { ...ideaScreenRoutes('swing', 'get_swing_trade_entries', { body: ALL }, RECORD), ...routes });
}

const { cardSymbols, card } = cardQueries('Short-term trades');

cleanUpAfterEach();

describe('Stock Short-Term Trades screen', () => {
  itShowsTheListStates({
    setup,
    engine: 'swing',
    listPath: 'get_swing_trade_entries',
    listName: 'Short-term trades',
    loading: LOADING_MESSAGE,
    empty: 'No trades match the selected filters.',
    recovered: { body: ALL },
    shown: ['AMD', 'NVDA'],
  });

  it('shows the title, explanation and only the active trades by default, newest first', async () => {
    const api = setup();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    expect(screen.getByText(/5% and 10% profit targets/)).toBeInTheDocument();
    expect(box('Active Trades')).toBeChecked();
    for (const group of ['Trend Based', 'Price Drop Based', 'Level Systems']) {
      const set = screen.getByRole('group', { name: group });
      expect(within(set).getByRole('checkbox', { name: `${group} Successful` })).not.toBeChecked();
      expect(within(set).getByRole('checkbox', { name: `${group} Failed` })).not.toBeChecked();
    }
    await screen.findByRole('list', { name: 'Short-term trades' });
    expect(cardSymbols()).toEqual(['AMD', 'NVDA']);
    expect(api.callsTo('get_swing_trade_entries')[0]!.url.searchParams.get('status')).toBe('active');
    expect(api.unhandled).toEqual([]);
  });

  it('shows a card’s fields and both its type badge and Level System Based', async () => {
    setup();
    await screen.findByRole('list', { name: 'Short-term trades' });
    const nvda = card('NVDA');
    expect(within(nvda).getByText('Trend Based')).toBeInTheDocument();
    expect(within(nvda).getByText('Level System Based')).toBeInTheDocument();
    expect(within(nvda).getByText('Active')).toBeInTheDocument();
    const amd = card('AMD');
    expect(within(amd).getByText('Price Drop Based')).toBeInTheDocument();
    expect(within(amd).queryByText('Level System Based')).toBeNull();
    expect(within(amd).getByText('Replayed')).toBeInTheDocument();
    const text = nvda.textContent;
    for (const part of ['Entry price', '50.00', 'Current price', '51.00', '5% target', '52.50', '10% target', '55.00', 'Profit', '+2.00%', 'Created', 'Updated']) {
      expect(text).toContain(part);
    }
  });

  it('lists Partial trades under their type’s Successful filter, with a Partial badge', async () => {
    setup();
    await screen.findByRole('list', { name: 'Short-term trades' });
    await userEvent.click(box('Active Trades'));
    await userEvent.click(box('Trend Based Successful'));
    await waitFor(() => expect(cardSymbols()).toEqual(['ORCL', 'META']));
    expect(within(card('ORCL')).getByText('Partial')).toBeInTheDocument();
    expect(within(card('ORCL')).getByText(/5% target/).parentElement).toHaveTextContent('· Hit');
    expect(within(card('META')).getByText('Successful')).toBeInTheDocument();
    // Price Drop Successful: no drop trade succeeded.
    await userEvent.click(box('Trend Based Successful'));
    await userEvent.click(box('Price Drop Based Successful'));
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
  });

  it('groups failed trades by type, a Level System trade also under Level Systems', async () => {
    setup();
    await screen.findByRole('list', { name: 'Short-term trades' });
    await userEvent.click(box('Active Trades'));
    await userEvent.click(box('Level Systems Failed'));
    await waitFor(() => expect(cardSymbols()).toEqual(['INTC']));
    const intc = card('INTC');
    expect(within(intc).getByText('Price Drop Based')).toBeInTheDocument();
    expect(within(intc).getByText('Level System Based')).toBeInTheDocument();
    expect(within(intc).getByText('Failed')).toBeInTheDocument();
    await userEvent.click(box('Price Drop Based Failed'));
    await waitFor(() => expect(cardSymbols()).toEqual(['INTC', 'PYPL']));
    await userEvent.click(box('Trend Based Failed'));
    expect(cardSymbols()).toEqual(['INTC', 'PYPL']);
  });

  it('asks the server for exactly the ticked boxes', () => {
    const none = { active: false, trendSuccessful: false, trendFailed: false, dropSuccessful: false, dropFailed: false, levelSuccessful: false, levelFailed: false };
    const all = { active: true, trendSuccessful: true, trendFailed: true, dropSuccessful: true, dropFailed: true, levelSuccessful: true, levelFailed: true };
    expect(swingServerFilter(none)).toBeNull();
    expect(swingServerFilter({ ...none, active: true })).toEqual({ status: 'active' });
    expect(swingServerFilter(all)).toEqual({ status: 'active,successful,partial,failed' });
    expect(swingServerFilter({ ...none, trendFailed: true, dropFailed: true })).toEqual({ status: 'failed' });
    expect(swingServerFilter({ ...none, active: true, trendFailed: true, dropFailed: true, levelFailed: true })).toEqual({ status: 'active,failed' });
    expect(swingServerFilter({ ...none, dropSuccessful: true })).toEqual({ status: 'successful,partial', type: 'drop' });
    expect(swingServerFilter({ ...none, trendFailed: true, levelFailed: true })).toEqual({ status: 'failed', type: 'trend,level' });
    expect(swingServerFilter({ ...none, active: true, dropFailed: true })).toEqual({ type: 'trend:active,drop:active,drop:failed' });
    expect(swingServerFilter({ ...none, trendSuccessful: true, levelFailed: true })).toEqual({ type: 'trend:successful,trend:partial,level:failed' });
    expect(swingServerFilter({ ...none, active: true, levelSuccessful: true })).toEqual({ type: 'trend:active,drop:active,level:successful,level:partial' });
  });

  it('every combination of boxes asks for exactly the trades the boxes show', () => {
    const answer = answerPaged(ALL, kindsOf, (row) => row.DateCreated);
    const keys = ['active', 'trendSuccessful', 'trendFailed', 'dropSuccessful', 'dropFailed', 'levelSuccessful', 'levelFailed'] as const;
    for (let mask = 1; mask < 1 << keys.length; mask += 1) {
      const statuses = Object.fromEntries(keys.map((key, i) => [key, (mask & (1 << i)) !== 0])) as Record<(typeof keys)[number], boolean>;
      const url = new URL('http://test/api/get_swing_trade_entries');
      for (const [key, value] of Object.entries(swingServerFilter(statuses)!)) url.searchParams.set(key, value);
      const asked = (answer(url).body as typeof ALL).map((row) => row.Symbol).sort();
      expect(asked, url.search).toEqual(ALL.filter((row) => statusShows(row, statuses)).map((row) => row.Symbol).sort());
    }
  });

  it('ticking boxes asks the server for them: the trades beyond the unfiltered list’s first page show, counted exactly', async () => {
    // 2 rows a page stand for a long list: the unfiltered first page of active and failed trades
    // (AMD, NVDA) holds neither failed Price Drop trade.
    const api = setup({ 'GET get_swing_trade_entries': answerPaged(ALL, kindsOf, (row) => row.DateCreated, 2) });
    await screen.findByRole('list', { name: 'Short-term trades' });
    expect(cardSymbols()).toEqual(['AMD', 'NVDA']);
    await userEvent.click(box('Active Trades'));
    await userEvent.click(box('Price Drop Based Failed'));
    await waitFor(() => expect(cardSymbols()).toEqual(['INTC', 'PYPL']));
    expect(screen.getByText('2 trades')).toBeInTheDocument();
    await userEvent.click(box('Active Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD', 'NVDA']));
    expect(screen.getByText('2 trades loaded so far')).toBeInTheDocument();
    expect(api.callsTo('get_swing_trade_entries').at(-1)!.url.searchParams.get('type')).toBe('trend:active,drop:active,drop:failed');
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD', 'NVDA', 'INTC', 'PYPL']));
    expect(screen.getByText('4 trades')).toBeInTheDocument();
    // No trend trade that failed or won: none was asked for.
    expect(api.unhandled).toEqual([]);
  });

  it('exports every page of the filtered list as CSV, not only the loaded one', async () => {
    const download = captureDownloads();
    const api = setup({ 'GET get_swing_trade_entries': answerPaged(ALL, kindsOf, (row) => row.DateCreated, 2) });
    await screen.findByRole('list', { name: 'Short-term trades' });
    await userEvent.click(box('Trend Based Successful'));
    await userEvent.click(box('Price Drop Based Failed'));
    await waitFor(() => expect(screen.getByText('2 trades loaded so far')).toBeInTheDocument());
    expect(cardSymbols()).toEqual(['AMD', 'NVDA']);
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = await download.lines();
    // The header, the 2 active trades, ORCL (Partial) and META (Successful) of Trend, INTC and PYPL of Price Drop Failed, and the final line end.
    expect(lines.slice(1, -1).map((line) => line.split(',').slice(0, 2).join(' '))).toEqual(['AMD Active', 'NVDA Active', 'INTC Failed', 'PYPL Failed', 'ORCL Partial', 'META Successful']);
    expect(lines.at(-1)).toBe('');
    const cursors = api.callsTo('get_swing_trade_entries').filter((call) => call.url.searchParams.get('type') === 'trend:active,drop:active,trend:successful,trend:partial,drop:failed');
    expect(cursors.map((call) => call.url.searchParams.get('cursor'))).toEqual(expect.arrayContaining([null, '2', '4']));
  });

  it('filters by dates (To Date through 23:59:59 local) and symbol', async () => {
    setup();
    await screen.findByRole('list', { name: 'Short-term trades' });
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD']));
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '' } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by Symbol' }), 'nV');
    await waitFor(() => expect(cardSymbols()).toEqual(['NVDA']));
  });

  it('loads the next page from X-Next-Cursor on Load more', async () => {
    const api = setup({
      'GET get_swing_trade_entries': (url) =>
        url.searchParams.get('cursor') === 'page2' ? { body: [TREND_WON] } : { body: [ACTIVE_DROP, ACTIVE_TREND], headers: { 'X-Next-Cursor': 'page2' } },
    });
    await screen.findByRole('list', { name: 'Short-term trades' });
    await userEvent.click(box('Trend Based Successful'));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD', 'NVDA', 'META']));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(api.callsTo('get_swing_trade_entries').at(-1)!.url.searchParams.get('limit')).toBe('500');
  });

  it('shows the track record with the headline greyed below N = 30 and a profit factor of — without losses', async () => {
    setup();
    const panel = await screen.findByRole('region', { name: 'Track record' });
    const all = await within(panel).findByRole('button', { name: /^All · Replayed · swing@1\.0\.0/ });
    expect(within(panel).queryByText('no mature cohort yet')).toBeNull();
    expect(within(all).getByText(/^18 closed, win rate/)).toHaveStyle({ color: 'var(--mantine-color-dimmed)' });
    expect(within(panel).getByRole('button', { name: /^Trend · Replayed · swing@1\.0\.0/ })).toHaveTextContent('Mature cohorts: 42 closed');
    expect(within(panel).getByText(/^42 closed, win rate/)).not.toHaveStyle({ color: 'var(--mantine-color-dimmed)' });
    await userEvent.click(all);
    // The panel opens with a transition: wait for it.
    const profitFactor = await within(panel).findByRole('row', { name: /Profit factor/ });
    const [mature, allClosed] = within(profitFactor).getAllByRole('cell');
    expect(mature).toHaveTextContent('1.62');
    expect(allClosed).toHaveTextContent('—');
    const winRate = within(panel).getByRole('row', { name: /Win rate/ });
    for (const cell of within(winRate).getAllByRole('cell').slice(0, 2)) expect(cell.querySelector('[data-few="true"]')).not.toBeNull();
    expect(within(panel).getByRole('row', { name: /excess over the benchmark/ })).toHaveTextContent('+0.43%');
    expect(within(panel).queryByRole('row', { name: /Dollar-weighted/ })).toBeNull();
    expect(all).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel).getByRole('button', { name: /^Trend · Replayed/ })).toHaveAttribute('aria-expanded', 'false');
  });

  it('downloads the track record as short-term-trades-track-record-<date>.csv: the BOM first, every figure of the panel', async () => {
    const download = captureDownloads();
    download.click.mockClear();
    setup();
    const panel = await screen.findByRole('region', { name: 'Track record' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Export track record CSV' }));
    expect(download.click).toHaveBeenCalledTimes(1);
    expect((download.click.mock.contexts[0] as HTMLAnchorElement).download).toMatch(/^short-term-trades-track-record-\d{4}-\d{2}-\d{2}\.csv$/);
    expect([...new Uint8Array(await download.blob().arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = parseCsv(await download.blob().text()).map((csvRecord) => csvRecord.fields);
    expect(records.slice(1)).toEqual(trackRecordFigures(RECORD).map((figure) => TRACK_RECORD_CSV.map((column) => csvCell(column.value(figure)))));
    expect(records[1]).toEqual(['All', 'Replayed', 'swing@1.0.0', 'N closed', 'Closed ideas', 'Mature cohorts', '18', '', '', 'count', 'false']);
  });
});
