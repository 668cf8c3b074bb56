import { describe, expect, it } from 'vitest';
import { analyzeNewsItems } from '../news/local-analysis';
import { splitSentences } from '../news/sentences';
import { summaryBullets } from './dashboard-rules';
import { describeIndicatorChange, periodLabel, renderDashboardSummary } from './local-summaries';

describe('renderDashboardSummary', () => {
  const items = [
    { headline: 'Exxon beats estimates', summary: 'Shares gained 3.5% after quarterly profit rose 12% on higher output.' },
    { headline: 'Chevron misses on weak refining', summary: 'Margins fell and the company cut guidance.' },
    { headline: 'Oil steady ahead of OPEC meeting', summary: 'Traders await output decisions.' },
  ];
  it('writes one paragraph of whole sentences that pair into readable bullets, and says it is automatic', () => {
    const text = renderDashboardSummary(analyzeNewsItems(items), 'Energy news');
    expect(text).not.toContain('\n');
    const sentences = splitSentences(text);
    expect(sentences[0]).toMatch(/^Energy news reads (positive|negative|mixed|neutral) across 3 items, with a sentiment score of [+-]?\d\.\d\d on a scale from -1 to \+1\.$/);
    expect(sentences[1]).toMatch(/^\d read positive, \d negative and \d neutral\.$/);
    expect(text).toContain('(from "Exxon beats estimates")');
    expect(sentences.at(-1)).toBe("This automatic summary was written by Signalboard's local analyst from the headlines and summaries; it is not investment advice.");
    const bullets = summaryBullets(text);
    expect(bullets[0]).toBe(`${sentences[0]} ${sentences[1]}`);
    expect(bullets).toHaveLength(Math.ceil(sentences.length / 2));
    // No sentence is cut inside a number such as 3.5%.
    expect(sentences.some((sentence) => sentence.includes('3.5%'))).toBe(true);
  });

  it('says so when there is no news', () => {
    expect(renderDashboardSummary(analyzeNewsItems([]), 'Utilities news')).toBe('Utilities news has no items to summarise right now.');
  });
});

describe('describeIndicatorChange', () => {
  const brief = (code: string, unit: string, interval: string, values: Array<[string, number]>) => ({
    name: code === 'UNRATE' ? 'Unemployment Rate' : 'Consumer Price Index (CPI-U)',
    code,
    unit,
    interval,
    values: values.map(([date, value]) => ({ date, value })),
  });

  it('a percentage moves in percentage points, with what the move means', () => {
    expect(describeIndicatorChange(brief('UNRATE', 'Percent', 'Monthly', [['2026-10-01', 4.4], ['2026-09-01', 4.2]]))).toBe(
      'Unemployment Rate was 4.4% for October 2026. That is up 0.20 percentage points from 4.2% for September 2026. A rising jobless rate points to a cooling labour market: a risk for consumer spending, though it makes rate cuts more likely.',
    );
  });
  it('an index moves in percent, with its 12-month change when a year of values is given', () => {
    const values: Array<[string, number]> = Array.from({ length: 13 }, (_, index) => [`${index < 10 ? '2026' : '2025'}-${String(((10 - index + 12 - 1) % 12) + 1).padStart(2, '0')}-01`, 330 - index * 0.5]);
    expect(describeIndicatorChange(brief('CPIAUCSL', 'Index 1982-1984=100', 'Monthly', values))).toBe(
      'Consumer Price Index (CPI-U) was 330 for October 2026. That is up 0.15% from 329.5 for September 2026. Over 12 months it changed +1.85%. Prices are rising faster, which makes interest-rate cuts less likely and weighs on bonds and growth stocks.',
    );
  });
  it('an index moves in points, a count in its unit, without a yearly rate', () => {
    const values: Array<[string, number]> = Array.from({ length: 13 }, (_, index) => [`2026-${String(12 - index).padStart(2, '0')}-01`, 50 - index]);
    expect(describeIndicatorChange({ name: 'ISM Manufacturing PMI', code: 'ISM_PMI', unit: 'Index', interval: 'Monthly', values: values.map(([date, value]) => ({ date, value })) })).toBe(
      'ISM Manufacturing PMI was 50 for December 2026. That is up 1 point from 49 for November 2026. Manufacturing activity is improving (above 50 means expansion).',
    );
    expect(
      describeIndicatorChange({ name: 'Nonfarm Payrolls (monthly change)', code: 'PAYEMS_CHG', unit: 'Thousands of persons', interval: 'Monthly', values: [{ date: '2026-10-01', value: 158 }, { date: '2026-09-01', value: 107 }] }),
    ).toBe('Nonfarm Payrolls (monthly change) was 158 for October 2026. That is up 51 thousand from 107 for September 2026. Stronger hiring supports incomes and spending.');
  });

  it('an unchanged value, a single value and no values', () => {
    expect(describeIndicatorChange(brief('UNRATE', 'Percent', 'Monthly', [['2026-10-01', 4.3], ['2026-09-01', 4.3]]))).toBe(
      'Unemployment Rate was 4.3% for October 2026. It was unchanged from 4.3% for September 2026. A flat reading gives markets no new signal from this indicator.',
    );
    expect(describeIndicatorChange(brief('UNRATE', 'Percent', 'Monthly', [['2026-10-01', 4.3]]))).toBe('Unemployment Rate was 4.3% for October 2026. There is no earlier figure to compare with.');
    expect(describeIndicatorChange(brief('UNRATE', 'Percent', 'Monthly', []))).toBe('No Unemployment Rate figures have been published yet.');
  });
  it('names the period by the interval', () => {
    expect(periodLabel('2026-07-01', 'Quarterly')).toBe('Q3 2026');
    expect(periodLabel('2026-10-01', 'Monthly')).toBe('October 2026');
    expect(periodLabel('2026-11-20', 'Daily')).toBe('Nov 20, 2026');
  });
  it('writes the month as Intl writes it in en-US, for every month', () => {
    const monthly = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
    const daily = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    for (let month = 1; month <= 12; month += 1) {
      const iso = `2026-${String(month).padStart(2, '0')}-09`;
      expect(periodLabel(iso, 'Monthly')).toBe(monthly.format(new Date(`${iso}T00:00:00Z`)));
      expect(periodLabel(iso, 'Daily')).toBe(daily.format(new Date(`${iso}T00:00:00Z`)));
    }
  });
});
