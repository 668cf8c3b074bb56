import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { DEFAULT_DROP_SELECTION, DEFAULT_DROP_THRESHOLD_PERCENT, DROP_SELECTIONS } from '../scanners/drop-scanner';

/**
 * Batch scans over the signed-in user's favourites: one round trip per screen instead of one
 * request per symbol (docs/design.md "Performance budgets"). A symbol whose data fails is skipped and
 * named in `failed`, never fatal.
 */

/** A symbol the scan could not read, with the reason a user can act on. */
export const scanFailure = z.object({ symbol: z.string(), msg: z.string() });
export type ScanFailure = z.infer<typeof scanFailure>;

const THRESHOLD_MSG = 'threshold must be a number from 0 to 100';

/**
 * A percentage 0–100 as a JSON number or a decimal string ("12.5"); absent means the default.
 * Nothing else is read as a number: "", null, true and [5] are refused, not taken as 0, 1 or 5.
 */
const thresholdPercent = z
  .union([z.number(), singleLineText('threshold', { examples: ['12.5'] })], { error: THRESHOLD_MSG })
  .transform((value, context) => {
    const number = typeof value === 'number' ? value : /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isFinite(number) || number < 0 || number > 100) {
      context.addIssue({ code: 'custom', message: THRESHOLD_MSG });
      return z.NEVER;
    }
    return number;
  });

/** POST api/scan/drops: the Drop and Recovery Scanner (spec §5 "Drop scanner flagging"). */
export const dropScanRequest = z.object({
  threshold: thresholdPercent.default(DEFAULT_DROP_THRESHOLD_PERCENT).describe(`Percent 0–100, default ${DEFAULT_DROP_THRESHOLD_PERCENT}`),
  selection: z.enum(DROP_SELECTIONS, { error: `selection must be one of ${DROP_SELECTIONS.join(', ')}` }).default(DEFAULT_DROP_SELECTION),
});
export type DropScanRequest = z.input<typeof dropScanRequest>;

/** Spec §3 "Flagged stock (drop scanner)"; percentageChange in percent (12.5 = 12.5 %). */
export const dropFlag = z.object({
  symbol: z.string(),
  currentPrice: z.number(),
  selectedHigh: z.number().nullable(),
  selectedLow: z.number().nullable(),
  percentageChange: z.number(),
  calculationType: z.enum(['drop', 'increase']),
  imported: z.literal(true).optional().describe("true: the price or the highs and lows come from an imported price file (docs/data-in-and-out.md)"),
});

export const dropScanResponse = z.object({
  /** Flagged stocks, by percentage change, largest first. */
  results: z.array(dropFlag),
  /** How many favourites were read and checked (flagged or not); those in `failed` are not counted. */
  scanned: z.number().int(),
  failed: z.array(scanFailure),
  stale: z.boolean(),
  as_of: z.number().describe('Unix seconds of the oldest data the scan used'),
  imported_symbols: z.number().int().nonnegative().optional().describe('How many scanned favourites have figures from imported price files (absent: none)'),
});
export type DropScanResponse = z.infer<typeof dropScanResponse>;

/** Spec §3 "Flagged stock (option scanner)". */
export const optionFlag = z.object({
  symbol: z.string(),
  currentPrice: z.number(),
  high: z.number().nullable(),
  low: z.number().nullable(),
  percentageChange: z.number(),
  calculationType: z.enum(['drop', 'increase']),
  tag: z.enum(['1MonthHigh', '1MonthLow', '6MonthHigh', '6MonthLow']),
  action: z.enum(['CALL', 'PUT']),
  timeFrame: z.enum(['short term', 'long term']),
  supportTag: z.enum(['Near Support', 'Near Resistance']),
  imported: z.literal(true).optional().describe("true: the price or the metrics come from an imported price file (docs/data-in-and-out.md)"),
});
export type OptionFlagBody = z.infer<typeof optionFlag>;

/** POST api/scan/options takes no fields: send no body, or `{}`. */
export const optionScanRequest = z.object({});

/**
 * POST api/scan/options (no body): the Options Scanner over the favourites, streamed as NDJSON
 * (`application/x-ndjson`, one JSON event a line) so rows and progress arrive while the server
 * scans. Events, in order: one `start`; per symbol, its `flag`s (zero or more) or one `skip`, then
 * one `progress`; one `end`. Symbols come in the order their reads complete (a few run at once),
 * never interleaved; a symbol's flags follow core's window order (1MonthHigh, 1MonthLow,
 * 6MonthHigh, 6MonthLow). A failure before the scan starts (bad body, no token) answers an
 * ordinary JSON error; after `start` the stream always ends with `end` unless the client leaves.
 */
export const optionScanEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), total: z.number().int() }),
  z.object({ type: z.literal('flag'), flag: optionFlag }),
  z.object({ type: z.literal('skip'), symbol: z.string(), msg: z.string() }),
  z.object({ type: z.literal('progress'), done: z.number().int(), total: z.number().int(), symbol: z.string() }),
  z.object({ type: z.literal('end'), scanned: z.number().int(), failed: z.array(scanFailure), as_of: z.number(), imported_symbols: z.number().int().nonnegative().optional() }),
]);
export type OptionScanEvent = z.infer<typeof optionScanEvent>;

/** GET api/favorites/quotes: last price and day change of each favourite, for the WatchList rows. */
export const favoriteQuotesResponse = z.object({
  quotes: z.array(
    z.object({
      symbol: z.string(),
      current_price: z.number(),
      change: z.number(),
      percent_change: z.number(),
      timestamp: z.number().describe('Unix seconds of the price'),
      stale: z.boolean(),
      last_bar: z.boolean().optional().describe('true: the last bar of an imported price file, not a quote'),
    }),
  ),
  failed: z.array(scanFailure),
});
export type FavoriteQuotesResponse = z.infer<typeof favoriteQuotesResponse>;
