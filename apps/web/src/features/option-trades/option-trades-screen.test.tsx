import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { chartCalls } from '../../test/chart-mock';
import { detail, optionRow, record, recordGroup, stats } from '../../test/trade-fixtures';
import { answerByStatus, answerPaged, box, captureDownloads, cardQueries, cleanUpAfterEach, ideaScreenRoutes, itShowsTheListStates, local, renderTradeScreen, saveAlerts as save, saveButton, savedAlertRoutes, failingUntilRecovered } from '../../test/trade-screen';
import { ALERT_MESSAGES, decideSave } from '../../components/trade-ideas/use-saved-alerts';
import { LOADING_MESSAGE, optionServerFilter, optionStrength, OptionTradesScreen, SAVE_FAILED, TITLE } from './option-trades-screen';

vi.mock('lightweight-charts', () => import('../../test/chart-mock'));

// 50 + 25 = 75: green. NEW, Volume.
const NVDA = optionRow({ Symbol: 'NVDA', CreatedDate: local(2026, 11, 20), ProfitPercent: 12.5, VolumeSpikeCheck: '1', VolumeSwingCheck: '1', NewTrade: true });
// 50: yellow. Replayed, priced by the model.
const TSLA = optionRow({ Symbol: 'TSLA', CreatedDate: local(2026, 11, 19), ProfitPercent: 3, VolumeSpikeCheck: '1', Side: 'PUT', PriceSource: 'model', Origin: 'replayed' });
// 15 + 10 = 25: red. Level System.
const AAPL = optionRow({ Symbol: 'AAPL', CreatedDate: local(2026, 11, 21, 0, 0, 0), ProfitPercent: -8.25, SwingCheck: '1', IsLevel: true, RSIStatus: 'oversold' });
const META = optionRow({ Symbol: 'META', CreatedDate: local(2026, 10, 2), ProfitPercent: 30, IsActive: false, IsTargetHit: true, CloseReason: 'target', ExitValue: 5.46 });
const AMD = optionRow({ Symbol: 'AMD', CreatedDate: local(2026, 10, 6), ProfitPercent: -50, IsActive: false, CloseReason: 'stop' });
const INTC = optionRow({ Symbol: 'INTC', CreatedDate: local(2026, 10, 9), ProfitPercent: -12.4, IsActive: false, CloseReason: 'time' });
const ALL = [AMD, NVDA, META, AAPL, INTC, TSLA];

const RECORD = record('options', [
  recordGroup({ type: 'CALL', origin: 'replayed', ruleVersion: 'options@1.0.0', mature: stats({ n: 40, statuses: { Successful: 0.575, Failed: 0.425 } }) }),
  recordGroup({ type: 'Volume tag', origin: 'replayed', ruleVersion: 'options@1.0.0', mature: null, allClosed: stats({ n: 12, statuses: { Successful: 0.75, Failed: 0.25 } }) }),
  recordGroup({ type: 'No Volume tag', origin: 'replayed', ruleVersion: 'options@1.0.0', mature: null, allClosed: stats({ n: 28, statuses: { Successful: 0.5, Failed: 0.5 } }) }),
]);

function setup(routes: Parameters<typeof renderTradeScreen>[1] = {}, saved: string[] = [TSLA.OptionsChainId]) {
  const alerts = savedAlertRoutes('get_user_option_alerts', { option_chain_ids: saved }, 'save_user_option_alerts', (body: { option_chain_ids: string[] }) => body.option_chain_ids);
  const api = renderTradeScreen(<OptionTradesScreen />, { ...ideaScreenRoutes('options', 'get_combined_options_data', answerByStatus(ALL), RECORD), ...alerts.routes, ...routes });
  return { ...api, posted: alerts.posted };
}

const { cardList, cardSymbols, card, field } = cardQueries('Option trades');
const alertBox = (row: { Symbol: string; ContractName: string }) => screen.getByRole('checkbox', { name: `Alert for ${row.Symbol} ${row.ContractName}` });

cleanUpAfterEach();

describe('Options Scanner (option trades) screen', () => {
  itShowsTheListStates({
    setup,
    engine: 'options',
    listPath: 'get_combined_options_data',
    listName: 'Option trades',
    loading: LOADING_MESSAGE,
    empty: 'No options match the selected filters.',
    recovered: answerByStatus(ALL),
    shown: ['NVDA', 'TSLA', 'AAPL'],
  });

  it('shows the title, the explanation and the active trades by default, by profit % highest first', async () => {
    const api = setup();
    expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeInTheDocument();
    const how = screen.getByRole('list', { name: 'How to trade these alerts' });
    for (const part of ['Enter on a new alert.', '30% profit target', 'stop loss is 50% of the option price', 'Volume tag are more likely to succeed (bi-weekly hold)']) {
      expect(how).toHaveTextContent(part);
    }
    expect(box('Current Trades')).toBeChecked();
    expect(box('Sucessful Trades')).not.toBeChecked();
    expect(box('Failed Trades')).not.toBeChecked();
    expect(screen.getByLabelText('From Date')).toBeInTheDocument();
    expect(screen.getByLabelText('To Date')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search by Symbol' })).toBeInTheDocument();
    await screen.findByRole('list', { name: 'Option trades' });
    expect(cardSymbols()).toEqual(['NVDA', 'TSLA', 'AAPL']);
    expect(api.callsTo('get_combined_options_data')[0]!.url.searchParams.get('status')).toBe('active');
    expect(api.unhandled).toEqual([]);
  });

  it('shows every field of a card, profit in green above 0 and red below', async () => {
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    const text = card('NVDA').textContent;
    for (const part of [
      'Contract',
      'NVDA261218C00150000',
      'Side',
      'CALL',
      'Strike',
      '150.00',
      'Expiry',
      '2026-12-18',
      'Entry price',
      '4.20',
      'Current price',
      '4.62',
      'Profit',
      '+12.50%',
      'Current stock price',
      '148.35',
      'Created',
      'Updated',
    ]) {
      expect(text).toContain(part);
    }
    expect(field('NVDA', 'Profit')).toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('AAPL', 'Profit')).toHaveTextContent('−8.25%');
    expect(field('AAPL', 'Profit')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    expect(field('TSLA', 'Side')).toHaveTextContent('PUT');
  });

  it('shows the strength score x/100 in its band colour', async () => {
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    expect(field('NVDA', 'Trade strength')).toHaveTextContent('75/100 (strong)');
    expect(field('NVDA', 'Trade strength')).toHaveStyle({ color: 'var(--mantine-color-green-text)' });
    expect(field('TSLA', 'Trade strength')).toHaveTextContent('50/100 (medium)');
    expect(field('TSLA', 'Trade strength')).toHaveStyle({ color: 'var(--mantine-color-yellow-text)' });
    expect(field('AAPL', 'Trade strength')).toHaveTextContent('25/100 (weak)');
    expect(field('AAPL', 'Trade strength')).toHaveStyle({ color: 'var(--mantine-color-red-text)' });
    // The band edges of spec §9, through core's one definition.
    expect(optionStrength(optionRow({ Symbol: 'X', CreatedDate: local(2026, 11, 1), SwingCheck: '1', RSIStatus: 'oversold', VolumeSwingCheck: '1' })).score).toBe(50);
    expect(optionStrength(optionRow({ Symbol: 'X', CreatedDate: local(2026, 11, 1), SwingCheck: '1', RSIStatus: 'oversold', VolumeSwingCheck: '1' })).colour).toBe('yellow');
    const all = optionStrength(optionRow({ Symbol: 'X', CreatedDate: local(2026, 11, 1), VolumeSpikeCheck: '1', VolumeSwingCheck: '1', SwingCheck: '1', RSIStatus: 'oversold' }));
    expect([all.score, all.colour]).toEqual([100, 'green']);
  });

  it('shows the NEW, Volume, Level System, model and Replayed badges where they apply', async () => {
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    const nvda = within(card('NVDA'));
    expect(nvda.getByText('NEW')).toBeInTheDocument();
    expect(nvda.getByText('Volume')).toBeInTheDocument();
    expect(nvda.queryByText('Level System')).toBeNull();
    expect(nvda.queryByText('model')).toBeNull();
    const aapl = within(card('AAPL'));
    expect(aapl.getByText('Level System')).toBeInTheDocument();
    expect(aapl.queryByText('NEW')).toBeNull();
    expect(aapl.queryByText('Volume')).toBeNull();
    const tsla = within(card('TSLA'));
    expect(tsla.getByText('model')).toBeInTheDocument();
    expect(tsla.getByText('Replayed')).toBeInTheDocument();
    expect(tsla.getByText('Active')).toBeInTheDocument();
  });

  it('filters Sucessful and Failed trades, sorted by profit %, asking the server for those statuses', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Option trades' });
    await userEvent.click(box('Current Trades'));
    await userEvent.click(box('Sucessful Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['META']));
    expect(within(card('META')).getByText('Successful')).toBeInTheDocument();
    await userEvent.click(box('Failed Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['META', 'INTC', 'AMD']));
    expect(api.callsTo('get_combined_options_data').at(-1)!.url.searchParams.get('status')).toBe('successful,failed');
    await userEvent.click(box('Sucessful Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['INTC', 'AMD']));
    expect(within(card('AMD')).getByText('Failed')).toBeInTheDocument();
    await userEvent.click(box('Current Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['NVDA', 'TSLA', 'AAPL', 'INTC', 'AMD']));
  });

  it('asks the server for the ticked statuses only', () => {
    expect(optionServerFilter({ active: false, successful: false, failed: false })).toBeNull();
    expect(optionServerFilter({ active: true, successful: false, failed: true })).toEqual({ status: 'active,failed' });
  });

  it('filters by dates (To Date through 23:59:59 local) and symbol (case-insensitive contains)', async () => {
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '2026-11-19' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '2026-11-20' } });
    await waitFor(() => expect(cardSymbols()).toEqual(['NVDA', 'TSLA']));
    fireEvent.change(screen.getByLabelText('From Date'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('To Date'), { target: { value: '' } });
    await userEvent.type(screen.getByRole('textbox', { name: 'Search by Symbol' }), 'aP');
    await waitFor(() => expect(cardSymbols()).toEqual(['AAPL']));
  });

  it('puts an Alert checkbox on active trades only, opening with the saved alerts checked', async () => {
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    await waitFor(() => expect(alertBox(TSLA)).toBeChecked());
    expect(alertBox(NVDA)).not.toBeChecked();
    expect(alertBox(AAPL)).not.toBeChecked();
    expect(screen.getByText('1 alert checked')).toBeInTheDocument();
    await userEvent.click(box('Current Trades'));
    await userEvent.click(box('Failed Trades'));
    await waitFor(() => expect(cardSymbols()).toEqual(['INTC', 'AMD']));
    expect(within(cardList()).queryAllByRole('checkbox')).toEqual([]);
  });

  it('saves the checked set, then shows the success message', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Option trades' });
    await waitFor(() => expect(alertBox(TSLA)).toBeChecked());
    await userEvent.click(alertBox(NVDA));
    await save();
    expect(await screen.findByText(ALERT_MESSAGES.saved)).toBeInTheDocument();
    expect(ALERT_MESSAGES.saved).toBe('✅ Alerts saved successfully!');
    expect(api.posted).toEqual([{ option_chain_ids: [NVDA.OptionsChainId, TSLA.OptionsChainId].sort() }]);
    expect(alertBox(NVDA)).toBeChecked();
    expect(api.unhandled).toEqual([]);
  });

  it('says "No alerts selected." when nothing is checked and nothing was saved', async () => {
    const api = setup({}, []);
    await screen.findByRole('list', { name: 'Option trades' });
    await save();
    expect(await screen.findByText('No alerts selected.')).toBeInTheDocument();
    expect(api.posted).toEqual([]);
  });

  it('says "No active alerts selected to save." when every checked trade has closed', async () => {
    const api = setup({}, [META.OptionsChainId]);
    await screen.findByRole('list', { name: 'Option trades' });
    await save();
    expect(await screen.findByText('No active alerts selected to save.')).toBeInTheDocument();
    expect(api.posted).toEqual([]);
  });

  it('clears the saved alerts when everything saved is unchecked', async () => {
    const api = setup();
    await screen.findByRole('list', { name: 'Option trades' });
    await waitFor(() => expect(alertBox(TSLA)).toBeChecked());
    await userEvent.click(alertBox(TSLA));
    await save();
    expect(await screen.findByText(ALERT_MESSAGES.saved)).toBeInTheDocument();
    expect(api.posted).toEqual([{ option_chain_ids: [] }]);
    expect(alertBox(TSLA)).not.toBeChecked();
    // Saved now empty: pressing Save again with nothing checked says so.
    await save();
    expect(await screen.findByText('No alerts selected.')).toBeInTheDocument();
  });

  it('says "Failed to save alerts." when the save fails', async () => {
    setup({ 'POST save_user_option_alerts': { status: 500, body: { msg: 'Database is down.' } } });
    await screen.findByRole('list', { name: 'Option trades' });
    await waitFor(() => expect(alertBox(TSLA)).toBeChecked());
    await save();
    expect(await screen.findByText(SAVE_FAILED)).toBeInTheDocument();
    expect(SAVE_FAILED).toBe('Failed to save alerts.');
    expect(alertBox(TSLA)).toBeChecked();
  });

  it('reports saved alerts that could not be loaded, keeps Save off until they are, and retries', async () => {
    const load = failingUntilRecovered({ status: 500, body: { msg: 'Alerts store is down.' } }, () => ({ body: { option_chain_ids: [TSLA.OptionsChainId] } }));
    setup({ 'GET get_user_option_alerts': load.route });
    await screen.findByRole('list', { name: 'Option trades' });
    expect(await screen.findByText(/Your saved alerts could not be loaded: Alerts store is down\./)).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    load.recover();
    await userEvent.click(screen.getByRole('button', { name: 'Retry loading alerts' }));
    await waitFor(() => expect(alertBox(TSLA)).toBeChecked());
    expect(saveButton()).toBeEnabled();
  });

  it('decides Save from the checked, the saved and the active sets', () => {
    const active = (id: string) => (id === 'a' ? true : id === 'c' ? false : undefined);
    expect(decideSave(new Set(), new Set(), active)).toEqual({ kind: 'nothingSelected' });
    expect(decideSave(new Set(), new Set(['a']), active)).toEqual({ kind: 'save', ids: [] });
    expect(decideSave(new Set(['c']), new Set(), active)).toEqual({ kind: 'noneActive' });
    expect(decideSave(new Set(['c', 'a', 'b']), new Set(), active)).toEqual({ kind: 'save', ids: ['a', 'b'] });
  });

  it('exports the shown trades as CSV', async () => {
    const download = captureDownloads();
    setup();
    await screen.findByRole('list', { name: 'Option trades' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(download.click).toHaveBeenCalledTimes(1);
    const lines = await download.lines();
    expect(lines[0]).toBe(
      'Symbol,Contract,Status,Side,Strike,Expiry,Entry value,Current value,Profit %,Strength,Volume,Level System,Stock price,Price source,Origin,Entry pending,Created,Updated,Close reason,Closed,Exit value,Rule version,Id',
    );
    expect(lines.slice(1, 4).map((line) => line.split(',')[0])).toEqual(['NVDA', 'TSLA', 'AAPL']);
    expect(lines[1]).toContain('NVDA,NVDA261218C00150000,Active,CALL,150,2026-12-18,4.2,4.62,12.5,75,true,false,148.35,chain,live,false,');
    expect(lines).toHaveLength(5);
  });

  it('exports every page of the filtered list as CSV, not only the loaded one', async () => {
    const download = captureDownloads();
    // 2 rows a page stand for a long list (newest first here: the screen sorts by profit itself).
    const api = setup({ 'GET get_combined_options_data': answerPaged(ALL, () => [], (row) => row.CreatedDate, 2) });
    await screen.findByRole('list', { name: 'Option trades' });
    expect(screen.getByText('2 trades loaded so far')).toBeInTheDocument();
    expect(cardSymbols()).toEqual(['NVDA', 'AAPL']);
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const lines = await download.lines();
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['NVDA', 'TSLA', 'AAPL', '']);
    expect(api.callsTo('get_combined_options_data').filter((call) => call.url.searchParams.get('status') === 'active').map((call) => call.url.searchParams.get('cursor'))).toEqual(expect.arrayContaining([null, '2']));
  });

  it('shows the track record with the target-hit rate beside the 62.5% break-even, and every group the server sends', async () => {
    setup();
    const panel = await screen.findByRole('region', { name: 'Track record' });
    const call = await within(panel).findByRole('button', { name: /^CALL · Replayed · options@1\.0\.0/ });
    expect(call).toHaveTextContent('Target hit 57.5% (mature cohorts) · break-even 62.5%');
    expect(within(panel).getByRole('button', { name: /^Volume tag · Replayed/ })).toHaveTextContent('Target hit 75.0% (all closed) · break-even 62.5%');
    expect(within(panel).getByRole('button', { name: /^No Volume tag · Replayed/ })).toHaveTextContent('Target hit 50.0% (all closed) · break-even 62.5%');
    await userEvent.click(call);
    const row = await within(panel).findByRole('row', { name: /Target-hit rate \(break-even 62\.5%\)/ });
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('57.5%');
  });

  it('opens a trade’s detail: the underlying’s chart and the option’s values in the levels', async () => {
    setup({
      'GET trade_ideas/options/*': (url) =>
        url.pathname.endsWith('/track_record')
          ? { body: RECORD }
          : {
              body: detail({
                engine: 'options',
                idea: NVDA,
                bars: [
                  { date: '2026-11-19', open: 150, high: 152, low: 147, close: 148, volume: 1e6 },
                  { date: '2026-11-20', open: 148, high: 149.5, low: 146, close: 148.35, volume: 2e6 },
                ],
              }),
            },
    });
    await screen.findByRole('list', { name: 'Option trades' });
    await userEvent.click(within(card('NVDA')).getByRole('button', { name: 'Details of NVDA' }));
    const dialog = await screen.findByRole('dialog', { name: 'NVDA · idea detail' });
    const levels = await within(dialog).findByRole('region', { name: 'Levels' });
    for (const part of ['Signal close: 100.00', 'Underlying now: 148.35', 'Strike: 150.00', 'Option entry: 4.20', 'Option current: 4.62', 'Option target (+30%): 5.46', 'Option stop (−50%): 2.10']) {
      expect(levels).toHaveTextContent(part);
    }
    await waitFor(() => expect(chartCalls.bars).toBe(2));
    expect(chartCalls.priceLines.map((line) => line.title)).toEqual(['Signal close', 'Underlying now']);
  });
});
