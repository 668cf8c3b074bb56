/**
 * Administration → Data (issue 29; docs/data-in-and-out.md "Daily price files"): the imported price
 * files, an import (the file is the request body, text/csv, read as a stream: never held whole), and
 * removal. Admins only (`requireAdmin`). One import runs at a time in a process (409 for another): each
 * holds a database transaction and a file's series.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminEndpoints, PRICE_IMPORT_MAX_BYTES, type ImportedPricesResponse, type MsgBody, type PriceFileFormat, type PriceImportResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError, parseInput } from '../../lib/errors';
import { requireAdmin } from '../admin/admin.routes';
import type { PriceImportReport, PriceImportService } from './price-import.service';

export const IMPORT_RUNNING_MSG = 'Another price file is being imported: try again when it is done.';
export const PRICE_FILE_TOO_LARGE_MSG = `A price file may have at most ${PRICE_IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files.`;
const MAX_LISTED_SESSIONS = 200;

/** The body as a stream of chunks, refused (413) past `maxBytes` (the route's: PRICE_IMPORT_MAX_BYTES; a test's: smaller). */
export async function* limited(body: AsyncIterable<Uint8Array>, maxBytes = PRICE_IMPORT_MAX_BYTES): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw new HttpError(413, PRICE_FILE_TOO_LARGE_MSG, { headers: { connection: 'close' } });
    yield chunk;
  }
}

/** The service's report as the API answers it (snake_case, long lists cut). */
export function priceImportResponseOf(report: PriceImportReport): PriceImportResponse {
  const format = report.format;
  return {
    file: report.file,
    sha256: report.sha256,
    bytes: report.bytes,
    format: format && {
      layout: format.layout,
      separator: format.separator,
      decimal_comma: format.decimalComma,
      date_format: format.dateFormat,
      header: format.header,
      ...(format.extraHeaderLines ? { extra_header_lines: format.extraHeaderLines } : {}),
      mapping: {
        date: format.mapping.date,
        open: format.mapping.open,
        high: format.mapping.high,
        low: format.mapping.low,
        close: format.mapping.close,
        adj_close: format.mapping.adjClose,
        volume: format.mapping.volume,
        symbol: format.mapping.symbol,
      },
    },
    format_problem: report.formatProblem,
    headers: report.headers,
    sample: report.sample,
    problems: report.problems,
    error_count: report.errorCount,
    warning_count: report.warningCount,
    series: report.series.map((series) => ({
      symbol: series.symbol,
      description: series.listing.description,
      market: series.listing.market,
      exchange: series.listing.exchange,
      sector: series.listing.sector,
      rows: series.rows,
      stored_rows: series.storedRows,
      first: series.first,
      last: series.last,
      missing_sessions: series.missingSessions.slice(0, MAX_LISTED_SESSIONS),
      missing_session_count: series.missingSessions.length,
      closed_day_bars: series.closedDayBars.slice(0, MAX_LISTED_SESSIONS),
      possible_splits: series.possibleSplits.map((split) => ({
        date: split.date,
        previous_date: split.previousDate,
        previous_close: split.previousClose,
        close: split.close,
        ratio: split.ratio,
        adj_ratio: split.adjRatio,
        adjustable: split.adjustable,
      })),
      usable_by_trade_engines: series.usableByTradeEngines,
      warmup_bars: series.warmupBars,
      adjusted: series.adjusted,
      counts: series.counts ? { inserted: series.counts.inserted, updated: series.counts.updated, unchanged: series.counts.unchanged } : null,
    })),
    stored: report.stored,
  };
}

export async function priceImportRoutes(app: FastifyInstance, options: { service: PriceImportService }) {
  const { service } = options;
  app.addHook('onRequest', requireAdmin);
  const actor = (request: FastifyRequest) => ({ userId: request.user.id, email: request.user.email, address: request.ip });
  let importing = false;

  route(app, adminEndpoints.adminImportedPrices, async (_request, reply): Promise<ImportedPricesResponse> => {
    reply.header('cache-control', 'no-store');
    const rows = await service.summaries();
    return {
      symbols: rows.map((row) => ({
        symbol: row.symbol,
        description: row.description,
        market: row.market,
        exchange: row.exchange,
        sector: row.sector,
        source_file: row.sourceFile,
        imported_at: row.importedAt.toISOString(),
        rows: row.rows,
        first_day: row.firstDay,
        last_day: row.lastDay,
        last_close: row.lastClose,
      })),
    };
  });

  // The file arrives as the body and is read by the service as it comes (Fastify's own parsers would
  // buffer it): a scope of its own, so no other call takes text/csv. The body's type is checked
  // before the query (a JSON body is the wrong call whatever its query).
  await app.register(async (scope) => {
    scope.addContentTypeParser(['text/csv', 'text/plain', 'application/octet-stream'], (_request, payload, done) => done(null, payload));
    registerImport(scope);
  });

  function registerImport(scope: FastifyInstance) {
  route(scope, adminEndpoints.adminImportPrices, { parse: 'none' }, async (request): Promise<PriceImportResponse> => {
    const body = request.body as AsyncIterable<Uint8Array> | undefined;
    if (!body || typeof (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator] !== 'function') {
      throw new HttpError(415, 'Send the price file as the request body, with Content-Type: text/csv.');
    }
    const query = parseInput(adminEndpoints.adminImportPrices.query, request.query);
    if (importing) throw new HttpError(409, IMPORT_RUNNING_MSG);
    importing = true;
    try {
      const chosen = query.format;
      // The contract's enums are the core's separators and date formats (contract/price-import.ts).
      const format: PriceFileFormat | undefined = chosen && {
        layout: chosen.layout,
        separator: chosen.separator as PriceFileFormat['separator'],
        decimalComma: chosen.decimal_comma,
        dateFormat: chosen.date_format as PriceFileFormat['dateFormat'],
        header: chosen.header,
        ...(chosen.extra_header_lines ? { extraHeaderLines: chosen.extra_header_lines } : {}),
        mapping: { date: chosen.mapping.date, open: chosen.mapping.open, high: chosen.mapping.high, low: chosen.mapping.low, close: chosen.mapping.close, adjClose: chosen.mapping.adj_close, volume: chosen.mapping.volume, symbol: chosen.mapping.symbol },
      };
      const adjust = query.adjust_splits ? (query.adjust_splits === 'all' ? 'all' : query.adjust_splits.split(',').map((day) => day.trim())) : undefined;
      const report = await service.importFile(
        limited(body),
        {
          name: query.name,
          ...(format ? { format } : {}),
          symbol: query.symbol || undefined,
          listing: { description: query.description, exchange: query.exchange, sector: query.sector },
          ...(query.listings ? { listings: query.listings } : {}),
          adjustSplits: adjust,
          dryRun: query.dry_run === 'true',
        },
        actor(request),
      );
      return priceImportResponseOf(report);
    } finally {
      importing = false;
    }
  });
  }

  route(app, adminEndpoints.adminRemoveImportedPrices, async (request, _reply, { symbol }): Promise<MsgBody> => {
    const ticker = symbol.toUpperCase();
    if (!(await service.remove(ticker, actor(request)))) throw new HttpError(404, `${ticker} has no imported prices.`);
    return { msg: `Removed ${ticker}'s imported prices.` };
  });
}
