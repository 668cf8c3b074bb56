/** What `npm run data` reads and prints (cli/data.ts): the files of its arguments and each file's report. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PriceImportReport } from '../features/data-import/price-import.service';

const PRICE_FILE = /\.(csv|txt)$/i;
export const formatCount = (value: number) => value.toLocaleString('en-US');
const number = formatCount;

/** The files named, a folder's price files (sorted, recursively), each once. */
export async function priceFiles(paths: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const visit = async (entry: string) => {
    const stat = await fs.stat(entry);
    if (!stat.isDirectory()) return void found.push(entry);
    for (const name of (await fs.readdir(entry)).sort()) {
      const full = path.join(entry, name);
      if ((await fs.stat(full)).isDirectory()) await visit(full);
      else if (PRICE_FILE.test(name)) found.push(full);
    }
  };
  for (const entry of paths) await visit(entry);
  return [...new Set(found)];
}

/** A report as lines for a terminal: each symbol's range and what changed, then the problems. */
export function reportLines(report: PriceImportReport, shown = 20): string[] {
  const lines: string[] = [];
  const verdict = report.stored ? 'imported' : report.errorCount > 0 || report.formatProblem ? 'REFUSED' : 'checked (nothing stored)';
  lines.push(`${report.file}: ${verdict}`);
  if (report.formatProblem) lines.push(`  ${report.formatProblem}`);
  for (const series of report.series) {
    const counts = series.counts ? `: ${number(series.counts.inserted)} new, ${number(series.counts.updated)} changed, ${number(series.counts.unchanged)} unchanged` : '';
    const engines = series.usableByTradeEngines ? '' : ` (fewer than ${series.warmupBars} bars: the scans use it, the trade engines do not)`;
    lines.push(`  ${series.symbol} ${series.listing.description}: ${number(series.storedRows)} bars ${series.first} → ${series.last}${counts}${engines}`);
    if (series.adjusted.length > 0) lines.push(`  adjusted for splits before ${series.adjusted.join(', ')}`);
  }
  if (report.errorCount + report.warningCount > 0) lines.push(`  ${number(report.errorCount)} refusals, ${number(report.warningCount)} warnings:`);
  for (const problem of report.problems.slice(0, shown)) lines.push(`  ${problem.severity === 'error' ? 'error' : 'warning'}: ${problem.message}`);
  if (report.problems.length > shown) lines.push(`  … and ${number(report.errorCount + report.warningCount - shown)} more`);
  return lines;
}

