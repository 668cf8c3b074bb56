/**
 * The text the news screens send to the AI analyst, and the Trump News keyword filter
 * (spec §2 "Trump News screen", §7 notes on usage, §9 "News keyword filter: 'trump'").
 */

/** The fields of a news article the analysis text and the keyword filter read. */
export interface NewsTextItem {
  readonly headline: string;
  readonly summary: string;
}

/** Spec §9: "News keyword filter: 'trump'". */
export const TRUMP_NEWS_KEYWORD = 'trump';

/**
 * Spec §2: keeps items "whose headline or summary contains 'trump' (case-insensitive)".
 * The order of the input is kept.
 */
export function filterTrumpNews<T extends NewsTextItem>(items: readonly T[]): T[] {
  return items.filter(
    (item) => item.headline.toLowerCase().includes(TRUMP_NEWS_KEYWORD) || item.summary.toLowerCase().includes(TRUMP_NEWS_KEYWORD),
  );
}

/**
 * Spec §7: "News analysis text: for general news, 'headline: summary' items joined with ', '".
 * Trump News sends "the filtered 'headline: summary' entries joined by commas" — the same text.
 */
export function newsAnalysisText(items: readonly NewsTextItem[]): string {
  return items.map((item) => `${item.headline}: ${item.summary}`).join(', ');
}
