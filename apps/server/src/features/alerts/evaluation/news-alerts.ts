/**
 * The news alert types (docs/rules/alerts.md §2 "The eleven types"): GENERAL_NEWS (new market news of a chosen
 * category) and NEWS+TRUMP+MAG7+ALPHA / NEWS+TRUMP+MAG7+GNEWS (new news mentioning a chosen keyword),
 * one message per batch: the count, the top 3 headlines and the local analyst's one-line gist.
 *
 * The four categories come from the news themes of core (themesOf) plus a few fiscal and market
 * words the themes do not name. Neither Alpha Vantage nor GNews is wired here, so the two keyword
 * types read the configured news source, and their messages say so.
 */
import { analyzeNewsItems, themesOf, tickersOf } from '@signalboard/core';
import type { NewsArticle } from '../../../providers/market/types';

export type NewsCategory = 'Economy Monetary' | 'Economy Fiscal' | 'Economy Macro' | 'Financial Markets';

const CATEGORY_THEMES: Readonly<Record<NewsCategory, readonly string[]>> = {
  'Economy Monetary': ['Interest rates & the Fed', 'Inflation'],
  'Economy Fiscal': [],
  'Economy Macro': ['Jobs & economy', 'Trade & tariffs'],
  'Financial Markets': ['Earnings', 'Analyst ratings', 'Deals & M&A'],
};
const CATEGORY_WORDS: Readonly<Record<NewsCategory, RegExp | null>> = {
  'Economy Monetary': /\b(?:monetary|central bank|ecb|boj|basis points)\b/i,
  'Economy Fiscal': /\b(?:fiscal|budget|deficit|tax|taxes|stimulus|debt ceiling|government spending|spending bill|shutdown)\b/i,
  'Economy Macro': /\b(?:macro|manufacturing|pmi|housing starts|consumer confidence|economic growth)\b/i,
  'Financial Markets': /\b(?:stocks?|wall street|s&p 500|nasdaq|dow|equities|market rally|sell-?off|futures)\b/i,
};

/** The categories an article belongs to (any number). */
export function newsCategoriesOf(article: Pick<NewsArticle, 'headline' | 'summary'>): NewsCategory[] {
  const text = `${article.headline} ${article.summary}`;
  const themes = new Set(themesOf(text));
  return (Object.keys(CATEGORY_THEMES) as NewsCategory[]).filter(
    (category) => CATEGORY_THEMES[category].some((theme) => themes.has(theme)) || (CATEGORY_WORDS[category]?.test(text) ?? false),
  );
}

/** The Trump / Mag 7 keywords an article mentions: TRUMP by name, the tickers by ticker, company name or `related`. */
export function newsKeywordsOf(article: Pick<NewsArticle, 'headline' | 'summary' | 'related'>, keywords: readonly string[]): string[] {
  const text = `${article.headline} ${article.summary}`;
  const tickers = new Set([...tickersOf(text), ...article.related.split(',').map((symbol) => symbol.trim().toUpperCase())]);
  return keywords.filter((keyword) => (keyword === 'TRUMP' ? /\btrump\b/i.test(text) : tickers.has(keyword)));
}

/** The analyst's one-line gist of a batch (the local analyst: tone and the leading themes). */
export function newsGist(articles: ReadonlyArray<Pick<NewsArticle, 'headline' | 'summary'>>): string {
  const analysis = analyzeNewsItems(articles.map((article) => ({ headline: article.headline, summary: article.summary })));
  const themes = analysis.themes.slice(0, 2).map((entry) => entry.theme);
  const score = `${analysis.score >= 0 ? '+' : '−'}${Math.abs(analysis.score).toFixed(2)}`;
  return `Tone ${analysis.tone} (${score})${themes.length > 0 ? `; ${themes.join(', ')}` : ''}.`;
}
