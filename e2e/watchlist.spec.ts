import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { WATCHLIST_DROPS_STOCKS as S } from './fixtures/market/watchlist-drops';
import { api, newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

// The pinned market (e2e/fixtures/market/watchlist-drops.ts): prices and day changes of each row
// come from its quotes; SHOP is Shopify's NYSE listing, SHOP.TO its TSX one.
const ROW = {
  AAPL: 'AAPL - Apple Inc. 175.00 +2.50 (+1.45%)',
  MSFT: 'MSFT - Microsoft Corporation 400.00 \u22124.00 (\u22120.99%)',
  NVDA: 'NVDA - NVIDIA Corporation 180.00 \u22126.00 (\u22123.23%)',
  RY_TO: 'RY.TO - Royal Bank of Canada 170.00 +1.70 (+1.01%)',
  SHOP_TO: 'SHOP.TO - Shopify Inc. 150.00 \u22122.00 (\u22121.32%)',
};

let token: string;
let page: Page;
let requests: Array<{ method: string; path: string; body: unknown }>;
let logged: string[];

const session = useBrowserPage(
  async (context) => {
    ({ token } = await signedInUser(context, 'watchlist', { server: 'market', favorites: [S.AAPL, S.MSFT] }));
  },
  { server: 'market' },
);
beforeEach(() => {
  page = session.page;
  requests = [];
  logged = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    requests.push({ method: request.method(), path: `${url.pathname}${url.search}`, body: request.postData() ? request.postDataJSON() : undefined });
  });
  page.on('console', (message) => logged.push(message.text()));
});

const searchInput = (target: Page = page) => target.getByRole('combobox', { name: 'Search Symbol' });
const listbox = (target: Page = page) => target.getByRole('listbox', { name: 'Search Symbol' });
const suggestions = (target: Page = page) => listbox(target).getByRole('option').allInnerTexts();
const saveButton = () => page.getByRole('button', { name: 'Save', exact: true });
const cancelButton = () => page.getByRole('button', { name: 'Cancel', exact: true });
const paths = (prefix: string) => requests.filter((r) => r.path.startsWith(prefix)).map((r) => r.path);
/** The saves (the live-update stream's symbol calls are no change to the favourites). */
const writes = () => requests.filter((r) => r.method === 'POST' && r.path !== '/api/live_symbols').map(({ path, body }) => ({ path, body }));

/** The rows under 'Your Favorites:' as one line each: 'symbol - description price change'. */
async function rows(target: Page = page): Promise<string[]> {
  const list = target.getByRole('list', { name: 'Your Favorites' });
  if (!(await list.isVisible())) return [];
  return (await list.getByRole('listitem').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
}

async function openWatchlist(target: Page = page) {
  await target.goto('/dashboard/symbollookup');
  await target.getByRole('heading', { name: 'Add and Remove Stocks', level: 1 }).waitFor();
  await expect.poll(() => searchInput(target).isEnabled()).toBe(true);
}

async function typeSlowly(text: string) {
  await searchInput().click();
  // Faster than the 300 ms lookup debounce, like a person typing.
  await searchInput().pressSequentially(text, { delay: 60 });
}

type Stock = { symbol: string; description: string };

/** The signed-in user's saved favourites become exactly `list` (in that order, after the ones kept). */
async function setFavorites(list: Stock[]) {
  const current = await api<Stock[]>('get_favorite_stocks', { token, server: 'market' });
  const extra = current.body.filter((row) => !list.some((stock) => stock.symbol === row.symbol)).map((row) => row.symbol);
  if (extra.length > 0) await api('delete_favorite_stocks', { token, json: { symbols: extra }, server: 'market' });
  await api('batch_update_favorite_stocks', { token, json: { stocks: list }, server: 'market' });
  expect((await api<Stock[]>('get_favorite_stocks', { token, server: 'market' })).body).toEqual(list);
}

describe('WatchList (/dashboard/symbollookup)', () => {
  it('shows the saved favourites with their prices, and Save and Cancel disabled', async () => {
    await openWatchlist();
    await page.getByRole('heading', { name: 'Favorites List' }).waitFor();
    await page.getByText('Your Favorites:', { exact: true }).waitFor();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT]);
    await page.getByText('**Please click save after adding or removing stocks.', { exact: true }).waitFor();
    // Polled every 30 s while the live-update stream is down; with the stream up the line says only the time.
    await page.getByText(/^Prices as of \d{1,2}:\d{2} [AP]M( · refreshed every 30 s)?$/).waitFor();
    expect(await searchInput().getAttribute('placeholder')).toBe('Enter stock symbol or company name');
    expect(await saveButton().isDisabled()).toBe(true);
    expect(await cancelButton().isDisabled()).toBe(true);
    // The day changes are coloured: green up, red down (beside their sign).
    const colorOf = (text: string) => page.getByText(text, { exact: true }).evaluate((el) => getComputedStyle(el).color);
    const themeColor = (name: string) =>
      page.evaluate((color) => {
        const probe = document.createElement('span');
        probe.style.color = `var(--mantine-color-${color}-text)`;
        document.body.append(probe);
        const value = getComputedStyle(probe).color;
        probe.remove();
        return value;
      }, name);
    expect(await colorOf('+2.50 (+1.45%)')).toBe(await themeColor('green'));
    expect(await colorOf('\u22124.00 (\u22120.99%)')).toBe(await themeColor('red'));
  });

  it('suggests matches from the lookup (debounced, US or TO) and the search (US and Canada only), each once', async () => {
    await openWatchlist();
    await typeSlowly('shop');
    await expect.poll(() => suggestions()).toEqual(['SHOP - Shopify Inc.', 'SHOP.TO - Shopify Inc.']);
    await page.waitForTimeout(400);
    // The search runs on each input; the lookup once the typing pauses.
    expect(paths('/api/symbol_search')).toEqual(['s', 'sh', 'sho', 'shop'].map((q) => `/api/symbol_search?symbol=${q}`));
    expect(paths('/api/symbol_lookup')).toEqual(['/api/symbol_lookup?q=shop&exchange=US']);
    await screenshot(page, 'watchlist-search');

    // With 'Search Canadian Stocks' the lookup asks the TSX, and its matches come first.
    await page.getByLabel('Search Canadian Stocks').check();
    await searchInput().click();
    await expect.poll(() => suggestions()).toEqual(['SHOP.TO - Shopify Inc.', 'SHOP - Shopify Inc.']);
    expect(paths('/api/symbol_lookup')).toEqual(['/api/symbol_lookup?q=shop&exchange=US', '/api/symbol_lookup?q=shop&exchange=TO']);
    await page.getByLabel('Search Canadian Stocks').uncheck();

    // The search also finds ApeCoin, listed in no country: it is dropped. AAPL, a favourite, is marked
    // selected. (XLP, 'Consumer Staples …', is the dashboard fixture's sector ETF.)
    const search = await api<{ results: Array<{ symbol: string; country: string }> }>('symbol_search?symbol=ap', { token, server: 'market' });
    expect(search.body.results.map((r) => `${r.symbol} ${r.country}`)).toEqual(['AAPL United States', 'APE Global', 'XLP United States']);
    await searchInput().fill('ap');
    await expect.poll(() => suggestions()).toEqual(['AAPL - Apple Inc.', 'XLP - Consumer Staples Select Sector SPDR Fund']);
    await listbox().getByRole('option', { name: 'AAPL - Apple Inc.', selected: true }).waitFor();

    // Whitespace clears the list.
    await searchInput().fill('   ');
    await listbox().waitFor({ state: 'hidden' });
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT]);
  });

  it('picks with the keyboard (arrows, Enter, Escape); Save keeps the additions after a reload', async () => {
    await openWatchlist();
    await typeSlowly('shop');
    await expect.poll(() => suggestions()).toEqual(['SHOP - Shopify Inc.', 'SHOP.TO - Shopify Inc.']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await searchInput().inputValue()).toBe('');
    await listbox().waitFor({ state: 'hidden' });
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, 'SHOP.TO - Shopify Inc. Not saved']);

    await typeSlowly('nvd');
    await expect.poll(() => suggestions()).toEqual(['NVDA - NVIDIA Corporation']);
    await page.keyboard.press('Escape');
    await listbox().waitFor({ state: 'hidden' });
    expect(await searchInput().getAttribute('aria-expanded')).toBe('false');
    expect(await searchInput().inputValue()).toBe('nvd');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await rows()).toEqual([ROW.AAPL, ROW.MSFT, 'SHOP.TO - Shopify Inc. Not saved', 'NVDA - NVIDIA Corporation Not saved']);
    expect(await saveButton().isEnabled()).toBe(true);
    expect(await cancelButton().isEnabled()).toBe(true);
    await screenshot(page, 'watchlist-unsaved');

    await saveButton().click();
    await page.getByText('Your favorites were saved.').waitFor();
    await expect.poll(() => saveButton().isDisabled()).toBe(true);
    expect(await cancelButton().isDisabled()).toBe(true);
    // Nothing was removed: only the batch update, with the whole list.
    expect(writes()).toEqual([
      { path: '/api/batch_update_favorite_stocks', body: { stocks: [S.AAPL, S.MSFT, S.SHOP_TO, S.NVDA] } },
    ]);
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, ROW.SHOP_TO, ROW.NVDA]);

    await page.reload();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, ROW.SHOP_TO, ROW.NVDA]);
    await screenshot(page, 'watchlist');
  });

  it('a match that is a favourite is removed, × removes, Cancel reloads, Save deletes then updates', async () => {
    await setFavorites([S.AAPL, S.MSFT, S.NVDA]);
    await openWatchlist();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, ROW.NVDA]);
    await typeSlowly('ap');
    await listbox().getByRole('option', { name: 'AAPL - Apple Inc.' }).click();
    expect(await searchInput().inputValue()).toBe('');
    expect(await rows()).toEqual([ROW.MSFT, ROW.NVDA]);
    await page.getByRole('button', { name: 'Remove NVDA' }).click();
    expect(await rows()).toEqual([ROW.MSFT]);
    expect(await saveButton().isEnabled()).toBe(true);

    const loads = paths('/api/get_favorite_stocks').length;
    await cancelButton().click();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, ROW.NVDA]);
    await expect.poll(() => paths('/api/get_favorite_stocks').length).toBe(loads + 1);
    expect(await saveButton().isDisabled()).toBe(true);
    expect(await cancelButton().isDisabled()).toBe(true);
    expect(writes()).toEqual([]);

    await page.getByRole('button', { name: 'Remove AAPL' }).click();
    await page.getByRole('button', { name: 'Remove NVDA' }).click();
    await page.getByLabel('Search Canadian Stocks').check();
    await typeSlowly('roy');
    await expect.poll(() => suggestions()).toEqual(['RY.TO - Royal Bank of Canada']);
    await listbox().getByRole('option', { name: 'RY.TO - Royal Bank of Canada' }).click();
    expect(await rows()).toEqual([ROW.MSFT, 'RY.TO - Royal Bank of Canada Not saved']);
    await saveButton().click();
    await page.getByText('Your favorites were saved.').waitFor();
    expect(writes()).toEqual([
      { path: '/api/delete_favorite_stocks', body: { symbols: ['AAPL', 'NVDA'] } },
      { path: '/api/batch_update_favorite_stocks', body: { stocks: [S.MSFT, S.RY_TO] } },
    ]);
    const saved = await api<Stock[]>('get_favorite_stocks', { token, server: 'market' });
    expect(saved.body).toEqual([S.MSFT, S.RY_TO]);
    await page.reload();
    await expect.poll(() => rows()).toEqual([ROW.MSFT, ROW.RY_TO]);
  });

  it('removing every favourite sends only the delete and shows the empty list', async () => {
    await setFavorites([S.AAPL]);
    await openWatchlist();
    await page.getByRole('button', { name: 'Remove AAPL' }).click();
    await page.getByText('You have no favorite stocks.', { exact: true }).waitFor();
    await saveButton().click();
    await page.getByText('Your favorites were saved.').waitFor();
    expect(writes()).toEqual([{ path: '/api/delete_favorite_stocks', body: { symbols: ['AAPL'] } }]);
    await page.reload();
    await page.getByText('You have no favorite stocks.', { exact: true }).waitFor();
    await screenshot(page, 'watchlist-empty');
  });

  it("a failed save shows the server's msg and keeps the edits", async () => {
    await openWatchlist();
    await page.route('**/api/batch_update_favorite_stocks', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The database is busy. Please try again.' }) }),
    );
    await typeSlowly('nvd');
    await listbox().getByRole('option', { name: 'NVDA - NVIDIA Corporation' }).click();
    await saveButton().click();
    await page.getByText('Could not save your favorites: The database is busy. Please try again.').waitFor();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, 'NVDA - NVIDIA Corporation Not saved']);
    expect(await saveButton().isEnabled()).toBe(true);
    await page.unroute('**/api/batch_update_favorite_stocks');
    await saveButton().click();
    await page.getByText('Your favorites were saved.').waitFor();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT, ROW.NVDA]);
  });

  it('a failed load is logged and shown with a Retry', async () => {
    let failing = true;
    await page.route('**/api/get_favorite_stocks', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The server is restarting.' }) }) : route.continue(),
    );
    await page.goto('/dashboard/symbollookup');
    await page.getByText('Your favorites could not be loaded.').waitFor();
    await page.getByText('The server is restarting.').waitFor();
    expect(logged.some((line) => line.startsWith('Error loading favorites:'))).toBe(true);
    expect(await searchInput().isDisabled()).toBe(true);
    await screenshot(page, 'watchlist-load-error');
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => rows()).toEqual([ROW.AAPL, ROW.MSFT]);
  });

  it('looks right in dark mode and on a phone', async () => {
    const dark = await newContext(session.browser, { colorScheme: 'dark', server: 'market' });
    await signedInUser(dark, 'watchlist-dark', { server: 'market', favorites: [S.AAPL, S.MSFT, S.NVDA, S.SHOP_TO] });
    const darkPage = await dark.newPage();
    await openWatchlist(darkPage);
    await expect.poll(() => rows(darkPage)).toEqual([ROW.AAPL, ROW.MSFT, ROW.NVDA, ROW.SHOP_TO]);
    await searchInput(darkPage).pressSequentially('shop', { delay: 60 });
    await expect.poll(() => suggestions(darkPage)).toEqual(['SHOP - Shopify Inc.', 'SHOP.TO - Shopify Inc.']);
    await screenshot(darkPage, 'watchlist-dark');
    await dark.close();

    const phone = await newContext(session.browser, { width: 390, height: 844, server: 'market' });
    await signedInUser(phone, 'watchlist-phone', { server: 'market', favorites: [S.AAPL, S.MSFT, S.NVDA, S.RY_TO, S.SHOP_TO] });
    const phonePage = await phone.newPage();
    await openWatchlist(phonePage);
    await expect.poll(() => rows(phonePage)).toEqual([ROW.AAPL, ROW.MSFT, ROW.NVDA, ROW.RY_TO, ROW.SHOP_TO]);
    await screenshot(phonePage, 'watchlist-phone');
    await phone.close();
  });
});

