import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, FakeClock, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { createSimulatedMarket } from '../../providers/market/simulated/simulated-market';
import type { NewsArticle } from '../../providers/market/types';

// Friday 2026-11-20, 16:30 New York: the session has closed.
const MARKET_NOW = '2026-11-20T21:30:00Z';

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW });
  const email = uniqueEmail('news-images');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

/** Articles as the app serves them (with their image URLs). */
const companyNews = async (symbol: string): Promise<NewsArticle[]> =>
  (await t.app.inject({ method: 'GET', url: `/api/company-news?symbol=${symbol}&from=2026-10-01&to=2026-11-20`, headers })).json();
/** The image's path, requested without a token: images are public. */
const fetchImage = (path: string) => t.app.inject({ method: 'GET', url: path });
const imagePath = (id: string) => `/simulated-news/${encodeURIComponent(id)}/image.svg`;

describe('simulated news images', () => {
  it('serves a company article its chart card: public SVG, escaped text, the stock closes through its day', async () => {
    const news = await companyNews('JNJ');
    const article = news.find((candidate) => candidate.image !== '')!;
    expect(article).toBeDefined();
    // A same-origin path, so the image loads wherever the app is opened (localhost, 127.0.0.1, a LAN address).
    expect(article.image).toBe(imagePath(article.id));
    expect(article.url).toBe(`/simulated-news/${encodeURIComponent(article.id)}`);
    const response = await fetchImage(article.image);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['cache-control']).toMatch(/^public/);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    const svg = response.body;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).toContain('>JNJ</text>');
    // "Johnson & Johnson": the ampersand is escaped, never raw text.
    expect(svg).toContain('Johnson &amp; Johnson');
    expect(svg).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
    expect(svg).not.toMatch(/<script|href=|on\w+=/i);
    // The sparkline: the last 30 closes through the article's day, green if they rose, red if they fell.
    const day = article.id.slice('JNJ-'.length, 'JNJ-'.length + 10);
    const market = createSimulatedMarket({ clock: new FakeClock(Date.parse(MARKET_NOW)) });
    const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
    const closes = Array.from((await market.getDailyBars('JNJ', dayStart - 60 * 86_400, dayStart)).close).slice(-30);
    const points = /<polyline points="([^"]+)"/.exec(svg)![1]!.split(' ');
    expect(points.length).toBe(30);
    const change = (closes[29]! / closes[0]! - 1) * 100;
    expect(svg).toContain(`${change >= 0 ? '+' : '−'}${Math.abs(change).toFixed(1)}% over 30 sessions`);
    expect(svg).toContain(change >= 0 ? 'stroke="#2f9e44"' : 'stroke="#e03131"');
  });

  it('serves market news the index chart (SPY)', async () => {
    const market = (await t.app.inject({ method: 'GET', url: '/api/market-news', headers })).json() as NewsArticle[];
    const article = market.find((candidate) => candidate.image !== '')!;
    expect(article).toBeDefined();
    const response = await fetchImage(article.image);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('>SPY</text>');
  });

  it('answers 404 for articles without an image, unknown or unpublished articles and malformed ids', async () => {
    const news = await companyNews('AAPL');
    const plain = news.find((candidate) => candidate.image === '')!;
    expect(plain).toBeDefined();
    for (const path of [
      imagePath(plain.id),
      imagePath('AAPL-2026-11-20-99'), // no such article
      imagePath('ZZZZ-2026-11-20-2'), // no such symbol
      imagePath('AAPL-2026-12-01-2'), // after now: not published yet
      imagePath('market-2024-01-02-0'), // market news older than the feed
      '/simulated-news/not-an-id/image.svg',
    ]) {
      const response = await fetchImage(path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type'], path).not.toMatch(/svg/);
    }
  });
});
