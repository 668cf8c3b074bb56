import { newYorkTime } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import type { NewsArticle } from '../types';
import { US_STOCKS } from '../universe';
import { createSimulatedMarket } from './simulated-market';

// Monday 2026-11-23, 16:30 New York: the day's session has closed.
const NOW_MS = Date.UTC(2026, 10, 23, 21, 30);
const FROM = '2024-11-25';
const TO = '2026-11-23';

const market = () => createSimulatedMarket({ clock: new FakeClock(NOW_MS) });
/** Every 8th US stock: all sectors, calm and volatile names. */
const SAMPLE = US_STOCKS.filter((_, index) => index % 8 === 0);
const isoDay = (seconds: number) => newYorkTime(seconds * 1000).isoDate;

const UP_HEADLINE = / shares (jump|soar) /;
const DOWN_HEADLINE = / shares (tumble|plunge) /;

describe('simulated company news', () => {
  it('gives every big close-to-close move a headline in its direction, that day', async () => {
    const m = market();
    let bigMoves = 0;
    for (const entry of SAMPLE) {
      const bars = await m.getDailyBars(entry.symbol, Date.parse(`${FROM}T00:00:00Z`) / 1000, NOW_MS / 1000);
      const news = await m.getCompanyNews(entry.symbol, FROM, TO);
      const byDay = new Map<string, NewsArticle[]>();
      for (const article of news) byDay.set(isoDay(article.datetime), [...(byDay.get(isoDay(article.datetime)) ?? []), article]);
      // Big: 5 % or three daily sigmas of the stock's listed volatility, whichever is smaller.
      const sigma = entry.volatility / Math.sqrt(252);
      for (let i = 1; i < bars.close.length; i += 1) {
        const move = bars.close[i]! / bars.close[i - 1]! - 1;
        if (Math.abs(move) < Math.min(0.05, 3 * sigma)) continue;
        bigMoves += 1;
        const day = new Date(bars.time[i]! * 1000).toISOString().slice(0, 10);
        const headlines = (byDay.get(day) ?? []).map((article) => article.headline);
        const [same, opposite] = move > 0 ? [UP_HEADLINE, DOWN_HEADLINE] : [DOWN_HEADLINE, UP_HEADLINE];
        const context = `${entry.symbol} ${day} ${(move * 100).toFixed(1)}%: ${headlines.join(' | ')}`;
        expect(headlines.some((headline) => same.test(headline)), context).toBe(true);
        expect(headlines.some((headline) => opposite.test(headline)), context).toBe(false);
        // The headline states the move as it closed.
        expect(headlines.find((headline) => same.test(headline)), context).toContain(`${Math.abs(move * 100).toFixed(1)}%`);
      }
    }
    // Enough big moves that the check means something (selloffs, rallies, crashes, earnings gaps).
    expect(bigMoves).toBeGreaterThan(100);
  });

  it('gives about 60 % of articles an image served by our own server, the others none', async () => {
    const m = market();
    const articles = [...(await m.getMarketNews())];
    for (const entry of SAMPLE.slice(0, 20)) articles.push(...(await m.getCompanyNews(entry.symbol, '2026-09-01', TO)));
    const withImage = articles.filter((article) => article.image !== '');
    expect(articles.length).toBeGreaterThan(300);
    expect(withImage.length / articles.length).toBeGreaterThan(0.5);
    expect(withImage.length / articles.length).toBeLessThan(0.7);
    for (const article of withImage) expect(article.image).toBe(`/simulated-news/${encodeURIComponent(article.id)}/image.svg`);
    expect(articles.some((article) => article.category === 'general' && article.image !== '')).toBe(true);
    // Deterministic: another process gives the same articles the same images.
    const again = await market().getCompanyNews(SAMPLE[0]!.symbol, '2026-09-01', TO);
    const first = articles.filter((article) => article.related === SAMPLE[0]!.symbol);
    expect(again.map((article) => [article.id, article.image])).toEqual(first.map((article) => [article.id, article.image]));
  });
});
