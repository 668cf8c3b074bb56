import { describe, expect, it } from 'vitest';
import { filterTrumpNews, newsAnalysisText, TRUMP_NEWS_KEYWORD } from './news-text';

const item = (headline: string, summary: string) => ({ headline, summary });

describe("spec §2 Trump News: keeps items whose headline or summary contains 'trump' (case-insensitive)", () => {
  it("uses the keyword 'trump' (spec §9)", () => {
    expect(TRUMP_NEWS_KEYWORD).toBe('trump');
  });

  it('matches the headline or the summary in any case, and keeps the input order', () => {
    const inHeadline = item('TRUMP signs tariff order', 'Steel importers react.');
    const inSummary = item('Markets slip on trade worries', 'Investors weigh remarks by President Trump.');
    const mixed = item('Bonds rally', 'The tRuMp administration names a Fed pick.');
    const neither = item('Fed holds rates steady', 'Policymakers see inflation cooling.');
    expect(filterTrumpNews([inHeadline, neither, inSummary, mixed])).toEqual([inHeadline, inSummary, mixed]);
  });

  it('matches the keyword inside a longer word and keeps extra fields', () => {
    const trumpism = { headline: 'Trumponomics returns', summary: '', url: 'https://example.com' };
    expect(filterTrumpNews([trumpism])).toEqual([trumpism]);
  });

  it('gives an empty list when nothing matches', () => {
    expect(filterTrumpNews([item('Oil climbs', 'OPEC cuts output.')])).toEqual([]);
    expect(filterTrumpNews([])).toEqual([]);
  });
});

describe("spec §7: the analysis text is 'headline: summary' items joined with ', '", () => {
  it('joins each headline and summary with ": " and the items with ", "', () => {
    expect(newsAnalysisText([item('Fed holds rates', 'Inflation cools.'), item('Oil jumps', 'OPEC cuts.')])).toBe(
      'Fed holds rates: Inflation cools., Oil jumps: OPEC cuts.',
    );
  });

  it('sends a single item without a separator and nothing for no items', () => {
    expect(newsAnalysisText([item('Only one', 'Summary here')])).toBe('Only one: Summary here');
    expect(newsAnalysisText([])).toBe('');
  });

  it('keeps the text as given, markup included (it is data, not HTML)', () => {
    expect(newsAnalysisText([item('<b>Bold</b>', '<script>alert(1)</script>')])).toBe('<b>Bold</b>: <script>alert(1)</script>');
  });
});
