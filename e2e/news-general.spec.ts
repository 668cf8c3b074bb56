import type { Page, Request } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { FED, HOSTILE, HOSTILE_SUMMARY, JOBS, LATER, MARKET_NEWS_IMAGE_URL, MARKET_NEWS_SERVED, TARIFFS, CHIPS } from './fixtures/market/news-market';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { cardHeadlines, cardLines, mediumDate, newsCard, serveTestImages, watchPage } from './support/news';

// The pinned market news (e2e/fixtures/market/news-market.ts), served newest first. Spec §7: the
// analysis text is the 'headline: summary' items joined with ', '.
const EVENT_STRING = MARKET_NEWS_SERVED.map((article) => `${article.headline}: ${article.summary}`).join(', ');

let page: Page;
let logged: string[];
let dialogs: string[];
const session = useBrowserPage((context) => signedInUser(context, 'generalnews', { server: 'market' }).then(() => undefined), { server: 'market' });

/** Records what `target` logs and alerts, and serves the fixtures' images. */
function watch(target: Page) {
  watchPage(target, { logged, dialogs });
  return serveTestImages(target);
}

beforeEach(async () => {
  page = session.page;
  logged = [];
  dialogs = [];
  await watch(page);
});

const getButton = (target: Page = page) => target.getByRole('button', { name: 'Get Geo-Political News' });
const analyzeButton = (target: Page = page) => target.getByRole('button', { name: /^(Analyze And Summarize News|Analyzing\.\.\.)$/ });
const cards = (target: Page = page) => target.getByRole('article');
const headlines = (target: Page = page) => cardHeadlines(cards(target));
const card = (headline: string, target: Page = page) => newsCard(target, headline);
const lines = cardLines;

async function openScreen(target: Page = page) {
  await target.goto('/dashboard/generalnews');
  await target.getByRole('heading', { name: 'Geo-Political News', level: 1 }).waitFor();
}

async function loadNews(target: Page = page) {
  await getButton(target).click();
  await expect.poll(() => cards(target).count()).toBe(MARKET_NEWS_SERVED.length);
}

describe('Geo-Political News screen', () => {
  it('loads the market news as cards, newest first; analysing is disabled until then', async () => {
    await openScreen();
    expect(await analyzeButton().isDisabled()).toBe(true);
    expect(await cards().count()).toBe(0);
    await page.getByText('Press Get Geo-Political News to load the latest market news.').waitFor();

    await loadNews();
    expect(await headlines()).toEqual(MARKET_NEWS_SERVED.map((article) => article.headline));
    expect(await page.getByText(LATER.headline).count()).toBe(0);
    expect(await analyzeButton().isEnabled()).toBe(true);
    await page.getByText('5 articles').waitFor();

    // A card: headline, source, the image, Summary, Category, Date (medium format), 'Read More'.
    const fed = card(FED.headline);
    expect(await lines(fed)).toEqual([
      FED.headline,
      'Reuters',
      `Summary: ${FED.summary}`,
      'Category: top news',
      `Date: ${await mediumDate(page, FED.datetime)}`,
      'Read More',
    ]);
    expect((await lines(fed))[4]).toMatch(/^Date: [A-Z][a-z]{2} \d{1,2}, 2026, \d{1,2}:\d{2}:\d{2} [AP]M$/);
    expect(await fed.getByRole('img').getAttribute('src')).toBe(MARKET_NEWS_IMAGE_URL);
    await expect.poll(() => fed.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    const readMore = fed.getByRole('link', { name: 'Read More' });
    expect(await readMore.getAttribute('href')).toBe('https://news.example.test/market/mkt-fed');
    expect(await readMore.getAttribute('target')).toBe('_blank');
    expect(await readMore.getAttribute('rel')).toBe('noopener noreferrer');

    // An empty image and an ftp image: no image at all; the links still work.
    for (const article of [TARIFFS, CHIPS, JOBS]) {
      expect(await card(article.headline).locator('img').count()).toBe(0);
      expect(await card(article.headline).getByRole('link', { name: 'Read More' }).getAttribute('href')).toBe(article.url);
    }
    expect(await lines(card(TARIFFS.headline))).toContain('Category: economy');

    // Two columns on a wide screen: the first two cards side by side, the third below.
    const [first, second, third] = await Promise.all([0, 1, 2].map((index) => cards().nth(index).boundingBox()));
    expect(second!.y).toBeCloseTo(first!.y, 0);
    expect(second!.x).toBeGreaterThan(first!.x + first!.width - 1);
    expect(third!.x).toBeCloseTo(first!.x, 0);
    expect(third!.y).toBeGreaterThan(first!.y + first!.height - 1);
    await screenshot(page, 'general-news');
  });

  it('renders hostile provider content inert: markup as text, no javascript: link or image', async () => {
    await openScreen();
    await loadNews();
    const hostile = card(HOSTILE.headline);
    expect(await lines(hostile)).toEqual([
      HOSTILE.headline,
      'Wire Feed',
      `Summary: ${HOSTILE_SUMMARY}`.replace(/\s+/g, ' '),
      'Category: commodities',
      `Date: ${await mediumDate(page, HOSTILE.datetime)}`,
    ]);
    await hostile.getByText(HOSTILE_SUMMARY, { exact: true }).waitFor();
    expect(await hostile.getByRole('link').count()).toBe(0);
    expect(await hostile.locator('img').count()).toBe(0);
    expect(await page.locator('main script, [onerror], a[href^="javascript:"], img[src="x"]').count()).toBe(0);
    expect(await page.locator('body script').evaluateAll((scripts) => scripts.filter((s) => (s.textContent ?? '').includes('alert(1)')).length)).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('analyses the loaded news and shows the response with its line breaks', async () => {
    await openScreen();
    await loadNews();
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
    expect((await request).postDataJSON()).toEqual({ event_string: EVENT_STRING });
    await page.getByRole('button', { name: 'Analyzing...' }).waitFor();
    expect(await page.getByRole('button', { name: 'Analyzing...' }).isDisabled()).toBe(true);
    await page.getByRole('status').getByText('Analyzing...').waitFor();
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
    // Line breaks are kept on screen: the rendered text has as many lines as the response.
    expect((await shown.innerText()).split('\n').length).toBe(text.trim().split('\n').length);
    expect(await page.getByRole('button', { name: 'Analyze And Summarize News' }).isEnabled()).toBe(true);
    expect(await page.getByText('Analyzing...').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await screenshot(page, 'general-news-analysis');
  });

  it('shows an analysis failure with its message and a Retry, and logs it', async () => {
    await openScreen();
    await loadNews();
    let failing = true;
    await page.route('**/api/news-analysis', (route) =>
      failing ? route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ msg: 'The AI provider did not answer in time.' }) }) : route.continue(),
    );
    await analyzeButton().click();
    await page.getByText('The news could not be analyzed.').waitFor();
    await page.getByText('The AI provider did not answer in time.').waitFor();
    // The loading state is cleared on error, the news stays.
    expect(await page.getByRole('button', { name: 'Analyze And Summarize News' }).isEnabled()).toBe(true);
    expect(await page.getByText('Analyzing...').count()).toBe(0);
    expect(await cards().count()).toBe(MARKET_NEWS_SERVED.length);
    expect(logged.some((line) => line.startsWith('Error analyzing Market news:'))).toBe(true);
    await screenshot(page, 'general-news-analysis-error');

    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('analysis-response').waitFor();
    expect(await page.getByText('The AI provider did not answer in time.').count()).toBe(0);
  });

  it('shows a news failure with a Retry, keeps analysing disabled, and logs it', async () => {
    await openScreen();
    let failing = true;
    await page.route('**/api/market-news', (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'The market data provider is unavailable.' }) }) : route.continue(),
    );
    await getButton().click();
    await page.getByText('The news could not be loaded.').waitFor();
    await page.getByText('The market data provider is unavailable.').waitFor();
    expect(await analyzeButton().isDisabled()).toBe(true);
    expect(await getButton().isEnabled()).toBe(true);
    expect(logged.some((line) => line.startsWith('Error fetching market news:'))).toBe(true);

    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => cards().count()).toBe(MARKET_NEWS_SERVED.length);
    expect(await page.getByText('The news could not be loaded.').count()).toBe(0);
    expect(await analyzeButton().isEnabled()).toBe(true);
  });

  it("says 'No news articles match the filter criteria.' when there is no news", async () => {
    await page.route('**/api/market-news', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await openScreen();
    await getButton().click();
    await page.getByText('No news articles match the filter criteria.').waitFor();
    expect(await cards().count()).toBe(0);
  });

  it('stacks the cards in one column on a phone, and reads well in the dark scheme', async () => {
    for (const [name, options] of [
      ['general-news-phone', { width: 390, height: 844 }],
      ['general-news-dark', { colorScheme: 'dark' as const }],
    ] as const) {
      const context = await newContext(session.browser, { server: 'market', ...options });
      await signedInUser(context, name, { server: 'market' });
      const other = await context.newPage();
      await watch(other);
      await openScreen(other);
      await loadNews(other);
      if (name === 'general-news-phone') {
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
