import fs from 'node:fs/promises';
import type { LayeredTrade, TrackRecord } from '@signalboard/core';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';
import { apiGet, cardSymbols, cardText, IDEAS_TIME_ZONE, normalise, percent, wilson, waitForMarkedIdeas } from './support/trade-ideas';

// The pinned market (e2e/fixtures/market/trade-ideas.ts), replayed by the layered engine at the
// server's first start and marked at the pinned "now" (Friday 2026-11-20, 11:00 in New York). The
// browser runs in Tokyo (UTC+9), so every 16:30 New York pass is the next morning there: the date
// filter's "through 23:59:59 of the To Date, in the browser's time zone" is told apart from UTC.
//
// Each plan as the engine decided it (docs/rules/long-term.md §1), newest first, with the card's figures:
//   symbol  status      created (Tokyo)          entry   current  profit   entries  exits
const PLANS = {
  MMM: { status: 'Active', created: 'Nov 20, 2026, 6:30 AM', entry: '223.27', current: '223.50', profit: '0.00%', entries: '0/5', exits: '0/5' },
  HON: { status: 'Active', created: 'Oct 29, 2026, 5:30 AM', entry: '261.58', current: '263.14', profit: '+0.60%', entries: '1/5', exits: '0/5' },
  ETN: { status: 'Active', created: 'Jul 22, 2026, 5:30 AM', entry: '385.32', current: '421.68', profit: '+8.46%', entries: '1/1', exits: '2/5' },
  UNP: { status: 'Active', created: 'Jun 30, 2026, 5:30 AM', entry: '289.17', current: '327.79', profit: '+9.00%', entries: '1/1', exits: '4/5' },
  DE: { status: 'Failed', created: 'May 8, 2026, 5:30 AM', entry: '437.04', current: '348.16', profit: '−14.19%', entries: '5/5', exits: '0/5' },
  CAT: { status: 'Successful', created: 'Apr 10, 2026, 5:30 AM', entry: '318.10', current: '378.52', profit: '+10.30%', entries: '1/1', exits: '5/5' },
} as const;
type Symbol = keyof typeof PLANS;
const ACTIVE: Symbol[] = ['MMM', 'HON', 'ETN', 'UNP'];

let page: Page;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'long-term', { server: 'market' });
  },
  { server: 'market', timezoneId: IDEAS_TIME_ZONE },
);
beforeEach(() => {
  page = session.page;
});

const plans = () => page.getByRole('list', { name: 'Layered plans' });
const shown = () => cardSymbols(plans());
const open = async () => {
  await page.goto('/dashboard/allstockscanner');
  await page.getByRole('heading', { name: 'Stock Layered Entry & Exit Plan', level: 1 }).waitFor();
  await expect.poll(shown).toEqual(ACTIVE);
};
const tick = (name: string) => page.getByRole('checkbox', { name, exact: true });

describe('Long Term Scanner (Stock Layered Entry & Exit Plan)', () => {
  beforeAll(async () => {
    // The replay runs in the background at the server's start and the marks follow on the next tick:
    // the screens are checked once the active plans carry the pinned "now"'s marks.
    await waitForMarkedIdeas('all_stocks_scanner');
  }, 180_000);

  it('lists the active plans newest first, each card with every field the spec names', async () => {
    await open();
    expect(await page.title()).toBe('Stock Layered Entry & Exit Plan · Signalboard');
    await page.getByText('Buy in layers with limit orders').waitFor();
    expect(await tick('Active').isChecked()).toBe(true);
    expect(await tick('Successful').isChecked()).toBe(false);
    expect(await tick('Failed').isChecked()).toBe(false);

    for (const symbol of ACTIVE) {
      const plan = PLANS[symbol];
      const text = await cardText(plans(), symbol);
      // Badges read in capitals (their style), as a person sees them.
      expect(text).toContain(`${symbol} ${symbol === 'MMM' ? 'NEW ' : ''}ACTIVE REPLAYED`);
      expect(text).toContain(`Current profit ${plan.profit}`);
      expect(text).toContain(`Entry price${symbol === 'MMM' ? ' (signal close)' : ''} ${plan.entry}`);
      expect(text).toContain(`Current price ${plan.current}`);
      expect(text).toContain(`Entries hit ${plan.entries}`);
      expect(text).toContain(`Exits hit ${plan.exits}`);
      expect(text).toContain(`Created ${plan.created}`);
      expect(text).toContain('Updated Nov 21, 2026, 1:00 AM');
    }
    // MMM's signal bar is the last complete session: NEW, and its entry (the next open) still pending.
    expect(await cardText(plans(), 'MMM')).toContain('MMM NEW ACTIVE REPLAYED PENDING ENTRY');
    expect(await cardText(plans(), 'HON')).not.toContain('NEW');

    // The cards show what the API answers, field for field.
    const rows = await apiGet<LayeredTrade[]>('all_stocks_scanner?status=active');
    expect(rows.map((row) => row.Symbol)).toEqual(ACTIVE);
    for (const row of rows) {
      const text = await cardText(plans(), row.Symbol);
      expect(text).toContain(`Potential profit ${percent(row.PotentialProfit / 100)}`);
      expect(text).toContain(`Exit price ${row.latestExitLevel.toFixed(2)}`);
      expect(text).toContain(`30-day high at creation ${row.ThirtyDayHigh.toFixed(2)}`);
    }
    await page.getByText('4 plans', { exact: true }).waitFor();
    await screenshot(page, 'long-term-scanner');
  });

  it('filters by status, symbol and dates (through 23:59:59 of the To Date in the browser’s zone)', async () => {
    await open();
    await tick('Successful').check();
    await expect.poll(shown).toEqual([...ACTIVE, 'CAT']);
    await tick('Failed').check();
    await expect.poll(shown).toEqual([...ACTIVE, 'DE', 'CAT']);
    await tick('Active').uncheck();
    await expect.poll(shown).toEqual(['DE', 'CAT']);
    expect(await cardText(plans(), 'DE')).toContain('DE FAILED REPLAYED');
    expect(await cardText(plans(), 'DE')).toContain('Closed stop · Jun 6, 2026, 5:30 AM');
    expect(await cardText(plans(), 'CAT')).toContain('CAT SUCCESSFUL REPLAYED');
    expect(await cardText(plans(), 'CAT')).toContain('Closed target · May 8, 2026, 5:30 AM');
    for (const symbol of ['DE', 'CAT'] as const) {
      const text = await cardText(plans(), symbol);
      for (const [label, value] of [['Current profit', PLANS[symbol].profit], ['Entry price', PLANS[symbol].entry], ['Current price', PLANS[symbol].current], ['Entries hit', PLANS[symbol].entries], ['Exits hit', PLANS[symbol].exits], ['Created', PLANS[symbol].created]]) {
        expect(text).toContain(`${label} ${value}`);
      }
    }
    await tick('Active').check();

    // Symbol: case-insensitive "contains".
    const search = page.getByRole('textbox', { name: 'Search by Symbol' });
    await search.fill('e');
    await expect.poll(shown).toEqual(['ETN', 'DE']);
    await search.fill('De');
    await expect.poll(shown).toEqual(['DE']);
    await search.fill('');
    await expect.poll(shown).toEqual([...ACTIVE, 'DE', 'CAT']);

    // Dates, in Tokyo: UNP was created at 05:30 on Jun 30 there (Jun 29 in UTC and New York).
    await page.getByLabel('From Date').fill('2026-05-08');
    await page.getByLabel('To Date').fill('2026-06-30');
    await expect.poll(shown).toEqual(['UNP', 'DE']);
    await page.getByLabel('To Date').fill('2026-06-29');
    await expect.poll(shown).toEqual(['DE']);
    await page.getByLabel('From Date').fill('2026-05-09');
    await page.getByText('No trades match the selected filters.').waitFor();
    expect(await plans().count()).toBe(0);
    await screenshot(page, 'long-term-scanner-empty');
  });

  it('shows and hides a plan: each level with its price, allocation and reached mark', async () => {
    await open();
    await tick('Successful').check();
    await expect.poll(shown).toEqual([...ACTIVE, 'CAT']);
    const [cat] = (await apiGet<LayeredTrade[]>('all_stocks_scanner?status=successful')).filter((row) => row.Symbol === 'CAT');
    const card = plans().getByRole('article', { name: 'CAT' });
    const toggle = card.getByRole('button', { name: 'Show Plan' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const entry = card.getByRole('table', { name: 'Entry plan' });
    const exit = card.getByRole('table', { name: 'Exit plan' });
    // The first exit locked the plan: the four unfilled entries were cancelled, ENL1 holds it all.
    await expect.poll(async () => (await entry.getByRole('row').allInnerTexts()).map(normalise)).toEqual(['Level Price Allocation Reached', 'ENL1 318.10 100.0% Reached']);
    expect((await exit.getByRole('row').allInnerTexts()).map(normalise)).toEqual([
      'Level Price Allocation Reached',
      ...[1, 2, 3, 4, 5].map((n) => `EXL${n} ${(cat![`EXL${n}`] as number).toFixed(2)} 20.0% Reached`),
    ]);
    expect(await card.getByRole('button', { name: 'Hide Plan' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'long-term-scanner-plan');
    await card.getByRole('button', { name: 'Hide Plan' }).click();
    await expect.poll(() => entry.count()).toBe(0);

    // An active plan still waiting on four entry levels: every defined level, lowest first, 20% each.
    const [honRow] = (await apiGet<LayeredTrade[]>('all_stocks_scanner?symbol=HON'));
    const hon = plans().getByRole('article', { name: 'HON' });
    await hon.getByRole('button', { name: 'Show Plan' }).click();
    await expect
      .poll(async () => (await hon.getByRole('table', { name: 'Entry plan' }).getByRole('row').allInnerTexts()).map(normalise))
      .toEqual(['Level Price Allocation Reached', ...[5, 4, 3, 2, 1].map((n) => `ENL${n} ${(honRow![`ENL${n}`] as number).toFixed(2)} 20.0% ${n === 1 ? 'Reached' : 'Not reached'}`)]);
  });

  it('keeps a track record for the dates and symbol in force, recomputed here from the closed plans', async () => {
    await open();
    const record = page.getByRole('region', { name: 'Track record' });
    await record.getByText("Survivorship: today's members").waitFor();
    const group = record.getByRole('button', { name: /^All · Replayed · layered@1\.0\.0/ });
    await group.waitFor();

    // Dollar-weighted and net of 5 bps a side: what the sales brought in, less their costs, against
    // what the buys cost with theirs (docs/rules/track-record.md §6.1), from the plans' own dollars.
    const closed = (await apiGet<LayeredTrade[]>('all_stocks_scanner?status=successful,failed')).filter((row) => !row.IsActive);
    expect(closed.map((row) => row.Symbol).sort()).toEqual(['CAT', 'DE']);
    const returns = closed.map((row) => (row.Proceeds * (1 - 0.0005)) / (row.CapitalDeployed * (1 + 0.0005)) - 1);
    const wins = returns.filter((value) => value > 0).length;
    const interval = wilson(wins, returns.length);
    const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
    const summary = normalise(await group.innerText());
    // Two years of history minus the warm-up leaves no layered cohort past its 504-session hold.
    expect(summary).toContain('Mature cohorts: no mature cohort yet');
    expect(summary).toContain(`All closed so far: 2 closed, win rate ${interval.rate} (${interval.low}–${interval.high}), mean ${percent(mean)}`);

    // The status checkboxes do not change it; the symbol filter does.
    await tick('Failed').check();
    await expect.poll(shown).toEqual([...ACTIVE, 'DE']);
    expect(normalise(await group.innerText())).toBe(summary);
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('de');
    await expect.poll(async () => normalise(await group.innerText())).toContain(`All closed so far: 1 closed, win rate 0.0% (${wilson(0, 1).low}–${wilson(0, 1).high}), mean ${percent(returns[closed.findIndex((row) => row.Symbol === 'DE')]!)}`);

    // Opened: the figures beside the random-entry baseline and SPY, as the API computed them.
    await group.click();
    const table = record.getByRole('table').first();
    await table.waitFor();
    const api = await apiGet<TrackRecord>('trade_ideas/layered/track_record?symbol=de');
    const all = api.groups.find((entry) => entry.type === 'All' && entry.origin === 'replayed')!;
    const text = normalise(await table.innerText());
    expect(text).toContain('N closed');
    expect(text).toContain(`Dollar-weighted`);
    expect(all.baseline).not.toBeNull();
    expect(all.benchmark?.symbol).toBe('SPY');
    await screenshot(page, 'long-term-scanner-record');
  });

  it('opens an idea: its chart and its event log', async () => {
    await open();
    await tick('Successful').check();
    await plans().getByRole('button', { name: 'Details of CAT' }).click();
    const dialog = page.getByRole('dialog', { name: 'CAT · idea detail' });
    await dialog.getByRole('img', { name: "CAT daily candles with the idea's levels and events" }).waitFor();
    const [cat] = (await apiGet<LayeredTrade[]>('all_stocks_scanner?status=successful')).filter((row) => row.Symbol === 'CAT');
    const detail = await apiGet<{ events: Array<{ type: string; level: string; barDate: string; price: number | null }> }>(`trade_ideas/layered/${encodeURIComponent(cat!.Id)}`);
    // The plan's whole life: the signal, the market entry, the lock at the first exit, five exits.
    expect(detail.events.map((event) => `${event.barDate} ${event.type} ${event.level}`.trim())).toEqual([
      '2026-04-09 opened',
      '2026-04-10 entry_filled ENL1',
      '2026-04-17 levels_cancelled',
      '2026-04-17 level_hit EXL1',
      '2026-04-22 level_hit EXL2',
      '2026-04-24 level_hit EXL3',
      '2026-04-29 level_hit EXL4',
      '2026-05-07 level_hit EXL5',
      '2026-05-07 closed',
    ]);
    const label: Record<string, string> = { opened: 'Signal', entry_filled: 'Entry filled', levels_cancelled: 'Levels cancelled', level_hit: 'Level hit', closed: 'Closed' };
    const log = dialog.getByRole('region', { name: 'Event log' });
    await expect
      .poll(async () => (await log.getByRole('row').allInnerTexts()).map(normalise).map((row) => row.split(' Replayed ')[0]))
      .toEqual([
        'Session Event Level Price Origin Recorded',
        ...detail.events.map((event) => `${event.barDate} ${label[event.type]} ${event.level || '—'} ${event.price === null ? '—' : event.price.toFixed(2)}`),
      ]);
    // The levels drawn on the chart, as text: the four cancelled entries are gone.
    expect(normalise(await dialog.getByRole('region', { name: 'Levels' }).innerText())).toBe(
      `Levels Entry: ${cat!.OriginalEntryPrice.toFixed(2)} ${[1, 2, 3, 4, 5].map((n) => `EXL${n}: ${(cat![`EXL${n}`] as number).toFixed(2)}`).join(' ')} Stop: ${cat!.StopPrice.toFixed(2)} 30-day high at creation: ${cat!.ThirtyDayHigh.toFixed(2)}`,
    );
    await screenshot(page, 'long-term-scanner-detail');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('exports the filtered plans as CSV', async () => {
    await open();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const lines = (await fs.readFile((await (await download).path())!, 'utf8')).trim().split(/\r?\n/);
    expect(lines[0]!.startsWith('Symbol,Status,Origin')).toBe(true);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(ACTIVE);
  });
});
