/**
 * A small finance-aware sentiment lexicon: the local analyst's scorer, and the live market's
 * fallback for news sentiment when the provider's sentiment endpoint is premium.
 */
const POSITIVE = [
  'beat', 'beats', 'surge', 'surges', 'soar', 'soars', 'jump', 'jumps', 'rally', 'rallies', 'gain', 'gains', 'record', 'upgrade',
  'upgrades', 'upgraded', 'outperform', 'bullish', 'raises', 'raised', 'strong', 'growth', 'profit', 'profits', 'rebound', 'rebounds',
  'climb', 'climbs', 'wins', 'approval', 'approved', 'expands', 'buyback', 'dividend', 'exceeds', 'optimism', 'recovery', 'higher', 'boost',
  'tops', 'upbeat', 'outperforms', 'surged', 'soared', 'jumped', 'rallied', 'gained', 'climbed', 'rebounded', 'rises', 'rose', 'accelerates',
  'boosts', 'boosted', 'strength', 'robust', 'breakthrough', 'easing',
];
const NEGATIVE = [
  'miss', 'misses', 'plunge', 'plunges', 'tumble', 'tumbles', 'fall', 'falls', 'drop', 'drops', 'slump', 'slumps', 'downgrade',
  'downgrades', 'downgraded', 'underperform', 'bearish', 'cuts', 'cut', 'weak', 'loss', 'losses', 'lawsuit', 'probe', 'investigation',
  'recall', 'warns', 'warning', 'layoffs', 'decline', 'declines', 'sinks', 'slides', 'lower', 'tariffs', 'tariff', 'fraud', 'bankruptcy',
  'default', 'fears', 'selloff', 'sell-off', 'crash', 'slowdown', 'recession',
  'missed', 'lowers', 'lowered', 'slashes', 'slashed', 'plunged', 'tumbled', 'fell', 'dropped', 'sank', 'slumped', 'warned', 'downbeat',
  'delays', 'delayed', 'sanctions', 'hike', 'hikes', 'volatile', 'turmoil', 'uncertainty', 'headwinds', 'shortfall', 'disappointing',
];
/** Words whose sign depends on the word before: a rate cut is good news for stocks, a rate hike is not. */
const AFTER: Record<string, Record<string, 1 | -1>> = {
  cut: { rate: 1 },
  cuts: { rate: 1 },
  hike: { rate: -1 },
  hikes: { rate: -1 },
};
/** … or on the word after: to cut rates. */
const BEFORE: Record<string, Record<string, 1 | -1>> = {
  cut: { rates: 1 },
  cuts: { rates: 1 },
  hike: { rates: -1 },
  hikes: { rates: -1 },
};
const NEGATORS = new Set(['not', 'no', 'without', "didn't", "doesn't", 'never', 'fails', 'failed']);
const positive = new Set(POSITIVE);
const negative = new Set(NEGATIVE);

/** The lexicon's reading of a text: the words that counted as positive and as negative (negation applied). */
export interface SentimentTerms {
  score: number;
  positive: string[];
  negative: string[];
}

/** Tone of a text with the words behind it; `score` is as sentimentScore. */
export function sentimentTerms(text: string): SentimentTerms {
  const words = text.toLowerCase().match(/[a-z'-]+/g) ?? [];
  const found: SentimentTerms = { score: 0, positive: [], negative: [] };
  words.forEach((word, index) => {
    const previous = index > 0 ? words[index - 1]! : '';
    const next = words[index + 1] ?? '';
    const after = AFTER[word]?.[previous];
    const before = BEFORE[word]?.[next];
    const sign = after ?? before ?? (positive.has(word) ? 1 : negative.has(word) ? -1 : 0);
    if (sign === 0) return;
    const negated = NEGATORS.has(previous);
    const term = before !== undefined ? `${word} ${next}` : negated || after !== undefined ? `${previous} ${word}` : word;
    (sign * (negated ? -1 : 1) > 0 ? found.positive : found.negative).push(term);
  });
  const counted = found.positive.length + found.negative.length;
  found.score = counted === 0 ? 0 : (found.positive.length - found.negative.length) / counted;
  return found;
}

/** Tone of a text from −1 (all negative words) to +1 (all positive); 0 when no word counts. */
export function sentimentScore(text: string): number {
  return sentimentTerms(text).score;
}

/** Bullish and bearish fractions (0–1) of a set of articles; neutral articles do not count; 0.5/0.5 when none is rated. */
export function bullishBearish(texts: readonly string[]): { bullishPercent: number; bearishPercent: number; rated: number } {
  let bullish = 0;
  let bearish = 0;
  for (const text of texts) {
    const score = sentimentScore(text);
    if (score > 0.1) bullish += 1;
    else if (score < -0.1) bearish += 1;
  }
  const rated = bullish + bearish;
  return rated === 0 ? { bullishPercent: 0.5, bearishPercent: 0.5, rated } : { bullishPercent: bullish / rated, bearishPercent: bearish / rated, rated };
}
