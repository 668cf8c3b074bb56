import type { OptionTrade } from '@signalboard/core';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { apiGet, cardSymbols, cardText, IDEAS_TIME_ZONE, waitForReplay } from './support/trade-ideas';

// The pinned market (e2e/fixtures/market/trade-ideas.ts): of the OPTION_ALERT tickers only SPY has
// the 260 bars the option engine needs; its steady climb keeps making 20-session highs, so the
// engine buys a CALL on each breakout (after its 5-session cooldown), priced with the model
// (strategies.md §4.3), and the two-week hold's time decay takes most of them to their time stop.
// One is still open: the CALL of the 2026-11-18 breakout.

let page: Page;
let token = '';
const session = useBrowserPage(
  async (context) => {
    token = (await signedInUser(context, 'options2', { server: 'market' })).token;
  },
  { server: 'market', timezoneId: IDEAS_TIME_ZONE },
);
beforeEach(() => {
  page = session.page;
});

const trades = () => page.getByRole('list', { name: 'Option trades' });
const tick = (name: string) => page.getByRole('checkbox', { name, exact: true });
/** The colour a Mantine colour variable resolves to on this page. */
const resolved = (variable: string) =>
  page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
/** The colour of a card field's value (the text after its label). */
const fieldColour = (symbol: string, label: string) =>
  trades().getByRole('article', { name: symbol, exact: true }).first().getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]').evaluate((element) => getComputedStyle(element).color);
const open = async () => {
  await page.goto('/dashboard/options2');
  await page.getByRole('heading', { name: 'Options Scanner', level: 1 }).waitFor();
  await expect.poll(() => cardSymbols(trades())).toEqual(['SPY']);
};

describe('Option Scanner (option trades)', () => {
  beforeAll(async () => {
    await waitForReplay('options');
  }, 180_000);

  it('lists the open trade with every spec field, its strength, and the closed ones by profit', async () => {
    await open();
    expect(await tick('Current Trades').isChecked()).toBe(true);
    expect(await tick('Sucessful Trades').isChecked()).toBe(false);
    expect(await tick('Failed Trades').isChecked()).toBe(false);
    const [active] = await apiGet<OptionTrade[]>('get_combined_options_data');
    expect(active!.ContractName).toBe('SPY261224C00679000');
    const text = await cardText(trades(), 'SPY');
    expect(text.startsWith('SPY ACTIVE MODEL REPLAYED')).toBe(true);
    for (const part of ['Contract SPY261224C00679000', 'Side CALL', `Strike ${active!.Strike.toFixed(2)}`, 'Expiry 2026-12-24', `Entry price ${active!.EntryValue.toFixed(2)}`, `Current price ${active!.Current_Value.toFixed(2)}`, 'Trade strength 0/100 (weak)', 'Created Nov 19, 2026, 6:30 AM']) {
      expect(text).toContain(part);
    }
    // No volume spike, no swing level, overbought: strength 0, red (below 30); a loss, red.
    expect(active!.ProfitPercent).toBeLessThan(0);
    const red = await resolved('--mantine-color-red-text');
    expect(await fieldColour('SPY', 'Trade strength')).toBe(red);
    expect(await fieldColour('SPY', 'Profit')).toBe(red);

    // Symbol (case-insensitive contains) and dates (Tokyo days; SPY's trade was created Nov 19 there).
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('sp');
    await expect.poll(() => cardSymbols(trades())).toEqual(['SPY']);
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('qqq');
    await page.getByText('No options match the selected filters.').waitFor();
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('');
    await page.getByLabel('To Date').fill('2026-11-18');
    await page.getByText('No options match the selected filters.').waitFor();
    await page.getByLabel('To Date').fill('2026-11-19');
    await expect.poll(() => cardSymbols(trades())).toEqual(['SPY']);
    await page.getByLabel('To Date').fill('');

    // Closed: none reached the +30 % target; the failed ones sorted by profit, highest first.
    await tick('Current Trades').uncheck();
    await tick('Sucessful Trades').check();
    await page.getByText('No options match the selected filters.').waitFor();
    await tick('Failed Trades').check();
    const failed = await apiGet<OptionTrade[]>('get_combined_options_data?status=failed');
    expect(failed.length).toBe(16);
    expect(failed.every((row) => row.Status === 'Failed' && row.CloseReason === 'time')).toBe(true);
    const profits = failed.map((row) => row.ProfitPercent);
    expect(profits).toEqual([...profits].sort((a, b) => b - a));
    await expect.poll(async () => (await trades().getByRole('article').count())).toBe(16);
    const contracts = await trades().getByRole('article').evaluateAll((cards) => cards.map((card) => /SPY\d{6}[CP]\d{8}/.exec(card.textContent ?? '')?.[0]));
    expect(contracts).toEqual(failed.map((row) => row.ContractName));
    await screenshot(page, 'option-trades');
  });

  it('saves, restores and clears the alerts of active trades', async () => {
    await open();
    const [active] = await apiGet<OptionTrade[]>('get_combined_options_data');
    // Nothing ticked and nothing saved: nothing to do.
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('No alerts selected.').waitFor();

    const alert = trades().getByRole('checkbox', { name: 'Alert for SPY SPY261224C00679000' });
    await alert.check();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('✅ Alerts saved successfully!').waitFor();
    expect((await api<{ option_chain_ids: string[] }>('get_user_option_alerts', { token, server: 'market' })).body.option_chain_ids).toEqual([active!.OptionsChainId]);

    // The screen opens with the saved alerts ticked; closed trades have no Alert box.
    await open();
    await expect.poll(() => alert.isChecked()).toBe(true);
    await tick('Failed Trades').check();
    await expect.poll(async () => (await trades().getByRole('article').count())).toBe(17);
    expect(await trades().getByRole('checkbox').count()).toBe(1);

    // Unticking the last one and saving clears it.
    await alert.uncheck();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await expect.poll(async () => (await api<{ option_chain_ids: string[] }>('get_user_option_alerts', { token, server: 'market' })).body.option_chain_ids).toEqual([]);
    await open();
    expect(await alert.isChecked()).toBe(false);
  });
});
