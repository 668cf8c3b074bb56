import { describe, expect, it } from 'vitest';
import type { CryptoHeadline } from './extras';
import { cryptoHeadlinesInWindow, cryptoNewsSentiment, cryptoSentimentLabel } from './news';
import { CRYPTO_PARAMS } from './params';

/** docs/rules/crypto.md §3.2: the last 72 h, de-duplicated by URL and normalised title, weighted 0.5^(age_h / 24). */

const NOW = Date.parse('2025-03-10T00:05:00Z');
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();
const headline = (url: string, title: string, hoursAgo: number, score: number): CryptoHeadline => ({ url, title, publishedAt: at(hoursAgo), score, source: 'Wire' });

describe('crypto news sentiment', () => {
  it('weights by half-life 24 h: scores +1 now, −1 a day ago, −1 two days ago → (1 − 0.5 − 0.25) / 1.75', () => {
    const out = cryptoNewsSentiment([headline('a', 'A', 0, 1), headline('b', 'B', 24, -1), headline('c', 'C', 48, -1)], NOW, CRYPTO_PARAMS);
    expect(out).toEqual({ sentiment: 'Neutral', score: 0.142857, headlines: 3 });
  });

  it('labels: Positive ≥ +0.2, Negative ≤ −0.2, Neutral between, Insufficient below 3 headlines', () => {
    expect(cryptoSentimentLabel(0.2, 3, CRYPTO_PARAMS)).toBe('Positive');
    expect(cryptoSentimentLabel(0.199999, 3, CRYPTO_PARAMS)).toBe('Neutral');
    expect(cryptoSentimentLabel(-0.2, 3, CRYPTO_PARAMS)).toBe('Negative');
    expect(cryptoSentimentLabel(-0.199999, 3, CRYPTO_PARAMS)).toBe('Neutral');
    expect(cryptoSentimentLabel(0.9, 2, CRYPTO_PARAMS)).toBe('Insufficient');
    expect(cryptoSentimentLabel(null, 0, CRYPTO_PARAMS)).toBe('Insufficient');
    const three = [headline('a', 'A', 1, -0.3), headline('b', 'B', 1, -0.3), headline('c', 'C', 1, -0.3)];
    expect(cryptoNewsSentiment(three, NOW, CRYPTO_PARAMS)).toEqual({ sentiment: 'Negative', score: -0.3, headlines: 3 });
    expect(cryptoNewsSentiment(three.slice(0, 2), NOW, CRYPTO_PARAMS)).toEqual({ sentiment: 'Insufficient', score: -0.3, headlines: 2 });
    expect(cryptoNewsSentiment(undefined, NOW, CRYPTO_PARAMS)).toEqual({ sentiment: 'Insufficient', score: null, headlines: 0 });
  });

  it('de-duplicates by URL and by normalised title, keeping the newest copy; only the last 72 h; nothing after the pass', () => {
    const items = [
      headline('https://x/1', 'Bitcoin hits a record!', 5, 0.8),
      headline('https://x/1', 'Different title, same URL', 2, -0.8),
      headline('https://y/2', 'BITCOIN   hits a record', 1, 0.1),
      headline('https://z/3', 'Old news', 72, 1),
      headline('https://z/4', 'Just inside', 71.9, 0.5),
      headline('https://z/5', 'From the future', -1, -1),
      headline('https://z/6', 'Unscored', 1, Number.NaN),
    ];
    const kept = cryptoHeadlinesInWindow(items, NOW, 72);
    expect(kept.map((item) => item.title)).toEqual(['BITCOIN   hits a record', 'Different title, same URL', 'Just inside']);
  });

  it('clamps scores to [−1, 1]', () => {
    const out = cryptoNewsSentiment([headline('a', 'A', 0, 5), headline('b', 'B', 0, 5), headline('c', 'C', 0, 5)], NOW, CRYPTO_PARAMS);
    expect(out.score).toBe(1);
  });
});
