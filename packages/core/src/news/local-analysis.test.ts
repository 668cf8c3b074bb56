import { describe, expect, it } from 'vitest';
import { renderLocalAnalysis } from './analysis-text';
import { analyzeNewsItems, analyzeNewsText, MAX_KEY_POINTS } from './local-analysis';
import { parseNewsText, truncateToBudget } from './news-items';
import { sentimentTerms } from './sentiment';
import { themesOf, tickersOf } from './themes';

const item = (headline: string, summary: string) => `${headline}: ${summary}`;

const BULLISH = [
  item('Apple beats estimates as iPhone sales surge', 'Apple (AAPL) reported quarterly revenue of $94 billion, up 8%, and raised its guidance. Shares rose in late trading.'),
  item('Nvidia upgraded to outperform at Morgan Stanley', 'The analyst lifted the price target to $180, citing strong AI data center demand ahead of earnings.'),
  item('Fed signals a rate cut in December', 'Powell said inflation is easing and the Federal Reserve could cut rates, boosting stocks.'),
].join(', ');

const BEARISH = [
  item('Tesla misses delivery estimates', 'Tesla (TSLA) delivered 12% fewer cars than expected, and shares tumbled 6% in early trading.'),
  item('Trump threatens new tariffs on China', 'The president warned of tariffs of 60% on Chinese imports, raising fears of a trade war and a slowdown.'),
  item('Boeing downgraded after safety probe', 'Analysts downgraded Boeing as a federal investigation widens; the company warns of delays.'),
].join(', ');

describe('parseNewsText', () => {
  it('splits headline: summary items joined with commas, keeping commas inside summaries', () => {
    const parsed = parseNewsText('Stock: aapl, News Data: Apple beats: Sales rose, margins too, Apple sued: A lawsuit, filed today');
    expect(parsed).toEqual({
      stock: 'AAPL',
      items: [
        { headline: 'Apple beats', summary: 'Sales rose, margins too' },
        { headline: 'Apple sued', summary: 'A lawsuit, filed today' },
      ],
    });
  });

  it('reads free text without the item shape as one item', () => {
    expect(parseNewsText('markets were quiet today').items).toEqual([{ headline: 'markets were quiet today', summary: '' }]);
    expect(parseNewsText('   ').items).toEqual([]);
  });
});

describe('truncateToBudget', () => {
  it('keeps short text and cuts long text at an item boundary', () => {
    expect(truncateToBudget('A: b', 10)).toEqual({ text: 'A: b', truncated: false });
    const cut = truncateToBudget('A: one two, B: three four, C: five six', 30);
    expect(cut).toEqual({ text: 'A: one two, B: three four', truncated: true });
  });
});

describe('the finance lexicon', () => {
  it('reads a rate cut as good news and a rate hike as bad, with the words behind the score', () => {
    expect(sentimentTerms('The Fed delivers a rate cut')).toEqual({ score: 1, positive: ['rate cut'], negative: [] });
    expect(sentimentTerms('Markets fear another rate hike').negative).toEqual(['rate hike']);
    expect(sentimentTerms('Job cuts announced').score).toBe(-1);
    expect(sentimentTerms('The Fed could cut rates').positive).toEqual(['cut rates']);
    expect(sentimentTerms('Company lowers guidance, shares fell').negative).toEqual(['lowers', 'fell']);
  });
});

describe('themes and tickers', () => {
  it('finds themes on word boundaries', () => {
    expect(themesOf('Trump threatens tariffs on China')).toEqual(['Trade & tariffs', 'Politics & policy', 'Geopolitics']);
    expect(themesOf('Said the chairman')).toEqual([]);
  });

  it('takes explicit tickers and known company names, not bare capitals', () => {
    expect(tickersOf('Apple (AAPL) and $NVDA rise; NYSE: BRK.B flat; the CEO said GDP grew; Tesla and Apple')).toEqual(['AAPL', 'NVDA', 'BRK.B', 'TSLA']);
  });
});

describe('analyzeNewsText', () => {
  it('reads bullish news as positive, with its themes, tickers and sourced key points', () => {
    const analysis = analyzeNewsText(BULLISH, 10_000);
    expect(analysis.tone).toBe('positive');
    expect(analysis.score).toBeGreaterThan(0.5);
    expect(analysis.themes[0]).toEqual({ theme: 'Earnings', items: 2 });
    expect(analysis.themes.map(({ theme }) => theme)).toContain('Interest rates & the Fed');
    expect(analysis.tickers).toEqual(expect.arrayContaining(['AAPL', 'NVDA']));
    expect(analysis.keyPoints).toHaveLength(3);
    expect(analysis.keyPoints.map((point) => point.headline)).toEqual([
      'Apple beats estimates as iPhone sales surge',
      'Nvidia upgraded to outperform at Morgan Stanley',
      'Fed signals a rate cut in December',
    ]);
    for (const point of analysis.keyPoints) expect(BULLISH).toContain(point.text);
  });

  it('reads bearish news as negative and names the trade and politics themes', () => {
    const analysis = analyzeNewsText(BEARISH, 10_000);
    expect(analysis.tone).toBe('negative');
    expect(analysis.score).toBeLessThan(-0.5);
    expect(analysis.itemTones).toEqual({ positive: 0, negative: 3, neutral: 0 });
    expect(analysis.negativeTerms).toEqual(expect.arrayContaining(['misses', 'tariffs', 'downgraded']));
    expect(analysis.themes.map(({ theme }) => theme)).toContain('Trade & tariffs');
    expect(analysis.tickers).toEqual(expect.arrayContaining(['TSLA', 'BA']));
  });

  it('is deterministic, and caps the key points at six over many items', () => {
    const many = Array.from({ length: 12 }, (_, index) => item(`Headline ${index} gains`, `Shares rose ${index}% on strong demand.`)).join(', ');
    expect(analyzeNewsText(many, 10_000)).toEqual(analyzeNewsText(many, 10_000));
    const analysis = analyzeNewsText(many, 10_000);
    expect(analysis.itemCount).toBe(12);
    expect(analysis.keyPoints).toHaveLength(MAX_KEY_POINTS);
  });

  it('draws three points from the sentences of a single item', () => {
    const one = item('Microsoft cloud growth slows', 'Azure grew 28%. Margins fell. The outlook was cut. Investors sold.');
    expect(analyzeNewsText(one, 10_000).keyPoints.map((point) => point.headline)).toEqual(Array(3).fill('Microsoft cloud growth slows'));
  });

  it('falls back on the headline when one short item gives fewer than three sentences', () => {
    const points = analyzeNewsText(item('Intel wins chip order', 'The deal is worth $2 billion.'), 10_000).keyPoints;
    expect(points.map((point) => point.text)).toEqual(['The deal is worth $2 billion.', 'Intel wins chip order']);
  });

  it('puts the stock of a stock analysis first among the tickers', () => {
    expect(analyzeNewsText(`Stock: MSFT, News Data: ${BULLISH}`, 10_000).tickers[0]).toBe('MSFT');
  });

  it('reads only the budget of huge input and says so', () => {
    const huge = Array.from({ length: 5000 }, (_, index) => item(`Item ${index} beats`, 'Revenue rose.')).join(', ');
    const analysis = analyzeNewsText(huge, 2_000);
    expect(analysis.truncated).toBe(true);
    expect(analysis.itemCount).toBeLessThan(100);
    expect(renderLocalAnalysis(analysis, 'market news')).toContain('Only the first part of the news');
  });

  it('handles text with no items', () => {
    const analysis = analyzeNewsText('', 1_000);
    expect(analysis).toMatchObject({ itemCount: 0, tone: 'neutral', score: 0, keyPoints: [] });
  });
});

describe('renderLocalAnalysis', () => {
  it('writes one statement a line, names each point\'s headline and says it is automatic', () => {
    const text = renderLocalAnalysis(analyzeNewsText(BEARISH, 10_000), 'Trump-related news');
    const lines = text.split('\n');
    expect(lines[0]).toBe('Automatic summary of 3 news items (Trump-related news).');
    expect(lines[1]).toMatch(/^Overall tone: negative, sentiment score -\d\.\d\d on a scale from -1 to \+1\.$/);
    expect(lines[2]).toMatch(/^Items: 0 positive, 3 negative, 0 neutral; 0 positive terms and \d+ negative terms \(misses, /);
    expect(lines).toContain('Key points:');
    const bullets = lines.filter((line) => line.startsWith('- '));
    expect(bullets.length).toBeGreaterThanOrEqual(3);
    expect(bullets.length).toBeLessThanOrEqual(6);
    expect(bullets.some((line) => line.endsWith('(from "Trump threatens new tariffs on China")'))).toBe(true);
    expect(lines[lines.length - 1]).toMatch(/^This is an automatic summary/);
  });

  it('quotes the words of provider text, never its markup', () => {
    const analysis = analyzeNewsItems([{ headline: 'Oil <b>climbs</b> as OPEC+ weighs cuts', summary: '<script>alert(1)</script> Brent rose 2% <img src=x onerror=alert(1)> after remarks on sanctions. Prices < 100 stay.' }]);
    const quoted = analysis.keyPoints.map((point) => `${point.text} | ${point.headline}`).join('\n');
    expect(quoted).not.toMatch(/<\/?(b|script|img)\b/);
    expect(quoted).toContain('Oil climbs as OPEC+ weighs cuts');
    expect(quoted).toContain('alert(1) Brent rose 2% after remarks on sanctions.');
    // A lone '<' is not markup.
    expect(analyzeNewsItems([{ headline: 'A', summary: 'Prices < 100 stay firm.' }]).keyPoints[0]!.text).toBe('Prices < 100 stay firm.');
  });
});
