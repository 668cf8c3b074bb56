/**
 * The local analyst: a deterministic, extractive reading of news items — tone from the finance
 * lexicon, themes, tickers, and 3–6 key points quoted from the news with their headlines.
 */
import { parseNewsText, truncateToBudget, type NewsItem } from './news-items';
import { splitSentences } from './sentences';
import { sentimentTerms } from './sentiment';
import { themesOf, tickersOf } from './themes';

export const MAX_KEY_POINTS = 6;
export const MIN_KEY_POINTS = 3;
const MAX_POINT_CHARS = 240;
const MAX_THEMES = 4;
const MAX_TICKERS = 8;

export interface KeyPoint {
  text: string;
  headline: string;
  score: number;
}

export interface LocalAnalysis {
  stock?: string;
  itemCount: number;
  truncated: boolean;
  tone: 'positive' | 'negative' | 'mixed' | 'neutral';
  /** −1 … +1, from the lexicon over all items. */
  score: number;
  /** How many items read positive, negative and neutral on their own. */
  itemTones: { positive: number; negative: number; neutral: number };
  positiveTerms: string[];
  negativeTerms: string[];
  themes: Array<{ theme: string; items: number }>;
  tickers: string[];
  keyPoints: KeyPoint[];
}

/** A summary's sentences; decimals (`0.3%`), tickers with dots and `U.S.` stay whole. */
const sentencesOf = (text: string) => splitSentences(text.trim());

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** Candidate key points of one item, best first: its summary's sentences, then its headline. */
function candidatesOf(item: NewsItem): KeyPoint[] {
  const sentences = sentencesOf(item.summary);
  const texts = sentences.length > 0 ? sentences : [item.headline];
  return texts
    .map((text, index) => {
      const terms = sentimentTerms(text);
      const weight = terms.positive.length + terms.negative.length + themesOf(text).length + (/\d/.test(text) ? 1 : 0) + (index === 0 ? 0.5 : 0);
      return { point: { text: clip(text, MAX_POINT_CHARS), headline: clip(item.headline, 120), score: terms.score }, weight };
    })
    .sort((a, b) => b.weight - a.weight)
    .map(({ point }) => point)
    // The headline itself is the last resort, for news too short to give three points otherwise.
    .concat(sentences.length > 0 ? [{ text: clip(item.headline, MAX_POINT_CHARS), headline: clip(item.headline, 120), score: sentimentTerms(item.headline).score }] : []);
}

const sentimentWeight = (point: KeyPoint) => Math.abs(point.score) + (/\d/.test(point.text) ? 0.5 : 0) + 0.1;

/** 3–6 points: the best of each item first (items in their order), then second-best ones while under three. */
function pickKeyPoints(items: readonly NewsItem[]): KeyPoint[] {
  const candidates = items.map(candidatesOf);
  const ranked = candidates
    .map((list, index) => ({ list, index, weight: list.length > 0 ? sentimentWeight(list[0]!) : 0 }))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .slice(0, MAX_KEY_POINTS)
    .sort((a, b) => a.index - b.index);
  const points = ranked.flatMap(({ list }) => list.slice(0, 1));
  for (const { list } of ranked) {
    for (const extra of list.slice(1)) if (points.length < MIN_KEY_POINTS) points.push(extra);
  }
  return points;
}

function toneOf(score: number, positives: number, negatives: number): LocalAnalysis['tone'] {
  if (score >= 0.2) return 'positive';
  if (score <= -0.2) return 'negative';
  return positives + negatives > 0 ? 'mixed' : 'neutral';
}

function itemTonesOf(items: readonly NewsItem[]): LocalAnalysis['itemTones'] {
  const tones = { positive: 0, negative: 0, neutral: 0 };
  for (const item of items) {
    const score = sentimentTerms(`${item.headline}. ${item.summary}`).score;
    tones[score >= 0.2 ? 'positive' : score <= -0.2 ? 'negative' : 'neutral'] += 1;
  }
  return tones;
}

const distinct = (words: readonly string[]) => [...new Set(words)];

/**
 * Provider text with its HTML tags dropped (feeds send `<p>`, `<b>` and worse): the analysis quotes
 * the words, never the markup. The screens show the result as text either way.
 */
function withoutMarkup(text: string): string {
  return text.includes('<') ? text.replace(/<\/?[a-zA-Z][^<>]*>/g, ' ').replace(/\s{2,}/g, ' ').trim() : text;
}

/** Analyses an analysis text (spec §7 notes), reading at most `maxChars` of it. */
export function analyzeNewsText(text: string, maxChars: number): LocalAnalysis {
  const budget = truncateToBudget(text, maxChars);
  const parsed = parseNewsText(budget.text);
  return analyzeNewsItems(parsed.items, { truncated: budget.truncated, ...(parsed.stock ? { stock: parsed.stock } : {}) });
}

/** Analyses news items as they are (no text to parse); `stock` names the stock the news is about. */
export function analyzeNewsItems(newsItems: readonly NewsItem[], options: { stock?: string; truncated?: boolean } = {}): LocalAnalysis {
  const { stock } = options;
  const items = newsItems.map((item) => ({ headline: withoutMarkup(item.headline), summary: withoutMarkup(item.summary) }));
  const all = items.map((item) => `${item.headline}. ${item.summary}`).join('\n');
  const terms = sentimentTerms(all);
  const themeCounts = new Map<string, number>();
  for (const item of items) for (const theme of themesOf(`${item.headline} ${item.summary}`)) themeCounts.set(theme, (themeCounts.get(theme) ?? 0) + 1);
  const tickers = tickersOf(all).filter((ticker) => ticker !== stock);
  return {
    ...(stock ? { stock } : {}),
    itemCount: items.length,
    truncated: options.truncated ?? false,
    tone: toneOf(terms.score, terms.positive.length, terms.negative.length),
    score: Math.round(terms.score * 100) / 100,
    itemTones: itemTonesOf(items),
    positiveTerms: distinct(terms.positive),
    negativeTerms: distinct(terms.negative),
    themes: [...themeCounts.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_THEMES).map(([theme, items]) => ({ theme, items })),
    tickers: (stock ? [stock, ...tickers] : tickers).slice(0, MAX_TICKERS),
    keyPoints: pickKeyPoints(items),
  };
}
