/**
 * Live updates (issue 16): the WatchList's prices move without a reload or a poll. On the alerts
 * server (TEST_CONTROL_FILE moves a quote; support/control.ts): the page opens its stream with the
 * bearer header, the server's live-quote timer reads the changed quote and the row follows. DPZ is
 * this spec's symbol: the dataset does not list it, so its quote comes from the control file alone
 * and no other spec sees it; the control is put back when the spec ends.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';
import { setTestControl } from './support/control';

const SYMBOL = 'DPZ';
const PREVIOUS_CLOSE = 400;
const quoteAt = (price: number) => ({ quotes: { [SYMBOL]: { price, previousClose: PREVIOUS_CLOSE } } });

let page: Page;
let requests: Array<{ path: string; url: string; authorization: string | undefined }>;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'live', { server: 'alerts', favorites: [{ symbol: SYMBOL, description: "Domino's Pizza Inc." }] });
  },
  { server: 'alerts' },
);
beforeAll(async () => {
  await setTestControl(quoteAt(PREVIOUS_CLOSE));
});
beforeEach(() => {
  page = session.page;
  requests = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) requests.push({ path: url.pathname, url: request.url(), authorization: request.headers().authorization });
  });
});
afterAll(async () => {
  await setTestControl({});
});

const row = () => page.getByRole('list', { name: 'Your Favorites' }).getByRole('listitem').filter({ hasText: SYMBOL });
const liveIndicator = () => page.locator('[role="status"][data-live-status]');
const quotePolls = () => requests.filter((request) => request.path === '/api/favorites/quotes').length;

describe('Live updates', () => {
  it('moves a WatchList price as the quote changes, without a reload and without polling', async () => {
    await page.goto('/dashboard/symbollookup');
    await expect.poll(() => row().textContent(), { timeout: 15_000 }).toContain('400.00');
    await expect.poll(() => liveIndicator().getAttribute('data-live-status'), { timeout: 15_000 }).toBe('live');
    expect(await liveIndicator().textContent()).toBe('Live');

    // The stream: one GET with the bearer header, nothing in its URL; the row's symbol sent after its hello.
    const streams = requests.filter((request) => request.path === '/api/live');
    expect(streams).toHaveLength(1);
    expect(new URL(streams[0]!.url).search).toBe('');
    expect(streams[0]!.authorization).toMatch(/^Bearer \S+$/);
    await expect.poll(() => requests.some((request) => request.path === '/api/live_symbols')).toBe(true);

    const pollsBefore = quotePolls();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    await setTestControl(quoteAt(412.5));
    await expect.poll(() => row().textContent(), { timeout: 20_000 }).toContain('412.50');
    expect(await row().textContent()).toContain('+12.50 (+3.13%)');
    await screenshot(page, 'live-updates-watchlist');

    // A second move arrives the same way.
    await setTestControl(quoteAt(395));
    await expect.poll(() => row().textContent(), { timeout: 20_000 }).toContain('395.00');
    expect(await row().textContent()).toContain('\u22125.00 (\u22121.25%)');

    expect(navigations).toEqual([]);
    expect(quotePolls()).toBe(pollsBefore);
    expect(await liveIndicator().getAttribute('data-live-status')).toBe('live');
  });
});
