import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { OPTIONS_CALENDAR_FAVORITES as F } from './fixtures/market/options-calendar';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

// The pinned market (e2e/fixtures/market/options-calendar.ts): "now" is Friday 2026-11-20, so the
// weekly list runs Sunday 15 to Saturday 21 November. NFLX reports that week but is nobody's favourite.
const FAVORITES = [F.GOOGL, F.META, F.TSLA, F.JPM, F.XOM, F.CRM];
const signIn = (context: BrowserContext, label = 'calendar') => signedInUser(context, label, { server: 'market', favorites: FAVORITES }).then(() => undefined);

let page: Page;
const session = useBrowserPage((context) => signIn(context), { server: 'market' });
let requested: Array<{ start_date: string; end_date: string }>;
let logged: string[];
beforeEach(() => {
  page = session.page;
  requested = [];
  logged = [];
  watch(page);
});

function watch(target: Page) {
  target.on('request', (request) => {
    if (request.url().endsWith('/api/earnings_calendar')) requested.push(request.postDataJSON());
  });
  target.on('console', (message) => logged.push(message.text()));
}

const calendar = () => page.getByRole('region', { name: 'Earnings calendar' });
const title = () => calendar().getByRole('heading', { level: 2 });

/** The list view as text: '# Day date' for each day, then one line per event. */
async function listing(target: Page = page): Promise<string[]> {
  const rows = await target.getByRole('region', { name: 'Earnings calendar' }).getByRole('row').allInnerTexts();
  // The list's header row ('Time Event') is only there for screen readers.
  return rows.map((row) => row.replace(/\s+/g, ' ').trim()).filter((row) => row !== 'Time Event');
}

async function openCalendar() {
  await page.goto('/dashboard/calendar');
  await page.getByRole('heading', { name: 'Earnings Calendar', level: 1 }).waitFor();
  await title().waitFor();
}

// Spec §3/§4/§9: '{symbol} Earnings Release', the hour in words beside its icon, then
// 'EPS: actual vs estimate (difference)' and 'Surprise: N%'; META's After Hours release of
// Wednesday 18 shows on Thursday 19.
const WEEK = [
  'Tuesday November 17, 2026',
  'GOOGL Earnings Release Before market open · NASDAQ · United States EPS: 2.10 vs 1.90 (+0.20) Surprise: +10.53%',
  'Thursday November 19, 2026',
  'JPM Earnings Release Before market open · NYSE · United States EPS: 4.35 vs 4.10 (+0.25) Surprise: +6.10%',
  'META Earnings Release After market close · NASDAQ · United States EPS: 5.50 vs 5.80 (\u22120.30) Surprise: \u22125.17%',
  'Friday November 20, 2026',
  'TSLA Earnings Release Time unknown · NASDAQ · United States EPS: N/A vs 0.50 (N/A) Surprise: N/A',
];
const NFLX = 'NFLX Earnings Release Before market open · NASDAQ · United States EPS: 6.20 vs 5.90 (+0.30) Surprise: +5.08%';

describe('Earnings Calendar', () => {
  it("lists this week's releases of the favourites, with icons, EPS and surprise, from one request", async () => {
    await openCalendar();
    expect(await title().innerText()).toBe('Nov 15 – 21, 2026');
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    expect(await listing()).toEqual(WEEK);
    await page.getByText('Showing 4 of 5 earnings releases (your favorites)').waitFor();

    // Each event's time-of-day icon carries its meaning.
    const row = (symbol: string) => calendar().getByRole('row').filter({ hasText: `${symbol} Earnings Release` });
    await row('GOOGL').getByRole('img', { name: 'Before market open' }).waitFor();
    await row('META').getByRole('img', { name: 'After market close' }).waitFor();
    await row('TSLA').getByRole('img', { name: 'Time unknown' }).waitFor();
    expect(await calendar().getByRole('img', { name: 'During market hours' }).count()).toBe(0);

    // The toolbar of the spec: '<' '>' and today on the left, the views on the right.
    for (const name of ['Month View', 'Weekly Events', 'Daily Events', 'Today']) await calendar().getByRole('button', { name, exact: true }).waitFor();
    expect(await calendar().getByRole('button', { name: 'Previous week' }).innerText()).toBe('<');
    expect(await calendar().getByRole('button', { name: 'Next week' }).innerText()).toBe('>');
    expect(await calendar().getByRole('button', { name: 'Weekly Events' }).getAttribute('aria-pressed')).toBe('true');

    // The initial range is fetched once: the calendar's first range notification is ignored.
    await page.waitForTimeout(500);
    expect(requested).toEqual([{ start_date: '2026-11-15', end_date: '2026-11-21' }]);
    await screenshot(page, 'calendar');
  });

  it("shows every company's releases with 'Show all earnings', and only the favourites again without it", async () => {
    await openCalendar();
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    const showAll = page.getByRole('switch', { name: 'Show all earnings' });
    expect(await showAll.isChecked()).toBe(false);
    await showAll.click();
    await calendar().getByText('NFLX Earnings Release').waitFor();
    expect(await listing()).toEqual([...WEEK.slice(0, 2), 'Wednesday November 18, 2026', NFLX, ...WEEK.slice(2)]);
    await page.getByText('Showing all 5 earnings releases').waitFor();
    await screenshot(page, 'calendar-show-all');
    await showAll.click();
    await calendar().getByText('NFLX Earnings Release').waitFor({ state: 'detached' });
    expect(await listing()).toEqual(WEEK);
    // Filtering happens on the fetched rows: no new request.
    expect(requested).toHaveLength(1);
  });

  it('refetches on every range change: next week, an empty week, and back', async () => {
    await openCalendar();
    await calendar().getByText('GOOGL Earnings Release').waitFor();

    await calendar().getByRole('button', { name: 'Next week' }).click();
    await calendar().getByText('XOM Earnings Release').waitFor();
    expect(await title().innerText()).toBe('Nov 22 – 28, 2026');
    // CRM reports after Tuesday's close: shown on Wednesday.
    expect(await listing()).toEqual([
      'Tuesday November 24, 2026',
      'XOM Earnings Release Before market open · NYSE · United States EPS: N/A vs 1.80 (N/A) Surprise: N/A',
      'Wednesday November 25, 2026',
      'CRM Earnings Release After market close · NYSE · United States EPS: N/A vs 2.35 (N/A) Surprise: N/A',
    ]);

    await calendar().getByRole('button', { name: 'Next week' }).click();
    expect(await title().innerText()).toBe('Nov 29 – Dec 5, 2026');
    await page.getByText('No earnings data available.').waitFor();
    await page.getByText('No company reports from Nov 29 to Dec 5.', { exact: false }).waitFor();
    await calendar().getByText('No earnings releases in this period.').waitFor();
    expect(await listing()).toEqual([]);
    expect(logged).toContain('No earnings data available.');
    await screenshot(page, 'calendar-empty-week');

    await calendar().getByRole('button', { name: 'Previous week' }).click();
    await calendar().getByRole('button', { name: 'Previous week' }).click();
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    expect(await listing()).toEqual(WEEK);
    await page.getByText('No earnings data available.').waitFor({ state: 'detached' });

    await calendar().getByRole('button', { name: 'Previous week' }).click();
    expect(await title().innerText()).toBe('Nov 8 – 14, 2026');
    await page.getByText('No earnings data available.').waitFor();

    await calendar().getByRole('button', { name: 'Today' }).click();
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    expect(requested).toEqual([
      { start_date: '2026-11-15', end_date: '2026-11-21' },
      { start_date: '2026-11-22', end_date: '2026-11-28' },
      { start_date: '2026-11-29', end_date: '2026-12-05' },
      { start_date: '2026-11-22', end_date: '2026-11-28' },
      { start_date: '2026-11-15', end_date: '2026-11-21' },
      { start_date: '2026-11-08', end_date: '2026-11-14' },
      { start_date: '2026-11-15', end_date: '2026-11-21' },
    ]);
  });

  it('shows the month in Month View and one day in Daily Events', async () => {
    await openCalendar();
    await calendar().getByText('GOOGL Earnings Release').waitFor();

    await calendar().getByRole('button', { name: 'Month View' }).click();
    expect(await title().innerText()).toBe('November 2026');
    const day = (date: string) => calendar().locator(`td[data-date="${date}"]`);
    await day('2026-11-25').getByText('CRM').waitFor();
    expect((await day('2026-11-17').innerText()).replace(/\s+/g, ' ')).toBe('17 GOOGL EPS: 2.10 vs 1.90 (+0.20) Surprise: +10.53%');
    expect((await day('2026-11-19').innerText()).replace(/\s+/g, ' ')).toBe(
      '19 JPM EPS: 4.35 vs 4.10 (+0.25) Surprise: +6.10% META EPS: 5.50 vs 5.80 (\u22120.30) Surprise: \u22125.17%',
    );
    expect((await day('2026-11-18').innerText()).trim()).toBe('18');
    await day('2026-11-19').getByRole('img', { name: 'After market close' }).waitFor();
    await day('2026-11-24').getByText('XOM').waitFor();
    await calendar().getByRole('button', { name: 'Previous month' }).waitFor();
    expect(requested.at(-1)).toEqual({ start_date: '2026-11-01', end_date: '2026-12-12' });
    await screenshot(page, 'calendar-month');

    await calendar().getByRole('button', { name: 'Daily Events' }).click();
    expect(await title().innerText()).toBe('November 20, 2026');
    await calendar().getByText('TSLA Earnings Release').waitFor();
    expect(await listing()).toEqual(['Friday', WEEK[6]]);
    expect(requested.at(-1)).toEqual({ start_date: '2026-11-20', end_date: '2026-11-20' });
  });

  it('reads well in dark mode and on a phone', async () => {
    for (const [name, options] of [
      ['calendar-dark', { colorScheme: 'dark' as const }],
      ['calendar-phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await newContext(session.browser, { ...options, server: 'market' });
      await signIn(context, name);
      const other = await context.newPage();
      await other.goto('/dashboard/calendar');
      await other.getByRole('region', { name: 'Earnings calendar' }).getByText('GOOGL Earnings Release').waitFor();
      expect(await listing(other)).toEqual(WEEK);
      await screenshot(other, name);
      if (name === 'calendar-dark') {
        await other.getByRole('button', { name: 'Month View' }).click();
        await other.locator('td[data-date="2026-11-25"]').getByText('CRM').waitFor();
        await screenshot(other, 'calendar-month-dark');
      }
      await context.close();
    }
  });

  it('says so, with a retry, when the favourites cannot be loaded (and does not build the calendar)', async () => {
    await page.route('**/api/get_favorite_stocks', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The database is busy.' }) }),
    );
    await page.goto('/dashboard/calendar');
    await page.getByText('Your favorites could not be loaded').waitFor();
    await page.getByText('The database is busy.').waitFor();
    expect(logged.some((line) => line.startsWith('Error loading favorites:'))).toBe(true);
    expect(await page.getByRole('region', { name: 'Earnings calendar' }).count()).toBe(0);
    expect(requested).toEqual([]);
    await screenshot(page, 'calendar-favorites-error');

    await page.unroute('**/api/get_favorite_stocks');
    await page.getByRole('button', { name: 'Retry' }).click();
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    expect(await listing()).toEqual(WEEK);
  });

  it('says so, with a retry, when the earnings cannot be loaded', async () => {
    await page.route('**/api/earnings_calendar', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ msg: 'Market data is unavailable right now.' }) }),
    );
    await page.goto('/dashboard/calendar');
    await page.getByText('The earnings could not be loaded', { exact: true }).waitFor();
    await page.getByText('Market data is unavailable right now.').waitFor();
    expect(logged.some((line) => line.startsWith('Error fetching earnings data:'))).toBe(true);
    expect(await listing()).toEqual([]);
    await calendar().getByText('The earnings could not be loaded.', { exact: true }).waitFor();
    await screenshot(page, 'calendar-earnings-error');

    await page.unroute('**/api/earnings_calendar');
    await page.getByRole('button', { name: 'Retry' }).click();
    await calendar().getByText('GOOGL Earnings Release').waitFor();
    expect(await listing()).toEqual(WEEK);
    await page.getByText('The earnings could not be loaded', { exact: true }).waitFor({ state: 'detached' });
  });
});
