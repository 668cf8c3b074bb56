import { describe, expect, it } from 'vitest';
import { randomBars } from '../indicators/test-series';
import { dayNumber, isoFromDayNumber, newYorkInstantMs, tradingDayOnOrAfter } from '../market/trading-calendar';
import { compileScan } from './evaluate';
import { SCAN_FIELDS } from './fields';
import type { ScanBars } from './field-series';
import { parseFormula } from './formula';
import { evaluateWithQuote, INTRADAY_FIELD_INPUTS, intradayProblem, isPriceOnlyScan, type IntradayMoment, type IntradayQuote } from './intraday';

// docs/custom-scans.md "Custom Scan alerts", "During the session".

/** `count` trading days ending on `last` (YYYY-MM-DD), oldest first. */
function tradingDates(count: number, last: string): string[] {
  const dates: string[] = [];
  let day = dayNumber(last);
  while (dates.length < count) {
    if (tradingDayOnOrAfter(day) === day) dates.unshift(isoFromDayNumber(day));
    day -= 1;
  }
  return dates;
}

/** Monday 2026-11-23, 11:05 New York: the session under way; Friday 20 the one before. */
const SESSION = '2026-11-23';
const PREVIOUS = '2026-11-20';
const NOW = newYorkInstantMs(dayNumber(SESSION), 11 * 60 + 5);
const AT: IntradayMoment = { session: SESSION, previousSession: PREVIOUS, nowMs: NOW, maxQuoteAgeMs: 30_000 };

/** 300 random bars through the session (its bar last, as a source that has today's bar in progress gives it). */
function barsThroughSession(seed = 7): ScanBars {
  return { ...randomBars(seed, 300), dates: tradingDates(300, SESSION) };
}
/** The session's own bar of `bars` as a quote (its close the price, its open, high and low). */
function quoteOfLastBar(bars: ScanBars, overrides: Partial<IntradayQuote> = {}): IntradayQuote {
  const last = bars.close.length - 1;
  return { price: bars.close[last]!, open: bars.open[last]!, high: bars.high[last]!, low: bars.low[last]!, asOfMs: NOW - 5_000, ...overrides };
}
const scan = (formula: string) => compileScan(parseFormula(formula));

describe('intradayProblem: which scans are on price only', () => {
  it('accepts the fields computed from closes, the day\'s range and open, and the listing facts', () => {
    for (const formula of [
      'rsi(14) < 30 and close > sma(200)',
      'change_pct(1) <= -3 or pct_from_ema(20) < -5',
      'pct_below_high(252) >= 20 and pct_above_low(21) < 5',
      'atr_pct(14) > 3 and adx(14) > 25 and gap_pct > 2',
      'close crosses above ema(50) within 1 and sector in ("Energy", "Utilities") and exchange != "NYSE"',
    ]) {
      expect(intradayProblem(parseFormula(formula)), formula).toBeNull();
      expect(isPriceOnlyScan(parseFormula(formula))).toBe(true);
    }
  });

  it('refuses a scan reading volume, earnings or news, even under `not`, naming the field', () => {
    expect(intradayProblem(parseFormula('close > 10 and rvol >= 1.5'))).toBe('rvol is not computed from prices during the session');
    expect(intradayProblem(parseFormula('not (avg_dollar_volume(20) > 1000000)'))).toBe('avg_dollar_volume is not computed from prices during the session');
    expect(isPriceOnlyScan(parseFormula('vp_distance_pct <= 1'))).toBe(false);
    expect(isPriceOnlyScan(parseFormula('days_to_earnings <= 5 and close > 1'))).toBe(false);
    expect(isPriceOnlyScan(parseFormula('news_sentiment > 2'))).toBe(false);
  });

  it('decides every field of the catalogue: a new field is not on price only until it is listed', () => {
    const outside = SCAN_FIELDS.map((spec) => spec.name).filter((name) => !(name in INTRADAY_FIELD_INPUTS));
    expect(outside).toEqual(['rvol', 'avg_dollar_volume', 'vp_distance_pct', 'days_to_earnings', 'news_sentiment']);
    for (const name of Object.keys(INTRADAY_FIELD_INPUTS)) expect(SCAN_FIELDS.some((spec) => spec.name === name), name).toBe(true);
  });
});

describe('evaluateWithQuote: the quote as the session\'s provisional bar', () => {
  const formula = 'rsi(14) > 0 and close > 0 and change_pct(1) > -100 and sma(50) > 0 and ema(20) > 0 and pct_from_sma(50) > -100 and pct_from_ema(20) > -100 and pct_below_high(21) >= 0 and pct_above_low(21) >= 0 and atr(14) > 0 and atr_pct(14) > 0 and adx(14) >= 0 and gap_pct > -100';

  it('gives what the daily pass gives on the session\'s bar when the quote is that bar (every price-only field)', () => {
    const bars = barsThroughSession();
    const compiled = scan(formula);
    const daily = compiled.evaluateSymbol(bars, {});
    expect(daily.matched).toBe(true);
    const intraday = evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars), AT);
    expect(intraday).toEqual({ skipped: null, matched: true, values: daily.values });
  });

  it('reads nothing of the session but the quote: the source\'s bar of the session is left out (no look-ahead)', () => {
    const bars = barsThroughSession();
    const last = bars.close.length - 1;
    const previousClose = bars.close[last - 1]!;
    // The source's bar of the session says 1000; the live price is 2 % above the previous close.
    bars.close[last] = 1000;
    const quote = quoteOfLastBar(bars, { price: previousClose * 1.02, high: previousClose * 1.03, low: previousClose * 0.99 });
    const result = evaluateWithQuote(scan('close > 500 or change_pct(1) > 1.9'), bars, {}, quote, AT);
    expect(result).toMatchObject({ skipped: null, matched: true });
    if (result.skipped === null) {
      expect(result.values[0]).toBeCloseTo(previousClose * 1.02, 10);
      expect(result.values[1]).toBeCloseTo(2, 10);
    }
    // The same bars cut before the session (what a source without today's bar gives) answer the same.
    const before: ScanBars = { open: bars.open.subarray(0, last), high: bars.high.subarray(0, last), low: bars.low.subarray(0, last), close: bars.close.subarray(0, last), volume: bars.volume.subarray(0, last), dates: bars.dates!.slice(0, last) };
    expect(evaluateWithQuote(scan('close > 500 or change_pct(1) > 1.9'), before, {}, quote, AT)).toEqual(result);
  });

  it('does not use a quote of an earlier day, a stale one, one priced after now, or one without a price', () => {
    const bars = barsThroughSession();
    const compiled = scan('close > 0');
    const fridayClose = newYorkInstantMs(dayNumber(PREVIOUS), 16 * 60);
    expect(evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars, { asOfMs: fridayClose }), AT)).toEqual({ skipped: 'quote-not-today' });
    expect(evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars, { asOfMs: NOW - 30_001 }), AT)).toEqual({ skipped: 'quote-stale' });
    expect(evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars, { asOfMs: NOW - 30_000 }), AT)).toMatchObject({ skipped: null, matched: true });
    expect(evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars, { asOfMs: NOW + 1 }), AT)).toEqual({ skipped: 'quote-stale' });
    for (const price of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(evaluateWithQuote(compiled, bars, {}, quoteOfLastBar(bars, { price }), AT)).toEqual({ skipped: 'quote-invalid' });
    }
  });

  it('needs bars through the session before: none, none dated, or bars ending earlier are not evaluated', () => {
    const compiled = scan('close > 0');
    const bars = barsThroughSession();
    const quote = quoteOfLastBar(bars);
    const { dates: _dates, ...undated } = bars;
    expect(evaluateWithQuote(compiled, undated, {}, quote, AT)).toEqual({ skipped: 'no-bars' });
    const onlyToday: ScanBars = { ...bars, dates: bars.dates!.map(() => SESSION) };
    expect(evaluateWithQuote(compiled, onlyToday, {}, quote, AT)).toEqual({ skipped: 'no-bars' });
    // Friday's bar is missing (the source is a session behind): change_pct(1) would compare with Thursday.
    const behind: ScanBars = { ...barsThroughSession(), dates: tradingDates(300, '2026-11-19') };
    expect(evaluateWithQuote(compiled, behind, {}, quote, AT)).toEqual({ skipped: 'bars-behind' });
  });

  it('needs the day\'s range or open only for a scan that reads them, and never matches on a missing one (not even under `not`)', () => {
    const bars = barsThroughSession();
    const bare = quoteOfLastBar(bars, { open: null, high: 0, low: undefined });
    expect(evaluateWithQuote(scan('close > 0'), bars, {}, bare, AT)).toMatchObject({ skipped: null, matched: true });
    expect(evaluateWithQuote(scan('not (pct_below_high(21) > 10)'), bars, {}, bare, AT)).toEqual({ skipped: 'quote-incomplete' });
    expect(evaluateWithQuote(scan('atr(14) > 0'), bars, {}, quoteOfLastBar(bars, { high: 90, low: 110 }), AT)).toEqual({ skipped: 'quote-incomplete' });
    expect(evaluateWithQuote(scan('not (gap_pct > 50)'), bars, {}, bare, AT)).toEqual({ skipped: 'quote-incomplete' });
  });

  it('widens the day\'s high and low to the price (a quote\'s range can lag its last trade)', () => {
    const bars = barsThroughSession();
    const last = bars.close.length - 1;
    let highest = 0;
    for (let i = last - 20; i < last; i += 1) highest = Math.max(highest, bars.high[i]!);
    const price = highest * 1.05;
    const result = evaluateWithQuote(scan('pct_below_high(21) <= 0'), bars, {}, quoteOfLastBar(bars, { price, high: highest * 1.01, low: highest }), AT);
    expect(result).toEqual({ skipped: null, matched: true, values: [0] });
  });

  it('never evaluates a scan that is not on price only (its `not` over volume would be true on no volume)', () => {
    const bars = barsThroughSession();
    expect(evaluateWithQuote(scan('not (rvol > 2)'), bars, {}, quoteOfLastBar(bars), AT)).toEqual({ skipped: 'not-price-only' });
  });

  it('reads the listing facts as the daily pass does', () => {
    const bars = barsThroughSession();
    const compiled = scan('sector = "energy" and close > 0');
    expect(evaluateWithQuote(compiled, bars, { sector: ' Energy ' }, quoteOfLastBar(bars), AT)).toMatchObject({ skipped: null, matched: true });
    expect(evaluateWithQuote(compiled, bars, { sector: null }, quoteOfLastBar(bars), AT)).toMatchObject({ skipped: null, matched: false });
  });
});
