import type { DropItem } from '@signalboard/core';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { apiGet, cardSymbols, cardText, IDEAS_TIME_ZONE, waitForReplay } from './support/trade-ideas';

// The pinned market (e2e/fixtures/market/trade-ideas.ts), replayed by the drop engine
// (strategies.md §5): DE's slide gave a short-term item (stopped) and then, 20 % under its 52-week
// high, a long-term one still open; LMT's and ETN's sharp drops gave short-term items that reached
// their 5 % targets on the rebound.

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

const items = () => page.getByRole('list', { name: 'Drop items' });
const tick = (name: string) => page.getByRole('checkbox', { name, exact: true });
const open = async () => {
  await page.goto('/dashboard/drop');
  await page.getByRole('heading', { name: 'Drop Scanner Alerts', level: 1 }).waitFor();
  await expect.poll(() => cardSymbols(items())).toEqual(['DE']);
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
    expect(rows.map((row) => `${row.StockSymbol} ${row.StockType} ${row.Status}`)).toEqual(['ETN S Deactivated', 'LMT S Deactivated', 'DE L Active', 'DE S Deactivated']);
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
    // Deactivated items have no Alert box.
    await tick('Stock Drop Short-Term Deactivated').check();
    await expect.poll(() => cardSymbols(items())).toEqual(['ETN', 'LMT', 'DE', 'DE']);
    expect(await items().getByRole('checkbox').count()).toBe(1);

    await alert.uncheck();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await expect.poll(async () => (await api<{ alerts: unknown[] }>('get_user_stock_scanner_alerts', { token, server: 'market' })).body.alerts).toEqual([]);
  });
});
