import type { Page, Route } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { analyzeNewsItems, cutSummary, describeIndicatorChange, renderDashboardSummary, summaryBullets } from '@signalboard/core';
import { ECONOMIC, HEALTH_NEWS, INDEX_QUOTES, LONG_SUMMARY, SECTOR_QUOTES } from './fixtures/market/dashboard';
import { MARKET_NOW } from './fixtures/market/dataset';
import { MARKET_NEWS_SERVED } from './fixtures/market/news-market';
import { OPTIONS_CALENDAR_FAVORITES as F } from './fixtures/market/options-calendar';
import { api, newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { mediumDate, watchPage } from './support/news';

// The pinned market (e2e/fixtures/market/dashboard.ts, news-market.ts): Friday 2026-11-20 11:00 in
// New York, market open. The market server's dashboard jobs filled every part at start. TSLA reports
// today (time not supplied); GOOGL reported on Tuesday; LLY does not report.
const FAVORITES = [F.TSLA, F.GOOGL, { symbol: 'LLY', description: 'Eli Lilly and Company' }];

let page: Page;
let token: string;
let requests: Array<{ path: string; body: unknown }>;
let logged: string[];
const session = useBrowserPage(
  async (context) => {
    token = (await signedInUser(context, 'dashboard', { server: 'market', favorites: FAVORITES })).token;
  },
  { server: 'market' },
);
beforeEach(() => {
  page = session.page;
  requests = [];
  logged = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/')) requests.push({ path, body: request.method() === 'POST' ? request.postDataJSON() : undefined });
  });
  watchPage(page, { logged });
});

const MINUS = '\u2212';
const signedPercent = (value: number) => (Math.abs(value) < 0.005 ? '0.00%' : `${value > 0 ? '+' : MINUS}${Math.abs(value).toFixed(2)}%`);
/** A tone badge's text: 'Mixed 0.00', 'Positive +0.75'. */
const toneText = (tone: string, score: number) => `${tone[0]!.toUpperCase()}${tone.slice(1)} ${Math.abs(score) < 0.005 ? '0.00' : `${score > 0 ? '+' : MINUS}${Math.abs(score).toFixed(2)}`}`;
const percentChange = (price: number, previousClose: number) => ((price - previousClose) / previousClose) * 100;

const section = (name: string, target: Page = page) => target.getByRole('region', { name, exact: true });
const bullets = (list: string, target: Page = page) => target.getByRole('list', { name: list, exact: true }).getByRole('listitem').allInnerTexts();
const sectorItem = (sector: string, target: Page = page) => section('Sector Sentiment & News', target).getByRole('button', { name: new RegExp(`^${sector} News tone: `) });

async function openDashboard(target: Page = page) {
  await target.goto('/dashboard/main');
  await target.getByRole('heading', { name: 'Market Dashboard', level: 1 }).waitFor();
}

const failWith = (status: number, msg: string) => (route: Route) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ msg }) });
const answer = (body: unknown) => (route: Route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });

describe('Market Dashboard (/dashboard/main)', () => {
  it('loads every part at once from the pinned market', async () => {
    await openDashboard();

    // Market overview: status in New York time, the index strip and the sector heatmap, best first.
    const overview = section('Market Overview');
    await overview.getByText('Closes 4:00 PM ET', { exact: true }).waitFor();
    await overview.getByText('Open', { exact: true }).waitFor();
    const strip = overview.getByRole('list', { name: 'Indices' }).getByRole('listitem');
    await expect.poll(() => strip.count()).toBe(5);
    for (const [index, quote] of INDEX_QUOTES.entries()) {
      const label = await strip.nth(index).getAttribute('aria-label');
      expect(label).toContain(`${quote.symbol} ${quote.name}:`);
      expect(label).toContain(`(${signedPercent(percentChange(quote.price, quote.previousClose))})`);
    }
    const tiles = await overview.getByRole('list', { name: 'Sector heatmap' }).getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    expect(tiles).toEqual(
      [...SECTOR_QUOTES]
        .sort((a, b) => percentChange(b.price, b.previousClose) - percentChange(a.price, a.previousClose))
        .map((row) => `${row.sector} ${signedPercent(percentChange(row.price, row.previousClose))} (${row.etf})`),
    );

    // Overall sentiment: the analyst's summary of the served market news, 2 sentences a bullet.
    const overall = section('Overall Market Sentiment');
    await overall.getByRole('heading', { name: 'Market Summary' }).waitFor();
    const expectedOverall = summaryBullets(renderDashboardSummary(analyzeNewsItems(MARKET_NEWS_SERVED), 'Market news'));
    await expect.poll(() => bullets('Market Summary')).toEqual(expectedOverall);
    const reading = analyzeNewsItems(MARKET_NEWS_SERVED);
    await overall.getByLabel(`News tone: ${toneText(reading.tone, reading.score)}`).waitFor();
    // The hostile summary is text, never markup.
    expect(await page.locator('main script, main img[src="x"], [onerror]').count()).toBe(0);
    await overall.getByText(`Last updated: ${await mediumDate(page, Date.parse(MARKET_NOW) / 1000)} · from 5 news items`).waitFor();

    // Today's earnings: TSLA only (GOOGL reported on Tuesday; XOM and CRM are not favourites).
    const earnings = section("Today's Earnings (Favorites)").getByRole('table');
    await earnings.waitFor();
    const rows = (await earnings.getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
    expect(rows).toEqual(['Symbol EPS Estimate EPS Actual Surprise', 'TSLA Time Not Supplied 0.50 N/A N/A']);
    expect(requests.filter((request) => request.path === '/api/earnings_calendar').map((request) => request.body)).toEqual([{ start_date: '2026-11-20', end_date: '2026-11-20' }]);

    // Every part was asked for in the first load, each once.
    for (const path of ['/api/all_overall_sentiment', '/api/sector_sentiment_scanner', '/api/top_economic_indicators', '/api/market_overview', '/api/earnings_calendar']) {
      expect(requests.filter((request) => request.path === path), path).toHaveLength(1);
    }

    // Economic indicators: one card each, in the dashboard's order, with the last 2 values.
    const cards = section('Key Economic Indicators').getByRole('article');
    await expect.poll(() => cards.count()).toBe(ECONOMIC.length);
    expect((await cards.getByRole('heading').allInnerTexts()).map((text) => text.trim())).toEqual(ECONOMIC.map((series) => series.name));
    const unrate = section('Key Economic Indicators').getByRole('article', { name: 'Unemployment Rate' });
    const unrateText = (await unrate.innerText()).replace(/\s+/g, ' ');
    expect(unrateText).toContain('UNRATE');
    expect(unrateText).toContain('Latest · October 2026 4.4%');
    expect(unrateText).toContain('Previous · September 2026 4.2%');
    expect(unrateText).toContain('Change +0.2');
    expect(unrateText).not.toContain('4.3'); // the third value is not shown
    const brief = ECONOMIC.find((series) => series.id === 'UNRATE')!;
    await unrate.getByText(describeIndicatorChange({ name: brief.name, code: brief.id, unit: brief.unit, interval: brief.frequency, values: brief.observations })).waitFor();
    await screenshot(page, 'dashboard');
  });

  it('a sector opens to its summary and top 3 news; the rest is behind the expand control', async () => {
    const served = (await api<Array<{ IndicatorName: string }>>('sector_sentiment_scanner', { token, server: 'market' })).body;
    await openDashboard();
    const sectors = section('Sector Sentiment & News');
    await sectorItem('Health Care').waitFor();
    // One item per sector served, in its order, each with its news tone.
    const names = await sectors.getByRole('button', { name: / News tone: / }).evaluateAll((buttons) => buttons.map((button) => button.querySelector('p')?.textContent?.trim()));
    expect(names).toEqual(served.map((row) => row.IndicatorName));
    const health = analyzeNewsItems(HEALTH_NEWS.map((item) => ({ headline: item.headline, summary: item.summary })));
    expect(health.tone).toBe('positive');
    await sectorItem('Health Care').getByText(toneText(health.tone, health.score), { exact: true }).waitFor();
    await sectorItem('Utilities').getByText('Neutral 0.00', { exact: true }).waitFor();

    await sectorItem('Health Care').click();
    const items = HEALTH_NEWS.map((item) => ({ headline: item.headline, summary: item.summary }));
    await expect.poll(() => bullets('Health Care summary')).toEqual(summaryBullets(renderDashboardSummary(analyzeNewsItems(items), 'Health Care news')));
    const top = sectors.getByRole('list', { name: 'Health Care news', exact: true });
    expect((await top.getByRole('link').allInnerTexts()).map((text) => text.trim())).toEqual(HEALTH_NEWS.slice(0, 3).map((item) => item.headline));
    const first = top.getByRole('link', { name: HEALTH_NEWS[0]!.headline });
    expect(await first.getAttribute('href')).toBe(HEALTH_NEWS[0]!.url);
    expect(await first.getAttribute('target')).toBe('_blank');
    expect(await first.getAttribute('rel')).toBe('noopener noreferrer');
    // Summaries are cut at 100 characters.
    expect(LONG_SUMMARY.length).toBeGreaterThan(100);
    await top.getByText(cutSummary(LONG_SUMMARY), { exact: true }).waitFor();
    expect(await page.getByText(LONG_SUMMARY, { exact: true }).count()).toBe(0);

    const expand = sectors.getByRole('button', { name: 'Show 2 more' });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    expect(await sectors.getByRole('list', { name: 'More Health Care news' }).count()).toBe(0);
    await expand.click();
    const more = sectors.getByRole('list', { name: 'More Health Care news' });
    await expect.poll(async () => (await more.getByRole('link').allInnerTexts()).map((text) => text.trim())).toEqual(HEALTH_NEWS.slice(3).map((item) => item.headline));
    const collapse = sectors.getByRole('button', { name: 'Show less' });
    expect(await collapse.getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'dashboard-sector-expanded');
    await collapse.click();
    await expect.poll(() => more.count()).toBe(0);

    // A covered sector without news in its window.
    await sectorItem('Utilities').click();
    await sectors.getByRole('region', { name: /^Utilities News tone: / }).getByText('No recent news items found for this sector.').waitFor();
    await expect.poll(() => bullets('Utilities summary')).toEqual(['No Utilities company news in the last 3 days.']);
  });

  it("each part that fails shows its own message, the others stay, and Retry loads it again", async () => {
    const parts = [
      { path: '/api/top_economic_indicators', message: 'Failed to load economic indicators.', other: 'Market Summary' },
      { path: '/api/sector_sentiment_scanner', message: 'Failed to load sector sentiments.', other: 'Market Summary' },
      { path: '/api/all_overall_sentiment', message: 'Failed to load overall market sentiment.', other: 'Unemployment Rate' },
      { path: '/api/earnings_calendar', message: "Failed to load today's earnings data.", other: 'Market Summary' },
      { path: '/api/get_favorite_stocks', message: "Failed to load today's earnings data.", other: 'Market Summary' },
    ];
    for (const part of parts) {
      await page.route(`**${part.path}`, failWith(503, 'The database is busy.'));
      await openDashboard();
      await page.getByText(part.message, { exact: true }).waitFor();
      await page.getByText('Some data failed to load. Please try refreshing.', { exact: true }).waitFor();
      await page.getByText('The database is busy.').first().waitFor();
      await page.getByRole('heading', { name: part.other }).first().waitFor();
      expect(await page.getByText(/^Failed to load/).count(), part.path).toBe(1);
      if (part.path === '/api/all_overall_sentiment') await screenshot(page, 'dashboard-part-failed');
      await page.unroute(`**${part.path}`);
      await page.getByRole('alert').filter({ hasText: 'Some data failed to load.' }).getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => page.getByText(part.message, { exact: true }).count()).toBe(0);
      expect(await page.getByText('Some data failed to load. Please try refreshing.').count()).toBe(0);
    }
    expect(logged.some((line) => line.startsWith('Error loading favorites:'))).toBe(true);
    expect(logged.some((line) => line.startsWith('Error fetching earnings data:'))).toBe(true);
  });

  it('an answer it cannot read is an unexpected error', async () => {
    await page.route('**/api/sector_sentiment_scanner', answer({ sectors: 'not a list' }));
    await openDashboard();
    await page.getByText('An unexpected error occurred while loading dashboard data.', { exact: true }).waitFor();
    await page.getByText('Failed to load sector sentiments.', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Market Summary' }).waitFor();
  });

  it("says so when a part is empty, or a sector's news cannot be read", async () => {
    await page.route('**/api/all_overall_sentiment', answer([]));
    await page.route('**/api/top_economic_indicators', answer([]));
    await page.route('**/api/earnings_calendar', answer([]));
    await page.route(
      '**/api/sector_sentiment_scanner',
      answer([{ IndicatorName: 'Energy', GptSummary: '', LastUpdatedUtc: MARKET_NOW, ValueRawJson: '{"broken":', SentimentTone: 'neutral', SentimentScore: 0 }]),
    );
    await openDashboard();
    await page.getByText('No overall sentiment data available.', { exact: true }).waitFor();
    await page.getByText('No economic indicator data available.', { exact: true }).waitFor();
    await page.getByText('No earnings reported today for your favorite stocks.', { exact: true }).waitFor();
    await sectorItem('Energy').click();
    await page.getByText('Could not load news items for this sector.', { exact: true }).waitFor();
    await page.getByText('No summary available.', { exact: true }).waitFor();
    expect(await page.getByText('Some data failed to load. Please try refreshing.').count()).toBe(0);
    await screenshot(page, 'dashboard-empty');

    await page.unroute('**/api/sector_sentiment_scanner');
    await page.route('**/api/sector_sentiment_scanner', answer([]));
    await page.reload();
    await page.getByText('No sector sentiment data available.', { exact: true }).waitFor();
  });

  it('reads well in the dark scheme and on a phone', async () => {
    for (const [name, options] of [
      ['dashboard-dark', { colorScheme: 'dark' as const }],
      ['dashboard-phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await newContext(session.browser, { ...options, server: 'market' });
      await signedInUser(context, name, { server: 'market', favorites: FAVORITES });
      const other = await context.newPage();
      await openDashboard(other);
      await section('Overall Market Sentiment', other).getByRole('heading', { name: 'Market Summary' }).waitFor();
      await section('Key Economic Indicators', other).getByRole('article').first().waitFor();
      await section("Today's Earnings (Favorites)", other).getByRole('table').waitFor();
      await sectorItem('Health Care', other).click();
      await section('Sector Sentiment & News', other).getByRole('button', { name: 'Show 2 more' }).waitFor();
      if (name === 'dashboard-phone') {
        const width = await other.evaluate(() => document.documentElement.scrollWidth);
        expect(width).toBeLessThanOrEqual(390); // nothing wider than the screen
      }
      await screenshot(other, name);
      await context.close();
    }
  });
});
