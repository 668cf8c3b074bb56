/**
 * Administration → Data (issue 29; docs/data-in-and-out.md "The Data card") on a server of this
 * spec's own with a fresh database: an import changes the universes, which the shared servers' other
 * specs assert. An admin imports a Yahoo-style file of a symbol the simulated market does not know
 * (ZZSPLT: 300 sessions to the last completed one, a 2-for-1 split in the middle whose raw Close
 * halves while the Adj Close runs on), ticks the split's adjustment, names the symbol and imports it;
 * the list shows it; the WatchList search finds it and a custom scan over the favourites lists it,
 * marked as imported (the row, the header's source, the CSV, the Details, the top bar's badge).
 * axe clean on the Data card in light, dark and at phone width, and on the marked results.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { dayNumber, isoFromDayNumber, isTradingDayNumber, marketSession, tradingDayOnOrBefore, type ImportedPricesResponse } from '@signalboard/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blocking, describeFindings, runAxe, settle } from './support/axe';
import { launchBrowser, SCREENSHOT_DIR, screenshot, uniqueEmail } from './support/browser';
import { makeDataDir, runCli, startServer, type RunningServer } from './support/server-process';

const SYMBOL = 'ZZSPLT';
const DESCRIPTION = 'Zeta Split Industries';
const SESSIONS = 300;
const SPLIT_INDEX = 150;
const PASSWORD = 'correct horse battery staple';

let server: RunningServer;
let dataDir: string;
let browser: Browser;
let admin: { email: string; token: string };
const contexts: BrowserContext[] = [];

/** The sessions of the file: SESSIONS trading days ending on the last completed session before now. */
function sessions(): string[] {
  const now = marketSession(Date.now());
  let day = now.phase === 'open' ? tradingDayOnOrBefore(now.day - 1) : now.lastSessionDay;
  const days: number[] = [];
  while (days.length < SESSIONS) {
    if (isTradingDayNumber(day)) days.unshift(day);
    day -= 1;
  }
  return days.map(isoFromDayNumber);
}

/**
 * A Yahoo layout file whose Close is raw: before the split every price is twice the split-adjusted
 * one, which is the Adj Close throughout (continuous). A gentle deterministic walk around 50.
 */
function splitFile(days: readonly string[]): string {
  const lines = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  days.forEach((date, index) => {
    const adjusted = 50 + 5 * Math.sin(index / 9) + index * 0.01;
    const factor = index < SPLIT_INDEX ? 2 : 1;
    const close = adjusted * factor;
    const open = close * 0.995;
    const cell = (value: number) => value.toFixed(4);
    lines.push([date, cell(open), cell(close * 1.01), cell(open * 0.99), cell(close), cell(adjusted), String(1_000_000 / factor)].join(','));
  });
  return `${lines.join('\n')}\n`;
}

async function call<T>(url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.baseUrl}/api/${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** An admin past its first login: the CLI adds and promotes it, the API changes its password. */
async function makeAdmin(): Promise<{ email: string; token: string }> {
  const email = uniqueEmail('data-admin');
  for (const args of [['add', email, '--password', PASSWORD], ['promote', email]]) {
    const result = runCli(dataDir, args);
    if (result.status !== 0) throw new Error(`${args[0]} failed: ${result.stderr}${result.stdout}`);
  }
  const first = await call<{ access_token: string }>('login', { email, password: PASSWORD });
  const changed = await call('update-password', { new_password: PASSWORD }, first.body.access_token);
  if (changed.status !== 200) throw new Error(`update-password failed: ${changed.status}`);
  const signedIn = await call<{ access_token: string }>('login', { email, password: PASSWORD });
  return { email, token: signedIn.body.access_token };
}

async function openPage(options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: options.width ?? 1366, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
  });
  context.setDefaultTimeout(20_000);
  await context.addInitScript((token) => window.localStorage.setItem('access_token', token), admin.token);
  contexts.push(context);
  return context.newPage();
}

beforeAll(async () => {
  dataDir = await makeDataDir('data-import');
  server = await startServer(dataDir);
  admin = await makeAdmin();
  browser = await launchBrowser();
}, 180_000);
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop('SIGTERM');
  if (dataDir) await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
});

const card = (page: Page) => page.getByRole('region', { name: 'Data', exact: true });
const preview = (page: Page) => page.getByRole('region', { name: `${SYMBOL}.csv`, exact: true });

async function openData(page: Page) {
  await page.goto('/dashboard/admin');
  await page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
  await card(page).getByRole('heading', { name: 'Import price files' }).waitFor();
}

/** Chooses the file in the card's file input and waits for its preview. */
async function choose(page: Page, text: string) {
  await card(page).locator('input[type="file"]').setInputFiles({ name: `${SYMBOL}.csv`, mimeType: 'text/csv', buffer: Buffer.from(text) });
  await preview(page).getByText('Can be imported', { exact: true }).waitFor();
}

/** The whole page, and the Data card alone (easier to look at than the tall page). */
async function screenshots(page: Page, name: string) {
  await screenshot(page, name);
  await card(page).screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-card.png`) });
}

async function expectAxeClean(page: Page, state: string) {
  await settle(page);
  const fatal = blocking(await runAxe(page));
  expect(fatal, `${state}:\n${describeFindings(fatal)}`).toEqual([]);
}

const monthDayYear = (iso: string) => {
  const date = new Date(dayNumber(iso) * 86_400_000);
  return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
};

describe('Administration → Data', () => {
  it('an admin imports a file with a split, adjusts it, and sees the symbol in the search and a custom scan; axe clean', async () => {
    const days = sessions();
    const page = await openPage();
    await openData(page);
    await card(page).getByText('No price file imported yet.', { exact: true }).waitFor();

    await choose(page, splitFile(days));
    const shown = preview(page);
    await shown.getByText(`300 rows, ${monthDayYear(days[0]!)} → ${monthDayYear(days.at(-1)!)} · 0 missing sessions · 0 bars on closed days`, { exact: true }).waitFor();
    // The split: the raw close halves on its day, the Adj Close says the earlier bars are twice too high.
    const split = shown.getByRole('list', { name: `Possible splits of ${SYMBOL}` });
    await split.getByText(new RegExp(`^${days[SPLIT_INDEX]}: close `)).waitFor();
    const adjust = shown.getByRole('checkbox', { name: 'Adjust the earlier bars (Adj Close ratio 0.50)' });
    expect(await adjust.isChecked()).toBe(false);
    expect(await shown.getByRole('textbox', { name: 'Description' }).inputValue()).toBe(SYMBOL);
    expect(await shown.getByRole('combobox', { name: 'Adj Close' }).inputValue()).toBe('5');
    await expectAxeClean(page, 'the Data card with a preview (light)');

    await adjust.check();
    await shown.getByRole('textbox', { name: 'Description' }).fill(DESCRIPTION);
    await shown.getByRole('textbox', { name: 'Exchange' }).fill('NASDAQ');
    await shown.getByRole('textbox', { name: 'Sector' }).fill('Industrials');
    await screenshots(page, 'data-import-preview');
    await card(page).getByRole('button', { name: 'Import', exact: true }).click();

    await card(page).getByText(`${SYMBOL} from ${SYMBOL}.csv: 300 new, 0 changed, 0 unchanged; split adjusted on ${days[SPLIT_INDEX]}`, { exact: true }).waitFor();
    const row = card(page).getByRole('table', { name: 'Imported symbols' }).getByRole('row').filter({ hasText: SYMBOL });
    await row.getByRole('cell', { name: DESCRIPTION, exact: true }).waitFor();
    await row.getByRole('cell', { name: `${monthDayYear(days[0]!)} → ${monthDayYear(days.at(-1)!)}`, exact: true }).waitFor();
    await row.getByRole('cell', { name: '300', exact: true }).waitFor();
    expect(await preview(page).count()).toBe(0);
    await screenshots(page, 'data-import-imported');
    await expectAxeClean(page, 'the Data card after the import (light)');

    // Stored adjusted: the bars before the split are halved, so the first close is the file's Adj Close.
    const listed = await call<ImportedPricesResponse>('admin/prices', undefined, admin.token);
    expect(listed.body.symbols.map(({ symbol, rows, first_day, last_day, exchange, sector }) => ({ symbol, rows, first_day, last_day, exchange, sector }))).toEqual([
      { symbol: SYMBOL, rows: SESSIONS, first_day: days[0], last_day: days.at(-1), exchange: 'NASDAQ', sector: 'Industrials' },
    ]);

    // The stock engines whose universe gained it run as a version of their own on the imported prices,
    // replayed apart from their earlier replay (docs/data-in-and-out.md "Replays of new data"); the
    // options engine's universe (the OPTION_ALERT tickers) does not hold it.
    const versions = async () => new Map((await call<Array<{ engine: string; ruleVersion: string }>>('trade_ideas/replay_status', undefined, admin.token)).body.map((row) => [row.engine, row.ruleVersion]));
    await expect.poll(async () => (await versions()).get('swing'), { timeout: 30_000 }).toMatch(/^swing@1\.0\.0\+data\.[0-9a-f]{8}$/);
    expect((await versions()).get('options')).toBe('options@1.1.0');
    await page.goto('/dashboard/stockshort');
    await page.getByRole('heading', { name: 'Stock Short-Term Trades', level: 1 }).waitFor();
    await page.getByText(/^Replaying history on the imported prices: /).first().waitFor();
    await screenshot(page, 'data-import-swing-replay');

    // The WatchList's search finds it; it is added and saved to the favourites.
    await page.goto('/dashboard/symbollookup');
    await page.getByRole('heading', { name: 'Add and Remove Stocks', level: 1 }).waitFor();
    const search = page.getByRole('combobox', { name: 'Search Symbol' });
    await expect.poll(() => search.isEnabled()).toBe(true);
    await search.click();
    await search.pressSequentially('ZZSP', { delay: 60 });
    await page.getByRole('listbox', { name: 'Search Symbol' }).getByRole('option', { name: `${SYMBOL} - ${DESCRIPTION}` }).click();
    await page.getByRole('list', { name: 'Your Favorites' }).getByText(SYMBOL, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your favorites were saved.', { exact: true }).waitFor();

    // A custom scan over the favourites lists it, with its description.
    await page.goto('/dashboard/scans');
    await page.getByRole('heading', { name: 'Custom Scans', level: 1 }).waitFor();
    await page.getByRole('combobox', { name: 'Universe', exact: true }).click();
    await page.getByRole('option', { name: 'My favorites', exact: true }).click();
    await page.getByRole('tab', { name: 'Formula', exact: true }).click();
    await page.getByRole('textbox', { name: 'Formula' }).fill('close > 0');
    await page.getByRole('button', { name: 'Run scan' }).click();
    await page.getByText('1 match of 1 symbol', { exact: true }).waitFor();
    const result = page.getByRole('table', { name: 'Matching symbols' }).getByRole('row').filter({ hasText: SYMBOL });
    await result.getByRole('cell', { name: DESCRIPTION, exact: true }).waitFor();

    // Its figures come from the imported file, and every place that shows them says so
    // (docs/data-in-and-out.md "Where imported figures are labelled").
    await page.getByText(`as of ${monthDayYear(days.at(-1)!)} · source Simulated market, imported prices for 1 symbol`, { exact: true }).waitFor();
    expect(await result.getByRole('img', { name: `${SYMBOL}: imported prices` }).textContent()).toBe('Imported');
    await page.getByRole('banner').getByText('Imported prices', { exact: true }).waitFor();
    await page.getByRole('banner').getByText('Simulated market', { exact: true }).waitFor();
    await screenshot(page, 'data-import-scan-imported');
    await expectAxeClean(page, 'custom scan results with an imported symbol (light)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const [header, line] = (await fs.readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
    expect(header!.split(',').at(-1)).toBe('Imported prices');
    expect(line!.startsWith(`${SYMBOL},`)).toBe(true);
    expect(line!.split(',').at(-1)).toBe('yes');
    await result.getByRole('button', { name: `Details of ${SYMBOL}` }).click();
    await page.getByRole('dialog').getByText(`${DESCRIPTION} · as of ${monthDayYear(days.at(-1)!)} · source Simulated market, imported prices`, { exact: true }).waitFor();
  });

  it('is axe clean in dark and at phone width with a preview', async () => {
    const text = splitFile(sessions());
    for (const [label, options] of [
      ['dark', { colorScheme: 'dark' }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const page = await openPage(options);
      await openData(page);
      await card(page).getByRole('table', { name: 'Imported symbols' }).getByRole('row').filter({ hasText: SYMBOL }).waitFor();
      await choose(page, text);
      // Imported before: no listing to give; the same file again would change nothing.
      await preview(page).getByRole('checkbox', { name: 'Adjust the earlier bars (Adj Close ratio 0.50)' }).waitFor();
      expect(await preview(page).getByRole('textbox', { name: 'Description' }).count()).toBe(0);
      await expectAxeClean(page, `the Data card with a preview (${label})`);
      await screenshots(page, `data-import-preview-${label}`);
    }
  });
});
