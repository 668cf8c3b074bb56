/**
 * Custom Scans (/dashboard/scans, issue 26) on the pinned market (MARKET_DATA=file): the builder and
 * the formula round-trip, a run's table is the API's answer for the same request, a saved scan is
 * listed after a reload, a run as of a past session, and axe in light, dark and at phone width.
 */
import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListScansResponse, RunScanRequest, RunScanResponse } from '@signalboard/core';
import { blocking, describeFindings, runAxe } from './support/axe';
import { api, newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

let page: Page;
let token: string;
const session = useBrowserPage(
  async (context) => {
    ({ token } = await signedInUser(context, 'scans', { server: 'market' }));
  },
  { server: 'market' },
);
beforeEach(() => {
  page = session.page;
});

const group = (name: string, target: Page = page) => target.getByRole('group', { name, exact: true });
const preview = (target: Page = page) => target.getByTestId('builder-formula');
const formulaBox = (target: Page = page) => target.getByRole('textbox', { name: 'Formula' });
const tab = (name: 'Builder' | 'Formula', target: Page = page) => target.getByRole('tab', { name, exact: true });
const table = (target: Page = page) => target.getByRole('table', { name: 'Matching symbols' });

async function openScans(target: Page = page) {
  await target.goto('/dashboard/scans');
  await target.getByRole('heading', { name: 'Custom Scans', level: 1 }).waitFor();
  await group('All of (AND), condition 1', target).waitFor();
}

/** Picks an option of a Select (by its label) inside `container`. */
async function choose(container: Locator | Page, label: string, option: string, target: Page = page) {
  await container.getByRole('combobox', { name: label, exact: true }).click();
  await target.getByRole('option', { name: option, exact: true }).click();
}

async function useFormula(text: string, target: Page = page) {
  await tab('Formula', target).click();
  await formulaBox(target).fill(text);
}

const matchesText = (answer: Pick<RunScanResponse, 'matches' | 'universe_size'>) =>
  `${answer.matches} ${answer.matches === 1 ? 'match' : 'matches'} of ${answer.universe_size} ${answer.universe_size === 1 ? 'symbol' : 'symbols'}`;

/** Presses Run scan and answers the request the page sent, the server's answer, once the screen shows it. */
async function run(target: Page = page): Promise<{ body: RunScanRequest; answer: RunScanResponse }> {
  const [response] = await Promise.all([
    target.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/scans/run' && candidate.request().method() === 'POST'),
    target.getByRole('button', { name: 'Run scan' }).click(),
  ]);
  const answer = (await response.json()) as RunScanResponse;
  expect(response.status(), JSON.stringify(answer)).toBe(200);
  await target.getByText(matchesText(answer), { exact: true }).waitFor();
  return { body: response.request().postDataJSON() as RunScanRequest, answer };
}

/** The table as text: its headers, then each row's cells. */
async function tableText(target: Page = page): Promise<{ headers: string[]; rows: string[][] }> {
  return table(target).evaluate((element) => ({
    headers: Array.from(element.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? ''),
    rows: Array.from(element.querySelectorAll('tbody tr'), (tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent?.trim() ?? '')),
  }));
}

/** A number as the table writes it ('1,234.50', '−1.25%', '1.53×', '+3'), or null for N/A. */
const shownNumber = (text: string) => (text === 'N/A' ? null : Number(text.replace(/\u2212/g, '-').replace(/[,%×$+]/g, '')));

/** Every cell of the table equals the answer's row, in the answer's order (numbers to their shown decimals). */
function expectTableIs(shown: { headers: string[]; rows: string[][] }, answer: RunScanResponse, symbols = answer.rows.map((row) => row.symbol)) {
  expect(shown.headers).toEqual(['Symbol', 'Name', 'Price', 'Change %', ...answer.columns.map((column) => column.label)]);
  expect(shown.rows.map((row) => row[0])).toEqual(symbols);
  for (const cells of shown.rows) {
    const row = answer.rows.find((candidate) => candidate.symbol === cells[0])!;
    expect(cells[1]).toBe(row.name);
    const numbers: Array<number | string | null> = [row.price, row.change_pct, ...row.values];
    numbers.forEach((value, index) => {
      const cell = cells[index + 2]!;
      if (value === null) expect(cell).toBe('N/A');
      else if (typeof value === 'string') expect(cell).toBe(value);
      else expect(Math.abs(shownNumber(cell)! - value), `${cells[0]} ${shown.headers[index + 2]}: ${cell} vs ${value}`).toBeLessThanOrEqual(0.0051);
    });
  }
}

describe('Custom Scans (/dashboard/scans)', () => {
  it('builds a scan with the builder, shows its formula, and a typed formula comes back as rows', async () => {
    await openScans();
    expect(await page.title()).toBe('Custom Scans · Signalboard');
    const first = group('All of (AND), condition 1');
    expect(await first.getByRole('combobox', { name: 'Field', exact: true }).inputValue()).toBe('RSI');
    expect(await preview().innerText()).toBe('rsi(14) < 30');
    await first.getByLabel('Value', { exact: true }).fill('70');
    await page.getByRole('button', { name: 'Add condition to All of (AND)' }).click();
    const second = group('All of (AND), condition 2');
    await choose(second, 'Field', 'Price');
    await choose(second, 'Compare with', 'another field');
    await choose(second, 'Other field', 'SMA');
    await second.getByLabel("Other field's period", { exact: true }).fill('20');
    await expect.poll(() => preview().innerText()).toBe('rsi(14) < 70 and close > sma(20)');

    await tab('Formula').click();
    expect(await formulaBox().inputValue()).toBe('rsi(14) < 70 and close > sma(20)');
    await formulaBox().fill('rsi(14) < 40 and rsx > 1');
    await page.getByText('Unknown field "rsx" at position 17 (did you mean rsi?)', { exact: true }).waitFor();
    expect(await tab('Builder').isDisabled()).toBe(true);
    await screenshot(page, 'custom-scans-formula-error');
    await formulaBox().fill('close > 5 and (rsi(14) < 40 or rvol >= 1.2) and not sector = "Energy"');
    await page.getByText('Shown as 4 conditions in the builder.', { exact: true }).waitFor();
    await tab('Builder').click();
    expect(await group('All of (AND), condition 1').getByRole('combobox', { name: 'Field', exact: true }).inputValue()).toBe('Price');
    expect(await group('Any of (OR), condition 1').getByRole('combobox', { name: 'Field', exact: true }).inputValue()).toBe('RSI');
    const rvol = group('Any of (OR), condition 2');
    expect(await rvol.getByRole('combobox', { name: 'Field', exact: true }).inputValue()).toBe('Relative volume');
    expect(await rvol.getByLabel('Value', { exact: true }).inputValue()).toBe('1.2');
    const sector = group('None of (NOT), condition 1');
    expect(await sector.getByRole('combobox', { name: 'Field', exact: true }).inputValue()).toBe('Sector');
    expect(await sector.getByLabel('Value', { exact: true }).inputValue()).toBe('Energy');
    expect(await group('All of (AND), condition 2').count()).toBe(0);
    expect(await preview().innerText()).toBe('close > 5 and (rsi(14) < 40 or rvol >= 1.2) and not sector = "Energy"');

    await useFormula('(rsi(14) < 40 or rvol >= 1.2) and (close > 5 or gap_pct < -2)');
    await page.getByText('This formula is edited as text: its nesting does not fit the three groups.', { exact: true }).waitFor();
    expect(await tab('Builder').isDisabled()).toBe(true);
    await screenshot(page, 'custom-scans-formula-nested');
  });

  it("runs a scan: the table is the API's answer for the same request, sortable, and exported as CSV", async () => {
    await openScans();
    await useFormula('rsi(14) < 50');
    const { body, answer } = await run();
    expect(body).toEqual({ universe: 'sp500', formula: 'rsi(14) < 50' });
    const again = await api<RunScanResponse>('scans/run', { token, json: body, server: 'market' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(answer);
    expect(answer.rows.length).toBeGreaterThan(1);
    expectTableIs(await tableText(), answer);
    await page.getByText(`as of Nov 20, 2026 · source ${answer.source}`, { exact: true }).waitFor();

    // The symbols without bars, named on request.
    expect(answer.missing.length).toBeGreaterThan(0);
    await page.getByText(`${answer.missing.length} symbols have no daily bars and were not scanned`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Show symbols' }).click();
    await page.getByText(answer.missing.join(', '), { exact: true }).waitFor();

    // Sorted by price, up then down.
    const priceHeader = table().getByRole('columnheader', { name: 'Price' });
    await priceHeader.getByRole('button').click();
    await expect.poll(() => priceHeader.getAttribute('aria-sort')).toBe('ascending');
    const byPrice = [...answer.rows].sort((a, b) => a.price! - b.price!).map((row) => row.symbol);
    expectTableIs(await tableText(), answer, byPrice);
    await priceHeader.getByRole('button').click();
    await expect.poll(() => priceHeader.getAttribute('aria-sort')).toBe('descending');
    expectTableIs(await tableText(), answer, [...byPrice].reverse());
    await screenshot(page, 'custom-scans-results');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe('custom-scan-sp500-2026-11-20.csv');
    const lines = (await fs.readFile((await download.path())!, 'utf8')).split('\r\n');
    expect(lines[0]).toBe(['Symbol', 'Name', 'Price', 'Change %', ...answer.columns.map((column) => column.label)].join(','));
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual([...byPrice].reverse());
    expect(lines.at(-1)).toBe('');
  });

  it('saves a scan; after a reload it is listed and opens; duplicate, rename and delete', async () => {
    const name = 'Crypto dip';
    await openScans();
    await choose(page, 'Universe', 'Crypto');
    await group('All of (AND), condition 1').getByLabel('Value', { exact: true }).fill('50');
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Saved "${name}".`, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();

    await page.reload();
    const saved = page.getByRole('list', { name: 'Saved scans' });
    await saved.getByRole('listitem', { name }).waitFor();
    const listed = await api<ListScansResponse>('scans', { token, server: 'market' });
    expect(listed.body.scans.map((scan) => [scan.name, scan.universe, scan.formula])).toEqual([[name, 'crypto', 'rsi(14) < 50']]);
    await saved.getByRole('button', { name: `Open ${name}` }).click();
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(name);
    expect(await page.getByRole('combobox', { name: 'Universe', exact: true }).inputValue()).toBe('Crypto');
    expect(await preview().innerText()).toBe('rsi(14) < 50');

    await saved.getByRole('button', { name: `Duplicate ${name}` }).click();
    await saved.getByRole('listitem', { name: `${name} (copy)` }).waitFor();
    await saved.getByRole('button', { name: `Rename ${name} (copy)` }).click();
    const rename = page.getByRole('dialog', { name: 'Rename the scan' });
    await rename.getByRole('textbox', { name: 'New name' }).fill(`${name} weekly`);
    await rename.getByRole('button', { name: 'Rename' }).click();
    await saved.getByRole('listitem', { name: `${name} weekly` }).waitFor();
    await saved.getByRole('button', { name: `Delete ${name} weekly` }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText(`Delete the scan “${name} weekly”? This cannot be undone.`).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => saved.getByRole('listitem').count()).toBe(1);
    await page.getByText('1 of 50', { exact: true }).waitFor();
  });

  it('runs as of a past date with the bars known then, and says when nothing matches', async () => {
    await openScans();
    await useFormula('rsi(14) < 50');
    await page.getByLabel('Run as of (optional)').fill('2026-10-17');
    const { body, answer } = await run();
    expect(body).toEqual({ universe: 'sp500', formula: 'rsi(14) < 50', as_of: '2026-10-17' });
    // A Saturday: the session on or before it.
    expect(answer.as_of).toBe('2026-10-16');
    await page.getByText(`as of Oct 16, 2026 · source ${answer.source}`, { exact: true }).waitFor();
    const again = await api<RunScanResponse>('scans/run', { token, json: body, server: 'market' });
    expect(again.body).toEqual(answer);
    if (answer.rows.length > 0) expectTableIs(await tableText(), answer);

    await formulaBox().fill('rsi(14) < 1');
    await run();
    await page.getByText('No symbol matches these conditions as of Oct 16, 2026.', { exact: true }).waitFor();
    expect(await table().count()).toBe(0);
  });
});

const SCHEMES = {
  light: { colorScheme: 'light', width: 1366, height: 860 },
  dark: { colorScheme: 'dark', width: 1366, height: 860 },
  phone: { colorScheme: 'light', width: 390, height: 844 },
} as const;

describe('Custom Scans: axe', () => {
  it.each(Object.keys(SCHEMES) as Array<keyof typeof SCHEMES>)('%s: no serious or critical violation, loaded, in formula mode and with results', async (scheme) => {
    const context = await newContext(session.browser, { ...SCHEMES[scheme], server: 'market' });
    try {
      await signedInUser(context, `scans-a11y-${scheme}`, { server: 'market' });
      const target = await context.newPage();
      await openScans(target);
      const failures: string[] = [];
      const audit = async (state: string) => {
        const fatal = blocking(await runAxe(target));
        if (fatal.length > 0) failures.push(`${scheme}, ${state}:\n${describeFindings(fatal)}`);
      };
      await target.getByRole('list', { name: 'Starter scans' }).waitFor();
      await audit('loaded');
      // The builder with a row of each kind: a number, a cross against another field, a text list.
      await target.getByRole('button', { name: 'Add condition to Any of (OR)' }).click();
      const cross = group('Any of (OR), condition 1', target);
      await choose(cross, 'Operator', 'crosses above', target);
      await choose(cross, 'Compare with', 'another field', target);
      await target.getByRole('button', { name: 'Add condition to None of (NOT)' }).click();
      const text = group('None of (NOT), condition 1', target);
      await choose(text, 'Field', 'Sector', target);
      await choose(text, 'Operator', 'in list', target);
      await text.getByLabel('Values (separated by commas)', { exact: true }).fill('Utilities, Energy');
      await target.getByRole('button', { name: 'Add condition to All of (AND)' }).click();
      await target.getByRole('button', { name: 'Run scan' }).click();
      await target.getByText('1 condition is not complete: see the rows marked in red.', { exact: true }).waitFor();
      await audit('builder with an incomplete row');
      await target.evaluate(() => window.scrollTo(0, 0));
      await screenshot(target, `custom-scans-${scheme}-builder`);
      await useFormula('rsi(14) < 50 and rsx > 1', target);
      await target.getByText('Unknown field "rsx" at position 17 (did you mean rsi?)', { exact: true }).waitFor();
      await audit('formula with a mistake');
      await formulaBox(target).fill('rsi(14) < 50');
      await run(target);
      await (scheme === 'phone' ? target.getByRole('list', { name: 'Matching symbols' }) : table(target)).waitFor();
      await audit('results');
      await target.evaluate(() => window.scrollTo(0, 0));
      await screenshot(target, `custom-scans-${scheme}`);
      expect(failures.join('\n\n'), 'serious or critical axe violations').toBe('');
    } finally {
      await context.close();
    }
  });
});
