// Daily price files into the database (issue 29, docs/data-in-and-out.md "Daily price files"): 500 Yahoo-layout files ×
// 5,000 sessions (2.5 million bars) imported through the same service as the CLI and the Data card,
// one file at a time, into a database of its own: under 60 s, this process's memory under 300 MB.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { dayNumber, isoFromDayNumber, tradingDayOnOrBefore } from '@signalboard/core';
import { createAuditRepo } from '../apps/server/src/features/admin/audit.repo';
import { createImportedPricesRepo } from '../apps/server/src/features/data-import/imported-prices.repo';
import { createPriceImportService } from '../apps/server/src/features/data-import/price-import.service';
import { systemClock } from '../apps/server/src/lib/clock';
import { UnknownSymbolError } from '../apps/server/src/providers/market/types';
import { withBenchDatabase } from './bench-database';

const FILES = 500;
const ROWS = 5_000;

/** The last ROWS sessions through 2026-11-20, oldest first. */
function sessions(): string[] {
  const days: string[] = [];
  for (let day = tradingDayOnOrBefore(dayNumber('2026-11-20')); days.length < ROWS; day = tradingDayOnOrBefore(day - 1)) days.push(isoFromDayNumber(day));
  return days.reverse();
}

async function writeFiles(dir: string): Promise<void> {
  const days = sessions();
  let state = 11;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
  for (let file = 0; file < FILES; file += 1) {
    const lines = ['Date,Open,High,Low,Close,Adj Close,Volume'];
    let price = 20 + next() * 200;
    for (const day of days) {
      const open = price * (1 + (next() - 0.5) * 0.01);
      price *= 1 + (next() - 0.5) * 0.04;
      const high = Math.max(open, price) * (1 + next() * 0.01);
      const low = Math.min(open, price) * (1 - next() * 0.01);
      lines.push(`${day},${open.toFixed(4)},${high.toFixed(4)},${low.toFixed(4)},${price.toFixed(4)},${price.toFixed(4)},${Math.round(1e6 * (0.5 + next()))}`);
    }
    await fs.writeFile(path.join(dir, `ZB${String(file).padStart(3, '0')}.csv`), `${lines.join('\n')}\n`);
  }
}

export async function run(): Promise<string[][]> {
  return withBenchDatabase('price_import', { poolSize: 4 }, async ({ db, temp }) => {
    const dir = path.join(temp, 'files');
    await fs.mkdir(dir);
    await writeFiles(dir);
    const bytes = (await Promise.all((await fs.readdir(dir)).map(async (name) => (await fs.stat(path.join(dir, name))).size))).reduce((a, b) => a + b, 0);
    const repo = createImportedPricesRepo(db);
    // A source that knows none of the symbols (the listing is the bare symbol), as a keyless installation's would.
    const market = { getProfile: (symbol: string) => Promise.reject(new UnknownSymbolError(symbol)), importChanged: async () => undefined };
    const service = createPriceImportService({ repo, market, audit: createAuditRepo(db), now: () => new Date(), marketClock: systemClock });

    global.gc?.();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const start = performance.now();
    let stored = 0;
    let bars = 0;
    try {
      for (const name of (await fs.readdir(dir)).sort()) {
        const report = await service.importFile(createReadStream(path.join(dir, name), { highWaterMark: 256 * 1024 }), { name }, { name: 'command line' });
        if (!report.stored) throw new Error(`${name} was not stored: ${report.problems[0]?.message ?? report.formatProblem}`);
        stored += 1;
        bars += report.series.reduce((sum, series) => sum + (series.counts?.inserted ?? 0), 0);
      }
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - start) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    const megabytes = peak / 1024 / 1024;
    return [
      [`price import, ${FILES} files × ${ROWS.toLocaleString('en-US')} rows (${(bytes / 1024 / 1024).toFixed(0)} MB of CSV)`, `${seconds.toFixed(1)} s (${stored} files, ${bars.toLocaleString('en-US')} bars, ${Math.round(bars / seconds).toLocaleString('en-US')} bars/s)`, '< 60 s', seconds < 60 ? 'ok' : 'OVER'],
      ['  peak memory of the importing process (RSS)', `${megabytes.toFixed(0)} MB`, '< 300 MB', megabytes < 300 ? 'ok' : 'OVER'],
    ];
  });
}
