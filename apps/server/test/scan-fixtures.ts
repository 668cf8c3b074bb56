/**
 * A small dataset (MARKET_DATA=file, docs/market-data.md "Dataset format") whose scan results are
 * known exactly, for the route tests of the favourites' batch calls (src/features/drop-scanner,
 * src/features/option-signals, the favourite quotes of src/features/watchlist). 140 weekday bars
 * ending on MARKET_NOW's day; the 1-month window is the last 21 bars (indices 119–139), the 6-month
 * window the last 126 (14–139).
 * Base bars are flat at 100 (open = high = low = close); each symbol changes a few of them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';

/** Friday 2026-11-20, 16:00 in New York: the session has closed. */
export const SCAN_NOW = '2026-11-20T21:00:00Z';
export const SCAN_NOW_SECONDS = Date.parse(SCAN_NOW) / 1000;
const BAR_COUNT = 140;
const BASE_VOLUME = 1_000;

interface Bar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The last `count` weekdays through SCAN_NOW's day, oldest first, as YYYY-MM-DD. */
function weekdays(count: number): string[] {
  const days: string[] = [];
  for (let time = Date.parse(SCAN_NOW.slice(0, 10)); days.length < count; time -= 86_400_000) {
    const day = new Date(time).getUTCDay();
    if (day !== 0 && day !== 6) days.unshift(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}

const flat = (price: number, volume = BASE_VOLUME): Bar => ({ open: price, high: price, low: price, close: price, volume });

/** 140 flat bars at 100 with `changes` applied by index (partial bars merge over the flat one). */
function series(changes: Record<number, Partial<Bar>>): Bar[] {
  return Array.from({ length: BAR_COUNT }, (_, index) => ({ ...flat(100), ...changes[index] }));
}

/** Ten bars stepping by `step` a day from 100 (indices 120–129), nine flat heavy-volume bars, then `last`. */
function trendThenBase(step: number, last: Bar): Bar[] {
  const changes: Record<number, Partial<Bar>> = {};
  for (let i = 1; i <= 10; i += 1) {
    const open = 100 + step * (i - 1);
    const close = 100 + step * i;
    changes[119 + i] = { open, close, high: Math.max(open, close), low: Math.min(open, close) };
  }
  const base = 100 + step * 10;
  for (let index = 130; index <= 138; index += 1) changes[index] = flat(base, 20 * BASE_VOLUME);
  changes[139] = last;
  return series(changes);
}

/**
 * DROP: 1M high 120, 1M low 100, 6M high 160, 6M low 84, price 105 (previous close 100). Index 5
 * lies outside both windows: its extremes must not count.
 * SMALL: 1M/6M high 100, lows 97 (the last bar), quote 96 from quotes.json (previous close 100).
 * UP: 1M/6M high 100, 1M low 88, 6M low 80, price 92 (previous close 100).
 * CALLX: ten −2 days to 80, a heavy base at 80, price 81: 19 % below its 1M and 6M high 100, RSI low.
 * PUTX: ten +2 days to 120, a heavy base at 120, price 119: 19 % above its 1M and 6M low 100, RSI high.
 * NOBARS: listed, no bars. Today's 5-minute bars: CALLX falls, PUTX rises (dailyrsi 0 and 100).
 */
export const SCAN_BARS: Record<string, Bar[]> = {
  DROP: series({ 5: { high: 300, low: 20 }, 30: { low: 84 }, 50: { high: 160 }, 125: { high: 120 }, 139: flat(105) }),
  SMALL: series({ 139: flat(97) }),
  UP: series({ 5: { low: 50 }, 20: { low: 80 }, 130: { low: 88 }, 139: flat(92) }),
  CALLX: trendThenBase(-2, { open: 80, high: 81, low: 80, close: 81, volume: BASE_VOLUME }),
  PUTX: trendThenBase(2, { open: 120, high: 120, low: 119, close: 119, volume: BASE_VOLUME }),
};

/** Twenty 5-minute bars of SCAN_NOW's session (from 09:30 New York), moving from `from` by `step`. */
function session(from: number, step: number): string {
  const open = Date.parse(`${SCAN_NOW.slice(0, 10)}T14:30:00Z`) / 1000;
  const rows = Array.from({ length: 20 }, (_, i) => {
    const a = from + step * i;
    const b = from + step * (i + 1);
    return `${open + i * 300},${a},${Math.max(a, b)},${Math.min(a, b)},${b},500`;
  });
  return `time,open,high,low,close,volume\n${rows.join('\n')}\n`;
}

const LISTED = ['DROP', 'SMALL', 'UP', 'CALLX', 'PUTX', 'NOBARS', 'F1', 'F2', 'F3', 'F4'];

/** Writes the dataset into `dir` (created if needed). F1–F4 have bars flat at 100 (nothing flags). */
export async function writeScanDataset(dir: string): Promise<void> {
  const write = async (relative: string, content: string) => {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), content);
  };
  const symbols = LISTED.map((symbol) => ({ symbol, description: `${symbol} Corp.`, market: 'US', exchange: 'NYSE', country: 'United States', sector: 'Industrials' }));
  await write('symbols.json', JSON.stringify(symbols));
  const days = weekdays(BAR_COUNT);
  const bars: Record<string, Bar[]> = { ...SCAN_BARS, F1: series({}), F2: series({}), F3: series({}), F4: series({}) };
  for (const [symbol, rows] of Object.entries(bars)) {
    const lines = rows.map((bar, i) => `${days[i]},${bar.open},${bar.high},${bar.low},${bar.close},${bar.volume}`);
    await write(`bars/${symbol}.csv`, `date,open,high,low,close,volume\n${lines.join('\n')}\n`);
  }
  await write('quotes.json', JSON.stringify({ SMALL: { price: 96, previousClose: 100, open: 100, high: 100, low: 96, timestamp: SCAN_NOW_SECONDS - 60 } }));
  await write('intraday/CALLX.csv', session(82, -0.05));
  await write('intraday/PUTX.csv', session(118, 0.05));
  const mood = (sector: number) => ({ bullishPercent: 0.5, bearishPercent: 0.5, sectorAverageBullishPercent: sector });
  await write('sentiment.json', JSON.stringify({ CALLX: mood(0.7), PUTX: mood(0.3) }));
}
