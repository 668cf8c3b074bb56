/**
 * The price import service (price-import.service.ts): detection, checks, refusals that store nothing,
 * dry runs, idempotent imports, split adjustment, several symbols in one file, and the audit log.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketClock } from '../../providers/market';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { createAuditRepo } from '../admin/audit.repo';
import { createImportedPricesRepo, type ImportedPricesRepo } from './imported-prices.repo';
import { createPriceImportService, type PriceImportService } from './price-import.service';

let t: TestApp;
let repo: ImportedPricesRepo;
let service: PriceImportService;
const CLI = { name: 'command line' } as const;
const GOOG = readFileSync(new URL('../../../test/fixtures/real-series/GOOG.csv', import.meta.url), 'utf8');

/** Text as a stream of small chunks (a file read in pieces). */
async function* chunks(text: string, size = 1_000): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: '2008-10-15T15:00:00Z' });
  repo = createImportedPricesRepo(t.db);
  service = createPriceImportService({ repo, market: t.market, audit: createAuditRepo(t.db), now: () => new Date('2008-10-15T15:00:00Z'), marketClock: marketClock(t.config, t.clock) });
});
afterAll(async () => t.close());

const auditActions = async () => (await createAuditRepo(t.db).newest(100)).filter((row) => row.action.startsWith('price-import'));

describe('importing a price file', () => {
  it('imports a real history with no false warning, and the same file again changes nothing', async () => {
    const report = await service.importFile(chunks(GOOG), { name: 'GOOG.csv', listing: { description: 'Google Inc', exchange: 'NASDAQ', sector: 'Communication Services' } }, CLI);
    expect(report.format?.layout).toBe('yahoo');
    expect(report.problems).toEqual([]);
    expect(report.stored).toBe(true);
    expect(report.series).toHaveLength(1);
    expect(report.series[0]).toMatchObject({ symbol: 'GOOG', rows: 1047, storedRows: 1047, first: '2004-08-19', last: '2008-10-14', missingSessions: [], closedDayBars: [], possibleSplits: [], usableByTradeEngines: true });
    expect(report.series[0]!.counts).toEqual({ inserted: 1047, updated: 0, unchanged: 0, listingChanged: true });

    const again = await service.importFile(chunks(GOOG, 4_096), { name: 'GOOG.csv', listing: { description: 'Google Inc', exchange: 'NASDAQ', sector: 'Communication Services' } }, CLI);
    expect(again.sha256).toBe(report.sha256);
    expect(again.series[0]!.counts).toEqual({ inserted: 0, updated: 0, unchanged: 1047, listingChanged: false });
    const [summary] = (await repo.summaries()).filter((row) => row.symbol === 'GOOG');
    expect(summary).toMatchObject({ rows: 1047, firstDay: '2004-08-19', lastDay: '2008-10-14', lastClose: 362.71, description: 'Google Inc', exchange: 'NASDAQ' });
    // Both imports are in the audit log, the second saying it changed nothing.
    const logged = (await auditActions()).filter((row) => row.action === 'price-import');
    expect(logged).toHaveLength(2);
    expect(logged[0]!.detail).toMatchObject({ file: 'GOOG.csv', symbols: [{ symbol: 'GOOG', rows: 1047, inserted: 0, updated: 0, unchanged: 1047 }] });
  });

  it('refuses a file with a bad row, naming the line, and stores none of it', async () => {
    const text = 'Date,Open,High,Low,Close,Volume\n2008-10-13,10,11,9,10.5,100\n2008-10-14,10,9,9.5,10,100\n';
    const report = await service.importFile(chunks(text), { name: 'ZZREF.csv' }, CLI);
    expect(report.stored).toBe(false);
    expect(report.errorCount).toBeGreaterThan(0);
    expect(report.problems[0]).toMatchObject({ line: 3, severity: 'error', code: 'inconsistent-ohlc' });
    expect(report.problems[0]!.message).toMatch(/^Line 3: /);
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZREF');
  });

  it('refuses a file whose series is refused by its checks (a date twice), naming both lines, and stores none of it', async () => {
    const text = 'Date,Open,High,Low,Close,Volume\n2008-10-13,10,11,9,10.5,100\n2008-10-14,10,11,9,10.5,100\n2008-10-13,10,11,9,10.5,100\n';
    const report = await service.importFile(chunks(text), { name: 'ZZTWICE.csv' }, CLI);
    expect(report.stored).toBe(false);
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([
      { line: 4, severity: 'error', code: 'duplicate-date', message: 'Line 4: 2008-10-13 again (first on line 2)' },
    ]);
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZTWICE');
  });

  it('refuses a bar dated after today on the market clock (MARKET_NOW here: 2008-10-15), naming its line; the CLI and the Data card go through here', async () => {
    const text = 'Date,Open,High,Low,Close,Volume\n2008-10-14,10,11,9,10.5,100\n2008-10-15,10,11,9,10.5,100\n2008-10-16,10,11,9,10.5,100\n';
    const report = await service.importFile(chunks(text), { name: 'ZZFUT.csv' }, CLI);
    expect(report.stored).toBe(false);
    expect(report.problems.filter((problem) => problem.severity === 'error')).toEqual([
      { line: 4, severity: 'error', code: 'future-date', message: 'Line 4: 2008-10-16 is a date in the future (today is 2008-10-15)' },
    ]);
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZFUT');
    // Today's own bar is no future: without the last row the file is stored.
    const upToToday = await service.importFile(chunks(text.split('\n').slice(0, 3).join('\n')), { name: 'ZZFUT.csv' }, CLI);
    expect([upToToday.errorCount, upToToday.stored]).toEqual([0, true]);
  });

  it('reads a Toronto listing on weekdays: its bar of US Independence Day is stored, Canada Day is no gap, and it says the gaps were not checked', async () => {
    const lines = ['Date,Open,High,Low,Close,Volume'];
    for (let day = Date.UTC(2008, 5, 2); day <= Date.UTC(2008, 9, 14); day += 86_400_000) {
      const date = new Date(day);
      const iso = date.toISOString().slice(0, 10);
      if (date.getUTCDay() === 0 || date.getUTCDay() === 6 || iso === '2008-07-01') continue;
      lines.push(`${iso},10,11,9,10.5,100`);
    }
    const report = await service.importFile(chunks(`${lines.join('\n')}\n`), { name: 'prices.csv', symbol: 'ZZCA.TO' }, CLI);
    expect(report.stored).toBe(true);
    expect(report.series[0]).toMatchObject({ symbol: 'ZZCA.TO', storedRows: lines.length - 1, missingSessions: [], closedDayBars: [] });
    expect(report.series[0]!.listing).toMatchObject({ market: 'TO', exchange: 'TSX' });
    expect(report.problems.map((problem) => problem.code)).toEqual(['holidays-unknown', 'short-series']);
    expect((await repo.bars('ZZCA.TO')).time).toContain(Date.UTC(2008, 6, 4) / 1000);
  });

  it('checks without storing on a dry run', async () => {
    const report = await service.importFile(chunks(GOOG), { name: 'ZZDRY.csv', dryRun: true }, CLI);
    expect(report.stored).toBe(false);
    expect(report.series[0]).toMatchObject({ symbol: 'ZZDRY', rows: 1047 });
    expect(report.series[0]!.counts).toBeUndefined();
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZDRY');
  });

  it('says what it cannot read: no recognisable columns, or no symbol', async () => {
    const unknown = await service.importFile(chunks('a;b\nx;y\n'), { name: 'ZZX.csv' }, CLI);
    expect(unknown).toMatchObject({ format: null, stored: false });
    expect(unknown.formatProblem).toBeTruthy();
    const nameless = await service.importFile(chunks(GOOG), { name: '---.csv' }, CLI);
    expect(nameless.stored).toBe(false);
    expect(nameless.problems[0]).toMatchObject({ code: 'missing-symbol' });
  });

  it('flags a split and adjusts the earlier bars by the Adj Close ratio when asked', async () => {
    // A 2-for-1 split on 2008-10-08: the raw Close halves, the Adj Close (split-adjusted) does not.
    const rows = [
      ['2008-10-06', 100, 100, 50],
      ['2008-10-07', 102, 102, 51],
      ['2008-10-08', 51.5, 51.5, 51.5],
      ['2008-10-09', 52, 52, 52],
    ] as const;
    const text = `Date,Open,High,Low,Close,Adj Close,Volume\n${rows.map(([day, open, close, adj]) => `${day},${open},${Math.max(open, close) + 1},${Math.min(open, close) - 1},${close},${adj},1000`).join('\n')}\n`;
    const flagged = await service.importFile(chunks(text), { name: 'ZZSPLIT.csv', dryRun: true }, CLI);
    expect(flagged.series[0]!.possibleSplits).toMatchObject([{ date: '2008-10-08', adjustable: true }]);
    expect(flagged.problems.some((problem) => problem.code === 'possible-split' && problem.line === 4)).toBe(true);

    const adjusted = await service.importFile(chunks(text), { name: 'ZZSPLIT.csv', adjustSplits: 'all' }, CLI);
    expect(adjusted.stored).toBe(true);
    expect(adjusted.series[0]!.adjusted).toEqual(['2008-10-08']);
    await t.market.importChanged!(['ZZSPLIT']);
    const bars = (await t.market.getDailyBars('ZZSPLIT', 0, Date.parse('2008-10-15') / 1000)).value;
    expect(Array.from(bars.close)).toEqual([50, 51, 51.5, 52]);
  });

  it('imports a file of several symbols whole', async () => {
    const text = 'Ticker,Date,Open,High,Low,Close,Volume\nZZA,2008-10-13,10,11,9,10.5,100\nZZB,2008-10-13,20,21,19,20.5,100\nZZA,2008-10-14,10,11,9,10.5,100\n';
    const report = await service.importFile(chunks(text, 7), { name: 'several.csv' }, CLI);
    expect(report.stored).toBe(true);
    expect(report.series.map((series) => [series.symbol, series.storedRows])).toEqual([
      ['ZZA', 2],
      ['ZZB', 1],
    ]);
    // Short series: usable by the scans, not by the trade engines.
    expect(report.series.every((series) => !series.usableByTradeEngines)).toBe(true);
    expect(report.problems.some((problem) => problem.code === 'short-series')).toBe(true);
  });

  it('lists each symbol of a several-symbol file with its own fields, the file\'s for the fields it leaves out', async () => {
    const text = 'Ticker,Date,Open,High,Low,Close,Volume\nZZC,2008-10-13,10,11,9,10.5,100\nZZD,2008-10-13,20,21,19,20.5,100\n';
    const report = await service.importFile(
      chunks(text),
      { name: 'named.csv', listing: { exchange: 'NYSE' }, listings: { ZZC: { description: 'Zeta Copper Corp', sector: 'Materials' }, ZZD: { description: 'Zeta Data Inc', exchange: 'NASDAQ' } } },
      CLI,
    );
    expect(report.stored).toBe(true);
    const listed = new Map((await repo.listings()).map((row) => [row.symbol, row]));
    expect(listed.get('ZZC')).toMatchObject({ description: 'Zeta Copper Corp', exchange: 'NYSE', sector: 'Materials' });
    expect(listed.get('ZZD')).toMatchObject({ description: 'Zeta Data Inc', exchange: 'NASDAQ', sector: null });
  });

  it('removes an imported symbol, logged', async () => {
    expect(await service.remove('ZZB', CLI)).toBe(true);
    expect(await service.remove('ZZB', CLI)).toBe(false);
    expect((await auditActions()).filter((row) => row.action === 'price-import-remove').map((row) => row.detail)).toEqual([{ symbol: 'ZZB' }]);
  });
});
