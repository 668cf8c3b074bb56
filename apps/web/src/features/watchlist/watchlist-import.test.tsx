import { notifications } from '@mantine/notifications';
import { parseCsv, type WatchlistImportPreviewResponse } from '@signalboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, type MockAnswer } from '../../test/mock-api';
import { giveElementsABox, renderScreen } from '../../test/render';
import { WatchlistScreen } from './watchlist-screen';

type Row = { symbol: string; description: string };
type Handler = (url: URL, init: RequestInit | undefined) => MockAnswer;

const AAPL = { symbol: 'AAPL', description: 'Apple Inc.' };
const MSFT = { symbol: 'MSFT', description: 'Microsoft Corporation' };

/** What the server answers for `###Tech,NASDAQ:AAPL,NASDAQ:NVDA,T,NYSE:ZZZZ,$$$,TSX:RY` with AAPL saved. */
const PREVIEW: WatchlistImportPreviewResponse = {
  format: 'tradingview',
  entries: [
    { line: 1, raw: 'NASDAQ:AAPL', status: 'found', symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ', inFavorites: true },
    { line: 1, raw: 'NASDAQ:NVDA', status: 'found', symbol: 'NVDA', description: 'NVIDIA Corporation', exchange: 'NASDAQ', inFavorites: false },
    {
      line: 1,
      raw: 'T',
      status: 'ambiguous',
      candidates: [
        { symbol: 'T', description: 'AT&T Inc.', exchange: 'NYSE', inFavorites: false },
        { symbol: 'T.TO', description: 'TELUS Corporation', exchange: 'TSX', inFavorites: false },
      ],
    },
    { line: 2, raw: 'NYSE:ZZZZ', status: 'unknown', reason: 'ZZZZ is not listed on a US exchange (no exact match in the symbol lookup).' },
    { line: 2, raw: 'TSX:RY', status: 'found', symbol: 'RY.TO', description: 'Royal Bank of Canada', exchange: 'TSX', inFavorites: false },
    { line: 2, raw: 'NVDA', status: 'found', symbol: 'NVDA', description: 'NVIDIA Corporation', exchange: 'NASDAQ', inFavorites: false, duplicateOfLine: 1 },
  ],
  problems: [{ line: 2, message: '"$$$" is not a symbol (letters, digits and . - ^ = only).' }],
};

function server(extra: Record<string, Handler> = {}) {
  let saved: Row[] = [AAPL];
  const api = mockApi({
    'GET get_favorite_stocks': () => ({ body: saved }),
    'GET favorites/quotes': () => ({ body: { quotes: [], failed: [] } }),
    'POST batch_update_favorite_stocks': (_url, init) => {
      const { stocks } = JSON.parse(String(init?.body)) as { stocks: Row[] };
      saved = stocks;
      return { body: { msg: 'ok', saved: stocks.length } };
    },
    'POST watchlist/import_preview': () => ({ body: PREVIEW }),
    ...extra,
  });
  return { api, saved: () => saved };
}

function renderWatchlist() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderScreen(
    <QueryClientProvider client={client}>
      <WatchlistScreen />
    </QueryClientProvider>,
  );
}

const rows = () => within(screen.getByRole('list', { name: 'Your Favorites' })).getAllByRole('listitem').map((item) => item.textContent?.split(' - ')[0]);
const dialog = () => screen.getByRole('dialog', { name: 'Import symbols' });
/** Mantine's FileInput is a button named by the label, over a hidden file input. */
const fileInput = () => dialog().querySelector<HTMLInputElement>('input[type="file"]')!;

async function openImport(text: string) {
  const importButton = await screen.findByRole('button', { name: 'Import' });
  await waitFor(() => expect(importButton).toBeEnabled());
  await userEvent.click(importButton);
  const paste = within(await screen.findByRole('dialog', { name: 'Import symbols' })).getByRole('textbox', { name: 'Paste symbols' });
  await userEvent.click(paste);
  await userEvent.paste(text);
}

beforeEach(() => giveElementsABox());
afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WatchList import', () => {
  it('previews found, ambiguous and unknown entries and bad lines; adds only the chosen ones to the editing state, which Save sends', async () => {
    const { api, saved } = server();
    renderWatchlist();
    await openImport('###Tech,NASDAQ:AAPL,NASDAQ:NVDA,T\nNYSE:ZZZZ,$$$,TSX:RY,NVDA');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    expect(api.callsTo('watchlist/import_preview')[0]!.body).toEqual({ text: '###Tech,NASDAQ:AAPL,NASDAQ:NVDA,T\nNYSE:ZZZZ,$$$,TSX:RY,NVDA' });

    const preview = within(dialog());
    expect(await preview.findByText('Read as a TradingView list: 4 found · 1 to pick · 1 unknown · 1 unreadable line')).toBeInTheDocument();
    // Found: ticked, unless already in the list or repeating an earlier line.
    // Each checkbox's name is unique (getByRole finds exactly one): a repeated symbol is told apart by its line.
    const nvda = preview.getByRole('checkbox', { name: 'NVDA - NVIDIA Corporation (line 1)' });
    expect(nvda).toBeChecked();
    expect(nvda).toHaveAccessibleDescription('NASDAQ');
    const nvdaAgain = preview.getByRole('checkbox', { name: 'NVDA - NVIDIA Corporation (line 2)' });
    expect(nvdaAgain).toBeDisabled();
    expect(nvdaAgain).not.toBeChecked();
    expect(nvdaAgain).toHaveAccessibleDescription('NASDAQ · Same as line 1');
    const aapl = preview.getByRole('checkbox', { name: 'AAPL - Apple Inc. (line 1)' });
    expect(aapl).toBeDisabled();
    expect(aapl).toHaveAccessibleDescription('NASDAQ · Already in your favorites');
    expect(preview.getByRole('checkbox', { name: 'RY.TO - Royal Bank of Canada (line 2)' })).toBeChecked();
    // Unknown with its reason; the unreadable line with its number.
    expect(preview.getByText('Line 2: NYSE:ZZZZ — not found')).toBeInTheDocument();
    expect(preview.getByText('ZZZZ is not listed on a US exchange (no exact match in the symbol lookup).')).toBeInTheDocument();
    expect(within(preview.getByRole('list', { name: 'Lines that could not be read' })).getByRole('listitem')).toHaveTextContent('Line 2: "$$$" is not a symbol');
    // Ambiguous: nothing until a listing is picked.
    expect(preview.getByRole('button', { name: 'Add 2 to favorites' })).toBeEnabled();
    await userEvent.selectOptions(preview.getByRole('combobox', { name: 'Line 1: T is listed more than once — pick one' }), 'T.TO');
    await userEvent.click(nvda);
    await userEvent.click(preview.getByRole('button', { name: 'Add 2 to favorites' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rows()).toEqual(['AAPL', 'T.TO', 'RY.TO']);
    expect(await screen.findByText('Added 2 to your favorites. Click Save to keep them.')).toBeInTheDocument();
    expect(saved()).toEqual([AAPL]);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved()).toEqual([AAPL, { symbol: 'T.TO', description: 'TELUS Corporation' }, { symbol: 'RY.TO', description: 'Royal Bank of Canada' }]));
    expect(api.unhandled).toEqual([]);
  });

  it('Cancel discards what the import added', async () => {
    const { api } = server();
    renderWatchlist();
    await openImport('NASDAQ:NVDA');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    await userEvent.click(await within(dialog()).findByRole('button', { name: 'Add 2 to favorites' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(rows()).toEqual(['AAPL', 'NVDA', 'RY.TO']);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(rows()).toEqual(['AAPL']));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(api.calls.filter((call) => call.method === 'POST' && call.path !== 'watchlist/import_preview')).toEqual([]);
  });

  it("shows the server's msg when the preview is refused, and refuses a file over 1 MB before sending it", async () => {
    const { api } = server({ 'POST watchlist/import_preview': () => ({ status: 413, body: { msg: 'The watchlist is larger than 1 MB (1,000,000 bytes). Split it into smaller files.' } }) });
    renderWatchlist();
    await openImport('AAPL');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog()).findByText('The watchlist is larger than 1 MB (1,000,000 bytes). Split it into smaller files.')).toBeInTheDocument();

    const big = new File(['A'.repeat(1_000_001)], 'big.csv', { type: 'text/csv' });
    await userEvent.upload(fileInput(), big);
    expect(await within(dialog()).findByText('big.csv is larger than 1 MB; split it into smaller files.')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Preview' })).toBeDisabled();
    expect(api.callsTo('watchlist/import_preview')).toHaveLength(1);
  });

  it('reads a chosen file into the text and says when nothing was found', async () => {
    server({ 'POST watchlist/import_preview': () => ({ body: { format: null, entries: [], problems: [] } }) });
    renderWatchlist();
    await openImport('');
    await userEvent.upload(fileInput(), new File(['symbol\nAAPL\n'], 'list.csv', { type: 'text/csv' }));
    await waitFor(() => expect(within(dialog()).getByRole('textbox', { name: 'Paste symbols' })).toHaveValue('symbol\nAAPL\n'));
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog()).findByText('No symbols found in the text.')).toBeInTheDocument();
    expect(within(dialog()).getByRole('button', { name: 'Add 0 to favorites' })).toBeDisabled();
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Back' }));
    expect(within(dialog()).getByRole('textbox', { name: 'Paste symbols' })).toHaveValue('symbol\nAAPL\n');
  });
});

describe('WatchList export', () => {
  it('downloads the saved favourites as CSV (with a BOM) and as a TradingView list', async () => {
    const created: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => (created.push(blob), 'blob:x')), revokeObjectURL: vi.fn() }));
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const stocks = [
      { ...AAPL, exchange: 'NASDAQ' },
      { ...MSFT, exchange: 'NASDAQ' },
      { symbol: 'RY.TO', description: 'Royal Bank of Canada', exchange: 'TSX' },
    ];
    const { api } = server({ 'GET watchlist/export': () => ({ body: { stocks } }) });
    renderWatchlist();
    const exportButton = await screen.findByRole('button', { name: 'Export' });
    await waitFor(() => expect(exportButton).toBeEnabled());
    await userEvent.click(exportButton);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (symbol, description, exchange)' }));
    await waitFor(() => expect(created).toHaveLength(1));
    await userEvent.click(exportButton);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'TradingView list' }));
    await waitFor(() => expect(created).toHaveLength(2));

    expect(names[0]).toMatch(/^watchlist-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(names[1]).toMatch(/^watchlist-\d{4}-\d{2}-\d{2}-tradingview\.txt$/);
    expect([...new Uint8Array(await created[0]!.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(parseCsv(await created[0]!.text()).map((record) => record.fields)).toEqual([['symbol', 'description', 'exchange'], ...stocks.map((s) => [s.symbol, s.description, s.exchange])]);
    expect(await created[1]!.text()).toBe('NASDAQ:AAPL,NASDAQ:MSFT,TSX:RY');
    expect(api.unhandled).toEqual([]);
  });

  it("names the failure when the export can't be read", async () => {
    server({ 'GET watchlist/export': () => ({ status: 502, body: { msg: 'Market data is unavailable right now.' } }) });
    renderWatchlist();
    const exportButton = await screen.findByRole('button', { name: 'Export' });
    await waitFor(() => expect(exportButton).toBeEnabled());
    await userEvent.click(exportButton);
    await userEvent.click(await screen.findByRole('menuitem', { name: 'TradingView list' }));
    expect(await screen.findByText('Market data is unavailable right now.')).toBeInTheDocument();
  });
});
