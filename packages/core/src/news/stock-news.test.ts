import { describe, expect, it } from 'vitest';
import { INVALID_INTERVAL_MESSAGE, localIsoDate, stockNewsEventString, stockNewsRange } from './stock-news';

describe('stock news range (spec §7 notes)', () => {
  // A local noon, so the local calendar day is unambiguous in any time zone the tests run in.
  const now = new Date(2026, 10, 20, 12, 0);

  it('"Daily is from yesterday to today" as ISO date-only strings', () => {
    expect(stockNewsRange('daily', now)).toEqual({ from: '2026-11-19', to: '2026-11-20' });
  });

  it('"Weekly from 7 days ago to today"', () => {
    expect(stockNewsRange('weekly', now)).toEqual({ from: '2026-11-13', to: '2026-11-20' });
  });

  it('counts calendar days across a month and a year boundary', () => {
    expect(stockNewsRange('daily', new Date(2027, 0, 1, 0, 5))).toEqual({ from: '2026-12-31', to: '2027-01-01' });
    expect(stockNewsRange('weekly', new Date(2026, 2, 3, 23, 55))).toEqual({ from: '2026-02-24', to: '2026-03-03' });
  });

  it('uses the local calendar day, not the UTC one', () => {
    const lateEvening = new Date(2026, 10, 20, 23, 30);
    expect(localIsoDate(lateEvening)).toBe('2026-11-20');
    expect(stockNewsRange('daily', lateEvening).to).toBe('2026-11-20');
  });

  it('"Any interval other than daily or weekly raises \'Invalid interval selected\'" (spec §5)', () => {
    expect(() => stockNewsRange('monthly', now)).toThrow(INVALID_INTERVAL_MESSAGE);
    expect(() => stockNewsRange('', now)).toThrow('Invalid interval selected');
    expect(() => stockNewsRange('Daily', now)).toThrow('Invalid interval selected');
  });
});

describe('stock news analysis text (spec §5, §7 notes)', () => {
  it("is 'Stock: {symbol}, News Data: ' followed by 'headline: summary' items joined with ', '", () => {
    expect(
      stockNewsEventString('DIS', [
        { headline: 'Parks grow', summary: 'Attendance up.' },
        { headline: 'Streaming profit', summary: 'Margins widen.' },
      ]),
    ).toBe('Stock: DIS, News Data: Parks grow: Attendance up., Streaming profit: Margins widen.');
  });

  it('keeps only articles with both headline and summary', () => {
    expect(
      stockNewsEventString('KO', [
        { headline: 'No summary', summary: '' },
        { headline: '', summary: 'No headline' },
        { headline: 'Both', summary: 'Present' },
        { headline: null, summary: 'Null headline' },
      ]),
    ).toBe('Stock: KO, News Data: Both: Present');
  });

  it('"needs a selected symbol and a non-empty news list, else nothing happens"', () => {
    expect(stockNewsEventString(null, [{ headline: 'a', summary: 'b' }])).toBeNull();
    expect(stockNewsEventString('', [{ headline: 'a', summary: 'b' }])).toBeNull();
    expect(stockNewsEventString('PEP', [])).toBeNull();
    expect(stockNewsEventString('PEP', undefined)).toBeNull();
  });
});
