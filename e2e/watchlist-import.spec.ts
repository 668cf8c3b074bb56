/**
 * WatchList import and export (issue 29; docs/data-in-and-out.md "Watchlist import and export"), on
 * the simulated market, whose embedded universe lists T as AT&T (NYSE) and as TELUS (T.TO, TSX): a
 * bare `T` is ambiguous there. Import a TradingView list with that ambiguous entry and unknown ones,
 * pick TELUS, add, save; export both formats and read the files back; import the export again.
 * The preview, with repeated entries, is axe clean in light, dark and at phone width.
 */
import fs from 'node:fs/promises';
import { CSV_BOM, parseCsv } from '@signalboard/core';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { blocking, describeFindings, runAxe, settle } from './support/axe';
import { api, newContext, SCREENSHOT_DIR, screenshot, signedInUser, useBrowserPage } from './support/browser';

let page: Page;
let token: string;
const session = useBrowserPage(async (context) => {
  ({ token } = await signedInUser(context, 'watchlist-import', { favorites: [{ symbol: 'AAPL', description: 'Apple Inc.' }] }));
});
beforeEach(() => {
  page = session.page;
});

const TRADINGVIEW_LIST = '###Tech,NASDAQ:AAPL,NASDAQ:MSFT,\n###Mixed,T,TSX:RY,NYSE:ZZZZ,BINANCE:BTCUSDT,bad symbol!';

const dialog = (on: Page = page) => on.getByRole('dialog', { name: 'Import symbols' });

async function expectAxeClean(state: string, on: Page = page) {
  await settle(on);
  const fatal = blocking(await runAxe(on));
  expect(fatal, `${state}:\n${describeFindings(fatal)}`).toEqual([]);
}

/** The WatchList, its Import dialog open with `text` pasted. */
async function openImport(on: Page, text: string) {
  await on.goto('/dashboard/symbollookup');
  await on.getByRole('heading', { name: 'Add and Remove Stocks', level: 1 }).waitFor();
  const importButton = on.getByRole('button', { name: 'Import' });
  await expect.poll(() => importButton.isEnabled()).toBe(true);
  await importButton.click();
  await dialog(on).getByLabel('Paste symbols').fill(text);
}

async function rows(): Promise<string[]> {
  return (await page.getByRole('list', { name: 'Your Favorites' }).getByRole('listitem').allInnerTexts()).map((row) => row.split(' - ')[0]!.trim());
}

async function download(item: string): Promise<{ name: string; bytes: Buffer }> {
  await page.getByRole('button', { name: 'Export' }).click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: item }).click()]);
  return { name: file.suggestedFilename(), bytes: await fs.readFile((await file.path())!) };
}

describe('WatchList import and export', () => {
  it('imports a TradingView list (one ambiguous, two unknown, a bad entry), picks, saves, exports both formats and imports the export back', async () => {
    await openImport(page, TRADINGVIEW_LIST);
    await expectAxeClean('import dialog');
    await dialog().getByRole('button', { name: 'Preview' }).click();

    await dialog().getByText('Read as a TradingView list: 3 found · 1 to pick · 2 unknown · 1 unreadable line', { exact: true }).waitFor();
    expect(await dialog().getByRole('checkbox', { name: 'AAPL - Apple Inc. (line 1)' }).isDisabled()).toBe(true);
    expect(await dialog().getByRole('checkbox', { name: 'MSFT - Microsoft Corporation (line 1)' }).isChecked()).toBe(true);
    expect(await dialog().getByRole('checkbox', { name: 'RY.TO - Royal Bank of Canada (line 2)' }).isChecked()).toBe(true);
    await dialog().getByText('ZZZZ is not listed on a US exchange (no exact match in the symbol lookup).', { exact: true }).waitFor();
    await dialog().getByText('BINANCE is not a US or Canadian (TSX) exchange; favorites are US and Canadian stocks only.', { exact: true }).waitFor();
    expect(await dialog().getByRole('list', { name: 'Lines that could not be read' }).innerText()).toBe('Line 2: "bad symbol!" is not a symbol (letters, digits and . - ^ = only).');
    const pick = dialog().getByRole('combobox', { name: 'Line 2: T is listed more than once — pick one' });
    expect(await pick.locator('option').allInnerTexts()).toEqual(["Don't add", 'T - AT&T Inc. (NYSE)', 'T.TO - TELUS Corporation (TSX)']);
    await pick.selectOption('T.TO');
    await dialog().getByRole('button', { name: 'Add 3 to favorites' }).waitFor();
    await expectAxeClean('import preview');
    await screenshot(page, 'watchlist-import-preview');
    await dialog().getByRole('button', { name: 'Add 3 to favorites' }).click();
    await dialog().waitFor({ state: 'detached' });

    // In the editing state only: Save still decides.
    await expect.poll(rows).toEqual(['AAPL', 'MSFT', 'T.TO', 'RY.TO']);
    expect((await api<Array<{ symbol: string }>>('get_favorite_stocks', { token })).body.map((row) => row.symbol)).toEqual(['AAPL']);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Your favorites were saved.', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect((await api<Array<{ symbol: string }>>('get_favorite_stocks', { token })).body.map((row) => row.symbol)).toEqual(['AAPL', 'MSFT', 'T.TO', 'RY.TO']);
    await screenshot(page, 'watchlist-import-saved');

    const csv = await download('CSV (symbol, description, exchange)');
    expect(csv.name).toMatch(/^watchlist-\d{4}-\d{2}-\d{2}\.csv$/);
    const csvText = csv.bytes.toString('utf8');
    expect(csvText.startsWith(CSV_BOM)).toBe(true);
    expect(parseCsv(csvText).map((record) => record.fields)).toEqual([
      ['symbol', 'description', 'exchange'],
      ['AAPL', 'Apple Inc.', 'NASDAQ'],
      ['MSFT', 'Microsoft Corporation', 'NASDAQ'],
      ['T.TO', 'TELUS Corporation', 'TSX'],
      ['RY.TO', 'Royal Bank of Canada', 'TSX'],
    ]);
    const tradingView = await download('TradingView list');
    expect(tradingView.name).toMatch(/^watchlist-\d{4}-\d{2}-\d{2}-tradingview\.txt$/);
    expect(tradingView.bytes.toString('utf8')).toBe('NASDAQ:AAPL,NASDAQ:MSFT,TSX:T,TSX:RY');

    // The exported file, imported back as a file: every entry is already in the list.
    await page.getByRole('button', { name: 'Import' }).click();
    await dialog().locator('input[type="file"]').setInputFiles({ name: 'watchlist.csv', mimeType: 'text/csv', buffer: csv.bytes });
    await expect.poll(() => dialog().getByLabel('Paste symbols').inputValue()).toContain('symbol,description,exchange');
    await dialog().getByRole('button', { name: 'Preview' }).click();
    await dialog().getByText('Read as a CSV with a symbol column: 4 found · 0 to pick · 0 unknown', { exact: true }).waitFor();
    expect(await dialog().getByRole('checkbox', { checked: false, disabled: true }).count()).toBe(4);
    expect(await dialog().getByRole('button', { name: 'Add 0 to favorites' }).isDisabled()).toBe(true);
    await dialog().getByRole('button', { name: 'Back' }).click();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    await expectAxeClean('after import');
  });

  it('the preview, with repeated entries, is axe clean in dark and at phone width', async () => {
    // MSFT again on line 2 and line 3: repeats of line 1, each its own (disabled) tick named by its line.
    const text = `${TRADINGVIEW_LIST},MSFT\nNASDAQ:MSFT`;
    for (const [label, options] of [
      ['dark', { colorScheme: 'dark' }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await newContext(session.browser, options);
      try {
        await signedInUser(context, `watchlist-import-${label}`, { favorites: [{ symbol: 'AAPL', description: 'Apple Inc.' }] });
        const on = await context.newPage();
        await openImport(on, text);
        await dialog(on).getByRole('button', { name: 'Preview' }).click();
        await dialog(on).getByText('Read as a TradingView list: 5 found · 1 to pick · 2 unknown · 1 unreadable line', { exact: true }).waitFor();
        expect(await dialog(on).getByRole('checkbox', { name: 'MSFT - Microsoft Corporation (line 1)', exact: true }).isChecked()).toBe(true);
        for (const line of [2, 3]) {
          const again = dialog(on).getByRole('checkbox', { name: `MSFT - Microsoft Corporation (line ${line})`, exact: true });
          expect([await again.isChecked(), await again.isDisabled()], `line ${line}`).toEqual([false, true]);
        }
        await dialog(on).getByRole('button', { name: 'Add 2 to favorites' }).waitFor();
        await expectAxeClean(`import preview (${label})`, on);
        await screenshot(on, `watchlist-import-preview-${label}`);
        await dialog(on).screenshot({ path: path.join(SCREENSHOT_DIR, `watchlist-import-preview-${label}-dialog.png`) });
        // The dialog scrolls when it is taller than the screen: its buttons are reached, and usable, at the end.
        const add = dialog(on).getByRole('button', { name: 'Add 2 to favorites' });
        await add.scrollIntoViewIfNeeded();
        await expect.poll(() => add.evaluate((button) => button.getBoundingClientRect().bottom <= window.innerHeight)).toBe(true);
        await screenshot(on, `watchlist-import-preview-${label}-end`);
      } finally {
        await context.close();
      }
    }
  });
});
