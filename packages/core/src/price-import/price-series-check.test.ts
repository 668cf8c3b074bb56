import { describe, expect, it } from 'vitest';
import { dayNumber, isoFromDayNumber, isTradingDayNumber, NYSE_SPECIAL_CLOSURES } from '../market/trading-calendar';
import { PriceFileParser } from './price-file-parser';
import { PriceSeriesCollector, toPriceSeries } from './price-series';
import { checkPriceSeries, ENGINE_WARMUP_BARS, engineWarmupBars } from './price-series-check';
import { adjustForSplits, preparePriceSeries } from './price-splits';
import type { PriceBar } from './types';

/** A seeded random walk over the given days (mulberry32), consistent OHLC, Adj Close = Close. */
function bars(days: number[], seed = 1): PriceBar[] {
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  let close = 100;
  return days.map((day, i) => {
    const open = close * (1 + (random() - 0.5) * 0.02);
    close = open * (1 + (random() - 0.5) * 0.04);
    const high = Math.max(open, close) * (1 + random() * 0.01);
    const low = Math.min(open, close) * (1 - random() * 0.01);
    return { line: i + 2, symbol: 'SPX', date: isoFromDayNumber(day), day, open, high, low, close, adjClose: close, volume: 1_000_000 + i };
  });
}

function sessions(from: string, to: string): number[] {
  const out: number[] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day += 1) if (isTradingDayNumber(day)) out.push(day);
  return out;
}

const HISTORY = sessions('2000-01-03', '2025-12-31');

describe('checkPriceSeries', () => {
  it('reads a Toronto listing on weekdays: its bars on US holidays are kept, its own holidays are no gaps, and it says so', () => {
    // The TSX was open on US Thanksgiving (2025-11-27) and closed on Canada Day (2025-07-01).
    const weekdays: number[] = [];
    for (let day = dayNumber('2025-06-02'); day <= dayNumber('2025-12-19'); day += 1) {
      const weekday = new Date(day * 86_400_000).getUTCDay();
      if (weekday !== 0 && weekday !== 6 && day !== dayNumber('2025-07-01')) weekdays.push(day);
    }
    const toronto = checkPriceSeries('RY.TO', bars(weekdays), { holidaysKnown: false, warmupBars: 10 });
    expect(toronto.errors).toEqual([]);
    expect(toronto.closedDayBars).toEqual([]);
    expect(toronto.missingSessions).toEqual([]);
    expect(toronto.storedRows).toBe(weekdays.length);
    expect(toronto.warnings.map((warning) => warning.code)).toEqual(['holidays-unknown']);
    // A weekend bar is still a closed day.
    const saturday = checkPriceSeries('RY.TO', bars([...weekdays, dayNumber('2025-12-20')]), { holidaysKnown: false, warmupBars: 10 });
    expect(saturday.closedDayBars).toEqual(['2025-12-20']);
    // On the NYSE's calendar the same file has a bar on a closed day and a missing session.
    const newYork = checkPriceSeries('RY', bars(weekdays), { warmupBars: 10 });
    expect(newYork.closedDayBars).toContain('2025-11-27');
    expect(newYork.missingSessions).toContain('2025-07-01');
  });

  it('finds nothing to say about a clean NYSE history of 2000–2025, special closures and Juneteenth’s first years included', () => {
    const days = new Set(HISTORY);
    for (const closed of [...NYSE_SPECIAL_CLOSURES, '2022-06-20', '2023-06-19', '2012-10-29']) expect(days.has(dayNumber(closed)), closed).toBe(false);
    for (const open of ['2021-06-18', '2020-06-19', '2001-09-17', '2012-10-31', '2025-01-10']) expect(days.has(dayNumber(open)), open).toBe(true);
    // The sessions the NYSE published for each year, 2000 (252) to 2025 (250), add up to 6,539.
    expect(HISTORY).toHaveLength(6539);
    const report = checkPriceSeries('SPX', bars(HISTORY));
    expect(report).toEqual({
      symbol: 'SPX',
      rows: 6539,
      storedRows: 6539,
      first: '2000-01-03',
      last: '2025-12-31',
      errors: [],
      warnings: [],
      missingSessions: [],
      closedDayBars: [],
      possibleSplits: [],
      usableByTradeEngines: true,
      warmupBars: 260,
      calendar: 'us',
      calendarCheckedFrom: '2000-01-01',
    });
  });

  it('reads any order: newest first and shuffled give the same report', () => {
    const some = bars(sessions('2024-01-02', '2024-03-28'));
    const ascending = checkPriceSeries('X', some);
    expect(checkPriceSeries('X', [...some].reverse())).toEqual(ascending);
    expect(checkPriceSeries('X', [...some.slice(30), ...some.slice(0, 30)])).toEqual(ascending);
  });

  it('refuses a date twice, naming both lines', () => {
    const some = bars(sessions('2024-01-02', '2024-01-05'));
    const report = checkPriceSeries('X', [...some, { ...some[1]!, line: 40 }]);
    expect(report.errors).toEqual([{ line: 40, severity: 'error', code: 'duplicate-date', message: 'Line 40: 2024-01-03 again (first on line 3)' }]);
    expect(report.storedRows).toBe(0);
    expect(report.usableByTradeEngines).toBe(false);
    expect(() => preparePriceSeries(toPriceSeries('X', some), report)).toThrowError(RangeError);
  });

  it('warns of bars on closed days (not stored) and of missing sessions, one warning a gap', () => {
    const days = sessions('2024-06-10', '2024-07-12').filter((day) => !['2024-06-24', '2024-06-25', '2024-07-10'].includes(isoFromDayNumber(day)));
    const some = bars([...days, dayNumber('2024-07-04'), dayNumber('2024-06-15')].sort((a, b) => a - b));
    const report = checkPriceSeries('X', some, { warmupBars: 10 });
    expect(report.closedDayBars).toEqual(['2024-06-15', '2024-07-04']);
    expect(report.missingSessions).toEqual(['2024-06-24', '2024-06-25', '2024-07-10']);
    expect(report.warnings.map((warning) => warning.message)).toEqual([
      'Line 7: the exchange was closed on 2024-06-15: the bar is not stored',
      'Line 12: no bars for the 2 sessions before 2024-06-26: 2024-06-24, 2024-06-25',
      'Line 18: the exchange was closed on 2024-07-04: the bar is not stored',
      'Line 22: no bar for the session before 2024-07-11: 2024-07-10',
    ]);
    expect(report.errors).toEqual([]);
    expect(report.rows).toBe(some.length);
    expect(report.storedRows).toBe(some.length - 2);
    const stored = preparePriceSeries(toPriceSeries('X', some), report);
    expect(stored.length).toBe(some.length - 2);
    expect(Array.from(stored.day).every((day) => isTradingDayNumber(day))).toBe(true);
  });

  it('refuses a series whose dates mostly fall on closed days (shifted by a time zone)', () => {
    const shifted = bars(sessions('2024-01-02', '2024-03-28').map((day) => day - 1));
    const report = checkPriceSeries('X', shifted, { warmupBars: 1 });
    expect(report.errors).toEqual([
      { line: 2, severity: 'error', code: 'mostly-closed-days', message: 'Line 2: 13 of the 61 bars fall on days the exchange was closed: are the dates shifted (a time zone) or in another format?' },
    ]);
    expect(report.storedRows).toBe(0);
  });

  it('refuses a bar dated after today (the caller’s market clock), naming its line; today itself is fine, and without today nothing is checked', () => {
    // Sessions to Friday 2026-12-04, then Monday 2026-12-07 and Tuesday 2026-12-08: after a "today" of Saturday the 5th.
    const some = bars(sessions('2026-11-02', '2026-12-08'));
    const report = checkPriceSeries('X', some, { today: '2026-12-05', warmupBars: 1 });
    expect(report.errors).toEqual([
      { line: some.length, severity: 'error', code: 'future-date', message: `Line ${some.length}: 2026-12-07 is a date in the future (today is 2026-12-05)` },
      { line: some.length + 1, severity: 'error', code: 'future-date', message: `Line ${some.length + 1}: 2026-12-08 is a date in the future (today is 2026-12-05)` },
    ]);
    expect(report.warnings).toEqual([]);
    expect(report.storedRows).toBe(0);
    // Newest first (Yahoo's order): the same lines are named.
    expect(checkPriceSeries('X', [...some].reverse(), { today: '2026-12-05', warmupBars: 1 }).errors.map((error) => error.line)).toEqual([some.length, some.length + 1]);
    // A bar of today (a session under way, or closed) is no future.
    expect(checkPriceSeries('X', some, { today: '2026-12-08', warmupBars: 1 }).errors).toEqual([]);
    expect(checkPriceSeries('X', some, { warmupBars: 1 }).errors).toEqual([]);
    expect(() => checkPriceSeries('X', some, { today: '2026-12-5' })).toThrowError(RangeError);
  });

  it('reads a crypto series on the every-day calendar: weekends are sessions, a missing day is a gap', () => {
    const everyDay: number[] = [];
    for (let day = dayNumber('2024-01-01'); day <= dayNumber('2024-12-31'); day += 1) if (day !== dayNumber('2024-03-03')) everyDay.push(day);
    const report = checkPriceSeries('BTC', bars(everyDay), { calendar: 'utc' });
    expect(engineWarmupBars('utc')).toBe(200);
    expect(report).toMatchObject({ calendar: 'utc', calendarCheckedFrom: '', closedDayBars: [], missingSessions: ['2024-03-03'], usableByTradeEngines: true, warmupBars: 200, errors: [] });
    expect(report.warnings.map((warning) => warning.code)).toEqual(['missing-sessions']);
  });

  it('checks nothing against the calendar before 2000', () => {
    const days = [dayNumber('1999-12-25'), dayNumber('1999-12-31'), ...sessions('2000-01-03', '2000-01-07')];
    const report = checkPriceSeries('X', bars(days), { warmupBars: 1 });
    expect(report.warnings).toEqual([]);
    expect(report.first).toBe('1999-12-25');
  });

  it('warns of a series shorter than the trade engines’ warm-up (260 bars, the largest of the US engines)', () => {
    expect(ENGINE_WARMUP_BARS).toBe(260);
    const short = checkPriceSeries('X', bars(sessions('2024-01-02', '2024-12-31')));
    expect(short.storedRows).toBe(252);
    expect(short.usableByTradeEngines).toBe(false);
    expect(short.warnings).toEqual([{ line: null, severity: 'warning', code: 'short-series', message: 'X: 252 bars, fewer than the 260 the trade engines need before a first signal: usable by the scans, not by the trade engines' }]);
    expect(checkPriceSeries('X', bars(sessions('2023-12-01', '2024-12-31'))).usableByTradeEngines).toBe(true);
  });
});

describe('possible splits', () => {
  /** A raw history with a 4-for-1 split on 2024-06-10 (Close raw, Adj Close split-adjusted) and a real −45 % day. */
  function raw(): PriceBar[] {
    const days = sessions('2024-06-03', '2024-06-21');
    const splitAt = dayNumber('2024-06-10');
    const crashAt = dayNumber('2024-06-18');
    let price = 400;
    return days.map((day, i) => {
      if (day === splitAt) price /= 4;
      if (day === crashAt) price *= 0.55;
      const close = price * (1 + 0.001 * i);
      const adjClose = day < splitAt ? close / 4 : close;
      return { line: i + 2, symbol: 'NVDA', date: isoFromDayNumber(day), day, open: close, high: close * 1.01, low: close * 0.99, close, adjClose, volume: 1000 };
    });
  }

  it('flags moves beyond 40 % with what the Adj Close says, and adjusts the earlier bars by its ratio', () => {
    const some = raw();
    const report = checkPriceSeries('NVDA', some, { warmupBars: 1 });
    expect(report.possibleSplits.map(({ date, ratio, adjRatio, adjustable }) => ({ date, ratio: Number(ratio.toFixed(4)), adjRatio: adjRatio && Number(adjRatio.toFixed(4)), adjustable }))).toEqual([
      { date: '2024-06-10', ratio: 0.2502, adjRatio: 0.25, adjustable: true },
      { date: '2024-06-18', ratio: 0.5505, adjRatio: 1, adjustable: false },
    ]);
    expect(report.warnings.map((warning) => warning.message)).toEqual([
      'Line 7: the close went from 401.6 on 2024-06-07 to 100.5 on 2024-06-10 (× 0.250249), a split? the Adj Close says the earlier bars × 0.25: they can be adjusted',
      'Line 13: the close went from 101 on 2024-06-17 to 55.605 on 2024-06-18 (× 0.550545), a split? the Adj Close moved alike: a real move, not a split',
    ]);
    const adjusted = preparePriceSeries(toPriceSeries('NVDA', some), report, report.possibleSplits.filter((split) => split.adjustable));
    expect(adjusted.close[4]).toBeCloseTo(401.6 / 4, 9);
    expect(adjusted.high[4]).toBeCloseTo((401.6 / 4) * 1.01, 9);
    expect(adjusted.volume[4]).toBe(4000);
    expect(adjusted.close[5]).toBe(some[5]!.close);
    expect(checkPriceSeries('NVDA', adjusted, { warmupBars: 1 }).possibleSplits.map((split) => split.date)).toEqual(['2024-06-18']);
  });

  it('compounds two splits and skips one without an Adj Close ratio', () => {
    const series = toPriceSeries('X', bars(sessions('2024-01-02', '2024-01-10')));
    const adjusted = adjustForSplits(series, [
      { date: '2024-01-05', adjRatio: 0.5 },
      { date: '2024-01-09', adjRatio: 0.1 },
      { date: '2024-01-08', adjRatio: null },
    ]);
    expect(Array.from(adjusted.close, (close, i) => close / series.close[i]!).map((factor) => Number(factor.toFixed(6)))).toEqual([0.05, 0.05, 0.05, 0.1, 0.1, 1, 1]);
  });

  it('has no Adj Close to go by in a file without one', () => {
    const some = raw().map((bar) => ({ ...bar, adjClose: null }));
    const report = checkPriceSeries('NVDA', some, { warmupBars: 1 });
    expect(report.possibleSplits.map((split) => [split.adjRatio, split.adjustable])).toEqual([
      [null, false],
      [null, false],
    ]);
    expect(report.warnings[0]!.message).toMatch(/the file has no Adj Close to adjust by$/);
  });
});

describe('PriceSeriesCollector', () => {
  it('groups a file’s symbols, growing past its first capacity', () => {
    const text = ['Symbol,Date,Open,High,Low,Close', ...sessions('2023-01-03', '2024-12-31').flatMap((day) => ['AAA', 'BBB'].map((symbol) => `${symbol},${isoFromDayNumber(day)},10,11,9,10.5`))].join('\n');
    const parser = new PriceFileParser({ layout: 'custom', separator: ',', decimalComma: false, dateFormat: 'YYYY-MM-DD', header: true, mapping: { symbol: 0, date: 1, open: 2, high: 3, low: 4, close: 5, adjClose: null, volume: null } });
    const collector = new PriceSeriesCollector();
    for (let at = 0; at < text.length; at += 4096) collector.add(parser.push(text.slice(at, at + 4096)));
    collector.add(parser.end());
    expect(parser.problems).toEqual([]);
    expect(collector.symbols()).toEqual(['AAA', 'BBB']);
    const bbb = collector.series('BBB');
    expect(bbb.length).toBe(502);
    expect(bbb.line[0]).toBe(3);
    expect(bbb.hasAdjClose).toBe(false);
    expect(Number.isNaN(bbb.volume[0])).toBe(true);
    const report = checkPriceSeries('BBB', bbb);
    expect(report.warnings).toEqual([]);
    expect(report.usableByTradeEngines).toBe(true);
    expect(collector.series('CCC').length).toBe(0);
  });
});
