/**
 * Importing a daily price file (issue 29; docs/data-in-and-out.md "Daily price files"): the file is
 * read as a stream (its head detects the format unless one is given), every row and then every
 * symbol's series is checked (packages/core/src/price-import; a bar after today on the market's clock
 * is refused), and only a file without a refusal is
 * stored, whole, in one transaction (imported-prices.repo.ts). The same report serves the admin's
 * preview (`dryRun`: nothing stored), the admin's import and the command line.
 */
import { createHash } from 'node:crypto';
import {
  checkPriceSeries,
  detectPriceFileFormat,
  preparePriceSeries,
  PriceFileParser,
  PriceSeriesCollector,
  newYorkTime,
  symbolFromFileName,
  type PriceFileFormat,
  type PriceFileProblem,
  type PriceSeries,
  type PriceSeriesReport,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { AuditActor, AuditRepo } from '../admin/audit.repo';
import type { ImportCounts, ImportedBarColumns, ImportedListing, ImportedPricesRepo } from './imported-prices.repo';

/** How much of a file's start the format is detected from. */
export const PRICE_DETECT_BYTES = 64 * 1024;
/** Problems a report lists at most (the parser already keeps 100 a kind). */
export const PRICE_REPORT_MAX_PROBLEMS = 300;

export interface PriceListingInput {
  description?: string | undefined;
  exchange?: string | undefined;
  sector?: string | null | undefined;
}

export interface PriceImportRequest {
  /** The file's name as given (its symbol when the file has no symbol column and no `symbol`). */
  name: string;
  /** The format chosen in the preview; detected from the file's head when absent. */
  format?: PriceFileFormat | undefined;
  symbol?: string | undefined;
  /** Every symbol's listing fields (the command line's options; the HTTP call's description, exchange, sector). */
  listing?: PriceListingInput | undefined;
  /** Per symbol, before `listing` (a file of several symbols: the Data card's fields of each new one). */
  listings?: Readonly<Record<string, PriceListingInput>> | undefined;
  /** Adjust the bars before these possible splits (dates) by the Adj Close ratio; 'all': every adjustable one. */
  adjustSplits?: 'all' | readonly string[] | undefined;
  /** Check and report only: nothing is stored. */
  dryRun?: boolean | undefined;
}

export interface PriceImportSeries extends PriceSeriesReport {
  listing: ImportedListing;
  /** The splits adjusted (dates). */
  adjusted: string[];
  /** What storing changed (absent when nothing was stored). */
  counts?: ImportCounts;
}

export interface PriceImportReport {
  file: string;
  sha256: string;
  bytes: number;
  format: PriceFileFormat | null;
  /** Why no format could be used (the preview asks for a mapping). */
  formatProblem: string | null;
  headers: string[];
  sample: string[][];
  /** The file's refusals and warnings, rows then series (at most PRICE_REPORT_MAX_PROBLEMS). */
  problems: PriceFileProblem[];
  errorCount: number;
  warningCount: number;
  series: PriceImportSeries[];
  /** Stored (false for a dry run and for a refused file). */
  stored: boolean;
}

export interface PriceImportDeps {
  repo: ImportedPricesRepo;
  /** The profile of a symbol the file does not describe; told when an import changed what it serves. */
  market: Pick<CachedMarket, 'getProfile' | 'importChanged'>;
  audit: Pick<AuditRepo, 'record'>;
  /** When an import happened (stored with it). */
  now: () => Date;
  /** The market's clock (MARKET_NOW when pinned): its New York day is "today", after which no bar may be dated. */
  marketClock: Pick<Clock, 'nowMs'>;
}

/** The file's text, chunk by chunk, decoded as UTF-8 across chunk boundaries; counts bytes and hashes them. */
async function* decoded(source: AsyncIterable<Uint8Array | string>, hash: ReturnType<typeof createHash>, size: { bytes: number }): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    hash.update(bytes);
    size.bytes += bytes.byteLength;
    const text = decoder.decode(bytes, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

function columnsOf(series: PriceSeries): ImportedBarColumns {
  const n = series.length;
  const columns: ImportedBarColumns = { day: new Array(n), open: new Array(n), high: new Array(n), low: new Array(n), close: new Array(n), adjClose: new Array(n), volume: new Array(n) };
  const orNull = (value: number) => (Number.isNaN(value) ? null : value);
  for (let index = 0; index < n; index += 1) {
    columns.day[index] = new Date(series.day[index]! * 86_400_000).toISOString().slice(0, 10);
    columns.open[index] = series.open[index]!;
    columns.high[index] = series.high[index]!;
    columns.low[index] = series.low[index]!;
    columns.close[index] = series.close[index]!;
    columns.adjClose[index] = orNull(series.adjClose[index]!);
    columns.volume[index] = orNull(series.volume[index]!);
  }
  return columns;
}

/** The fields of `input` that are given (a field left out of a symbol's listing falls back to the file's). */
const definedOf = (input: PriceListingInput | undefined): PriceListingInput => Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value !== undefined));

export function createPriceImportService(deps: PriceImportDeps) {
  /**
   * What the installation lists for `symbol`: each field as the request gives it, else as an earlier
   * import listed it, else the source's profile, else the bare symbol.
   */
  async function listingOf(symbol: string, given: PriceListingInput | undefined, earlier: ReadonlyMap<string, ImportedListing>): Promise<ImportedListing> {
    const market: ImportedListing['market'] = symbol.endsWith('.TO') ? 'TO' : 'US';
    const before = earlier.get(symbol);
    const profile = await deps.market.getProfile(symbol).then(
      (cached) => cached.value,
      () => undefined,
    );
    const sector = given?.sector === undefined ? (before ? before.sector : (profile?.sector ?? null)) : given.sector?.trim() || null;
    return {
      symbol,
      market,
      description: given?.description?.trim() || before?.description || profile?.description || symbol,
      exchange: given?.exchange?.trim() || before?.exchange || profile?.exchange || (market === 'TO' ? 'TSX' : 'US'),
      sector,
    };
  }

  return {
    /** Reads, checks and (unless a dry run or refused) stores one file; `actor` is written to the audit log. */
    async importFile(source: AsyncIterable<Uint8Array | string>, request: PriceImportRequest, actor: AuditActor): Promise<PriceImportReport> {
      const hash = createHash('sha256');
      const size = { bytes: 0 };
      const chunks = decoded(source, hash, size);
      // The head: enough of the file to detect its format, kept to be parsed like the rest.
      let head = '';
      let ended = false;
      while (head.length < PRICE_DETECT_BYTES) {
        const next = await chunks.next();
        if (next.done) {
          ended = true;
          break;
        }
        head += next.value;
      }
      const drain = async () => {
        if (!ended) for await (const _ of chunks) void _; // the hash and the size cover the whole file
      };
      const detection = detectPriceFileFormat(head);
      const format = request.format ?? detection.format;
      const base = { file: request.name, headers: detection.headers, sample: detection.sample, format, formatProblem: format ? null : (detection.problem ?? 'The file’s columns could not be recognised: choose them.') };
      const symbol = request.symbol ?? (format && format.mapping.symbol === null ? (symbolFromFileName(request.name) ?? undefined) : undefined);
      if (!format) {
        await drain();
        return { ...base, sha256: hash.digest('hex'), bytes: size.bytes, problems: [], errorCount: 0, warningCount: 0, series: [], stored: false };
      }
      if (format.mapping.symbol === null && !symbol) {
        await drain();
        const problem: PriceFileProblem = { line: null, severity: 'error', code: 'missing-symbol', message: `The file has no symbol column and its name (${request.name}) gives none: give the symbol.` };
        return { ...base, sha256: hash.digest('hex'), bytes: size.bytes, problems: [problem], errorCount: 1, warningCount: 0, series: [], stored: false };
      }

      const parser = new PriceFileParser(format, symbol ? { symbol } : {});
      const collector = new PriceSeriesCollector();
      collector.add(parser.push(head));
      if (!ended) for await (const text of chunks) collector.add(parser.push(text));
      collector.add(parser.end());

      const adjustAll = request.adjustSplits === 'all';
      const adjustDates = new Set(adjustAll ? [] : (request.adjustSplits ?? []));
      const prepared: Array<{ series: PriceSeries; report: PriceImportSeries }> = [];
      const earlier = new Map((await deps.repo.listings()).map((listing) => [listing.symbol, listing]));
      // The exchanges' day (US and Toronto listings: New York's), so an evening import of the day's bar is not "future".
      const today = newYorkTime(deps.marketClock.nowMs()).isoDate;
      for (const name of collector.symbols()) {
        const series = collector.series(name);
        const listing = await listingOf(name, { ...request.listing, ...definedOf(request.listings?.[name]) }, earlier);
        // The calendar is the NYSE's: a Toronto listing is read on weekdays (its holidays are not in it).
        const checked = checkPriceSeries(name, series, { today, holidaysKnown: listing.market === 'US' });
        const splits = checked.possibleSplits.filter((split) => split.adjustable && (adjustAll || adjustDates.has(split.date)));
        // A refused series is reported and never stored (preparePriceSeries refuses it): its bars stay as read.
        const refused = checked.errors.length > 0;
        prepared.push({ series: refused ? series : preparePriceSeries(series, checked, splits), report: { ...checked, listing, adjusted: refused ? [] : splits.map((split) => split.date) } });
      }

      const all = [...parser.problems, ...prepared.flatMap(({ report }) => [...report.errors, ...report.warnings])];
      const errorCount = all.filter((problem) => problem.severity === 'error').length;
      const report: PriceImportReport = {
        ...base,
        sha256: hash.digest('hex'),
        bytes: size.bytes,
        problems: all.slice(0, PRICE_REPORT_MAX_PROBLEMS),
        errorCount,
        warningCount: all.length - errorCount,
        series: prepared.map(({ report: series }) => series),
        stored: false,
      };
      if (request.dryRun || errorCount > 0 || prepared.length === 0) return report;

      const importedBy = 'userId' in actor ? actor.userId : null;
      const counts = await deps.repo.importFile(
        { name: request.name, sha256: report.sha256, importedBy },
        prepared.map(({ series, report: checked }) => ({ listing: checked.listing, bars: columnsOf(series) })),
        deps.now(),
      );
      counts.forEach((count, index) => {
        const { symbol: _symbol, ...rest } = count;
        report.series[index]!.counts = rest;
      });
      report.stored = true;
      await deps.market.importChanged?.(report.series.map((series) => series.symbol));
      // Logged even when it changed nothing (its counts say so): the log is of what admins did.
      await deps.audit.record(actor, {
        action: 'price-import',
        detail: {
          file: request.name,
          sha256: report.sha256,
          symbols: report.series.map((series) => ({ symbol: series.symbol, rows: series.storedRows, first: series.first, last: series.last, ...series.counts, adjusted: series.adjusted })),
        },
      });
      return report;
    },

    /** Removes an imported symbol and its bars (the source serves it again, if it knows it). */
    async remove(symbol: string, actor: AuditActor): Promise<boolean> {
      const removed = await deps.repo.remove(symbol);
      if (!removed) return false;
      await deps.market.importChanged?.([symbol]);
      await deps.audit.record(actor, { action: 'price-import-remove', detail: { symbol } });
      return true;
    },

    summaries: () => deps.repo.summaries(),
  };
}

export type PriceImportService = ReturnType<typeof createPriceImportService>;
