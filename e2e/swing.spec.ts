import fs from 'node:fs/promises';
import { parseCsv, type SwingTrade, type TrackRecord } from '@signalboard/core';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';
import { apiGet, cardSymbols, cardText, IDEAS_TIME_ZONE, normalise, percent, share, wilson, waitForMarkedIdeas } from './support/trade-ideas';

// The pinned market (e2e/fixtures/market/trade-ideas.ts), replayed by the swing engine at the
// server's first start and marked at the pinned "now" (Friday 2026-11-20, 11:00 in New York); the
// browser runs in Tokyo (UTC+9), where each 16:30 New York pass is the next morning.
//
// Each trade as the engine decided it (docs/rules/swing.md §2), newest first:
//   GE   Trend, near the broken high (Level System too), still open.
//   ETN  Price Drop, the 5 % target then the 21-session time stop: Partial.
//   UNP  Trend, stopped out: Failed.          (UNP and LMT were signalled the same session.)
//   LMT  Price Drop, both targets on the rebound: Successful.
//   DE   Price Drop, stopped out: Failed.
const TRADES = {
  GE: { badges: 'ACTIVE TREND BASED LEVEL SYSTEM BASED REPLAYED', created: 'Nov 6, 2026, 6:30 AM', entry: '205.86', current: '210.43', t1: '216.16', t2: '226.45', profit: '+2.22%' },
  ETN: { badges: 'PARTIAL PRICE DROP BASED REPLAYED', created: 'Jul 18, 2026, 5:30 AM', entry: '380.28', current: '390.27', t1: '399.30', t2: '418.31', profit: '+3.81%' },
  UNP: { badges: 'FAILED TREND BASED REPLAYED', created: 'Jun 18, 2026, 5:30 AM', entry: '297.40', current: '289.17', t1: '312.27', t2: '327.14', profit: '−2.77%' },
  LMT: { badges: 'SUCCESSFUL PRICE DROP BASED REPLAYED', created: 'Jun 18, 2026, 5:30 AM', entry: '479.77', current: '527.75', t1: '503.76', t2: '527.75', profit: '+7.50%' },
  DE: { badges: 'FAILED PRICE DROP BASED REPLAYED', created: 'May 12, 2026, 5:30 AM', entry: '427.47', current: '407.32', t1: '448.85', t2: '470.22', profit: '−4.71%' },
} as const;
type Symbol = keyof typeof TRADES;

let page: Page;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'swing', { server: 'market' });
  },
  { server: 'market', timezoneId: IDEAS_TIME_ZONE },
);
beforeEach(() => {
  page = session.page;
});

const trades = () => page.getByRole('list', { name: 'Short-term trades' });
const shown = () => cardSymbols(trades());
const tick = (name: string) => page.getByRole('checkbox', { name, exact: true });
const open = async () => {
  await page.goto('/dashboard/stockshort');
  await page.getByRole('heading', { name: 'Stock Short-Term Trades', level: 1 }).waitFor();
  await expect.poll(shown).toEqual(['GE']);
};
const CLOSED_BOXES = ['Trend Based Successful', 'Trend Based Failed', 'Price Drop Based Successful', 'Price Drop Based Failed', 'Level Systems Successful', 'Level Systems Failed'];

describe('Swing Trade Scanner (Stock Short-Term Trades)', () => {
  beforeAll(async () => {
    await waitForMarkedIdeas('get_swing_trade_entries');
  }, 180_000);

  it('opens on the active trades, each card with every field the spec names', async () => {
    await open();
    expect(await page.title()).toBe('Stock Short-Term Trades · Signalboard');
    await page.getByText('High-volume stocks held for up to a month').waitFor();
    expect(await tick('Active Trades').isChecked()).toBe(true);
    for (const name of CLOSED_BOXES) expect(await tick(name).isChecked(), name).toBe(false);

    const text = await cardText(trades(), 'GE');
    // A Trend trade near support carries both badges.
    expect(text.startsWith(`GE ${TRADES.GE.badges} Details`)).toBe(true);
    for (const part of ['Entry price 205.86', 'Current price 210.43', '5% target 216.16', '10% target 226.45', 'Profit +2.22%', `Created ${TRADES.GE.created}`, 'Updated Nov 21, 2026, 1:00 AM']) expect(text).toContain(part);
    await page.getByText('1 trade', { exact: true }).waitFor();
    await screenshot(page, 'swing-trade-scanner');
  });

  it('groups closed trades by type: Partial under Successful with its badge, Level Systems by NearSupport', async () => {
    await open();
    await tick('Active Trades').uncheck();
    await page.getByText('No trades match the selected filters.').waitFor();

    await tick('Price Drop Based Successful').check();
    await expect.poll(shown).toEqual(['ETN', 'LMT']);
    await tick('Price Drop Based Failed').check();
    await expect.poll(shown).toEqual(['ETN', 'LMT', 'DE']);
    await tick('Price Drop Based Successful').uncheck();
    await expect.poll(shown).toEqual(['DE']);
    await tick('Price Drop Based Failed').uncheck();

    await tick('Trend Based Failed').check();
    await expect.poll(shown).toEqual(['UNP']);
    await tick('Trend Based Successful').check();
    await expect.poll(shown).toEqual(['UNP']);
    await tick('Trend Based Failed').uncheck();
    await page.getByText('No trades match the selected filters.').waitFor();
    await tick('Trend Based Successful').uncheck();

    // No closed trade was near support: the Level Systems boxes show none; the open GE shows with Active.
    await tick('Level Systems Successful').check();
    await tick('Level Systems Failed').check();
    await page.getByText('No trades match the selected filters.').waitFor();
    await tick('Active Trades').check();
    await expect.poll(shown).toEqual(['GE']);

    for (const name of CLOSED_BOXES) await tick(name).check();
    // Newest first; UNP and LMT were created by the same pass, in the server's order.
    const order = (await apiGet<SwingTrade[]>('get_swing_trade_entries?status=active,successful,partial,failed')).map((row) => row.Symbol);
    expect(order).toEqual(['GE', 'ETN', 'UNP', 'LMT', 'DE']);
    await expect.poll(shown).toEqual(order);
    for (const symbol of order as Symbol[]) {
      const trade = TRADES[symbol];
      const text = await cardText(trades(), symbol);
      expect(text.startsWith(`${symbol} ${trade.badges} Details`), text).toBe(true);
      for (const part of [`Entry price ${trade.entry}`, `Current price ${trade.current}`, `5% target ${trade.t1}`, `10% target ${trade.t2}`, `Profit ${trade.profit}`, `Created ${trade.created}`]) expect(text, symbol).toContain(part);
    }
    expect(await cardText(trades(), 'ETN')).toContain('Closed time · ');
    expect(await cardText(trades(), 'LMT')).toContain('Closed target · ');
    expect(await cardText(trades(), 'DE')).toContain('Closed stop · ');
    await screenshot(page, 'swing-trade-scanner-all');

    // Symbol (case-insensitive contains) and dates (Tokyo days: through 23:59:59 of the To Date).
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('n');
    await expect.poll(shown).toEqual(['ETN', 'UNP']);
    await page.getByRole('textbox', { name: 'Search by Symbol' }).fill('');
    await page.getByLabel('From Date').fill('2026-06-18');
    await page.getByLabel('To Date').fill('2026-07-18');
    await expect.poll(shown).toEqual(['ETN', 'UNP', 'LMT']);
    await page.getByLabel('To Date').fill('2026-07-17');
    await expect.poll(shown).toEqual(['UNP', 'LMT']);
    await page.getByLabel('From Date').fill('2026-06-19');
    await page.getByText('No trades match the selected filters.').waitFor();
  });

  it('asks the server for the ticked boxes: the count is what they select, and Export CSV holds every page', async () => {
    // The screen asks for 500 trades a page; the pinned market has 5, so each list call here is
    // answered 2 a page (the real server, its cursor): the first page of Active and Failed trades,
    // asked as one superset, would hold GE and UNP, and trimming it in the browser showed GE alone.
    const asked: URLSearchParams[] = [];
    await page.route('**/api/get_swing_trade_entries?*', (route) => {
      const url = new URL(route.request().url());
      asked.push(new URLSearchParams(url.searchParams));
      url.searchParams.set('limit', '2');
      return route.continue({ url: url.toString() });
    });
    try {
      expect((await apiGet<SwingTrade[]>('get_swing_trade_entries?status=active,failed&limit=2')).map((row) => row.Symbol)).toEqual(['GE', 'UNP']);
      await open();
      await page.getByText('1 trade', { exact: true }).waitFor();
      // Active Trades and Price Drop Based Failed: GE and DE, all of them, on one page.
      await tick('Price Drop Based Failed').check();
      await expect.poll(shown).toEqual(['GE', 'DE']);
      await page.getByText('2 trades', { exact: true }).waitFor();
      expect(asked.map((params) => params.get('type'))).toContain('trend:active,drop:active,drop:failed');

      // And Price Drop Based Successful: GE, ETN (Partial), LMT and DE, two a page.
      await tick('Price Drop Based Successful').check();
      await expect.poll(shown).toEqual(['GE', 'ETN']);
      await page.getByText('2 trades loaded so far', { exact: true }).waitFor();
      await screenshot(page, 'swing-trade-scanner-filtered');

      // Export CSV before the last page is loaded: every trade the boxes select, none other.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^short-term-trades-\d{4}-\d{2}-\d{2}\.csv$/);
      const lines = (await fs.readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/);
      expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(' '))).toEqual(['GE Active Trend', 'ETN Partial Price Drop', 'LMT Successful Price Drop', 'DE Failed Price Drop']);
      expect(asked.some((params) => params.get('cursor') !== null)).toBe(true);

      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(shown).toEqual(['GE', 'ETN', 'LMT', 'DE']);
      await page.getByText('4 trades', { exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    } finally {
      await page.unroute('**/api/get_swing_trade_entries?*');
    }
  });

  it('keeps a track record per type, recomputed here from the closed trades, and exports the figures on screen as CSV', async () => {
    await open();
    const record = page.getByRole('region', { name: 'Track record' });
    const group = (type: string) => record.getByRole('button', { name: new RegExp(`^${type} · Replayed · swing@1\\.0\\.0`) });
    await group('All').waitFor();

    // The blended return of the two halves, each sold at its target or at the exit fill, net of
    // 5 bps a side (docs/rules/swing.md §2.2, docs/rules/track-record.md §6.1), from the trades' own prices.
    const closed = (await apiGet<SwingTrade[]>('get_swing_trade_entries?status=successful,partial,failed')).filter((row) => !row.IsActive);
    const half = (row: SwingTrade, hit: boolean, target: number) => ((hit ? target : row.ExitPrice!) * (1 - 0.0005)) / (row.EntryPrice * (1 + 0.0005)) - 1;
    const net = (row: SwingTrade) => 0.5 * half(row, row.IsProfit1, row.Target1Price) + 0.5 * half(row, row.IsProfit2, row.Target2Price);
    const summary = (rows: SwingTrade[]) => {
      const returns = rows.map(net);
      const wins = returns.filter((value) => value > 0).length;
      const interval = wilson(wins, rows.length);
      return `${rows.length} closed, win rate ${interval.rate} (${interval.low}–${interval.high}), mean ${percent(returns.reduce((sum, value) => sum + value, 0) / returns.length)}`;
    };
    // Every cohort is past its 21-session hold by November: the mature line holds them all.
    const all = normalise(await group('All').innerText());
    expect(all).toContain(`Mature cohorts: ${summary(closed)}`);
    expect(all).toContain(`All closed so far: ${summary(closed)}`);
    const drops = closed.filter((row) => row.IsDrop);
    expect(normalise(await group('Price Drop').innerText())).toContain(`Mature cohorts: ${summary(drops)}`);
    const trends = closed.filter((row) => !row.IsDrop);
    expect(normalise(await group('Trend').innerText())).toContain(`Mature cohorts: ${summary(trends)}`);

    // The status boxes do not change it; dates do.
    await tick('Price Drop Based Failed').check();
    await expect.poll(shown).toEqual(['GE', 'DE']);
    expect(normalise(await group('All').innerText())).toBe(all);
    await page.getByLabel('From Date').fill('2026-06-01');
    const june = closed.filter((row) => row.DateCreated >= '2026-05-31T15:00:00.000Z');
    await expect.poll(async () => normalise(await group('All').innerText())).toContain(`All closed so far: ${summary(june)}`);

    await group('All').click();
    const api = await apiGet<TrackRecord>('trade_ideas/swing/track_record?from=2026-05-31T15:00:00.000Z');
    const baseline = api.groups.find((entry) => entry.type === 'All')!.baseline!;
    const table = record.getByRole('table').first();
    await table.waitFor();
    const rows = (await table.getByRole('row').allInnerTexts()).map(normalise);
    expect(rows[0]).toContain('Random entry');
    expect(rows.find((row) => row.startsWith('N closed'))).toContain(String(baseline.n));
    await screenshot(page, 'swing-trade-scanner-record');

    // Export track record CSV: every figure of the open table, read back, is the one on screen
    // (written here with this file's own formatters); a cell with no figure shows —.
    const [download] = await Promise.all([page.waitForEvent('download'), record.getByRole('button', { name: 'Export track record CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^short-term-trades-track-record-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await fs.readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const [header, ...figures] = parseCsv(text).map((csvRecord) => csvRecord.fields);
    expect(header).toEqual(['Type', 'Origin', 'Rule version', 'Measure', 'Part', 'Column', 'Value', 'Low (95%)', 'High (95%)', 'Unit', 'Greyed (fewer than 30 closed)']);
    const onScreen = await table.evaluate((element) => {
      const [head, ...body] = Array.from(element.querySelectorAll('tr'));
      const columns = Array.from(head!.querySelectorAll('th')).slice(1).map((th) => th.firstChild!.textContent!);
      return body.map((tr) => ({ measure: tr.querySelector('th')!.textContent!, cells: Array.from(tr.querySelectorAll('td')).map((td, index) => ({ column: columns[index]!, text: td.textContent! })) }));
    });
    const SHARES = /^(Target-hit rate|Win rate|Break-even win rate|Exit reasons|Statuses)/;
    let compared = 0;
    for (const { measure, cells } of onScreen) {
      for (const { column, text: cellText } of cells) {
        const ofCell = figures.filter((row) => row[0] === 'All' && row[1] === 'Replayed' && row[3] === measure && row[5] === column);
        compared += 1;
        if (ofCell.length === 0) {
          expect(cellText, `${measure} · ${column}`).toBe('—');
          continue;
        }
        for (const [, , , , part, , value, low, high, unit] of ofCell) {
          const write = (cell: string) =>
            unit === 'count' ? cell : unit === 'ratio' ? Number(cell).toFixed(2) : unit === 'sessions' ? `${cell} session` : SHARES.test(measure) ? share(Number(cell)) : percent(Number(cell));
          const written = [write(value!), ...(low ? [write(low), write(high!)] : [])];
          if (SHARES.test(measure) && part) written[0] = `${part} ${written[0]}`;
          for (const piece of written) expect(cellText, `${measure} · ${column} · ${part}`).toContain(piece);
        }
      }
    }
    expect(compared).toBeGreaterThan(40);
    // Every group of the record is in the file, numbers as numbers.
    expect(new Set(figures.map((row) => row[0]))).toEqual(new Set(api.groups.map((entry) => entry.type)));
    for (const row of figures) expect(Number.isFinite(Number(row[6])) && row[6] !== '').toBe(true);
  });

  it('opens a trade: its chart with entry, targets and stop, and its event log', async () => {
    await open();
    await tick('Price Drop Based Successful').check();
    await expect.poll(shown).toEqual(['GE', 'ETN', 'LMT']);
    await trades().getByRole('button', { name: 'Details of LMT' }).click();
    const dialog = page.getByRole('dialog', { name: 'LMT · idea detail' });
    await dialog.getByRole('img', { name: "LMT daily candles with the idea's levels and events" }).waitFor();
    const [lmt] = (await apiGet<SwingTrade[]>('get_swing_trade_entries?symbol=LMT&status=successful'));
    expect(normalise(await dialog.getByRole('region', { name: 'Levels' }).innerText())).toBe(
      `Levels Entry: 479.77 Target 5%: 503.76 Target 10%: 527.75 Stop: ${lmt!.StopPrice.toFixed(2)}`,
    );
    const log = dialog.getByRole('region', { name: 'Event log' });
    // The signal, the entry at the next open, both targets on the rebound, closed.
    await expect
      .poll(async () => (await log.getByRole('row').allInnerTexts()).map(normalise).map((row) => row.split(' Replayed ')[0]))
      .toEqual(['Session Event Level Price Origin Recorded', '2026-06-17 Signal — 479.77', '2026-06-18 Entry filled — 479.77', '2026-06-23 Target hit T1 503.76', '2026-06-23 Target hit T2 527.75', '2026-06-23 Closed — 527.75']);
    await screenshot(page, 'swing-trade-scanner-detail');
  });
});
