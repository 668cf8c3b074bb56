/**
 * A small finance-aware sentiment lexicon: the local analyst's scorer, and the live market's
 * fallback for news sentiment when the provider's sentiment endpoint is premium.
 */
const POSITIVE = [
  'beat', 'beats', 'surge', 'surges', 'soar', 'soars', 'jump', 'jumps', 'rally', 'rallies', 'gain', 'gains', 'record', 'upgrade',
  'upgrades', 'upgraded', 'outperform', 'bullish', 'raises', 'raised', 'strong', 'growth', 'profit', 'profits', 'rebound', 'rebounds',
  'climb', 'climbs', 'wins', 'approval', 'approved', 'expands', 'buyback', 'dividend', 'exceeds', 'optimism', 'recovery', 'higher', 'boost',
];
const NEGATIVE = [
  'miss', 'misses', 'plunge', 'plunges', 'tumble', 'tumbles', 'fall', 'falls', 'drop', 'drops', 'slump', 'slumps', 'downgrade',
  'downgrades', 'downgraded', 'underperform', 'bearish', 'cuts', 'cut', 'weak', 'loss', 'losses', 'lawsuit', 'probe', 'investigation',
  'recall', 'warns', 'warning', 'layoffs', 'decline', 'declines', 'sinks', 'slides', 'lower', 'tariffs', 'tariff', 'fraud', 'bankruptcy',
  'default', 'fears', 'selloff', 'sell-off', 'crash', 'slowdown', 'recession',
];
const NEGATORS = new Set(['not', 'no', 'without', "didn't", "doesn't", 'never', 'fails', 'failed']);
const positive = new Set(POSITIVE);
const negative = new Set(NEGATIVE);

/** Tone of a text from −1 (all negative words) to +1 (all positive); 0 when no word counts. */
export function sentimentScore(text: string): number {
  const words = text.toLowerCase().match(/[a-z'-]+/g) ?? [];
  let score = 0;
  let counted = 0;
  words.forEach((word, index) => {
    const sign = positive.has(word) ? 1 : negative.has(word) ? -1 : 0;
    if (sign === 0) return;
    const negated = index > 0 && NEGATORS.has(words[index - 1]!);
    score += negated ? -sign : sign;
    counted += 1;
  });
  return counted === 0 ? 0 : score / counted;
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
