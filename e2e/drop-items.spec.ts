import fs from 'node:fs/promises';
import path from 'node:path';
import type { DropItem, ReplayStatus } from '@signalboard/core';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GLD_BARS } from './fixtures/market/option-chains';
import { api, newContext, screenshot, SCREENSHOT_DIR, signedInUser, useBrowserPage } from './support/browser';
import { optionDropItem } from './support/option-model';
import { apiGet, cardSymbols, cardText, fieldColour, IDEAS_TIME_ZONE, normalise, ownMarketServer, percent, resolvedColour, waitForReplay } from './support/trade-ideas';

// The pinned market (e2e/fixtures/market/trade-ideas.ts), replayed by the drop engine
// (docs/rules/drop-items.md §5): DE's slide gave a short-term item (stopped) and then, 20 % under its 52-week
// high, a long-term one still open; LMT's and ETN's sharp drops gave short-term items that reached
// their 5 % targets on the rebound. GLD (e2e/fixtures/market/option-chains.ts, an OPTION_ALERT ETF,
// also the Option Scanner spec's chain-priced trade) gave two option items, A (signalled
// 2026-10-01) and B (signalled 2026-10-21), whose CALLs both reached their +30 % targets on the
// rebound the day after entry: both are Deactivated.

let page: Page;
let token = '';
const session = useBrowserPage(
  async (context) => {
    token = (await signedInUser(context, 'drop', { server: 'market' })).token;
  },
  { server: 'market', timezoneId: IDEAS_TIME_ZONE },
);
beforeEach(() => {
  page = session.page;
});

const GLD = GLD_BARS;
const bar = (date: string) => GLD.find((one) => one.date === date)!;
/** A, entered at the 2026-10-02 open; its target filled that day (the marks of that close, for its open state). */
const A = optionDropItem('GLD', GLD, '2026-10-01', '2026-10-02', bar('2026-10-02').close);
/** B, entered at the 2026-10-22 open; its target filled that day. */
const B = optionDropItem('GLD', GLD, '2026-10-21', '2026-10-22', bar('2026-10-22').close);

const items = (on: Page = page) => on.getByRole('list', { name: 'Drop items' });
const tick = (name: string, on: Page = page) => on.getByRole('checkbox', { name, exact: true });
/** The card of GLD's option item on `contract` (GLD has two items: its cards share the symbol). */
const optionCard = (contract: string, on: Page = page): Locator => items(on).getByRole('article', { name: 'GLD', exact: true }).filter({ hasText: contract });
const open = async (on: Page = page) => {
  await on.goto('/dashboard/drop');
  await on.getByRole('heading', { name: 'Drop Scanner Alerts', level: 1 }).waitFor();
  await expect.poll(() => cardSymbols(items(on))).toEqual(['DE']);
};

describe('All Stocks Scanner (drop items)', () => {
  beforeAll(async () => {
    await waitForReplay('drop');
  }, 180_000);

  it('shows the active items of each type, and the deactivated ones on request, newest first', async () => {
    await open();
    for (const type of ['Stock Drop Short-Term', 'Stock Drop Long-Term', 'Option Drop']) {
      expect(await tick(`${type} Active`).isChecked(), type).toBe(true);
      expect(await tick(`${type} Deactivated`).isChecked(), type).toBe(false);
    }
    const rows = await apiGet<DropItem[]>('get_stock_scanner_data?status=active,deactivated');
    expect(rows.map((row) => `${row.StockSymbol} ${row.StockType} ${row.Status}`)).toEqual([
      'GLD O Deactivated',
      'GLD O Deactivated',
      'ETN S Deactivated',
      'LMT S Deactivated',
      'DE L Active',
      'DE S Deactivated',
    ]);
    const long = rows.find((row) => row.StockType === 'L')!;
    const text = await cardText(items(), 'DE');
    expect(text.startsWith('DE LONG REPLAYED')).toBe(true);
    for (const part of [`Threshold ${long.DropThreshold.toFixed(2)}%`, `Entry ${long.StockEntryPrice.toFixed(2)}`, `Current ${long.StockCurrentPrice.toFixed(2)}`, 'Target hit No', `Target value ${long.TargetValue.toFixed(2)}`, 'Sector Industrials', 'Created Jun 2, 2026, 5:30 AM']) {
      expect(text).toContain(part);
    }

    await tick('Stock Drop Short-Term Deactivated').check();
    await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT', 'DE', 'DE']);
    const etn = await cardText(items(), 'ETN');
    expect(etn.startsWith('ETN SHORT DEACTIVATED REPLAYED')).toBe(true);
    expect(etn).toContain('Target hit Yes');
    expect(etn).toContain('Profit +5.00%');
    await tick('Stock Drop Long-Term Active').uncheck();
    await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT', 'DE']);
    await tick('Stock Drop Short-Term Deactivated').uncheck();
    await page.getByText('No items match the selected filters.').waitFor();
    await screenshot(page, 'drop-items-empty');
  });

  it('asks the server for the ticked boxes: items beyond the unfiltered list’s first page show, Load more pages on, and Export CSV holds every page', async () => {
    // The screen asks for 500 items a page; the pinned market has 6, so each list call here is
    // answered 2 a page (the real server, its cursor): the unfiltered list's first page then holds
    // only GLD's two O items, as a fresh install's first 500 hold a small share of a box's items.
    const asked: URLSearchParams[] = [];
    await page.route('**/api/get_stock_scanner_data?*', (route) => {
      const url = new URL(route.request().url());
      asked.push(new URLSearchParams(url.searchParams));
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });
    try {
      const unfiltered = await apiGet<DropItem[]>('get_stock_scanner_data?limit=2');
      expect(unfiltered.map((row) => `${row.StockSymbol} ${row.StockType}`)).toEqual(['GLD O', 'GLD O']);
      await page.goto('/dashboard/drop');
      await page.getByRole('heading', { name: 'Drop Scanner Alerts', level: 1 }).waitFor();
      await expect.poll(() => cardSymbols(items())).toEqual(['DE']);
      await page.getByText('1 item', { exact: true }).waitFor();
      for (const type of ['Stock Drop Short-Term', 'Stock Drop Long-Term', 'Option Drop']) await tick(`${type} Active`).uncheck();
      await page.getByText('No items match the selected filters.').waitFor();
      await tick('Stock Drop Short-Term Deactivated').check();
      // The server's first page of the S Deactivated items, newest first, and more to come.
      await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT']);
      await page.getByText('2 items loaded so far', { exact: true }).waitFor();
      expect(asked.map((params) => params.toString())).toContain('status=deactivated&type=S&limit=500');
      await screenshot(page, 'drop-items-filtered');

      // Export CSV before the last page is loaded: every S Deactivated item.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^drop-items-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await fs.readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/);
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(' '))).toEqual(['ETN Short Deactivated', 'LMT Short Deactivated', 'DE Short Deactivated']);
      expect(asked.some((params) => params.get('cursor') !== null && params.get('type') === 'S')).toBe(true);

      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT', 'DE']);
      await page.getByText('3 items', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    } finally {
      await page.unroute('**/api/get_stock_scanner_data?*');
    }
  });

  it('shows the option items with their contracts, priced by the model from GLD’s bars, closed at their targets', async () => {
    await open();
    // Recomputed from the bars (e2e/support/option-model.ts): Friday CALLs 35 days out, |Δ| ≈ 0.45.
    expect([A.contractName, A.expiry, B.contractName, B.expiry]).toEqual(['GLD261106C00245000', '2026-11-06', 'GLD261127C00245000', '2026-11-27']);
    await tick('Option Drop Deactivated').check();
    await expect.poll(() => cardSymbols(items())).toEqual(['GLD', 'GLD', 'DE']);
    const green = await resolvedColour(page, '--mantine-color-green-text');
    for (const [item, signalled, created, exitDate] of [
      [B, 'B', 'Created Oct 22, 2026, 5:30 AM', '2026-10-22'],
      [A, 'A', 'Created Oct 2, 2026, 5:30 AM', '2026-10-02'],
    ] as const) {
      const card = optionCard(item.contractName);
      const text = normalise(await card.innerText());
      expect(text.startsWith('GLD OPTION DEACTIVATED REPLAYED'), signalled).toBe(true);
      for (const part of [
        `Threshold ${item.threshold.toFixed(2)}%`,
        `Entry ${item.entry.toFixed(2)}`,
        'Target hit Yes',
        `Target value (option) ${item.optionTarget.toFixed(2)}`,
        'Sentiment Neutral',
        'Sector N/A',
        `Contract ${item.contractName}`,
        `Option expiry ${item.expiry}`,
        `Option entry ${item.optionEntry.toFixed(2)}`,
        // Closed at its target: the exit value is 1.30 × the entry value.
        `Option current ${item.optionTarget.toFixed(2)}`,
        `Option profit ${percent(item.optionTarget / item.optionEntry - 1)}`,
        created,
        'News: No recent news.',
      ]) {
        expect(text, signalled).toContain(part);
      }
      // The underlying's exit lies within the exit session's range, and Profit is its move from the entry.
      const current = Number(/ Current (\d+\.\d{2}) /.exec(text)![1]);
      const exitBar = bar(exitDate);
      expect(current, signalled).toBeGreaterThanOrEqual(exitBar.low);
      expect(current, signalled).toBeLessThanOrEqual(exitBar.high);
      expect(text, signalled).toContain(`Profit ${percent(current / item.entry - 1)}`);
      // Closed: no Alert box. Gains in green: the underlying's move and the option's.
      expect(await card.getByRole('checkbox').count(), signalled).toBe(0);
      expect(await fieldColour(card, 'Profit'), signalled).toBe(green);
      expect(await fieldColour(card, 'Option profit'), signalled).toBe(green);
    }
    await screenshot(page, 'drop-items-option');
  });

  it('lays the option item out in dark and at phone width', async () => {
    for (const [name, options] of [
      ['dark', { colorScheme: 'dark', width: 1366, height: 860 }],
      ['phone', { colorScheme: 'light', width: 390, height: 844 }],
    ] as const) {
      const context = await newContext(session.browser, { server: 'market', timezoneId: IDEAS_TIME_ZONE, ...options });
      try {
        await signedInUser(context, `drop-${name}`, { server: 'market' });
        const view = await context.newPage();
        await open(view);
        await tick('Option Drop Deactivated', view).check();
        const card = optionCard(B.contractName, view);
        expect(normalise(await card.innerText())).toContain(`Option profit ${percent(B.optionTarget / B.optionEntry - 1)}`);
        // Nothing wider than the screen: no sideways scrolling, the card inside the viewport, and no
        // figure running out of its cell into the next (the 19-character contract name on a phone).
        expect(await view.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(options.width);
        const box = (await card.boundingBox())!;
        expect(box.x + box.width, name).toBeLessThanOrEqual(options.width);
        expect(await card.locator('p').evaluateAll((texts) => texts.filter((text) => text.scrollWidth > text.clientWidth + 1).map((text) => text.textContent)), name).toEqual([]);
        await screenshot(view, `drop-items-option-${name}`);
        await card.screenshot({ path: path.join(SCREENSHOT_DIR, `drop-items-option-card-${name}.png`) });
      } finally {
        await context.close();
      }
    }
  });

  it('saves, restores and clears the alerts of active items', async () => {
    await open();
    const long = (await apiGet<DropItem[]>('get_stock_scanner_data')).find((row) => row.StockType === 'L')!;
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('No alerts selected.').waitFor();

    const alert = items().getByRole('checkbox', { name: 'Alert for DE Long' });
    await alert.check();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('✅ Alerts saved successfully!').waitFor();
    expect((await api<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', { token, server: 'market' })).body.alerts).toEqual([{ stock_id: long.StockScannerId, trade_type: 'L' }]);
    await screenshot(page, 'drop-items');

    await open();
    await expect.poll(() => alert.isChecked()).toBe(true);
    // Deactivated items have no Alert box: of the four cards, only the active DE L has one.
    await tick('Stock Drop Short-Term Deactivated').check();
    await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT', 'DE', 'DE']);
    expect(await items().getByRole('checkbox').count()).toBe(1);

    await alert.uncheck();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await expect.poll(async () => (await api<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', { token, server: 'market' })).body.alerts).toEqual([]);
  });

  it('says "Failed to save alerts. Please try again." when saving fails, and keeps the saved alerts', async () => {
    await open();
    const long = (await apiGet<DropItem[]>('get_stock_scanner_data')).find((row) => row.StockType === 'L')!;
    const saved = [{ stock_id: long.StockScannerId, trade_type: 'L' }];
    const alert = items().getByRole('checkbox', { name: 'Alert for DE Long' });
    await alert.check();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('✅ Alerts saved successfully!').waitFor();
    expect((await api<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', { token, server: 'market' })).body.alerts).toEqual(saved);

    // The next save (clearing it) fails on the server's side.
    const sent: unknown[] = [];
    await page.route('**/api/save_user_stock_scanner_alerts', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push(route.request().postDataJSON());
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ msg: 'The database is not answering' }) });
    });
    await alert.uncheck();
    await page.getByText('0 alerts checked', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('Failed to save alerts. Please try again.', { exact: true }).waitFor();
    expect(sent).toEqual([{ alerts: [] }]);
    await page.getByRole('button', { name: 'Save Alerts', disabled: false }).waitFor();
    await page.unroute('**/api/save_user_stock_scanner_alerts');

    // Nothing changed on the server, and the screen opens on the saved alert again.
    expect((await api<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', { token, server: 'market' })).body.alerts).toEqual(saved);
    await open();
    await page.getByText('1 alert checked', { exact: true }).waitFor();
    expect(await alert.isChecked()).toBe(true);
  });

  it('after a restart days later closes the item of the only saved alert, and then says "No active alerts selected to save."', async () => {
    // The same pinned market on a server of its own, at 11:00 New York on 2026-10-02: A (signalled
    // on 10-01, entering at today's open) is open. The user ticks its Alert and saves.
    const own = await ownMarketServer('drop-closed-alert', '2026-10-02T15:00:00.000Z');
    try {
      const userToken = await own.signIn();
      await own.until<ReplayStatus[]>('trade_ideas/replay_status', userToken, (status) => status.some((entry) => entry.engine === 'drop' && entry.state === 'done'), 'the drop replay through 2026-10-01');
      const itemA = (await own.get<DropItem[]>('get_stock_scanner_data?type=O', userToken)).find((row) => row.ContractName === A.contractName)!;
      expect(itemA).toMatchObject({ StockIsActive: true, Status: 'Active' });
      let context = await own.context(session.browser, userToken);
      let view = await context.newPage();
      await view.goto('/dashboard/drop');
      // The active O card: its type badge, its Alert box, no Deactivated badge.
      const card = optionCard(A.contractName, view);
      const alert = card.getByRole('checkbox', { name: `Alert for GLD Option ${A.contractName}` });
      await alert.waitFor();
      expect(await alert.isChecked()).toBe(false);
      const text = normalise(await card.innerText());
      expect(text.startsWith('GLD OPTION REPLAYED'), text).toBe(true);
      expect(await card.getByText('Option', { exact: true }).count()).toBe(1);
      expect(await card.getByText('Deactivated', { exact: true }).count()).toBe(0);
      for (const part of ['Target hit No', `Contract ${A.contractName}`, `Option expiry ${A.expiry}`, 'Alert']) expect(text).toContain(part);
      await alert.check();
      await view.getByRole('button', { name: 'Save Alerts' }).click();
      await view.getByText('✅ Alerts saved successfully!').waitFor();
      await context.close();
      const saved = [{ stock_id: itemA.StockScannerId, trade_type: 'O' }];
      expect((await own.get<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', userToken)).alerts).toEqual(saved);

      // The server is down over the weekend and starts again on Monday: its catch-up runs the 10-02
      // session, in which A's target filled, so A is closed, and it was the only saved alert.
      await own.moveTo('2026-10-05T15:00:00.000Z');
      const closed = await own.until<DropItem[]>('get_stock_scanner_data?type=O&status=deactivated', userToken, (rows) => rows.some((row) => row.StockScannerId === itemA.StockScannerId), 'the catch-up of 2026-10-02 closing A');
      expect(closed.find((row) => row.StockScannerId === itemA.StockScannerId)).toMatchObject({ StockIsActive: false, StockIsTarget: true });
      context = await own.context(session.browser, userToken);
      view = await context.newPage();
      await view.goto('/dashboard/drop');
      // The saved alert is still checked (its box is gone with the item): Save has no active item to send.
      await view.getByText('1 alert checked', { exact: true }).waitFor();
      await tick('Option Drop Deactivated', view).check();
      await optionCard(A.contractName, view).getByText('Deactivated', { exact: true }).waitFor();
      expect(await optionCard(A.contractName, view).getByRole('checkbox').count()).toBe(0);
      await view.getByRole('button', { name: 'Save Alerts' }).click();
      await view.getByText('No active alerts selected to save.', { exact: true }).waitFor();
      // Nothing was sent: the saved set is as it was.
      expect((await own.get<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', userToken)).alerts).toEqual(saved);
      await context.close();
    } finally {
      await own.close();
    }
  }, 300_000);
});
