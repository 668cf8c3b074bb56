import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi, type MockCall } from '../../../test/mock-api';
import { renderScreen } from '../../../test/render';
import { DataCard } from './data-card';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

const IMPORTED = {
  symbol: 'SPY',
  description: 'SPDR S&P 500 ETF',
  market: 'US',
  exchange: 'NYSE Arca',
  sector: null,
  source_file: 'SPY.csv',
  imported_at: '2026-12-04T10:00:00.000Z',
  rows: 2514,
  first_day: '2016-12-05',
  last_day: '2026-12-03',
  last_close: 601.25,
};
const ZZ_LISTED = { ...IMPORTED, symbol: 'ZZSPLT', description: 'Split Test Corp', exchange: 'NASDAQ', source_file: 'ZZSPLT.csv', rows: 300, first_day: '2025-09-26', last_day: '2026-12-03', last_close: 51.5 };

const YAHOO = { layout: 'yahoo', separator: ',', decimal_comma: false, date_format: 'YYYY-MM-DD', header: true, mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adj_close: 5, volume: 6, symbol: null } };
const SERIES = {
  symbol: 'ZZSPLT',
  description: 'ZZSPLT',
  market: 'US',
  exchange: 'US',
  sector: null,
  rows: 300,
  stored_rows: 300,
  first: '2025-09-26',
  last: '2026-12-03',
  missing_sessions: ['2026-02-02'],
  missing_session_count: 1,
  closed_day_bars: [],
  possible_splits: [{ date: '2026-05-01', previous_date: '2026-04-30', previous_close: 100, close: 50.5, ratio: 0.505, adj_ratio: 0.5, adjustable: true }],
  usable_by_trade_engines: false,
  warmup_bars: 260,
  adjusted: [],
  counts: null,
};
const PREVIEW = {
  file: 'ZZSPLT.csv',
  sha256: 'ab'.repeat(32),
  bytes: 18_000,
  format: YAHOO,
  format_problem: null,
  headers: ['Date', 'Open', 'High', 'Low', 'Close', 'Adj Close', 'Volume'],
  sample: [['2025-09-26', '99', '101', '98', '100', '50', '1000000']],
  problems: [
    { line: 88, severity: 'warning', code: 'missing-sessions', message: 'Line 88: 1 session without a bar before 2026-02-03.' },
    { line: 152, severity: 'warning', code: 'possible-split', message: 'Line 152: the close moved from 100.00 to 50.50 (ratio 0.505): a possible split.' },
    { line: null, severity: 'warning', code: 'short-series', message: 'ZZSPLT: 300 bars, fewer than the 260… ' },
  ],
  error_count: 0,
  warning_count: 3,
  series: [SERIES],
  stored: false,
};
const IMPORTED_REPORT = { ...PREVIEW, series: [{ ...SERIES, description: 'Split Test Corp', adjusted: ['2026-05-01'], counts: { inserted: 300, updated: 0, unchanged: 0 } }], stored: true };

function renderCard() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <DataCard />
    </QueryClientProvider>,
    '/dashboard/admin',
  );
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const csvFile = (name = 'ZZSPLT.csv') => new File(['Date,Open,High,Low,Close,Adj Close,Volume\n2025-09-26,99,101,98,100,50,1000000\n'], name, { type: 'text/csv' });
const queryOf = (call: MockCall) => Object.fromEntries(call.url.searchParams.entries());
const preview = (name: string) => screen.getByRole('region', { name });

describe('Administration → Data', { timeout: 20_000 }, () => {
  it('lists the imported symbols and removes one after a confirm', async () => {
    const api = mockApi({
      'GET admin/prices': inTurn({ body: { symbols: [IMPORTED] } }, { body: { symbols: [] } }),
      'POST admin/prices/remove': { body: { msg: "Removed SPY's imported prices." } },
    });
    renderCard();
    const table = await screen.findByRole('table', { name: 'Imported symbols' });
    const row = within(table).getByText('SPY').closest('tr')!;
    for (const cell of ['SPDR S&P 500 ETF', 'NYSE Arca', 'Dec 5, 2016 → Dec 3, 2026', '2,514', '601.25', 'SPY.csv']) expect(within(row).getByRole('cell', { name: cell })).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Remove SPY' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/^Remove SPY's imported prices\?/)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText("Removed SPY's imported prices.")).toBeInTheDocument();
    expect(api.callsTo('admin/prices/remove').map((call) => call.body)).toEqual([{ symbol: 'SPY' }]);
    expect(await screen.findByText('No price file imported yet.')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('previews a file (warnings with their lines, a split, a short series), remaps a column, adjusts the split, names the symbol and imports it', async () => {
    const api = mockApi({
      'GET admin/prices': inTurn({ body: { symbols: [] } }, { body: { symbols: [ZZ_LISTED] } }),
      'POST admin/prices/import': inTurn(
        { body: PREVIEW },
        { body: { ...PREVIEW, format: { ...YAHOO, layout: 'custom', mapping: { ...YAHOO.mapping, volume: null } } } },
        { body: IMPORTED_REPORT },
      ),
    });
    renderCard();
    expect(await screen.findByText('No price file imported yet.')).toBeInTheDocument();
    const file = csvFile();
    await userEvent.upload(fileInput(), file);

    const region = await screen.findByRole('region', { name: 'ZZSPLT.csv' });
    expect(await within(region).findByText('Can be imported')).toBeInTheDocument();
    const [first] = api.callsTo('admin/prices/import');
    expect(queryOf(first!)).toEqual({ name: 'ZZSPLT.csv', dry_run: 'true' });
    expect(first!.init?.body).toBe(file);
    expect((first!.init?.headers as Record<string, string>)['content-type']).toBe('text/csv');
    expect(within(region).getByText('Yahoo')).toBeInTheDocument();
    const warnings = within(region).getByRole('list', { name: 'Warnings' });
    expect(within(warnings).getByText('Line 152: the close moved from 100.00 to 50.50 (ratio 0.505): a possible split.')).toBeInTheDocument();
    expect(within(region).getByText('Warnings (3)')).toBeInTheDocument();
    expect(within(region).getByText('300 rows, Sep 26, 2025 → Dec 3, 2026 · 1 missing session · 0 bars on closed days')).toBeInTheDocument();
    expect(within(region).getByText('300 bars: usable by the scans, not by the trade engines (they need 260).')).toBeInTheDocument();
    expect(within(region).getByRole('table', { name: 'First rows of ZZSPLT.csv' })).toBeInTheDocument();
    expect(within(region).getByRole('textbox', { name: 'Description' })).toHaveValue('ZZSPLT');

    // A column changed: the preview runs again with the chosen format.
    await userEvent.selectOptions(within(region).getByRole('combobox', { name: 'Volume' }), 'None');
    await waitFor(() => expect(api.callsTo('admin/prices/import')).toHaveLength(2));
    expect(JSON.parse(queryOf(api.callsTo('admin/prices/import')[1]!).format!)).toEqual({ ...YAHOO, layout: 'custom', mapping: { ...YAHOO.mapping, volume: null } });
    await waitFor(() => expect(within(region).getByText('Other (columns mapped)')).toBeInTheDocument());

    await userEvent.click(within(region).getByRole('checkbox', { name: 'Adjust the earlier bars (Adj Close ratio 0.50)' }));
    const description = within(region).getByRole('textbox', { name: 'Description' });
    await userEvent.clear(description);
    await userEvent.type(description, 'Split Test Corp');
    const exchange = within(region).getByRole('textbox', { name: 'Exchange' });
    await userEvent.clear(exchange);
    await userEvent.type(exchange, 'NASDAQ');
    const importButton = screen.getByRole('button', { name: 'Import' });
    await waitFor(() => expect(importButton).toBeEnabled());
    await userEvent.click(importButton);

    expect(await screen.findByText('ZZSPLT from ZZSPLT.csv: 300 new, 0 changed, 0 unchanged; split adjusted on 2026-05-01')).toBeInTheDocument();
    const sent = queryOf(api.callsTo('admin/prices/import')[2]!);
    expect(sent).toMatchObject({ name: 'ZZSPLT.csv', dry_run: 'false', adjust_splits: '2026-05-01' });
    // The listing of each new symbol, its empty fields left out (the server then takes the source's or the symbol).
    expect(JSON.parse(sent.listings!)).toEqual({ ZZSPLT: { description: 'Split Test Corp', exchange: 'NASDAQ' } });
    expect(JSON.parse(sent.format!).mapping.volume).toBeNull();
    expect(screen.queryByRole('region', { name: 'ZZSPLT.csv' })).toBeNull();
    const table = await screen.findByRole('table', { name: 'Imported symbols' });
    expect(within(table).getByText('Split Test Corp')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("refuses a file with errors: Import is disabled with the reason, the first 20 errors are listed and the rest counted; a preview the server refuses shows its msg", async () => {
    const errors = Array.from({ length: 25 }, (_, index) => ({ line: index + 2, severity: 'error', code: 'bad-date', message: `Line ${index + 2}: "2026-02-30" is not a date in YYYY-MM-DD.` }));
    const api = mockApi({
      'GET admin/prices': { body: { symbols: [IMPORTED] } },
      'POST admin/prices/import': inTurn(
        { body: { ...PREVIEW, file: 'BAD.csv', problems: errors, error_count: 25, warning_count: 0, series: [] } },
        { status: 409, body: { msg: 'Another price file is being imported: try again when it is done.' } },
        { body: { ...PREVIEW, file: 'OTHER.csv', series: [{ ...SERIES, symbol: 'SPY', usable_by_trade_engines: true, possible_splits: [] }] } },
      ),
    });
    renderCard();
    await screen.findByRole('table', { name: 'Imported symbols' });
    await userEvent.upload(fileInput(), [csvFile('BAD.csv'), csvFile('OTHER.csv')]);

    const bad = await screen.findByRole('region', { name: 'BAD.csv' });
    expect(await within(bad).findByText('Refused: 25 errors')).toBeInTheDocument();
    const refusals = within(bad).getByRole('list', { name: 'Refusals' });
    expect(within(refusals).getAllByRole('listitem')).toHaveLength(20);
    expect(within(refusals).getByText('Line 2: "2026-02-30" is not a date in YYYY-MM-DD.')).toBeInTheDocument();
    expect(within(bad).getByText('and 5 more.')).toBeInTheDocument();

    const other = preview('OTHER.csv');
    expect(await within(other).findByText('Another price file is being imported: try again when it is done.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 2 files' })).toBeDisabled();
    expect(screen.getByText("BAD.csv has errors: fix the file or its columns, or don't import it.")).toBeInTheDocument();
    await userEvent.click(within(other).getByRole('button', { name: 'Check again' }));
    expect(await within(other).findByText('Can be imported')).toBeInTheDocument();
    // A symbol imported before: no listing inputs.
    expect(within(other).queryByRole('textbox', { name: 'Description' })).toBeNull();
    expect(screen.getByText("BAD.csv has errors: fix the file or its columns, or don't import it.")).toBeInTheDocument();

    await userEvent.click(within(bad).getByRole('button', { name: "Don't import BAD.csv" }));
    expect(screen.queryByRole('region', { name: 'BAD.csv' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled();
    expect(api.unhandled).toEqual([]);
  });

  it('reads a file whose columns were not recognised with the settings chosen, refuses two roles on one column without asking, and sends a given symbol', async () => {
    const headers = ['Day', 'A', 'B', 'C', 'D'];
    const unknown = { ...PREVIEW, file: 'prices.csv', format: null, format_problem: 'No column could be read as the date: choose the columns.', headers, sample: [['2026-01-02', '1', '2', '0.5', '1.5']], problems: [], warning_count: 0, series: [] };
    const chosen = { layout: 'custom', separator: ',', decimal_comma: false, date_format: 'YYYY-MM-DD', header: true, mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adj_close: null, volume: null, symbol: null } };
    const read = { ...unknown, format: chosen, format_problem: null, series: [{ ...SERIES, symbol: 'PRICES', possible_splits: [], usable_by_trade_engines: true }] };
    const api = mockApi({
      'GET admin/prices': { body: { symbols: [] } },
      'POST admin/prices/import': inTurn({ body: unknown }, { body: read }, { body: { ...read, series: [{ ...read.series[0], symbol: 'ACME' }] } }),
    });
    renderCard();
    await screen.findByText('No price file imported yet.');
    await userEvent.upload(fileInput(), csvFile('prices.csv'));
    const region = await screen.findByRole('region', { name: 'prices.csv' });
    expect(await within(region).findByText('No column could be read as the date: choose the columns.')).toBeInTheDocument();
    expect(within(region).getByText('Nothing to import yet')).toBeInTheDocument();
    expect(screen.getByText('Choose how prices.csv is read: its columns could not be recognised.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(within(within(region).getByRole('combobox', { name: 'Date' })).getAllByRole('option').map((option) => option.textContent)).toEqual(['1. Day', '2. A', '3. B', '4. C', '5. D']);

    await userEvent.click(within(region).getByRole('button', { name: 'Read with the settings below' }));
    expect(await within(region).findByText('Can be imported')).toBeInTheDocument();
    expect(JSON.parse(queryOf(api.callsTo('admin/prices/import')[1]!).format!)).toEqual(chosen);

    // Two roles on one column: said at once, nothing sent, Import waits.
    await userEvent.selectOptions(within(region).getByRole('combobox', { name: 'Open' }), '1. Day');
    expect(within(region).getByRole('alert')).toHaveTextContent('Column 1 is chosen for two roles: give each role its own column.');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(api.callsTo('admin/prices/import')).toHaveLength(2);
    await userEvent.selectOptions(within(region).getByRole('combobox', { name: 'Open' }), '2. A');
    expect(within(region).queryByRole('alert')).toBeNull();

    // No symbol column: the symbol is the file name's unless given.
    const symbol = within(region).getByRole('textbox', { name: 'Symbol' });
    expect(symbol).toHaveAttribute('placeholder', 'PRICES');
    await userEvent.type(symbol, 'acme{Enter}');
    await waitFor(() => expect(api.callsTo('admin/prices/import')).toHaveLength(3));
    expect(queryOf(api.callsTo('admin/prices/import')[2]!)).toMatchObject({ symbol: 'ACME', dry_run: 'true' });
    expect(await within(region).findByRole('heading', { name: 'ACME' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Import' })).toBeEnabled());
    expect(api.unhandled).toEqual([]);
  });

  it('refuses a file over 100 MB before sending it', async () => {
    const api = mockApi({ 'GET admin/prices': { body: { symbols: [] } } });
    renderCard();
    await screen.findByText('No price file imported yet.');
    const big = csvFile('HUGE.csv');
    Object.defineProperty(big, 'size', { value: 100 * 1024 * 1024 + 1 });
    await userEvent.upload(fileInput(), big);
    expect(await within(preview('HUGE.csv')).findByText('HUGE.csv is larger than 100 MB: split it into smaller files.')).toBeInTheDocument();
    expect(api.callsTo('admin/prices/import')).toEqual([]);
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it("shows the list's failure with Retry", async () => {
    mockApi({ 'GET admin/prices': inTurn({ status: 500, body: { msg: 'The database is not reachable.' } }, { body: { symbols: [] } }) });
    renderCard();
    expect(await screen.findByText('The imported prices could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is not reachable.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('No price file imported yet.')).toBeInTheDocument();
  });

  it('names each new symbol of a file of several symbols, and sends each listing with its symbol', async () => {
    const two = { ...PREVIEW, file: 'pair.csv', series: [{ ...SERIES, symbol: 'ZZA', description: 'ZZA' }, { ...SERIES, symbol: 'ZZB', description: 'ZZB' }] };
    const api = mockApi({
      'GET admin/prices': { body: { symbols: [] } },
      'POST admin/prices/import': inTurn({ body: two }, { body: { ...two, stored: true } }),
    });
    renderCard();
    expect(await screen.findByText('No price file imported yet.')).toBeInTheDocument();
    await userEvent.upload(fileInput(), csvFile('pair.csv'));
    const file = await waitFor(() => preview('pair.csv'));
    const of = (symbol: string) => within(file).getByRole('region', { name: symbol });
    await waitFor(() => expect(of('ZZB')).toBeInTheDocument());
    await userEvent.clear(within(of('ZZA')).getByRole('textbox', { name: 'Description' }));
    await userEvent.type(within(of('ZZA')).getByRole('textbox', { name: 'Description' }), 'Zeta Alpha Inc');
    await userEvent.clear(within(of('ZZB')).getByRole('textbox', { name: 'Sector' }));
    await userEvent.type(within(of('ZZB')).getByRole('textbox', { name: 'Sector' }), 'Energy');
    const importButton = screen.getByRole('button', { name: 'Import' });
    await waitFor(() => expect(importButton).toBeEnabled());
    await userEvent.click(importButton);
    await waitFor(() => expect(api.callsTo('admin/prices/import')).toHaveLength(2));
    const sent = queryOf(api.callsTo('admin/prices/import')[1]!);
    expect(JSON.parse(sent.listings!)).toEqual({ ZZA: { description: 'Zeta Alpha Inc', exchange: 'US' }, ZZB: { description: 'ZZB', exchange: 'US', sector: 'Energy' } });
  });
});
