/**
 * The per-series checks, over the bars of one symbol in any order (docs/data-in-and-out.md "Daily
 * price files"):
 * - refusals: a date twice (both lines named); a date after `options.today` (a date in the future,
 *   when the caller gives today: core has no clock);
 * - warnings: a bar on a day the exchange was closed (listed, and not stored: the engines count
 *   sessions, and a bar on a holiday would shift them); sessions between the first and the last bar
 *   without a bar (listed, one warning per gap); a close-to-close move beyond 40 % between two
 *   consecutive bars (a possible split, with what the Adj Close says of it); fewer stored bars than the
 *   trade engines' warm-up (usable by the scans, not by the trade engines).
 * And a refusal when more than 10 % of the bars (5 at least) fall on closed days: the dates are shifted
 * (a time zone) or misread, and storing the rest would store wrong days.
 * The calendar (market/trading-calendar) is the NYSE's, exact from 2000-01-01: earlier bars are
 * neither gaps nor closed days. A Toronto listing (options.holidaysKnown false) is read on weekdays:
 * a weekend bar is a closed day, weekday gaps are not reported (TSX holidays are not in the calendar),
 * and one warning says so. A crypto series is checked on
 * the every-day calendar (options.calendar 'utc'): every day is a session, none is closed.
 */
import { TRADE_ENGINES } from '../trades/index';
import { dayNumber, isIsoDate, isTradingDayNumber } from '../market/trading-calendar';
import { dateOrder, toPriceSeries } from './price-series';
import { isoOfDay } from './price-values';
import { PriceProblemList } from './problems';
import type { SessionCalendar } from '../trades/types';
import type { PossibleSplit, PriceBar, PriceSeries, PriceSeriesCheckOptions, PriceSeriesReport } from './types';

/** The largest warm-up (bars before a first signal) of the trade engines on a calendar (0 when none runs on it). */
export function engineWarmupBars(calendar: SessionCalendar): number {
  return Math.max(0, ...Object.values(TRADE_ENGINES).filter((engine) => (engine.calendar ?? 'us') === calendar).map((engine) => engine.warmupBars));
}
/** The trade engines' warm-up on the US calendar: 260 bars. */
export const ENGINE_WARMUP_BARS = engineWarmupBars('us');
/** Bars on closed days beyond this share of the checked bars (and at least MIN_SHIFTED of them): the dates are wrong. */
const SHIFTED_SHARE = 0.1;
const MIN_SHIFTED = 5;
/** The first day the exchange calendar is exact for. */
export const PRICE_CALENDAR_FROM = '2000-01-01';
/** A close-to-close move beyond this fraction is a possible split. */
export const SPLIT_THRESHOLD = 0.4;
/** An Adj Close ratio this far from 1 (or farther) confirms a split. */
const ADJ_RATIO_MIN_CHANGE = 0.05;
const LISTED_DATES_IN_MESSAGE = 5;

const calendarFrom = dayNumber(PRICE_CALENDAR_FROM);
/** isTradingDayNumber remembered for 2000–2199 (1 session, 2 closed, 0 not asked yet): the checks ask it for every day. */
const sessionFlags = new Uint8Array(73_000);

function isSession(day: number): boolean {
  const slot = day - calendarFrom;
  if (slot < 0 || slot >= sessionFlags.length) return isTradingDayNumber(day);
  if (sessionFlags[slot] === 0) sessionFlags[slot] = isTradingDayNumber(day) ? 1 : 2;
  return sessionFlags[slot] === 1;
}

/** A weekday (day 0, 1970-01-01, was a Thursday). */
const isWeekday = (day: number): boolean => {
  const weekday = (((day + 4) % 7) + 7) % 7;
  return weekday !== 0 && weekday !== 6;
};

function round(value: number): number {
  return Number(value.toPrecision(6));
}

function listed(dates: string[]): string {
  const shown = dates.slice(0, LISTED_DATES_IN_MESSAGE).join(', ');
  return dates.length > LISTED_DATES_IN_MESSAGE ? `${shown} and ${dates.length - LISTED_DATES_IN_MESSAGE} more` : shown;
}

export function checkPriceSeries(symbol: string, bars: PriceSeries | readonly PriceBar[], options: PriceSeriesCheckOptions = {}): PriceSeriesReport {
  const series = Array.isArray(bars) ? toPriceSeries(symbol, bars as readonly PriceBar[]) : (bars as PriceSeries);
  const threshold = options.splitThreshold ?? SPLIT_THRESHOLD;
  const calendar = options.calendar ?? 'us';
  const warmupBars = options.warmupBars ?? engineWarmupBars(calendar);
  // On the every-day calendar (crypto) every day is a session.
  const from = calendar === 'us' ? calendarFrom : Number.NEGATIVE_INFINITY;
  const holidaysKnown = options.holidaysKnown ?? true;
  const session = calendar !== 'us' ? () => true : holidaysKnown ? isSession : isWeekday;
  if (options.today !== undefined && !isIsoDate(options.today)) throw new RangeError(`today must be an ISO day (YYYY-MM-DD), not ${JSON.stringify(options.today)}`);
  const today = options.today === undefined ? Number.POSITIVE_INFINITY : dayNumber(options.today);
  let checked = 0;
  let firstClosedLine = 0;
  const problems = new PriceProblemList();
  const order = dateOrder(series);
  const { day, line, close } = series;
  const missingSessions: string[] = [];
  const closedDayBars: string[] = [];
  const possibleSplits: PossibleSplit[] = [];
  let previous = -1; // index of the previous bar kept as a session
  let stored = 0;
  for (let k = 0; k < order.length; k += 1) {
    const i = order[k]!;
    const d = day[i]!;
    if (k > 0 && day[order[k - 1]!] === d) {
      let first = k - 1;
      while (first > 0 && day[order[first - 1]!] === d) first -= 1;
      problems.add(line[i]!, 'duplicate-date', `Line ${line[i]}: ${isoOfDay(d)} again (first on line ${line[order[first]!]})`);
      continue;
    }
    if (d > today) {
      problems.add(line[i]!, 'future-date', `Line ${line[i]}: ${isoOfDay(d)} is a date in the future (today is ${options.today})`);
      continue;
    }
    if (d >= from) checked += 1;
    if (d >= from && !session(d)) {
      if (closedDayBars.length === 0) firstClosedLine = line[i]!;
      closedDayBars.push(isoOfDay(d));
      problems.add(line[i]!, 'closed-day', `Line ${line[i]}: the exchange was closed on ${isoOfDay(d)}: the bar is not stored`);
      continue;
    }
    if (previous >= 0 && holidaysKnown) {
      const gap: string[] = [];
      for (let g = Math.max(day[previous]! + 1, from); g < d; g += 1) if (session(g)) gap.push(isoOfDay(g));
      if (gap.length > 0) {
        missingSessions.push(...gap);
        problems.add(line[i]!, 'missing-sessions', `Line ${line[i]}: ${gap.length === 1 ? 'no bar for the session' : `no bars for the ${gap.length} sessions`} before ${isoOfDay(d)}: ${listed(gap)}`);
      }
    }
    if (previous >= 0) {
      const ratio = close[i]! / close[previous]!;
      if (Math.abs(ratio - 1) > threshold) possibleSplits.push(splitAt(series, previous, i, ratio, problems));
    }
    previous = i;
    stored += 1;
  }
  if (closedDayBars.length >= MIN_SHIFTED && closedDayBars.length > SHIFTED_SHARE * checked) {
    problems.add(
      firstClosedLine,
      'mostly-closed-days',
      `Line ${firstClosedLine}: ${closedDayBars.length} of the ${checked} bars fall on days the exchange was closed: are the dates shifted (a time zone) or in another format?`,
    );
  }
  if (!holidaysKnown && calendar === 'us' && stored > 0) {
    problems.add(null, 'holidays-unknown', `${symbol}: the exchange's holidays are not in Signalboard's calendar (it knows the NYSE's): a weekend bar is not stored, and weekdays without a bar are not reported`);
  }
  const errors = problems.hasErrors;
  if (!errors && stored > 0 && stored < warmupBars) {
    problems.add(null, 'short-series', `${symbol}: ${stored} bars, fewer than the ${warmupBars} the trade engines need before a first signal: usable by the scans, not by the trade engines`);
  }
  const all = problems.finish();
  return {
    symbol,
    rows: series.length,
    storedRows: errors ? 0 : stored,
    first: order.length > 0 ? isoOfDay(day[order[0]!]!) : '',
    last: order.length > 0 ? isoOfDay(day[order[order.length - 1]!]!) : '',
    errors: all.filter((problem) => problem.severity === 'error'),
    warnings: all.filter((problem) => problem.severity === 'warning'),
    missingSessions,
    closedDayBars,
    possibleSplits,
    usableByTradeEngines: !errors && stored >= warmupBars,
    warmupBars,
    calendar,
    calendarCheckedFrom: calendar === 'us' ? PRICE_CALENDAR_FROM : '',
  };
}

function splitAt(series: PriceSeries, before: number, after: number, ratio: number, problems: PriceProblemList): PossibleSplit {
  const { day, line, close, adjClose } = series;
  const adjBefore = adjClose[before]!;
  const adjAfter = adjClose[after]!;
  const adjRatio = Number.isNaN(adjBefore) || Number.isNaN(adjAfter) ? null : adjBefore / close[before]! / (adjAfter / close[after]!);
  const adjustable = adjRatio !== null && Math.abs(adjRatio - 1) > ADJ_RATIO_MIN_CHANGE;
  const split: PossibleSplit = {
    date: isoOfDay(day[after]!),
    line: line[after]!,
    previousDate: isoOfDay(day[before]!),
    previousClose: close[before]!,
    close: close[after]!,
    ratio,
    adjRatio,
    adjustable,
  };
  const said = adjRatio === null ? 'the file has no Adj Close to adjust by' : adjustable ? `the Adj Close says the earlier bars × ${round(adjRatio)}: they can be adjusted` : 'the Adj Close moved alike: a real move, not a split';
  problems.add(split.line, 'possible-split', `Line ${split.line}: the close went from ${round(split.previousClose)} on ${split.previousDate} to ${round(split.close)} on ${split.date} (× ${round(ratio)}), a split? ${said}`);
  return split;
}
