import { normalisedTitle } from '../../kit/headlines';
import { roundTo } from '../../kit/prices';
import type { CryptoHeadline } from './extras';
import type { CryptoParams } from './params';

/**
 * A coin's news sentiment (docs/rules/crypto.md §3.2), display only (not a signal input until validated):
 * - the headlines published in the 72 h up to the pass (nowMs − 72 h < published ≤ nowMs; later
 *   ones are not known yet), de-duplicated by URL and by normalised title, the newest copy kept;
 * - each score s clamped to [−1, 1] (a non-finite score drops the headline), weighted by
 *   0.5^(age_h / 24) at the pass; the score is Σ w·s / Σ w, rounded to 6 decimals so the label
 *   edges do not depend on floating-point noise;
 * - 'Insufficient' below 3 headlines, else 'Positive' ≥ +0.2, 'Negative' ≤ −0.2, 'Neutral'.
 */

export type CryptoSentiment = 'Positive' | 'Negative' | 'Neutral' | 'Insufficient';
export const NO_CRYPTO_NEWS = 'No recent news summary available.';
const HOUR_MS = 3_600_000;

export interface CryptoNewsSentiment {
  sentiment: CryptoSentiment;
  /** The weighted score, null without headlines. */
  score: number | null;
  /** Headlines counted (after the window and de-duplication). */
  headlines: number;
}

/** The headlines of the window, de-duplicated, newest first (ties: title, then URL, by code point). */
export function cryptoHeadlinesInWindow(items: readonly CryptoHeadline[], nowMs: number, hours: number): CryptoHeadline[] {
  const fromMs = nowMs - hours * HOUR_MS;
  const inWindow = items
    .filter((item) => {
      const at = Date.parse(item.publishedAt);
      return Number.isFinite(at) && at > fromMs && at <= nowMs && Number.isFinite(item.score);
    })
    .sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || compare(a.title, b.title) || compare(a.url, b.url));
  const urls = new Set<string>();
  const titles = new Set<string>();
  const out: CryptoHeadline[] = [];
  for (const item of inWindow) {
    const title = normalisedTitle(item.title);
    const url = item.url.trim();
    if (titles.has(title) || (url !== '' && urls.has(url))) continue;
    titles.add(title);
    if (url !== '') urls.add(url);
    out.push(item);
  }
  return out;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The label of a score over `count` headlines. */
export function cryptoSentimentLabel(score: number | null, count: number, params: Pick<CryptoParams, 'minHeadlines' | 'sentimentPositive' | 'sentimentNegative'>): CryptoSentiment {
  if (score === null || count < params.minHeadlines) return 'Insufficient';
  if (score >= params.sentimentPositive) return 'Positive';
  if (score <= params.sentimentNegative) return 'Negative';
  return 'Neutral';
}

/** The coin's sentiment at the pass `nowMs` from its scored headlines (see the header). */
export function cryptoNewsSentiment(items: readonly CryptoHeadline[] | undefined, nowMs: number, params: CryptoParams): CryptoNewsSentiment {
  const headlines = cryptoHeadlinesInWindow(items ?? [], nowMs, params.newsHours);
  if (headlines.length === 0) return { sentiment: 'Insufficient', score: null, headlines: 0 };
  let weighted = 0;
  let weights = 0;
  for (const item of headlines) {
    const ageHours = (nowMs - Date.parse(item.publishedAt)) / HOUR_MS;
    const weight = 0.5 ** (ageHours / params.newsHalfLifeHours);
    weighted += weight * Math.max(-1, Math.min(1, item.score));
    weights += weight;
  }
  const score = roundTo(weighted / weights, 6);
  return { sentiment: cryptoSentimentLabel(score, headlines.length, params), score, headlines: headlines.length };
}
