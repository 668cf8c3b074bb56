/**
 * Administration → Data: daily price files an admin imports (issue 29; docs/data-in-and-out.md "Daily
 * price files"). The file is the request's body (text/csv, streamed); what to do with it is the query.
 */
import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { PRICE_DATE_FORMATS, PRICE_SEPARATORS } from '../price-import/types';

/** Most bytes one upload may have (a 30-year daily file is about 0.5 MB; a file of many symbols more). */
export const PRICE_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

const columnIndex = z.number().int().min(0).max(1000);
export const priceFileFormatBody = z.object({
  layout: z.enum(['yahoo', 'stooq', 'custom']),
  separator: z.enum(PRICE_SEPARATORS as [string, ...string[]]),
  decimal_comma: z.boolean(),
  date_format: z.enum(PRICE_DATE_FORMATS as [string, ...string[]]),
  header: z.boolean(),
  /** Header lines after the first (yfinance writes three header lines: 2). */
  extra_header_lines: z.number().int().min(0).max(10).optional(),
  mapping: z.object({
    date: columnIndex,
    open: columnIndex,
    high: columnIndex,
    low: columnIndex,
    close: columnIndex,
    adj_close: columnIndex.nullable(),
    volume: columnIndex.nullable(),
    symbol: columnIndex.nullable(),
  }),
})
  // What the parser cannot read (packages/core/src/price-import/price-file-parser.ts): a 400, never a 500.
  .refine((format) => !(format.decimal_comma && format.separator === ','), { message: 'A decimal comma needs another separator than ","' })
  .refine(
    (format) => {
      const columns = Object.values(format.mapping).filter((index): index is number => index !== null);
      return new Set(columns).size === columns.length;
    },
    { message: 'Two roles are mapped to the same column' },
  );
export type PriceFileFormatBody = z.infer<typeof priceFileFormatBody>;

const optionalText = (name: string, max: number) => singleLineText(name, { max }).optional();

/** The most symbols `listings` names (the query string stays well under the server's header limit). */
export const PRICE_IMPORT_MAX_LISTINGS = 50;
const listingFields = z
  .object({ description: optionalText('Description', 200), exchange: optionalText('Exchange', 40), sector: optionalText('Sector', 80) })
  .strict();
/** A JSON query value: parsed, then checked with `schema`; a message naming `name` when it is not JSON or not valid. */
function jsonQuery<T extends z.ZodType>(name: string, max: number, schema: T) {
  return singleLineText(name, { max }).transform((value, context): z.infer<T> | undefined => {
    if (value === '') return undefined;
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      context.addIssue({ code: 'custom', message: `${name} must be JSON` });
      return z.NEVER;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: `${name}: ${parsed.error.issues[0]?.message ?? 'not valid'}` });
      return z.NEVER;
    }
    return parsed.data as z.infer<T>;
  });
}

/** POST api/admin/prices/import?name=…: the file in the body. */
export const priceImportQuery = z.object({
  name: singleLineText('File name', { max: 200, required: 'File name is required', examples: ['AAPL.csv'] }),
  symbol: optionalText('Symbol', 20),
  description: optionalText('Description', 200),
  exchange: optionalText('Exchange', 40),
  sector: optionalText('Sector', 80),
  /**
   * Per symbol of the file (a file of several symbols), as JSON: `{"AAPL":{"description":"Apple Inc","exchange":"NASDAQ","sector":"…"}}`,
   * at most PRICE_IMPORT_MAX_LISTINGS symbols. A symbol named here takes these fields before
   * `description`, `exchange` and `sector` (which apply to every symbol of the file).
   */
  listings: jsonQuery(
    'listings',
    8_000,
    z
      .record(z.string(), listingFields)
      .refine((map) => Object.keys(map).length <= PRICE_IMPORT_MAX_LISTINGS, { message: `at most ${PRICE_IMPORT_MAX_LISTINGS} symbols` })
      .superRefine((map, context) => {
        const bad = Object.keys(map).find((symbol) => !/^[A-Z0-9.\-^=]{1,20}$/.test(symbol));
        if (bad !== undefined) context.addIssue({ code: 'custom', message: `${JSON.stringify(bad)} is not a symbol (upper case, at most 20 letters, digits or . - ^ =)` });
      }),
  ).optional(),
  /** 'all' (every split the Adj Close confirms) or the dates (YYYY-MM-DD, comma-separated) of the splits to adjust. */
  adjust_splits: singleLineText('adjust_splits', { max: 2_000 })
    .refine((value) => value === '' || value === 'all' || value.split(',').every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day.trim())), { message: 'adjust_splits must be all or dates as YYYY-MM-DD, comma-separated' })
    .optional(),
  /** 'true': check and report only. */
  dry_run: z.enum(['true', 'false'], { error: 'dry_run must be true or false' }).optional(),
  /** The format chosen in the preview, as JSON (priceFileFormatBody); detected from the file when absent. */
  format: jsonQuery('format', 2_000, priceFileFormatBody).optional(),
});
export type PriceImportQuery = z.input<typeof priceImportQuery>;

export const priceImportProblem = z.object({
  line: z.number().nullable(),
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
});
export type PriceImportProblem = z.infer<typeof priceImportProblem>;

export const priceImportSeries = z.object({
  symbol: z.string(),
  description: z.string(),
  market: z.enum(['US', 'TO']),
  exchange: z.string(),
  sector: z.string().nullable(),
  rows: z.number(),
  stored_rows: z.number(),
  first: z.string(),
  last: z.string(),
  /** The sessions without a bar (the first 200). */
  missing_sessions: z.array(z.string()),
  missing_session_count: z.number(),
  closed_day_bars: z.array(z.string()),
  possible_splits: z.array(
    z.object({ date: z.string(), previous_date: z.string(), previous_close: z.number(), close: z.number(), ratio: z.number(), adj_ratio: z.number().nullable(), adjustable: z.boolean() }),
  ),
  usable_by_trade_engines: z.boolean(),
  warmup_bars: z.number(),
  /** The splits adjusted (dates). */
  adjusted: z.array(z.string()),
  /** What storing changed; null when nothing was stored (a dry run, a refusal). */
  counts: z.object({ inserted: z.number(), updated: z.number(), unchanged: z.number() }).nullable(),
});
export type PriceImportSeries = z.infer<typeof priceImportSeries>;

export const priceImportResponse = z.object({
  file: z.string(),
  sha256: z.string(),
  bytes: z.number(),
  format: priceFileFormatBody.nullable(),
  format_problem: z.string().nullable(),
  headers: z.array(z.string()),
  sample: z.array(z.array(z.string())),
  problems: z.array(priceImportProblem),
  error_count: z.number(),
  warning_count: z.number(),
  series: z.array(priceImportSeries),
  stored: z.boolean(),
});
export type PriceImportResponse = z.infer<typeof priceImportResponse>;

export const importedSymbol = z.object({
  symbol: z.string(),
  description: z.string(),
  market: z.enum(['US', 'TO']),
  exchange: z.string(),
  sector: z.string().nullable(),
  source_file: z.string(),
  imported_at: z.string(),
  rows: z.number(),
  first_day: z.string().nullable(),
  last_day: z.string().nullable(),
  last_close: z.number().nullable(),
});
export type ImportedSymbol = z.infer<typeof importedSymbol>;
export const importedPricesResponse = z.object({ symbols: z.array(importedSymbol) });
export type ImportedPricesResponse = z.infer<typeof importedPricesResponse>;

export const removeImportedPricesRequest = z.object({ symbol: singleLineText('Symbol', { max: 20, required: 'Symbol is required', examples: ['AAPL'] }) });
export type RemoveImportedPricesRequest = z.input<typeof removeImportedPricesRequest>;
