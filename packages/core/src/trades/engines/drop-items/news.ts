import { analyzeNewsItems } from '../../../news/local-analysis';
import { sentimentScore } from '../../../news/sentiment';
import { roundTo } from '../../kit/prices';
import type { DropHeadline } from './extras';
import type { DropSentiment, NewsTag } from './state';
import { normalisedTitle } from '../../kit/headlines';

/**
 * A drop item's news (docs/rules/drop-items.md §5.2, labels as docs/rules/crypto.md §3.2): the summary of the symbol's headlines
 * from the reference high's session through the pass, their age-weighted score and label, and the
 * NewsTag hypothesis (earnings, guidance or a regulator, or a score ≤ −0.3).
 */

export const NO_NEWS = 'No recent news.';
export const MAX_NEWS_CHARS = 300;
const HOUR_MS = 3_600_000;

/** Words that make a headline about earnings, guidance or a regulator (matched on word boundaries). */
export const NEWS_DRIVEN_WORDS: readonly string[] = [
  // earnings
  'earnings', 'eps', 'quarterly results', 'quarterly profit', 'quarterly revenue', 'revenue', 'q1', 'q2', 'q3', 'q4', 'fiscal quarter',
  // guidance
  'guidance', 'outlook', 'forecast', 'forecasts', 'profit warning',
  // regulators
  'regulator', 'regulators', 'regulatory', 'sec', 'ftc', 'doj', 'fda', 'justice department', 'antitrust', 'probe', 'investigation', 'subpoena', 'recall',
];
const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NEWS_DRIVEN = new RegExp(`\\b(?:${NEWS_DRIVEN_WORDS.map(escape).join('|')})\\b`, 'i');

export interface DropNews {
  stockNews: string;
  sentiment: DropSentiment;
  /** The age-weighted score (null without headlines). */
  score: number | null;
  headlineCount: number;
  newsTag: NewsTag;
}

/** The headlines published from `fromMs` through `nowMs`, de-duplicated by URL and normalised title, newest first. */
export function headlinesInWindow(headlines: readonly DropHeadline[], fromMs: number, nowMs: number): DropHeadline[] {
  const inWindow = headlines
    .filter((item) => {
      const at = Date.parse(item.datetime);
      return at >= fromMs && at <= nowMs;
    })
    .sort((a, b) => Date.parse(b.datetime) - Date.parse(a.datetime) || (a.headline < b.headline ? -1 : a.headline > b.headline ? 1 : 0));
  const seenUrls = new Set<string>();
  const seenTitles = new Set<string>();
  const out: DropHeadline[] = [];
  for (const item of inWindow) {
    const title = normalisedTitle(item.headline);
    if (seenTitles.has(title) || (item.url !== undefined && seenUrls.has(item.url))) continue;
    seenTitles.add(title);
    if (item.url !== undefined) seenUrls.add(item.url);
    out.push(item);
  }
  return out;
}

/** A headline's score: the analyst's when given, else the local lexicon over its headline and summary. */
export function headlineScore(item: DropHeadline): number {
  return item.score ?? sentimentScore(`${item.headline}. ${item.summary}`);
}

/** 'Positive' ≥ +0.2, 'Negative' ≤ −0.2, else 'Neutral'; 'Neutral' below `minHeadlines`. */
export function sentimentLabel(score: number | null, count: number, minHeadlines = 3): DropSentiment {
  if (score === null || count < minHeadlines) return 'Neutral';
  if (score >= 0.2) return 'Positive';
  if (score <= -0.2) return 'Negative';
  return 'Neutral';
}

/** The local analyst's summary of the headlines (its key points, in order), at most 300 characters. */
export function newsSummary(items: readonly DropHeadline[], symbol: string): string {
  if (items.length === 0) return NO_NEWS;
  const analysis = analyzeNewsItems(
    items.map((item) => ({ headline: item.headline, summary: item.summary })),
    { stock: symbol },
  );
  const points = analysis.keyPoints.map((point) => point.text.trim()).filter((text) => text.length > 0);
  const text = (points.length > 0 ? points : items.map((item) => item.headline)).join(' ').replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_NEWS_CHARS) return text;
  return `${text.slice(0, MAX_NEWS_CHARS - 1).trimEnd()}…`;
}

/**
 * The news fields of an item: headlines published from the reference high's session start
 * (`fromMs`) through the pass (`nowMs`), each weighted by 0.5^(age_h / 24) at the pass.
 */
export function dropNewsOf(headlines: readonly DropHeadline[] | undefined, symbol: string, fromMs: number, nowMs: number, minHeadlines = 3): DropNews {
  const items = headlinesInWindow(headlines ?? [], fromMs, nowMs);
  if (items.length === 0) return { stockNews: NO_NEWS, sentiment: 'Neutral', score: null, headlineCount: 0, newsTag: 'no identifiable news' };
  let weighted = 0;
  let weights = 0;
  for (const item of items) {
    const ageHours = Math.max(0, (nowMs - Date.parse(item.datetime)) / HOUR_MS);
    const weight = 0.5 ** (ageHours / 24);
    weighted += weight * Math.max(-1, Math.min(1, headlineScore(item)));
    weights += weight;
  }
  // Rounded (6 decimals) so that the labels' edges do not depend on floating-point noise.
  const score = roundTo(weights > 0 ? weighted / weights : 0, 6);
  const driven = score <= -0.3 || items.some((item) => NEWS_DRIVEN.test(item.headline));
  return {
    stockNews: newsSummary(items, symbol),
    sentiment: sentimentLabel(score, items.length, minHeadlines),
    score,
    headlineCount: items.length,
    newsTag: driven ? 'news-driven' : 'no identifiable news',
  };
}
