/**
 * Custom Scans (/dashboard/scans, issue 26) on the pinned market (MARKET_DATA=file): the builder and
 * the formula round-trip, a run's table is the API's answer for the same request, a saved scan is
 * listed after a reload, a run as of a past session and a row's Details chart, a saved scan's backtest (progress, its tables
 * against the API's, shown again on reopening; cancelled), and axe in light, dark and at phone width.
 */
import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { CSV_BOM, marketSourceLabel, parseCsv, type ListScansResponse, type RunScanRequest, type RunScanResponse, type SaveScanResponse, type ScanBacktestResponse, type ScanChartResponse } from '@signalboard/core';
import { blocking, describeFindings, runAxe } from './support/axe';
import { api, newContext, screenshot, serverBaseUrl, signedInUser, useBrowserPage } from './support/browser';

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
  expect(shown.headers).toEqual(['Symbol', 'Name', 'Price', 'Change %', ...answer.columns.map((column) => column.label), 'Chart']);
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
    await page.getByText(`as of Nov 20, 2026 · source ${marketSourceLabel(answer.source)}`, { exact: true }).waitFor();

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
    const text = await fs.readFile((await download.path())!, 'utf8');
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const records = parseCsv(text).map((record) => record.fields);
    // The last column says whether a row's figures come from an imported price file (none here).
    expect(records[0]).toEqual(['Symbol', 'Name', 'Price', 'Change %', ...answer.columns.map((column) => column.label), 'Imported prices']);
    expect(records.slice(1).map((fields) => fields[0])).toEqual([...byPrice].reverse());
    expect(new Set(records.slice(1).map((fields) => fields.at(-1)))).toEqual(new Set(['no']));
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
    await page.getByText(`as of Oct 16, 2026 · source ${marketSourceLabel(answer.source)}`, { exact: true }).waitFor();
    const again = await api<RunScanResponse>('scans/run', { token, json: body, server: 'market' });
    expect(again.body).toEqual(answer);
    if (answer.rows.length > 0) expectTableIs(await tableText(), answer);

    await formulaBox().fill('rsi(14) < 1');
    await run();
    await page.getByText('No symbol matches these conditions as of Oct 16, 2026.', { exact: true }).waitFor();
    expect(await table().count()).toBe(0);
  });

  it("opens a row's Details: the chart of its bars through the run's session, with the scan's levels at the row's values", async () => {
    await openScans();
    await useFormula('close > sma(50) and pct_below_high(21) >= 0');
    await page.getByLabel('Run as of (optional)').fill('2026-10-17');
    const { answer } = await run();
    const row = answer.rows[0]!;
    await table().getByRole('button', { name: `Details of ${row.symbol}` }).click();
    const dialog = page.getByRole('dialog', { name: `${row.symbol} · Details` });
    await dialog.getByRole('img', { name: `${row.symbol} daily candles through Oct 16, 2026 with the scan's levels` }).waitFor();
    const bars = await api<ScanChartResponse>(`scans/chart?symbol=${row.symbol}&as_of=2026-10-16`, { token, server: 'market' });
    expect(bars.status).toBe(200);
    expect(bars.body.as_of).toBe('2026-10-16');
    expect(bars.body.bars.at(-1)!.close).toBe(row.price);
    // The columns are close, sma(50), pct_below_high(21): the SMA is the row's value, the high is close / (1 − p / 100).
    const price = (value: number) => value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const levels = dialog.getByRole('region', { name: 'Levels' });
    await levels.getByText(`SMA(50): ${price(row.values[1] as number)}`, { exact: true }).waitFor();
    await levels.getByText(`21-session high: ${price(row.price! / (1 - (row.values[2] as number) / 100))}`, { exact: true }).waitFor();
    const high = Math.max(...bars.body.bars.slice(-21).map((bar) => bar.high));
    expect(Math.abs(row.price! / (1 - (row.values[2] as number) / 100) - high)).toBeLessThan(1e-6);
    await screenshot(page, 'custom-scans-details');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});

const backtestPanel = (target: Page = page) => target.getByRole('region', { name: 'Would this have worked?' });

/** A call to the saved scan's backtest (POST starts, GET reads, DELETE cancels). */
const backtestCall = (method: string, id: number) => (response: { url(): string; request(): { method(): string } }) =>
  new URL(response.url()).pathname === `/api/scans/${id}/backtest` && response.request().method() === method;

/** Types the formula and the name, presses Save and answers the scan the server saved. */
async function saveScan(name: string, formula: string, target: Page = page) {
  await useFormula(formula, target);
  await target.getByRole('textbox', { name: 'Name' }).fill(name);
  const [response] = await Promise.all([
    target.waitForResponse((candidate) => new URL(candidate.url()).pathname === '/api/scans' && candidate.request().method() === 'POST'),
    target.getByRole('button', { name: 'Save', exact: true }).click(),
  ]);
  const answer = (await response.json()) as SaveScanResponse;
  expect(response.status(), JSON.stringify(answer)).toBe(200);
  return answer.scan;
}

/** The verdict the screen must write, from the API's two intervals: above, below, or overlapping. */
function expectedVerdict({ scan, random }: NonNullable<ScanBacktestResponse['result']>['horizons'][number]): string {
  if (scan.n === 0 || random.n === 0 || scan.mean_low === null || scan.mean_high === null || random.mean_low === null || random.mean_high === null) return 'No mature entries to judge yet';
  if (scan.mean_low > random.mean_high) return 'Beats random entries';
  if (scan.mean_high < random.mean_low) return 'Worse than random entries';
  return 'Not distinguishable from random entries';
}

describe('Custom Scans: backtest ("Would this have worked?")', () => {
  it("runs a saved scan's backtest: progress, then per horizon N and the verdict as the API's; reopened it shows at once; changed, it is of an earlier version", async () => {
    const name = 'Backtest dip';
    await openScans();
    const panel = backtestPanel();
    await panel.getByText('Save the scan to backtest it: a backtest replays a saved scan.', { exact: true }).waitFor();
    const scan = await saveScan(name, 'rsi(14) < 40');
    await panel.getByText('No backtest of this scan yet.', { exact: true }).waitFor();

    const [started] = await Promise.all([page.waitForResponse(backtestCall('POST', scan.id)), panel.getByRole('button', { name: 'Run backtest' }).click()]);
    expect(started.status()).toBe(200);
    expect(((await started.json()) as ScanBacktestResponse).status).toBe('queued');
    // The start's answer (queued) shows until the first read, a second later.
    await panel.getByRole('progressbar', { name: 'Backtest progress' }).waitFor();
    await panel.getByRole('button', { name: 'Cancel backtest' }).waitFor();

    await panel.getByRole('table', { name: 'Returns after 21 sessions' }).waitFor({ timeout: 60_000 });
    const stored = await api<ScanBacktestResponse>(`scans/${scan.id}/backtest`, { token, server: 'market' });
    expect(stored.body).toMatchObject({ status: 'done', current: true, error: null });
    const result = stored.body.result!;
    expect(result.horizons.map((horizon) => horizon.horizon)).toEqual([5, 21, 63]);
    expect(result.entries).toBeGreaterThan(0);
    await panel.getByText(`${result.sessions} sessions · ${result.symbols} symbols · ${result.entries} entries`, { exact: false }).waitFor();
    await panel.getByText(result.survivorship, { exact: true }).waitFor();
    for (const horizon of result.horizons) {
      const table = panel.getByRole('table', { name: `Returns after ${horizon.horizon} sessions` });
      const nOf = (row: RegExp) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: row }) }).getByRole('cell').first().innerText();
      expect(await nOf(/^This scan$/)).toBe(String(horizon.scan.n));
      expect(await nOf(/^Random entries/)).toBe(String(horizon.random.n));
      await panel.getByRole('region', { name: `Held ${horizon.horizon} sessions` }).getByText(expectedVerdict(horizon), { exact: true }).waitFor();
    }
    expect(await panel.getByRole('table', { name: 'Worst entries' }).locator('tbody tr').count()).toBe(result.worst.length);
    await panel.getByRole('img', { name: /^Equal-weight entries held 21 sessions/ }).waitFor();
    await screenshot(page, 'custom-scans-backtest');

    // Reopened after a reload: the stored result from one read, nothing started again.
    const starts: string[] = [];
    page.on('request', (request) => void (request.method() === 'POST' && request.url().endsWith('/backtest') && starts.push(request.url())));
    await page.reload();
    await page.getByRole('list', { name: 'Saved scans' }).getByRole('button', { name: `Open ${name}` }).click();
    await panel.getByRole('table', { name: 'Returns after 21 sessions' }).waitFor();
    expect(starts).toEqual([]);

    // New conditions saved: the stored result is of the earlier version, and Run again is offered.
    await useFormula('rsi(14) < 45');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByText('This result is of an earlier version of the scan.', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Run again' }).waitFor();
  });

  it('shows a cancelled backtest as cancelled, and Run again replays it to a result', async () => {
    await openScans();
    const panel = backtestPanel();
    const scan = await saveScan('Backtest cancel', 'change_pct(1) > 0');
    await panel.getByText('No backtest of this scan yet.', { exact: true }).waitFor();
    // The job replays here in 0.1–0.3 s; the cancel goes out as soon as the start is answered, a few ms
    // later. Should the job still win, the scan gets a new version and both go out again.
    const call = (method: 'PUT' | 'DELETE', json?: unknown) =>
      fetch(`${serverBaseUrl('market')}/api/scans/${scan.id}${method === 'DELETE' ? '/backtest' : ''}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      });
    let cancelled = false;
    for (let attempt = 0; attempt < 3 && !cancelled; attempt += 1) {
      if (attempt > 0) expect((await call('PUT', { name: scan.name, universe: scan.universe, formula: `change_pct(1) > ${attempt / 10}` })).status).toBe(200);
      const started = await api<ScanBacktestResponse>(`scans/${scan.id}/backtest`, { token, json: {}, server: 'market' });
      expect(started.body.status).toBe('queued');
      cancelled = (await call('DELETE')).status === 200;
    }
    expect(cancelled, 'a backtest cancelled while it ran').toBe(true);
    const stored = await api<ScanBacktestResponse>(`scans/${scan.id}/backtest`, { token, server: 'market' });
    expect(stored.body).toMatchObject({ status: 'cancelled', result: null });

    await page.reload();
    await page.getByRole('list', { name: 'Saved scans' }).getByRole('button', { name: `Open ${scan.name}` }).click();
    await panel.getByText('Backtest cancelled.', { exact: true }).waitFor();
    const [restarted] = await Promise.all([page.waitForResponse(backtestCall('POST', scan.id)), panel.getByRole('button', { name: 'Run again' }).click()]);
    expect(((await restarted.json()) as ScanBacktestResponse).status).toBe('queued');
    await panel.getByRole('table', { name: 'Returns after 5 sessions' }).waitFor({ timeout: 60_000 });
    expect(await panel.getByText('Backtest cancelled.', { exact: true }).count()).toBe(0);
  });
});

const SCHEMES = {
  light: { colorScheme: 'light', width: 1366, height: 860 },
  dark: { colorScheme: 'dark', width: 1366, height: 860 },
  phone: { colorScheme: 'light', width: 390, height: 844 },
} as const;

describe('Custom Scans: the Custom Scan alert type', () => {
  it('offers the saved scan by name in the Alert System, saves its id, shows it chosen after a reload; axe clean', async () => {
    const name = 'Alert dip';
    await openScans();
    const scan = await saveScan(name, 'rsi(14) < 45');
    await page.goto('/dashboard/alert');
    const alertType = page.getByRole('combobox', { name: 'Alert type' });
    await alertType.selectOption('Custom Scan');
    const box = page.getByRole('group', { name: 'Saved scans' }).getByRole('checkbox', { name, exact: true });
    await box.check();
    await page.getByText('S&P 500 · rsi(14) < 45', { exact: true }).waitFor();
    await page.getByRole('switch', { name: 'E-mail alerts' }).check();
    await page.getByRole('switch', { name: 'Enabled' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const status = page.getByRole('status', { name: 'Alert preferences status' });
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Custom Scan alert preferences saved successfully!');
    const rule = await api<{ data: { stock_symbols: string[]; is_active: boolean } | null }>('get_user_alert_rules', { token, json: { alert_type: 'CUSTOM_SCAN' }, server: 'market' });
    expect(rule.body.data).toMatchObject({ stock_symbols: [String(scan.id)], is_active: true });
    const fatal = blocking(await runAxe(page));
    expect(describeFindings(fatal), 'serious or critical axe violations').toBe('');
    await screenshot(page, 'custom-scans-alert-rule');

    await page.reload();
    await alertType.selectOption('Custom Scan');
    await expect.poll(() => page.getByRole('group', { name: 'Saved scans' }).getByRole('checkbox', { name, exact: true }).isChecked(), { timeout: 15_000 }).toBe(true);
  });
});

describe('Custom Scans: axe', () => {
  it.each(Object.keys(SCHEMES) as Array<keyof typeof SCHEMES>)('%s: no serious or critical violation, loaded, in formula mode, with results and with a backtest', async (scheme) => {
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
      // The scan saved and backtested: the result's tables (cards on a phone), verdicts and chart.
      await target.getByRole('textbox', { name: 'Name' }).fill(`Axe ${scheme}`);
      await target.getByRole('button', { name: 'Save', exact: true }).click();
      const panel = backtestPanel(target);
      await panel.getByRole('button', { name: 'Run backtest' }).click();
      await panel.getByRole(scheme === 'phone' ? 'list' : 'table', { name: 'Returns after 21 sessions' }).waitFor({ timeout: 60_000 });
      await panel.getByRole('img', { name: /^Equal-weight entries held 21 sessions/ }).waitFor();
      await audit('backtest result');
      expect(failures.join('\n\n'), 'serious or critical axe violations').toBe('');
    } finally {
      await context.close();
    }
  });
});
