import { describe, expect, it } from 'vitest';
import {
  cutSummary,
  INDICATOR_RECENT_VALUES,
  parseSectorNews,
  recentIndicatorValues,
  SECTOR_NEWS_SUMMARY_CHARS,
  SECTOR_NEWS_TOP,
  SUMMARY_CHUNK_SENTENCES,
  splitTopNews,
  summaryBullets,
} from './dashboard-rules';
import { splitSentences } from '../news/sentences';

describe('spec §9 constants', () => {
  it('"Sector news: top 3 shown, summaries cut at 100 characters; indicator recent values 2; summaries chunked by 2 sentences."', () => {
    expect(SECTOR_NEWS_TOP).toBe(3);
    expect(SECTOR_NEWS_SUMMARY_CHARS).toBe(100);
    expect(INDICATOR_RECENT_VALUES).toBe(2);
    expect(SUMMARY_CHUNK_SENTENCES).toBe(2);
  });
});

describe('splitSentences', () => {
  it('ends sentences at . ! ? followed by a space', () => {
    expect(splitSentences('Stocks rose. Bonds fell! Will it last? Nobody knows')).toEqual(['Stocks rose.', 'Bonds fell!', 'Will it last?', 'Nobody knows']);
  });
  it('keeps decimals, dotted tickers, abbreviations and initials whole', () => {
    expect(splitSentences('The S&P 500 gained 0.3% and BRK.B rose. U.S. yields fell vs. Europe. J. Powell spoke. Apple Inc. beat estimates.')).toEqual([
      'The S&P 500 gained 0.3% and BRK.B rose.',
      'U.S. yields fell vs. Europe.',
      'J. Powell spoke.',
      'Apple Inc. beat estimates.',
    ]);
  });
  it('keeps closing quotes and brackets with their sentence', () => {
    expect(splitSentences('He said "rates stay high." Markets (mostly) agreed.) Then')).toEqual(['He said "rates stay high."', 'Markets (mostly) agreed.)', 'Then']);
  });
});

describe('summaryBullets: "Overall and sector summaries are split into chunks of 2 sentences"', () => {
  it('groups the sentences of a line two by two', () => {
    expect(summaryBullets('One. Two. Three. Four. Five.')).toEqual(['One. Two.', 'Three. Four.', 'Five.']);
  });
  it('chunks each line on its own, drops list markers and blank lines', () => {
    expect(summaryBullets('Tone is mixed. Score +0.10.\n\n- Oil fell 3.5%. Gas rose.\n• Banks gained. Tech lagged. Utilities flat.\n2. Last one.')).toEqual([
      'Tone is mixed. Score +0.10.',
      'Oil fell 3.5%. Gas rose.',
      'Banks gained. Tech lagged.',
      'Utilities flat.',
      'Last one.',
    ]);
  });
  it('gives no bullets for an empty or missing summary', () => {
    expect(summaryBullets('')).toEqual([]);
    expect(summaryBullets('  \n ')).toEqual([]);
    expect(summaryBullets(null)).toEqual([]);
    expect(summaryBullets(undefined)).toEqual([]);
  });
  it('keeps text without a final period', () => {
    expect(summaryBullets('No ending here')).toEqual(['No ending here']);
  });
});

describe('cutSummary: "each summary cut at 100 characters"', () => {
  it('keeps a summary of at most 100 characters as it is', () => {
    const exactly = 'x'.repeat(100);
    expect(cutSummary(exactly)).toBe(exactly);
    expect(cutSummary('  Short.  ')).toBe('Short.');
  });
  it('cuts a longer one to its first 100 characters and adds an ellipsis', () => {
    const long = `${'a'.repeat(99)}bcdef`;
    expect(cutSummary(long)).toBe(`${'a'.repeat(99)}b…`);
    expect(cutSummary(`${'word '.repeat(30)}`)).toBe(`${'word '.repeat(20).trimEnd()}…`);
  });
});

describe('parseSectorNews: ValueRawJson "a JSON array of news items with title, url, image, summary"', () => {
  it('reads the items in order', () => {
    const raw = JSON.stringify([
      { title: 'Exxon beats', url: 'https://news.example/x', image: 'https://img.example/x.png', summary: 'Shares rose.' },
      { title: 'Chevron cuts', url: 'http://news.example/c', image: '', summary: 'Capex lower.' },
    ]);
    expect(parseSectorNews(raw)).toEqual({
      ok: true,
      items: [
        { title: 'Exxon beats', url: 'https://news.example/x', image: 'https://img.example/x.png', summary: 'Shares rose.' },
        { title: 'Chevron cuts', url: 'http://news.example/c', image: null, summary: 'Capex lower.' },
      ],
    });
  });
  it('drops links and images that are not http(s), and skips entries with nothing to show', () => {
    const raw = JSON.stringify([{ title: 'A', url: 'javascript:alert(1)', image: 'data:image/png;base64,xx', summary: 's' }, 42, null, ['x'], { title: '', summary: '' }, { headline: 'B', summary: 'b' }]);
    expect(parseSectorNews(raw)).toEqual({ ok: true, items: [{ title: 'A', url: null, image: null, summary: 's' }, { title: 'B', url: null, image: null, summary: 'b' }] });
  });
  it('keeps links and images on our own origin (the simulated market serves its articles)', () => {
    const raw = JSON.stringify([{ title: 'A', url: '/simulated-news/XOM-2026-11-20-1', image: '/simulated-news/XOM-2026-11-20-1/image.svg', summary: 's' }, { title: 'B', url: '//evil.example/x', summary: 'b' }]);
    expect(parseSectorNews(raw)).toEqual({
      ok: true,
      items: [
        { title: 'A', url: '/simulated-news/XOM-2026-11-20-1', image: '/simulated-news/XOM-2026-11-20-1/image.svg', summary: 's' },
        { title: 'B', url: null, image: null, summary: 'b' },
      ],
    });
  });
  it('an empty array is a sector without news', () => {
    expect(parseSectorNews('[]')).toEqual({ ok: true, items: [] });
  });
  it('text that is not a JSON array cannot be parsed', () => {
    for (const raw of ['', 'not json', '{"title":"x"}', '"[]"', 'null', '[{"title":', undefined, null]) expect(parseSectorNews(raw)).toEqual({ ok: false });
  });
});

describe('splitTopNews: "top 3 news items, an expand control shows the rest"', () => {
  it('splits after the third item', () => {
    expect(splitTopNews([1, 2, 3, 4, 5])).toEqual({ top: [1, 2, 3], rest: [4, 5] });
    expect(splitTopNews([1, 2])).toEqual({ top: [1, 2], rest: [] });
  });
});

describe('recentIndicatorValues: "recent values use the last 2 entries"', () => {
  it('takes the first 2 entries of the newest-first array, numbers or numeric text', () => {
    const raw = JSON.stringify([{ date: '2026-10-01', value: '4.4' }, { date: '2026-09-01', value: 4.3 }, { date: '2026-08-01', value: 4.2 }]);
    expect(recentIndicatorValues(raw)).toEqual({ ok: true, items: [{ date: '2026-10-01', value: 4.4 }, { date: '2026-09-01', value: 4.3 }] });
  });
  it('skips entries without a date or a finite value (FRED writes "." for a missing one)', () => {
    const raw = JSON.stringify([{ date: '2026-10-01', value: '.' }, { value: 1 }, { date: '2026-09-01', value: 4.3 }, { date: '2026-08-01', value: '' }, { date: '2026-07-01', value: 4.1 }]);
    expect(recentIndicatorValues(raw)).toEqual({ ok: true, items: [{ date: '2026-09-01', value: 4.3 }, { date: '2026-07-01', value: 4.1 }] });
  });
  it('an empty array has no values; text that is not a JSON array cannot be parsed', () => {
    expect(recentIndicatorValues('[]')).toEqual({ ok: true, items: [] });
    expect(recentIndicatorValues('{')).toEqual({ ok: false });
    expect(recentIndicatorValues('{"date":"2026-01-01"}')).toEqual({ ok: false });
  });
});
