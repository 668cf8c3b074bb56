import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, type MockAnswer } from '../../test/mock-api';
import { giveElementsABox, renderScreen } from '../../test/render';
import { FAVORITES_SAVED, SAVE_NOTE, WatchlistScreen } from './watchlist-screen';

type Handler = (url: URL, init: RequestInit | undefined) => MockAnswer;

const AAPL = { symbol: 'AAPL', description: 'Apple Inc.' };
const MSFT = { symbol: 'MSFT', description: 'Microsoft Corporation' };

/** The mock API on these routes; `calls()` names each call "METHOD /api/path?query", with its JSON body. */
function mockServer(routes: Record<string, Handler>) {
  const api = mockApi(routes);
  const calls = () => api.calls.map((c) => ({ call: `${c.method} ${c.input}`, body: c.body }));
  return { unhandled: api.unhandled, calls, paths: (prefix: string) => calls().filter((c) => c.call.startsWith(prefix)) };
}
const sentBody = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;

function savedFavorites(initial: Array<{ symbol: string; description: string }>) {
  let saved = [...initial];
  const routes: Record<string, Handler> = {
    'GET get_favorite_stocks': () => ({ body: saved }),
    'GET favorites/quotes': () => ({
      body: {
        quotes: saved.map((row, index) => ({
          symbol: row.symbol,
          current_price: 100 + index,
          change: index === 0 ? 2.5 : -4,
          percent_change: index === 0 ? 1.45 : -0.99,
          timestamp: 1_795_190_400,
          stale: false,
        })),
        failed: [],
      },
    }),
    'POST delete_favorite_stocks': (_url, init) => {
      const { symbols } = sentBody(init) as { symbols: string[] };
      saved = saved.filter((row) => !symbols.includes(row.symbol));
      return { body: { msg: 'ok', deleted: symbols.length } };
    },
    'POST batch_update_favorite_stocks': (_url, init) => {
      const { stocks } = sentBody(init) as { stocks: typeof saved };
      for (const stock of stocks) if (!saved.some((row) => row.symbol === stock.symbol)) saved.push(stock);
      return { body: { msg: 'ok', saved: stocks.length } };
    },
  };
  return { routes, current: () => saved };
}

const lookupRoute: Handler = (url) => ({
  body: {
    result:
      url.searchParams.get('exchange') === 'TO'
        ? [{ symbol: 'SHOP.TO', description: 'Shopify Inc.', exchange: 'TSX' }]
        : [{ symbol: 'SHOP', description: 'Shopify Inc.', exchange: 'NYSE' }],
  },
});
const searchRoute: Handler = () => ({
  body: {
    results: [
      { symbol: 'SHOP', instrument_name: 'Shopify Inc.', country: 'United States', exchange: 'NYSE' },
      { symbol: 'SHOP.TO', instrument_name: 'Shopify Inc.', country: 'Canada', exchange: 'TSX' },
      { symbol: 'SHP.AX', instrument_name: 'Shopping Centres', country: 'Australia', exchange: 'ASX' },
    ],
  },
});

function renderWatchlist() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return renderScreen(
    <QueryClientProvider client={client}>
      <WatchlistScreen />
    </QueryClientProvider>,
  );
}

const favoritesList = () => screen.getByRole('list', { name: 'Your Favorites' });
const rows = () => within(favoritesList()).getAllByRole('listitem').map((item) => item.textContent);
const saveButton = () => screen.getByRole('button', { name: 'Save' });
const cancelButton = () => screen.getByRole('button', { name: 'Cancel' });

beforeEach(() => {
  giveElementsABox();
});

afterEach(() => {
  notifications.clean();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('WatchList screen', () => {
  it('shows the saved favourites with their prices; Save and Cancel start disabled', async () => {
    const store = savedFavorites([AAPL, MSFT]);
    const server = mockServer(store.routes);
    renderWatchlist();
    expect(screen.getByRole('heading', { name: 'Add and Remove Stocks' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Favorites List' })).toBeInTheDocument();
    expect(screen.getByText('Your Favorites:')).toBeInTheDocument();
    expect(screen.getByText(SAVE_NOTE)).toBeInTheDocument();
    await screen.findByText('+2.50 (+1.45%)');
    expect(rows()).toEqual(['AAPL - Apple Inc.100.00+2.50 (+1.45%)', 'MSFT - Microsoft Corporation101.00\u22124.00 (\u22120.99%)']);
    expect(saveButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    expect(server.unhandled).toEqual([]);
  });

  it('says so when there are no favourites', async () => {
    const server = mockServer(savedFavorites([]).routes);
    renderWatchlist();
    expect(await screen.findByText('You have no favorite stocks.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Your Favorites' })).not.toBeInTheDocument();
    expect(server.unhandled).toEqual([]);
  });

  it('looks up after a pause (US, or TO with Search Canadian Stocks), searches on every input, and merges both', async () => {
    const server = mockServer({ ...savedFavorites([AAPL]).routes, 'GET symbol_lookup': lookupRoute, 'GET symbol_search': searchRoute });
    renderWatchlist();
    const input = await screen.findByRole('combobox', { name: 'Search Symbol' });
    await waitFor(() => expect(input).toBeEnabled());
    expect(input).toHaveAttribute('placeholder', 'Enter stock symbol or company name');
    await userEvent.type(input, 'shop');
    const listbox = await screen.findByRole('listbox');
    await waitFor(() => expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['SHOP - Shopify Inc.', 'SHOP.TO - Shopify Inc.']));
    // symbol_search on each input, symbol_lookup once for the settled term.
    expect(server.paths('GET /api/symbol_search').map((c) => c.call)).toEqual(
      ['s', 'sh', 'sho', 'shop'].map((q) => `GET /api/symbol_search?symbol=${q}`),
    );
    await waitFor(() => expect(server.paths('GET /api/symbol_lookup').map((c) => c.call)).toEqual(['GET /api/symbol_lookup?q=shop&exchange=US']));

    // The same term again is not asked again (duplicates skipped).
    await userEvent.type(input, '{Backspace}p');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.paths('GET /api/symbol_lookup')).toHaveLength(1);

    // Ticking the box moves the focus away and closes the list; back in the input, it shows again.
    await userEvent.click(screen.getByLabelText('Search Canadian Stocks'));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await userEvent.click(input);
    await waitFor(() =>
      expect(within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.textContent)).toEqual(['SHOP.TO - Shopify Inc.', 'SHOP - Shopify Inc.']),
    );
    expect(server.paths('GET /api/symbol_lookup').map((c) => c.call)).toContain('GET /api/symbol_lookup?q=shop&exchange=TO');

    // Whitespace clears the list.
    await userEvent.clear(input);
    await userEvent.type(input, '   ');
    await waitFor(() => expect(screen.queryByRole('option')).not.toBeInTheDocument());
    expect(server.unhandled).toEqual([]);
  });

  it('a failed search empties the suggestions', async () => {
    const server = mockServer({
      ...savedFavorites([AAPL]).routes,
      'GET symbol_lookup': lookupRoute,
      'GET symbol_search': (url) => (url.searchParams.get('symbol') === 'shopx' ? { status: 502, body: { msg: 'upstream down' } } : searchRoute(url, undefined)),
    });
    renderWatchlist();
    const input = await screen.findByRole('combobox', { name: 'Search Symbol' });
    await waitFor(() => expect(input).toBeEnabled());
    await userEvent.type(input, 'shop');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    await userEvent.type(input, 'x');
    await waitFor(() => expect(screen.queryByRole('option')).not.toBeInTheDocument());
    expect(screen.getByText('The search is not available right now. Try again in a moment.')).toBeInTheDocument();
    expect(server.unhandled).toEqual([]);
  });

  it('picking a match toggles it, clears the input and the list; × removes; Save sends the delete and the batch', async () => {
    const store = savedFavorites([AAPL, MSFT]);
    const server = mockServer({ ...store.routes, 'GET symbol_lookup': lookupRoute, 'GET symbol_search': searchRoute });
    renderWatchlist();
    const input = await screen.findByRole('combobox', { name: 'Search Symbol' });
    await waitFor(() => expect(input).toBeEnabled());

    await userEvent.type(input, 'shop');
    await userEvent.click(await screen.findByRole('option', { name: 'SHOP - Shopify Inc.' }));
    expect(input).toHaveValue('');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(rows()).toEqual(['AAPL - Apple Inc.100.00+2.50 (+1.45%)', 'MSFT - Microsoft Corporation101.00\u22124.00 (\u22120.99%)', 'SHOP - Shopify Inc.Not saved']);
    expect(saveButton()).toBeEnabled();
    expect(cancelButton()).toBeEnabled();

    // A favourite's match is marked and picking it removes it.
    await userEvent.type(input, 'shop');
    expect(await screen.findByRole('option', { name: 'SHOP - Shopify Inc.', selected: true })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'SHOP.TO - Shopify Inc.', selected: false })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'SHOP - Shopify Inc.' }));
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['AAPL', 'MSFT']);

    await userEvent.click(screen.getByRole('button', { name: 'Remove AAPL' }));
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['MSFT']);

    await userEvent.click(saveButton());
    expect(await screen.findByText(FAVORITES_SAVED)).toBeInTheDocument();
    const writes = server.calls().filter((c) => c.call.startsWith('POST'));
    expect(writes).toEqual([
      { call: 'POST /api/delete_favorite_stocks', body: { symbols: ['SHOP', 'AAPL'] } },
      { call: 'POST /api/batch_update_favorite_stocks', body: { stocks: [MSFT] } },
    ]);
    expect(store.current()).toEqual([MSFT]);
    await waitFor(() => expect(saveButton()).toBeDisabled());
    expect(cancelButton()).toBeDisabled();
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['MSFT']);
    expect(server.unhandled).toEqual([]);
  });

  it('removing every favourite sends only the delete; adding to an empty list sends only the batch', async () => {
    const store = savedFavorites([AAPL]);
    const server = mockServer({ ...store.routes, 'GET symbol_lookup': lookupRoute, 'GET symbol_search': searchRoute });
    renderWatchlist();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove AAPL' }));
    expect(screen.getByText('You have no favorite stocks.')).toBeInTheDocument();
    await userEvent.click(saveButton());
    await screen.findByText(FAVORITES_SAVED);
    expect(server.calls().filter((c) => c.call.startsWith('POST')).map((c) => c.call)).toEqual(['POST /api/delete_favorite_stocks']);

    const input = screen.getByRole('combobox', { name: 'Search Symbol' });
    await userEvent.type(input, 'shop');
    await userEvent.click(await screen.findByRole('option', { name: 'SHOP.TO - Shopify Inc.' }));
    await userEvent.click(saveButton());
    await waitFor(() => expect(server.calls().filter((c) => c.call.startsWith('POST')).map((c) => c.call)).toEqual(['POST /api/delete_favorite_stocks', 'POST /api/batch_update_favorite_stocks']));
    expect(store.current()).toEqual([{ symbol: 'SHOP.TO', description: 'Shopify Inc.' }]);
    expect(server.unhandled).toEqual([]);
  });

  it("a failed save shows the server's msg and keeps the edits; the delete and the batch are each tried", async () => {
    const store = savedFavorites([AAPL, MSFT]);
    const server = mockServer({
      ...store.routes,
      'POST delete_favorite_stocks': () => ({ status: 500, body: { msg: 'The database is not reachable.' } }),
    });
    renderWatchlist();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove AAPL' }));
    await userEvent.click(saveButton());
    expect(await screen.findByText('Could not save your favorites: The database is not reachable.')).toBeInTheDocument();
    expect(server.calls().filter((c) => c.call.startsWith('POST')).map((c) => c.call)).toEqual([
      'POST /api/delete_favorite_stocks',
      'POST /api/batch_update_favorite_stocks',
    ]);
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['MSFT']);
    expect(saveButton()).toBeEnabled();
    expect(server.unhandled).toEqual([]);
  });

  it('Cancel reloads the saved list and returns to unchanged', async () => {
    const server = mockServer(savedFavorites([AAPL, MSFT]).routes);
    renderWatchlist();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove MSFT' }));
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['AAPL']);
    const loadsBefore = server.paths('GET /api/get_favorite_stocks').length;
    await userEvent.click(cancelButton());
    expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['AAPL', 'MSFT']);
    expect(saveButton()).toBeDisabled();
    expect(cancelButton()).toBeDisabled();
    await waitFor(() => expect(server.paths('GET /api/get_favorite_stocks').length).toBe(loadsBefore + 1));
    expect(server.calls().some((c) => c.call.startsWith('POST'))).toBe(false);
    expect(server.unhandled).toEqual([]);
  });

  it('a failed load is logged and shown with a Retry that loads again', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const store = savedFavorites([AAPL]);
    const server = mockServer({
      ...store.routes,
      'GET get_favorite_stocks': () => (fail ? { status: 503, body: { msg: 'Service unavailable' } } : { body: store.current() }),
    });
    renderWatchlist();
    expect(await screen.findByText('Your favorites could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Service unavailable')).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Error loading favorites:', expect.objectContaining({ message: 'Service unavailable' }));
    expect(screen.getByRole('combobox', { name: 'Search Symbol' })).toBeDisabled();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(rows().map((row) => row?.split(' - ')[0])).toEqual(['AAPL']));
    expect(screen.queryByText('Your favorites could not be loaded.')).not.toBeInTheDocument();
    expect(server.unhandled).toEqual([]);
  });
});
