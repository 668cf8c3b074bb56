import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DropItem } from '@signalboard/core';
import { describe, expect, it, vi } from 'vitest';
import { ALERT_MESSAGES } from '../../components/trade-ideas/use-saved-alerts';
import { chartCalls } from '../../test/chart-mock';
import { detail, dropRow, record, recordGroup } from '../../test/trade-fixtures';
import { answerPaged, box, captureDownloads, cardQueries, cleanUpAfterEach, heldAnswer, ideaScreenRoutes, itShowsTheListStates, local, renderTradeScreen, saveAlerts as save, savedAlertRoutes } from '../../test/trade-screen';
import { DropItemsScreen, dropServerFilter, EMPTY_MESSAGE, LOADING_MESSAGE, SAVE_FAILED, TITLE } from './drop-items-screen';

vi.mock('lightweight-charts', () => import('../../test/chart-mock'));

const SHORT = dropRow({ StockSymbol: 'NKE', StockType: 'S', StockCreatedDate: local(2026, 11, 20), Sentiment: 'Positive', StockIsTarget: true, ProfitPercentage: 5.2 });
const LONG = dropRow({ StockSymbol: 'PFE', StockType: 'L', StockCreatedDate: local(2026, 11, 18), ProfitPercentage: -3.4, StockSectorName: null, DropThreshold: 20 });
const OPTION = dropRow({ StockSymbol: 'AMD', StockType: 'O', StockCreatedDate: local(2026, 11, 21, 0, 0, 0), Origin: 'replayed' });
const SHORT_OFF = dropRow({ StockSymbol: 'BA', StockType: 'S', StockCreatedDate: local(2026, 10, 2), StockIsActive: false, CloseReason: 'stop' });
const LONG_OFF = dropRow({ StockSymbol: 'INTC', StockType: 'L', StockCreatedDate: local(2026, 10, 4), StockIsActive: false, CloseReason: 'time' });
const OPTION_OFF = dropRow({ StockSymbol: 'TSLA', StockType: 'O', StockCreatedDate: local(2026, 10, 6), StockIsActive: false, CloseReason: 'target' });
const ALL = [SHORT_OFF, LONG, OPTION_OFF, SHORT, LONG_OFF, OPTION];

type Saved = { stock_id: string; trade_type: string }[];

/** The list call as the server answers it (answerPaged): by status and type ('L:deactivated'), newest first, `pageSize` a page. */
const answerDrops = (rows: readonly DropItem[], pageSize = 500) => answerPaged(rows, (row) => [row.StockType], (row) => row.StockCreatedDate, pageSize);

function setup(routes: Parameters<typeof renderTradeScreen>[1] = {}, saved: Saved = [{ stock_id: LONG.StockScannerId, trade_type: 'L' }]) {
  // The contract's answer (saveUserStockScannerAlertsResponse): the saved alerts with their types.
  const alerts = savedAlertRoutes('get_user_stock_scanner_alerts', { alerts: saved }, 'save_user_stock_scanner_alerts', (body: { alerts: Saved }) => body.alerts);
  const list = ideaScreenRoutes('drop', 'get_stock_scanner_data', answerDrops(ALL), record('drop', [recordGroup({ type: 'S', ruleVersion: 'drop@1.1.0' })]));
  const api = renderTradeScreen(<DropItemsScreen />, { ...list, ...alerts.routes, ...routes });
  return { ...api, posted: alerts.posted };
}

const { cardList, cardSymbols, card, field } = cardQueries('Drop items');

cleanUpAfterEach();

describe('Drop Scanner Alerts (All Stocks Scanner) screen', () => {
  itShowsTheListStates({
    setup,
    engine: 'drop',
    listPath: 'get_stock_scanner_data',
    listName: 'Drop items',
    loading: LOADING_MESSAGE,
    empty: 'No items match the selected filters.',
    recovered: { body: ALL },
    shown: ['AMD', 'NKE', 'PFE'],
  });

  it('shows the title, the six filters with unique names, and the active items by default, newest first', async () => {
    const api = setup();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    for (const type of ['Stock Drop Short-Term', 'Stock Drop Long-Term', 'Option Drop']) {
      const set = screen.getByRole('group', { name: type });
      expect(within(set).getByRole('checkbox', { name: `${type} Active` })).toBeChecked();
      expect(within(set).getByRole('checkbox', { name: `${type} Deactivated` })).not.toBeChecked();
    }
    await screen.findByRole('list', { name: 'Drop items' });
    expect(cardSymbols()).toEqual(['AMD', 'NKE', 'PFE']);
    expect(api.unhandled).toEqual([]);
  });

  it('shows every field of a card, the type badges, and an option item’s option fields', async () => {
    setup();
    await screen.findByRole('list', { name: 'Drop items' });
    expect(within(card('NKE')).getByText('Short')).toBeInTheDocument();
    expect(within(card('PFE')).getByText('Long')).toBeInTheDocument();
    expect(within(card('AMD')).getByText('Option')).toBeInTheDocument();
    expect(within(card('AMD')).getByText('Replayed')).toBeInTheDocument();
    const text = card('NKE').textContent;
    for (const part of ['Threshold', '7.50%', 'Entry', '80.00', 'Current', '82.00', 'Profit', '+5.20%', 'Target hit', 'Yes', 'Target value', '84.00', 'Sentiment', 'Positive', 'Sector', 'Technology', 'News:', 'guidance cut', 'Created', 'Updated']) {
      expect(text).toContain(part);
    }
    expect(field('NKE', 'Profit')).toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('PFE', 'Profit')).toHaveTextContent('−3.40%');
    expect(field('PFE', 'Profit')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(field('PFE', 'Target hit')).toHaveTextContent('No');
    expect(field('PFE', 'Sector')).toHaveTextContent('N/A');
    expect(field('PFE', 'Sentiment')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(within(card('NKE')).queryByText('Contract')).toBeNull();
    expect(field('AMD', 'Contract')).toHaveTextContent('AMD261218C00080000');
    expect(field('AMD', 'Option expiry')).toHaveTextContent('2026-12-18');
    expect(field('AMD', 'Option entry')).toHaveTextContent('4.20');
    expect(field('AMD', 'Option current')).toHaveTextContent('4.83');
    expect(field('AMD', 'Option profit')).toHaveTextContent('+15.00%');
  });

  it('filters each type’s Active and Deactivated items', async () => {
    setup();
    await screen.findByRole('list', { name: 'Drop items' });
    await userEvent.click(box('Stock Drop Short-Term Active'));
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD', 'PFE']));
    await userEvent.click(box('Stock Drop Long-Term Active'));
    await waitFor(() => expect(cardSymbols()).toEqual(['AMD']));
    await userEvent.click(box('Option Drop Active'));
    expect(await screen.findByText(EMPTY_MESSAGE)).toBeInTheDocument();
    expect(EMPTY_MESSAGE).toBe('No items match the selected filters.');
    await userEvent.click(box('Stock Drop Short-Term Deactivated'));
    await waitFor(() => expect(cardSymbols()).toEqual(['BA']));
    expect(within(card('BA')).getByText('Deactivated')).toBeInTheDocument();
    await userEvent.click(box('Stock Drop Long-Term Deactivated'));
    await userEvent.click(box('Option Drop Deactivated'));
    await waitFor(() => expect(cardSymbols()).toEqual(['TSLA', 'INTC', 'BA']));
    // No Alert checkbox on a deactivated item.
    expect(within(cardList()).queryAllByRole('checkbox')).toEqual([]);
  });

  it('filters by dates and symbol', async () => {
    setup();
    await screen.findByRole('list', { name: 'Drop items' });
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '2026-11-19' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['NKE']));
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '' } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by Symbol' }), 'pf');
    await waitFor(() => expect(cardSymbols()).toEqual(['PFE']));
  });

  it('opens with the saved alerts checked, and saves the checked set with each item’s type', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Drop items' });
    await waitFor(() => expect(box('Alert for PFE Long')).toBeChecked());
    expect(box('Alert for NKE Short')).not.toBeChecked();
    const option = box('Alert for AMD Option AMD261218C00080000');
    expect(option).not.toBeChecked();
    await userEvent.click(option);
    await save();
    expect(await screen.findByText(ALERT_MESSAGES.saved)).toBeInTheDocument();
    expect(api.posted).toEqual([
      {
        alerts: [OPTION, LONG]
          .map((row) => row.StockScannerId)
          .sort()
          .map((id) => ({ stock_id: id, trade_type: id === OPTION.StockScannerId ? 'O' : 'L' })),
      },
    ]);
  });

  it('shows Saving... while the save runs', async () => {
    const saving = heldAnswer();
    setup({ 'POST save_user_stock_scanner_alerts': saving.route });
    await screen.findByRole('list', { name: 'Drop items' });
    await waitFor(() => expect(box('Alert for PFE Long')).toBeChecked());
    await save();
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeDisabled();
    saving.answer({ body: { msg: 'saved', saved: [{ stock_id: LONG.StockScannerId, trade_type: 'L' }], dropped: [] } });
    expect(await screen.findByRole('button', { name: 'Save Alerts' })).toBeEnabled();
    expect(await screen.findByText(ALERT_MESSAGES.saved)).toBeInTheDocument();
  });

  it('says "No alerts selected." when nothing is checked and nothing was saved', async () => {
    const first = setup({}, []);
    await screen.findByRole('list', { name: 'Drop items' });
    await save();
    expect(await screen.findByText('No alerts selected.')).toBeInTheDocument();
    expect(first.posted).toEqual([]);
  });

  it('says "No active alerts selected to save." when every checked item is deactivated', async () => {
    const api = setup({}, [{ stock_id: SHORT_OFF.StockScannerId, trade_type: 'S' }]);
    await screen.findByRole('list', { name: 'Drop items' });
    await save();
    expect(await screen.findByText('No active alerts selected to save.')).toBeInTheDocument();
    expect(api.posted).toEqual([]);
  });

  it('clears the saved alerts when everything saved is unchecked', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Drop items' });
    await waitFor(() => expect(box('Alert for PFE Long')).toBeChecked());
    await userEvent.click(box('Alert for PFE Long'));
    await save();
    expect(await screen.findByText(ALERT_MESSAGES.saved)).toBeInTheDocument();
    expect(api.posted).toEqual([{ alerts: [] }]);
  });

  it('says "Failed to save alerts. Please try again." when the save fails', async () => {
    setup({ 'POST save_user_stock_scanner_alerts': { status: 500, body: { msg: 'Database is down.' } } });
    await screen.findByRole('list', { name: 'Drop items' });
    await waitFor(() => expect(box('Alert for PFE Long')).toBeChecked());
    await save();
    expect(await screen.findByText(SAVE_FAILED)).toBeInTheDocument();
    expect(SAVE_FAILED).toBe('Failed to save alerts. Please try again.');
  });

  it('asks the server for exactly the ticked boxes', () => {
    const none = { SActive: false, SDeactivated: false, LActive: false, LDeactivated: false, OActive: false, ODeactivated: false };
    expect(dropServerFilter(none)).toBeNull();
    expect(dropServerFilter({ ...none, SActive: true, LActive: true, OActive: true })).toEqual({ status: 'active' });
    expect(dropServerFilter({ ...none, LDeactivated: true })).toEqual({ status: 'deactivated', type: 'L' });
    expect(dropServerFilter({ ...none, SDeactivated: true, ODeactivated: true })).toEqual({ status: 'deactivated', type: 'S,O' });
    expect(dropServerFilter({ ...none, LActive: true, LDeactivated: true })).toEqual({ status: 'active,deactivated', type: 'L' });
    expect(dropServerFilter({ SActive: true, SDeactivated: true, LActive: true, LDeactivated: true, OActive: true, ODeactivated: true })).toEqual({ status: 'active,deactivated' });
    expect(dropServerFilter({ ...none, SActive: true, SDeactivated: true, LActive: true, OActive: true })).toEqual({ type: 'S,L:active,O:active' });
    expect(dropServerFilter({ ...none, SActive: true, LDeactivated: true })).toEqual({ type: 'S:active,L:deactivated' });
  });

  it('ticking a box asks the server for it: the items beyond the unfiltered list’s first page show, counted as loaded so far while more pages exist', async () => {
    // 7 old deactivated L items under 8 newer active S items: with 5 rows a page the unfiltered
    // list's first two pages hold none of them.
    const actives = Array.from({ length: 8 }, (_, i) => dropRow({ StockSymbol: `S${i}`, StockType: 'S', StockCreatedDate: local(2026, 11, 10 + i) }));
    const closed = Array.from({ length: 7 }, (_, i) => dropRow({ StockSymbol: `L${i}`, StockType: 'L', StockIsActive: false, StockCreatedDate: local(2026, 9, 1 + i) }));
    const api = setup({ 'GET get_stock_scanner_data': answerDrops([...actives, ...closed], 5) });
    await screen.findByRole('list', { name: 'Drop items' });
    expect(cardSymbols()).toEqual(['S7', 'S6', 'S5', 'S4', 'S3']);
    expect(screen.getByText('5 items loaded so far')).toBeInTheDocument();
    for (const name of ['Stock Drop Short-Term Active', 'Stock Drop Long-Term Active', 'Option Drop Active']) await userEvent.click(box(name));
    await userEvent.click(box('Stock Drop Long-Term Deactivated'));
    await waitFor(() => expect(cardSymbols()).toEqual(['L6', 'L5', 'L4', 'L3', 'L2']));
    expect(screen.getByText('5 items loaded so far')).toBeInTheDocument();
    const asked = api.callsTo('get_stock_scanner_data').map((call) => Object.fromEntries(call.url.searchParams));
    expect(asked).toContainEqual({ status: 'deactivated', type: 'L', limit: '500' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cardSymbols()).toEqual(['L6', 'L5', 'L4', 'L3', 'L2', 'L1', 'L0']));
    expect(screen.getByText('7 items')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(api.callsTo('get_stock_scanner_data').at(-1)!.url.searchParams.get('cursor')).toBe('5');
    expect(api.unhandled).toEqual([]);
  });

  it('exports every page of the filtered list as CSV, not only the loaded one', async () => {
    const download = captureDownloads();
    const actives = Array.from({ length: 12 }, (_, i) => dropRow({ StockSymbol: `A${i}`, StockType: i % 2 ? 'S' : 'L', StockCreatedDate: local(2026, 10, 1 + i) }));
    const api = setup({ 'GET get_stock_scanner_data': answerDrops([...actives, SHORT_OFF], 5) });
    await screen.findByRole('list', { name: 'Drop items' });
    expect(screen.getByText('5 items loaded so far')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = await download.lines();
    // The header, 12 active items newest first, and the final line end; no deactivated one.
    expect(lines).toHaveLength(14);
    expect(lines.slice(1, 13).map((line) => line.split(',')[0])).toEqual(actives.map((row) => row.StockSymbol).reverse());
    const pages = api.callsTo('get_stock_scanner_data').filter((call) => call.url.searchParams.get('status') === 'active');
    expect(pages.map((call) => call.url.searchParams.get('cursor'))).toEqual(expect.arrayContaining([null, '5', '10']));
  });

  it('says so when the export cannot load every page', async () => {
    const download = captureDownloads();
    download.click.mockClear();
    const actives = Array.from({ length: 7 }, (_, i) => dropRow({ StockSymbol: `A${i}`, StockType: 'S', StockCreatedDate: local(2026, 10, 1 + i) }));
    const pages = answerDrops(actives, 5);
    setup({ 'GET get_stock_scanner_data': (url) => (url.searchParams.get('cursor') ? { status: 503, body: { msg: 'The database is not answering' } } : pages(url)) });
    await screen.findByRole('list', { name: 'Drop items' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The export could not load every row: The database is not answering');
    expect(download.click).not.toHaveBeenCalled();
  });

  it('exports the shown items as CSV', async () => {
    const download = captureDownloads();
    setup();
    await screen.findByRole('list', { name: 'Drop items' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = await download.lines();
    expect(lines[0]).toBe(
      'Symbol,Type,Status,Threshold %,Entry price,Current price,Profit %,Target hit,Target value,Sentiment,News,Sector,Contract,Option expiry,Option entry,Option current,Option profit %,Origin,Entry pending,Created,Updated,Close reason,Closed,Rule version,Id',
    );
    expect(lines[1]).toContain('AMD,Option,Active,7.5,80,82,2.5,No,5.46,Negative,Shares fell after the quarterly guidance cut.,Technology,AMD261218C00080000,2026-12-18,4.2,4.83,15,replayed,false,');
    expect(lines).toHaveLength(5);
  });

  it('opens an item’s detail with its entry and target on the chart', async () => {
    setup({
      'GET trade_ideas/drop/*': (url) =>
        url.pathname.endsWith('/track_record')
          ? { body: record('drop', []) }
          : { body: detail({ engine: 'drop', idea: { ...SHORT, StopPrice: 74.5 }, bars: [{ date: '2026-11-20', open: 80, high: 83, low: 79, close: 82, volume: 1e6 }] }) },
    });
    await screen.findByRole('list', { name: 'Drop items' });
    await userEvent.click(within(card('NKE')).getByRole('button', { name: 'Details of NKE' }));
    const dialog = await screen.findByRole('dialog', { name: 'NKE · idea detail' });
    const levels = await within(dialog).findByRole('region', { name: 'Levels' });
    for (const part of ['Entry: 80.00', 'Target: 84.00', 'Stop: 74.50', 'Current: 82.00']) expect(levels).toHaveTextContent(part);
    await waitFor(() => expect(chartCalls.bars).toBe(1));
    expect(chartCalls.priceLines.map((line) => line.title)).toEqual(['Entry', 'Target', 'Stop', 'Current']);
  });
});
