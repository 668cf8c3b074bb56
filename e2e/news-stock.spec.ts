import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { DIS_DAILY, DIS_IMAGE_URL, DIS_WEEKLY_ONLY, NEWS_STOCK_FAVORITES as F } from './fixtures/market/news-stock';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { cardHeadlines, newsCard, serveTestImages, watchPage } from './support/news';

// The pinned market (e2e/fixtures/market/news-stock.ts), now Friday 2026-11-20 16:00 UTC.
const FAVORITES = [F.DIS, F.KO, F.PEP];

let page: Page;
let logged: string[];
let newsCalls: URLSearchParams[];
const session = useBrowserPage((context) => signedInUser(context, 'stocknews', { server: 'market', favorites: FAVORITES }).then(() => undefined), { server: 'market' });

/** Serves the fixture's https image, so the card shows it offline. */
const serveImages = (target: Page) => serveTestImages(target, '#1c7ed6');

beforeEach(async () => {
  page = session.page;
  logged = [];
  newsCalls = [];
  watchPage(page, { logged });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/company-news') newsCalls.push(url.searchParams);
  });
  await serveImages(page);
});

const symbolSelect = (target: Page = page) => target.getByRole('combobox', { name: 'Favorite Stocks' });
const intervalSelect = (target: Page = page) => target.getByRole('combobox', { name: 'Interval' });
const searchButton = (target: Page = page) => target.getByRole('button', { name: 'Search', exact: true });
const analyzeButton = (target: Page = page) => target.getByRole('button', { name: /^(AI Analysis & Summary|Analyzing\.\.\.)$/ });
const cards = (target: Page = page) => target.getByRole('list', { name: /^News for / }).getByRole('listitem').getByRole('article');
const headlines = (target: Page = page) => cardHeadlines(cards(target));
const card = (headline: string, target: Page = page) => newsCard(target, headline);

async function openScreen(target: Page = page) {
  await target.goto('/dashboard/stocknews');
  await target.getByRole('heading', { name: 'News By Stock', level: 1 }).waitFor();
  // The first favourite is selected once the favourites have loaded.
  await expect.poll(() => symbolSelect(target).inputValue()).toBe('DIS - Walt Disney Co.');
}

async function choose(select: 'Favorite Stocks' | 'Interval', option: string, target: Page = page) {
  await target.getByRole('combobox', { name: select }).click();
  await target.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => target.getByRole('combobox', { name: select }).inputValue()).toBe(option);
}

/**
 * Presses Search and waits for its own outcome: the summary line naming the symbol and date range
 * asked for, or the empty message for that symbol with the hint of the interval asked for. So the
 * outcome of an earlier search for other parameters (still on screen while this one runs) is never
 * mistaken for it.
 */
async function search(expectedCount: number, target: Page = page) {
  const before = newsCalls.length;
  const interval = await intervalSelect(target).inputValue();
  const asked = target.waitForRequest((request) => new URL(request.url()).pathname === '/api/company-news');
  await searchButton(target).click();
  const query = new URL((await asked).url()).searchParams;
  if (target === page) await expect.poll(() => newsCalls.length).toBe(before + 1);
  const symbol = query.get('symbol') ?? '';
  if (expectedCount === 0) {
    await target.getByText(`No news for ${symbol} in this interval.`, { exact: true }).waitFor();
    const hint = interval === 'Daily' ? 'Try the Weekly interval for a longer range.' : 'Try again later or choose another stock.';
    await target.getByText(hint, { exact: true }).waitFor();
  } else {
    const summary = `${expectedCount} ${expectedCount === 1 ? 'article' : 'articles'} for ${symbol} · ${query.get('from') ?? ''} to ${query.get('to') ?? ''}`;
    await target.getByText(summary, { exact: true }).waitFor();
  }
}

const DAILY_EVENT_STRING =
  'Stock: DIS, News Data: ' +
  [
    '<script>window.__pwned = 1</script>Disney unveils new cruise ship: <img src=x onerror="window.__pwned = 1"> Bookings open in spring.',
    'Disney parks revenue beats estimates: Theme park attendance rose 8% in the quarter as guidance was raised.',
    'Disney+ adds subscribers ahead of holiday slate: Streaming subscribers grew to 130 million, above forecasts.',
  ].join(', ');

describe('News By Stock (/dashboard/stocknews)', () => {
  it('offers the favourites and the intervals, with the first favourite and Daily selected', async () => {
    await openScreen();
    expect(await intervalSelect().inputValue()).toBe('Daily');
    await symbolSelect().click();
    expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).toEqual(['DIS - Walt Disney Co.', 'KO - Coca-Cola Co.', 'PEP - PepsiCo Inc.']);
    await page.keyboard.press('Escape');
    await intervalSelect().click();
    expect((await page.getByRole('option').allInnerTexts()).map((text) => text.trim())).toEqual(['Daily', 'Weekly']);
    await page.keyboard.press('Escape');
    await page.getByRole('heading', { name: 'Analyze Stock: DIS', level: 2 }).waitFor();
    // Nothing to analyse before a search.
    expect(await analyzeButton().isDisabled()).toBe(true);
    expect(newsCalls).toEqual([]);
  });

  it('Daily asks for yesterday to today, Weekly for 7 days ago to today, and the cards differ', async () => {
    await openScreen();
    await search(4);
    expect(Object.fromEntries(newsCalls[0]!)).toEqual({ symbol: 'DIS', from: '2026-11-19', to: '2026-11-20' });
    expect(await headlines()).toEqual(DIS_DAILY.map((article) => article.headline));
    await page.getByText('4 articles for DIS · 2026-11-19 to 2026-11-20').waitFor();

    // A card: headline, 'source | category', the image, the summary and 'Read More' in a new tab.
    const parks = card('Disney parks revenue beats estimates');
    expect((await parks.innerText()).split('\n').map((line) => line.trim()).filter(Boolean)).toEqual([
      'Disney parks revenue beats estimates',
      'Reuters | company',
      'Theme park attendance rose 8% in the quarter as guidance was raised.',
      'Read More',
    ]);
    expect(await parks.locator('img').getAttribute('src')).toBe(DIS_IMAGE_URL);
    await expect.poll(() => parks.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    const readMore = parks.getByRole('link', { name: 'Read More' });
    expect(await readMore.getAttribute('href')).toBe('https://news.example.test/dis/dis-parks');
    expect(await readMore.getAttribute('target')).toBe('_blank');
    expect(await readMore.getAttribute('rel')).toContain('noopener');
    // An empty image: no image at all.
    const streaming = card('Disney+ adds subscribers ahead of holiday slate');
    await streaming.getByText('Bloomberg | technology').waitFor();
    expect(await streaming.locator('img').count()).toBe(0);

    await screenshot(page, 'stock-news');

    await choose('Interval', 'Weekly');
    await search(7);
    expect(Object.fromEntries(newsCalls[1]!)).toEqual({ symbol: 'DIS', from: '2026-11-13', to: '2026-11-20' });
    expect(await headlines()).toEqual([...DIS_DAILY, ...DIS_WEEKLY_ONLY].map((article) => article.headline));
    expect(await page.getByText('Disney reports fiscal results').count()).toBe(0);
    expect(await page.getByText('Disney later today').count()).toBe(0);
  });

  it('renders hostile provider content inert: markup as text, no javascript: link or image', async () => {
    await openScreen();
    await search(4);
    const hostile = card('<script>window.__pwned = 1</script>Disney unveils new cruise ship');
    await hostile.getByText('Wire <b>Feed</b> | company', { exact: true }).waitFor();
    await hostile.getByText('<img src=x onerror="window.__pwned = 1"> Bookings open in spring.', { exact: true }).waitFor();
    expect(await hostile.getByRole('link').count()).toBe(0);
    expect(await hostile.locator('img, script, b').count()).toBe(0);
    expect(await page.locator('a[href^="javascript:"], img[src^="javascript:"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });

  it('analyses the loaded news: the exact event_string, Analyzing..., then the response as plain text', async () => {
    await openScreen();
    await search(4);
    // Hold the analysis until the busy state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/news-analysis', async (route) => {
      await held;
      await route.continue();
    });
    const request = page.waitForRequest((r: Request) => new URL(r.url()).pathname === '/api/news-analysis');
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/news-analysis');
    await analyzeButton().click();
    expect((await request).postDataJSON()).toEqual({ event_string: DAILY_EVENT_STRING });
    await page.getByRole('button', { name: 'Analyzing...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Analyzing...' }).isDisabled()).toBe(true);
    await page.getByRole('status').getByText('Analyzing...').waitFor();
    release();

    const answer = await response;
    expect(answer.status()).toBe(200);
    const { response: text } = (await answer.json()) as { response: string };
    expect(text.length).toBeGreaterThan(0);
    const shown = page.getByTestId('analysis-response');
    await shown.waitFor();
    // Plain text with its line breaks kept (white-space: pre-line), never HTML.
    expect(await shown.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-line');
    expect(await shown.evaluate((el) => el.textContent)).toBe(text);
    expect(await shown.evaluate((el) => el.children.length)).toBe(0);
    expect(await page.getByRole('button', { name: 'AI Analysis & Summary' }).isEnabled()).toBe(true);
    expect(await page.getByText('Analyzing...').count()).toBe(0);
    await screenshot(page, 'stock-news-analysis');

    // Another stock: its own heading, no response about DIS, nothing to analyse until it is searched.
    await choose('Favorite Stocks', 'PEP - PepsiCo Inc.');
    await page.getByRole('heading', { name: 'Analyze Stock: PEP', level: 2 }).waitFor();
    expect(await page.getByTestId('analysis-response').count()).toBe(0);
    expect(await analyzeButton().isDisabled()).toBe(true);
  });

  it('shows an analysis failure with its message and a Retry, and logs it', async () => {
    await openScreen();
    await search(4);
    let failing = true;
    await page.route('**/api/news-analysis', (route) =>
      failing ? route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ msg: 'The AI provider did not answer in time.' }) }) : route.continue(),
    );
    await analyzeButton().click();
    await page.getByText('The analysis could not be made.').waitFor();
    await page.getByText('The AI provider did not answer in time.').waitFor();
    // The loading flag is cleared on error.
    expect(await page.getByRole('button', { name: 'AI Analysis & Summary' }).isEnabled()).toBe(true);
    expect(await page.getByText('Analyzing...').count()).toBe(0);
    expect(logged.some((line) => line.startsWith('Error analyzing news:'))).toBe(true);

    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('analysis-response').waitFor();
    expect(await page.getByText('The AI provider did not answer in time.').count()).toBe(0);
  });

  it('shows a news failure with a Retry, and logs it', async () => {
    await openScreen();
    let failing = true;
    await page.route('**/api/company-news**', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The market data provider is unavailable.' }) }) : route.continue(),
    );
    await searchButton().click();
    await page.getByText('The news could not be loaded.').waitFor();
    await page.getByText('The market data provider is unavailable.').waitFor();
    expect(logged.some((line) => line.startsWith('Error fetching news:'))).toBe(true);
    expect(await analyzeButton().isDisabled()).toBe(true);
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cards().count()).toBe(4);
  });

  it('says when a stock has no news in the interval; the analysis stays off', async () => {
    await openScreen();
    await choose('Favorite Stocks', 'KO - Coca-Cola Co.');
    await page.getByRole('heading', { name: 'Analyze Stock: KO', level: 2 }).waitFor();
    await search(0);
    expect(Object.fromEntries(newsCalls[0]!)).toEqual({ symbol: 'KO', from: '2026-11-19', to: '2026-11-20' });
    await page.getByText('No news for KO in this interval.').waitFor();
    expect(await cards().count()).toBe(0);
    expect(await analyzeButton().isDisabled()).toBe(true);
    await choose('Interval', 'Weekly');
    await search(0);
    expect(Object.fromEntries(newsCalls[1]!)).toEqual({ symbol: 'KO', from: '2026-11-13', to: '2026-11-20' });
    expect(await analyzeButton().isDisabled()).toBe(true);
  });

  it('without favourites points to the WatchList and sends nothing', async () => {
    const context = await newContext(session.browser, { server: 'market' });
    await signedInUser(context, 'stocknews-empty', { server: 'market' });
    const empty = await context.newPage();
    const calls: string[] = [];
    empty.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/company-news') calls.push(request.url());
    });
    await empty.goto('/dashboard/stocknews');
    await empty.getByRole('heading', { name: 'News By Stock', level: 1 }).waitFor();
    await empty.getByText(/You have no favorite stocks yet/).waitFor();
    expect(await empty.getByRole('main').getByRole('link', { name: 'WatchList' }).getAttribute('href')).toBe('/dashboard/symbollookup');
    expect(await symbolSelect(empty).inputValue()).toBe('');
    const warnings: string[] = [];
    empty.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await searchButton(empty).click();
    await expect.poll(() => warnings.length).toBe(1);
    expect(calls).toEqual([]);
    await context.close();
  });

  it('looks right in dark mode and on a phone', async () => {
    const dark = await newContext(session.browser, { colorScheme: 'dark', server: 'market' });
    await signedInUser(dark, 'stocknews-dark', { server: 'market', favorites: FAVORITES });
    const darkPage = await dark.newPage();
    await serveImages(darkPage);
    await openScreen(darkPage);
    await search(4, darkPage);
    await analyzeButton(darkPage).click();
    await darkPage.getByTestId('analysis-response').waitFor();
    await screenshot(darkPage, 'stock-news-dark');
    await dark.close();

    const phone = await newContext(session.browser, { width: 390, height: 844, server: 'market' });
    await signedInUser(phone, 'stocknews-phone', { server: 'market', favorites: FAVORITES });
    const phonePage = await phone.newPage();
    await serveImages(phonePage);
    await openScreen(phonePage);
    await search(4, phonePage);
    // One column: the cards stack, each as wide as the first.
    const boxes = await Promise.all([0, 1].map(async (i) => (await cards(phonePage).nth(i).boundingBox())!));
    expect(boxes[1]!.x).toBe(boxes[0]!.x);
    expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y);
    await screenshot(phonePage, 'stock-news-phone');
    await phone.close();
  });
});
