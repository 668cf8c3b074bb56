import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { CHIPS, FED, HOSTILE, HOSTILE_SUMMARY, JOBS, LATER, TARIFFS, TRUMP_NEWS_SERVED } from './fixtures/market/news-market';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { cardHeadlines, newsCard, watchPage } from './support/news';

// The pinned market news (e2e/fixtures/market/news-market.ts): of the five served articles, TARIFFS
// says 'TRUMP' in its headline, HOSTILE 'trump' and CHIPS 'Trump' only in the summary; FED and JOBS
// do not mention him, and LATER (which does) is after "now". Spec §2: the filtered
// 'headline: summary' entries joined by commas are sent as news_data.
const NEWS_DATA = TRUMP_NEWS_SERVED.map((article) => `${article.headline}: ${article.summary}`).join(', ');

let page: Page;
let logged: string[];
let dialogs: string[];
const session = useBrowserPage((context) => signedInUser(context, 'trumpnews', { server: 'market' }).then(() => undefined), { server: 'market' });

const watch = (target: Page) => watchPage(target, { logged, dialogs });

beforeEach(() => {
  page = session.page;
  logged = [];
  dialogs = [];
  watch(page);
});

const getButton = (target: Page = page) => target.getByRole('button', { name: 'Get Trump News' });
const analyzeButton = (target: Page = page) => target.getByRole('button', { name: 'Analyze And Summarize' });
const cards = (target: Page = page) => target.getByRole('article');
const headlines = (target: Page = page) => cardHeadlines(cards(target));
const card = (headline: string, target: Page = page) => newsCard(target, headline);

async function openScreen(target: Page = page) {
  await target.goto('/dashboard/trumpnews');
  await target.getByRole('heading', { name: 'Trump News', level: 1 }).waitFor();
}

async function loadNews(target: Page = page) {
  await getButton(target).click();
  await expect.poll(() => cards(target).count()).toBe(TRUMP_NEWS_SERVED.length);
}

describe('Trump News screen', () => {
  it("keeps only the articles that mention 'trump' in the headline or summary, in any case", async () => {
    await openScreen();
    expect(await analyzeButton().isDisabled()).toBe(true);
    await loadNews();
    expect(await headlines()).toEqual([TARIFFS.headline, HOSTILE.headline, CHIPS.headline]);
    for (const other of [FED, JOBS, LATER]) expect(await page.getByText(other.headline).count()).toBe(0);
    await page.getByText('3 of 5 market articles mention Trump').waitFor();
    expect(await analyzeButton().isEnabled()).toBe(true);

    // The card fields of the market news: source, Summary, Category, Date, 'Read More' in a new tab.
    const chips = card(CHIPS.headline);
    await chips.getByText('CNBC', { exact: true }).waitFor();
    await chips.getByText(CHIPS.summary, { exact: true }).waitFor();
    expect(await chips.innerText()).toMatch(/Category: technology\s+Date: Nov \d{1,2}, 2026, \d{1,2}:\d{2}:\d{2} [AP]M/);
    const readMore = chips.getByRole('link', { name: 'Read More' });
    expect(await readMore.getAttribute('href')).toBe(CHIPS.url);
    expect(await readMore.getAttribute('target')).toBe('_blank');
    expect(await readMore.getAttribute('rel')).toBe('noopener noreferrer');
    // An ftp image is left out.
    expect(await chips.locator('img').count()).toBe(0);

    // The hostile article renders inert: its markup is text, no javascript: link, no image.
    const hostile = card(HOSTILE.headline);
    await hostile.getByText(HOSTILE_SUMMARY, { exact: true }).waitFor();
    expect(await hostile.getByRole('link').count()).toBe(0);
    expect(await hostile.locator('img').count()).toBe(0);
    expect(await page.locator('main script, [onerror], a[href^="javascript:"], img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);

    // Two columns on a wide screen.
    const [first, second] = await Promise.all([0, 1].map((index) => cards().nth(index).boundingBox()));
    expect(second!.y).toBeCloseTo(first!.y, 0);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
    await screenshot(page, 'trump-news');
  });

  it('sends the filtered entries to analyze-trump-news and shows the response with its line breaks', async () => {
    await openScreen();
    await loadNews();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/analyze-trump-news', async (route) => {
      await held;
      await route.continue();
    });
    const request = page.waitForRequest((r: Request) => new URL(r.url()).pathname === '/api/analyze-trump-news');
    const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analyze-trump-news');
    await analyzeButton().click();
    expect((await request).postDataJSON()).toEqual({ news_data: NEWS_DATA });
    // A loading indicator while waiting; the button cannot be pressed twice.
    await page.getByRole('status').getByText('Analyzing...').waitFor();
    expect(await analyzeButton().isDisabled()).toBe(true);
    release();

    const answer = await response;
    expect(answer.status()).toBe(200);
    const { response: text } = (await answer.json()) as { response: string };
    expect(text).toContain('\n');
    await page.getByRole('heading', { name: 'Response:' }).waitFor();
    const shown = page.getByTestId('analysis-response');
    expect(await shown.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-line');
    expect(await shown.evaluate((el) => el.textContent)).toBe(text);
    expect(await shown.evaluate((el) => el.children.length)).toBe(0);
    expect((await shown.innerText()).split('\n').length).toBe(text.trim().split('\n').length);
    expect(await page.getByRole('status').count()).toBe(0);
    expect(await analyzeButton().isEnabled()).toBe(true);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'trump-news-analysis');
  });

  it('shows an analysis failure with its message and a Retry', async () => {
    await openScreen();
    await loadNews();
    let failing = true;
    await page.route('**/api/analyze-trump-news', (route) =>
      failing ? route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ msg: 'The AI provider did not answer in time.' }) }) : route.continue(),
    );
    await analyzeButton().click();
    await page.getByText('The news could not be analyzed.').waitFor();
    await page.getByText('The AI provider did not answer in time.').waitFor();
    expect(await analyzeButton().isEnabled()).toBe(true);
    expect(await page.getByText('Analyzing...').count()).toBe(0);
    expect(logged.some((line) => line.startsWith('Error analyzing Trump news:'))).toBe(true);

    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('analysis-response').waitFor();
    expect(await page.getByText('The AI provider did not answer in time.').count()).toBe(0);
  });

  it('says so when no article mentions Trump, and keeps analysing disabled', async () => {
    await page.route('**/api/market-news', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify([FED, JOBS]) }),
    );
    await openScreen();
    await getButton().click();
    await page.getByText('No news mentions Trump right now.').waitFor();
    await page.getByText('2 market articles were checked; try again later.').waitFor();
    expect(await cards().count()).toBe(0);
    expect(await analyzeButton().isDisabled()).toBe(true);
  });

  it('shows a news failure with a Retry, and logs it', async () => {
    await openScreen();
    let failing = true;
    await page.route('**/api/market-news', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The market data provider is unavailable.' }) }) : route.continue(),
    );
    await getButton().click();
    await page.getByText('The news could not be loaded.').waitFor();
    await page.getByText('The market data provider is unavailable.').waitFor();
    expect(await analyzeButton().isDisabled()).toBe(true);
    expect(logged.some((line) => line.startsWith('Error fetching market news:'))).toBe(true);
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cards().count()).toBe(TRUMP_NEWS_SERVED.length);
  });

  it('stacks the cards on a phone, and reads well in the dark scheme', async () => {
    for (const [name, options] of [
      ['trump-news-phone', { width: 390, height: 844 }],
      ['trump-news-dark', { colorScheme: 'dark' as const }],
    ] as const) {
      const context = await newContext(session.browser, { server: 'market', ...options });
      await signedInUser(context, name, { server: 'market' });
      const other = await context.newPage();
      watch(other);
      await openScreen(other);
      await loadNews(other);
      if (name === 'trump-news-phone') {
        const [first, second] = await Promise.all([0, 1].map((index) => cards(other).nth(index).boundingBox()));
        expect(second!.x).toBeCloseTo(first!.x, 0);
        expect(second!.y).toBeGreaterThan(first!.y + first!.height - 1);
      }
      await screenshot(other, name);
      await context.close();
    }
    expect(dialogs).toEqual([]);
  });
});
