/**
 * The CSP's img-src follows NEWS_IMAGE_ORIGINS (our own origin always), and the API hands the page
 * only news images it may load under it: from those origins or our own paths, never another host's.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail } from '../../test/helpers';
import { loadConfig } from '../config';
import { createDashboardRepo } from '../features/dashboard/dashboard.repo';
import { createMarket } from '../providers/market';
import type { NewsArticle } from '../providers/market/types';
import { computeSecurityHeaders } from './security-headers';

const imgSrc = (headers: Record<string, unknown>) => /(?:^|;)img-src ([^;]*)/.exec(String(headers['content-security-policy']))?.[1];

const article = (id: string, image: string): NewsArticle => ({
  id,
  headline: `Headline ${id}`,
  summary: '',
  source: 'Wire',
  category: 'general',
  datetime: 1_700_000_000,
  url: `https://news.example.com/${id}`,
  image,
  related: '',
});
const NEWS = [
  article('chosen', 'https://images.example.com/a.jpg'),
  article('chosen-port', 'https://cdn.example.net:8443/b.png'),
  article('other-host', 'https://tracker.example.org/pixel.gif'),
  article('plain-http', 'http://images.example.com/c.jpg'),
  article('own-path', '/simulated-news/x/image.svg'),
  article('none', ''),
];

describe('the CSP img-src', () => {
  it('is our own origin alone by default, and adds exactly the configured origins', () => {
    expect(imgSrc(computeSecurityHeaders())).toBe("'self'");
    const config = loadConfig({ NEWS_IMAGE_ORIGINS: ' https://images.example.com, https://CDN.example.net:8443/ ' });
    expect(config.NEWS_IMAGE_ORIGINS).toEqual(['https://images.example.com', 'https://cdn.example.net:8443']);
    expect(imgSrc(computeSecurityHeaders({ imageOrigins: config.NEWS_IMAGE_ORIGINS }))).toBe("'self' https://images.example.com https://cdn.example.net:8443");
  });
});

describe('the CSP for the installable app (issue 27)', () => {
  const directive = (headers: Record<string, unknown>, name: string) => new RegExp(`(?:^|;)${name} ([^;]*)`).exec(String(headers['content-security-policy']))?.[1];

  it("lets the app register its own service worker and load its own manifest, nothing else's", () => {
    const headers = computeSecurityHeaders({ imageOrigins: ['https://images.example.com'] });
    expect(directive(headers, 'worker-src')).toBe("'self'");
    expect(directive(headers, 'manifest-src')).toBe("'self'");
    // Still nothing from elsewhere for scripts and requests (a worker's own imports and fetches included).
    expect(directive(headers, 'script-src')).toBe("'self'");
    expect(directive(headers, 'connect-src')).toBe("'self'");
  });
});

describe('news images the API hands the page', () => {
  it('keeps only our own paths and images on NEWS_IMAGE_ORIGINS, under a CSP that allows exactly those', async () => {
    const t = await createTestApp(
      { NEWS_IMAGE_ORIGINS: 'https://images.example.com,https://cdn.example.net:8443' },
      { market: (config, clock) => ({ ...createMarket(config, clock), getMarketNews: async () => ({ value: NEWS, stale: false, fetchedAtMs: 0 }) }) },
    );
    try {
      const email = uniqueEmail('images');
      await createUser(t.db, email, 'pw');
      const headers = await login(t.app, email, 'pw');
      const response = await t.app.inject({ method: 'GET', url: '/api/market-news', headers });
      expect(response.statusCode, response.body).toBe(200);
      // The page the images show in (the app's, like every answer outside the API) allows exactly those.
      const page = await t.app.inject({ method: 'GET', url: '/robots.txt' });
      expect(imgSrc(page.headers)).toBe("'self' https://images.example.com https://cdn.example.net:8443");
      expect(Object.fromEntries(response.json<Array<{ id: string; image: string }>>().map((item) => [item.id, item.image]))).toEqual({
        chosen: 'https://images.example.com/a.jpg',
        'chosen-port': 'https://cdn.example.net:8443/b.png',
        'other-host': '',
        'plain-http': '',
        'own-path': '/simulated-news/x/image.svg',
        none: '',
      });

      // The Market Dashboard's sector news, stored by an earlier pass, is filtered the same way.
      const stored = NEWS.map((item) => ({ title: item.id, url: item.url, image: item.image, summary: '', source: item.source, datetime: item.datetime, symbol: 'XOM' }));
      const now = new Date(t.clock.nowMs());
      await createDashboardRepo(t.db).addSector({ sector: 'Energy', slot: now, gptSummary: 'Quiet.', news: stored, tone: 'neutral', score: 0, analyst: 'local', lastUpdatedUtc: now });
      const sectors = await t.app.inject({ method: 'GET', url: '/api/sector_sentiment_scanner', headers });
      expect(sectors.statusCode, sectors.body).toBe(200);
      const energy = sectors.json<Array<{ IndicatorName: string; ValueRawJson: string }>>().find((row) => row.IndicatorName === 'Energy')!;
      expect((JSON.parse(energy.ValueRawJson) as Array<{ image: string }>).map((item) => item.image)).toEqual([
        'https://images.example.com/a.jpg',
        'https://cdn.example.net:8443/b.png',
        '',
        '',
        '/simulated-news/x/image.svg',
        '',
      ]);
    } finally {
      await t.close();
    }
  });
});
