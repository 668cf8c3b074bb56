// price-import parse (issue 29, "Daily price files"): the pure core of an import of 500 files × 5,000
// rows (2.5 million bars) of Yahoo-layout CSV, each file pushed in 64 KB chunks as the server streams
// it: PriceFileParser, then the collector and checkPriceSeries per file. Budgets: the whole import
// (with PostgreSQL) is 60 s and 300 MB, so the parse and checks take at most a quarter of the time,
// and the process's peak RSS stays under 300 MB. The CPU time is shown too: on a busy machine the wall
// time grows, the CPU time much less.
import { checkPriceSeries, isoFromDayNumber, isTradingDayNumber, dayNumber, PriceFileParser, PriceSeriesCollector, type PriceFileFormat } from '@signalboard/core';

const FILES = 500;
const ROWS = 5000;
const CHUNK_CHARS = 65_536;
const BUDGET_SECONDS = 15;
const BUDGET_RSS_MB = 300;

const FORMAT: PriceFileFormat = {
  layout: 'yahoo',
  separator: ',',
  decimalComma: false,
  dateFormat: 'YYYY-MM-DD',
  header: true,
  mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adjClose: 5, volume: 6, symbol: null },
};

/** The last ROWS sessions through 2025-12-31. */
function sessions(): string[] {
  const out: string[] = [];
  for (let day = dayNumber('2025-12-31'); out.length < ROWS; day -= 1) if (isTradingDayNumber(day)) out.push(isoFromDayNumber(day));
  return out.reverse();
}

/** One file's text: seeded prices, prices with 2 (Adj Close 6) decimals as Yahoo writes them. */
function fileText(dates: string[], seed: number): string {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const base = 20 + random() * 400;
  let close = base;
  const lines = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  for (const [i, date] of dates.entries()) {
    const open = close * (1 + (random() - 0.5) * 0.02);
    // A wave around the base with daily noise: moves of a few percent, never near zero.
    close = base * Math.exp(0.4 * Math.sin(i / 150 + seed)) * (1 + (random() - 0.5) * 0.04);
    const high = Math.max(open, close) * (1 + random() * 0.01);
    const low = Math.min(open, close) * (1 - random() * 0.01);
    lines.push(`${date},${open.toFixed(2)},${high.toFixed(2)},${low.toFixed(2)},${close.toFixed(2)},${(close * 0.98).toFixed(6)},${Math.floor(1e6 + random() * 1e8)}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function run(): Promise<string[][]> {
  const dates = sessions();
  let parseMs = 0;
  let cpuMicros = 0;
  let checkMs = 0;
  let bars = 0;
  let warnings = 0;
  for (let file = 0; file < FILES; file += 1) {
    const text = fileText(dates, file + 1);
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    const parser = new PriceFileParser(FORMAT, { symbol: `S${file}` });
    const collector = new PriceSeriesCollector();
    for (let at = 0; at < text.length; at += CHUNK_CHARS) collector.add(parser.push(text.slice(at, at + CHUNK_CHARS)));
    collector.add(parser.end());
    const parsed = performance.now();
    for (const symbol of collector.symbols()) {
      const report = checkPriceSeries(symbol, collector.series(symbol));
      bars += report.storedRows;
      warnings += report.warnings.length + report.errors.length;
    }
    const cpu = process.cpuUsage(cpuStart);
    cpuMicros += cpu.user + cpu.system;
    parseMs += parsed - start;
    checkMs += performance.now() - parsed;
    if (parser.problems.length > 0) throw new Error(parser.problems[0]!.message);
  }
  if (bars !== FILES * ROWS || warnings > 0) throw new Error(`${bars} bars stored, ${warnings} problems`);
  const seconds = (parseMs + checkMs) / 1000;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  return [
    ['price-import parse, 500 files × 5,000 rows', `${((FILES * ROWS) / (parseMs / 1000) / 1e6).toFixed(2)} M rows/s (${(parseMs / 1000).toFixed(1)} s)`, '', ''],
    [
      'price-import parse + series checks, 2.5 M bars',
      `${seconds.toFixed(1)} s (checks ${(checkMs / 1000).toFixed(1)} s; CPU ${(cpuMicros / 1e6).toFixed(1)} s), ${((FILES * ROWS) / seconds / 1e6).toFixed(2)} M rows/s`,
      `≤ ${BUDGET_SECONDS} s`,
      seconds <= BUDGET_SECONDS ? 'ok' : 'OVER',
    ],
    ['price-import peak RSS (whole bench process)', `${peakRssMb.toFixed(0)} MB`, `≤ ${BUDGET_RSS_MB} MB`, peakRssMb <= BUDGET_RSS_MB ? 'ok' : 'OVER'],
  ];
}
