import { describe, expect, it } from 'vitest';
import { bullishBearish, sentimentScore } from './sentiment';

describe('news sentiment lexicon', () => {
  it('scores finance headlines', () => {
    expect(sentimentScore('Apple beats estimates as iPhone sales surge')).toBe(1);
    expect(sentimentScore('Tesla shares plunge after a downgrade')).toBe(-1);
    expect(sentimentScore('Company names new chief financial officer')).toBe(0);
    expect(sentimentScore('Results did not beat expectations')).toBe(-1);
  });

  it('counts bullish and bearish articles as fractions', () => {
    expect(bullishBearish(['Stock jumps on record profit', 'Shares tumble on weak guidance', 'Analyst upgrade lifts shares', 'CEO to speak'])).toEqual({
      bullishPercent: 2 / 3,
      bearishPercent: 1 / 3,
      rated: 3,
    });
    expect(bullishBearish([])).toEqual({ bullishPercent: 0.5, bearishPercent: 0.5, rated: 0 });
  });
});
