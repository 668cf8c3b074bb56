import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { WATCHLIST_DROPS_STOCKS as S } from './fixtures/market/watchlist-drops';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

// The pinned market (e2e/fixtures/market/watchlist-drops.ts). Prices and the 30-day (1-month) and
// 60-day (6-month) highs and lows:
//   AAPL 175 (200/170, 250/150)   MSFT 400 (420/380, 500/320)   NVDA 180 (240/175, 240/100)
//   AMZN 220 (225/200, 230/160)   RY.TO 170 (180/150, 200/140)  SHOP.TO 150 (187.5/148, 215/125)
// SQ has no price history and is skipped.
const FAVORITES = [S.AAPL, S.MSFT, S.NVDA, S.AMZN, S.RY_TO, S.SHOP_TO, S.SQ];

let page: Page;
let scans: unknown[];
let logged: string[];
const session = useBrowserPage((context) => signedInUser(context, 'drops', { server: 'market', favorites: FAVORITES }).then(() => undefined), { server: 'market' });
beforeEach(() => {
  page = session.page;
  scans = [];
  logged = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/scan/drops') scans.push({ method: request.method(), body: request.postDataJSON() });
  });
  page.on('console', (message) => logged.push(message.text()));
});

const table = (target: Page = page) => target.getByRole('table', { name: 'Flagged stocks' });
const thresholdInput = (target: Page = page) => target.getByRole('textbox', { name: 'Drop Threshold (%)' });
const selectionInput = (target: Page = page) => target.getByRole('combobox', { name: 'Selection' });
const searchButton = (target: Page = page) => target.getByRole('button', { name: 'Search', exact: true });
const NO_RESULTS = 'No stocks meet the criteria at the moment.';

async function openScanner(target: Page = page) {
  await target.goto('/dashboard/dropscanner');
  await target.getByRole('heading', { name: 'Drop and Recovery Scanner', level: 1 }).waitFor();
}

/** The table as lines: the header, then 'symbol label price high-or-low' per flagged stock. */
async function tableRows(target: Page = page): Promise<string[]> {
  return (await table(target).getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
}

async function choose(selection: string, threshold?: string) {
  await selectionInput().click();
  await page.getByRole('option', { name: selection, exact: true }).click();
  if (threshold !== undefined) await thresholdInput().fill(threshold);
}

/**
 * Runs a scan and waits for its own outcome. The summary line names the selection and threshold it
 * answers, so a previous scan's result (still on screen while this one runs) is never mistaken for it.
 */
async function search() {
  const before = scans.length;
  const selection = await selectionInput().inputValue();
  const threshold = (await thresholdInput().inputValue()).replace(/%$/, '');
  await searchButton().click();
  await expect.poll(() => scans.length).toBe(before + 1);
  await page.getByText(`favorites flagged · ${selection}, threshold ${threshold}%`, { exact: false }).waitFor();
  await expect.poll(() => searchButton().isDisabled()).toBe(false);
}

describe('Drop and Recovery Scanner (/dashboard/dropscanner)', () => {
  it('scans the favourites with the defaults (10 %, 30 Day High) in one request', async () => {
    await openScanner();
    expect(await thresholdInput().inputValue()).toBe('10%');
    expect(await selectionInput().inputValue()).toBe('30 Day High');
    await selectionInput().click();
    expect((await page.getByRole('option').allInnerTexts()).map((t) => t.trim())).toEqual(['30 Day High', '60 Day High', '60 Day Low', '30 Day Low']);
    await page.keyboard.press('Escape');
    // The empty message belongs to a search that found nothing, not to a fresh screen.
    expect(await page.getByText(NO_RESULTS).count()).toBe(0);

    // Hold the answer back to see the analysing state.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/scan/drops', async (route) => {
      await held;
      await route.continue();
    });
    await searchButton().click();
    await page.getByText('Scanning All Metrics...', { exact: true }).waitFor();
    expect(await searchButton().isDisabled()).toBe(true);
    await screenshot(page, 'drop-scanner-scanning');
    release();

    await table().waitFor();
    expect(scans).toEqual([{ method: 'POST', body: { threshold: 10, selection: '30DayHigh' } }]);
    // Sorted by percentage change, largest first; drop % = (high − price) / high.
    await expect.poll(() => tableRows()).toEqual([
      'Symbol Change Current Price 30 Day High',
      'NVDA Dropped 25.00% 180.00 240.00',
      'SHOP.TO Dropped 20.00% 150.00 187.50',
      'AAPL Dropped 12.50% 175.00 200.00',
    ]);
    await page.getByText('3 of 6 favorites flagged · 30 Day High, threshold 10%').waitFor();

    // A drop is a red badge.
    const badgeColor = await table().getByText('Dropped 25.00%').evaluate((el) => getComputedStyle(el.closest('.mantine-Badge-root')!).color);
    const red = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--mantine-color-red-light-color)';
      document.body.append(probe);
      const value = getComputedStyle(probe).color;
      probe.remove();
      return value;
    });
    expect(badgeColor).toBe(red);

    // SQ has no prices: skipped, never fatal, named on request.
    await page.getByText('1 symbol could not be scanned', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show symbols' }).click();
    expect(await page.getByRole('list', { name: 'Symbols not scanned' }).getByRole('listitem').allInnerTexts()).toEqual(['SQ: No price history for SQ']);
    await screenshot(page, 'drop-scanner');
  });

  it('each Selection compares with its own high or low', async () => {
    await openScanner();
    await choose('60 Day High');
    await search();
    await expect.poll(() => tableRows()).toEqual([
      'Symbol Change Current Price 60 Day High',
      'SHOP.TO Dropped 30.23% 150.00 215.00',
      'AAPL Dropped 30.00% 175.00 250.00',
      'NVDA Dropped 25.00% 180.00 240.00',
      'MSFT Dropped 20.00% 400.00 500.00',
      'RY.TO Dropped 15.00% 170.00 200.00',
    ]);

    // Increase % = (price − low) / low, green 'Increased'.
    await choose('60 Day Low');
    await search();
    await expect.poll(() => tableRows()).toEqual([
      'Symbol Change Current Price 60 Day Low',
      'NVDA Increased 80.00% 180.00 100.00',
      'AMZN Increased 37.50% 220.00 160.00',
      'MSFT Increased 25.00% 400.00 320.00',
      'RY.TO Increased 21.43% 170.00 140.00',
      'SHOP.TO Increased 20.00% 150.00 125.00',
      'AAPL Increased 16.67% 175.00 150.00',
    ]);
    await screenshot(page, 'drop-scanner-60-day-low');

    // At or above the threshold: AMZN's increase is exactly 10 %.
    await choose('30 Day Low');
    await search();
    await expect.poll(() => tableRows()).toEqual([
      'Symbol Change Current Price 30 Day Low',
      'RY.TO Increased 13.33% 170.00 150.00',
      'AMZN Increased 10.00% 220.00 200.00',
    ]);
    expect(scans.map((scan) => (scan as { body: unknown }).body)).toEqual([
      { threshold: 10, selection: '60DayHigh' },
      { threshold: 10, selection: '60DayLow' },
      { threshold: 10, selection: '30DayLow' },
    ]);
  });

  it('uses the threshold, and says so when nothing meets it', async () => {
    await openScanner();
    await choose('30 Day High', '5');
    await search();
    await expect.poll(() => tableRows()).toEqual([
      'Symbol Change Current Price 30 Day High',
      'NVDA Dropped 25.00% 180.00 240.00',
      'SHOP.TO Dropped 20.00% 150.00 187.50',
      'AAPL Dropped 12.50% 175.00 200.00',
      'RY.TO Dropped 5.56% 170.00 180.00',
    ]);

    await thresholdInput().fill('30');
    await search();
    await page.getByText(NO_RESULTS, { exact: true }).waitFor();
    expect(await table().count()).toBe(0);
    await page.getByText('0 of 6 favorites flagged · 30 Day High, threshold 30%').waitFor();
    expect(scans.map((scan) => (scan as { body: unknown }).body)).toEqual([
      { threshold: 5, selection: '30DayHigh' },
      { threshold: 30, selection: '30DayHigh' },
    ]);
    await screenshot(page, 'drop-scanner-empty');
  });

  it('a failed scan is logged and shown with a Retry', async () => {
    await openScanner();
    let failing = true;
    await page.route('**/api/scan/drops', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'Market data is unavailable right now.' }) }) : route.continue(),
    );
    await searchButton().click();
    await page.getByText('Market data is unavailable right now.').waitFor();
    expect(logged.some((line) => line.startsWith('Error fetching drop scan results:'))).toBe(true);
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await table().waitFor();
    expect((await tableRows()).length).toBe(4);
  });

  it('looks right in dark mode and as cards on a phone', async () => {
    const dark = await newContext(session.browser, { colorScheme: 'dark', server: 'market' });
    await signedInUser(dark, 'drops-dark', { server: 'market', favorites: FAVORITES });
    const darkPage = await dark.newPage();
    await openScanner(darkPage);
    await darkPage.getByRole('combobox', { name: 'Selection' }).click();
    await darkPage.getByRole('option', { name: '60 Day Low', exact: true }).click();
    await searchButton(darkPage).click();
    await table(darkPage).waitFor();
    await darkPage.getByRole('button', { name: 'Show symbols' }).click();
    await screenshot(darkPage, 'drop-scanner-dark');
    await dark.close();

    const phone = await newContext(session.browser, { width: 390, height: 844, server: 'market' });
    await signedInUser(phone, 'drops-phone', { server: 'market', favorites: FAVORITES });
    const phonePage = await phone.newPage();
    await openScanner(phonePage);
    await searchButton(phonePage).click();
    const cards = phonePage.getByRole('list', { name: 'Flagged stocks' }).getByRole('listitem');
    await cards.first().waitFor();
    expect((await cards.allInnerTexts()).map((card) => card.replace(/\s+/g, ' ').trim())).toEqual([
      'NVDA Dropped 25.00% Current Price 180.00 30 Day High 240.00',
      'SHOP.TO Dropped 20.00% Current Price 150.00 30 Day High 187.50',
      'AAPL Dropped 12.50% Current Price 175.00 30 Day High 200.00',
    ]);
    expect(await table(phonePage).count()).toBe(0);
    await screenshot(phonePage, 'drop-scanner-phone');
    await phone.close();
  });
});
