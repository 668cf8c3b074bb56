import { z } from 'zod';
import { multiLineText, singleLineText } from '../validation/text';
import { dailyBarRow } from './trades';
import { symbolText } from './watchlist';

/**
 * Custom scans (issue 26, docs/custom-scans.md): the field catalogue the builder and the formula
 * parser share (`GET api/scans/fields`), as packages/core/src/custom-scans/fields.ts declares it.
 */

export const scanFieldParam = z.object({
  name: z.string(),
  default: z.number(),
  min: z.number(),
  max: z.number(),
  choices: z.array(z.number()).optional(),
});

export const scanFieldSpec = z.object({
  name: z.string(),
  label: z.string(),
  unit: z.enum(['price', 'percent', 'points', 'ratio', 'dollars', 'days', 'count', 'text']),
  kind: z.enum(['number', 'text']),
  params: z.array(scanFieldParam),
  source: z.enum(['bars', 'sector', 'exchange', 'earnings', 'news']),
  description: z.string(),
});

export const scanFieldsResponse = z.object({ fields: z.array(scanFieldSpec) });
export type ScanFieldsResponse = z.infer<typeof scanFieldsResponse>;

/*
 * Running and saving scans (issue 26, docs/custom-scans.md). A scan travels either as a formula
 * (`rsi(14) < 30 and close > sma(200)`) or as the builder's three groups of conditions; the server
 * turns groups into the formula (printFormula), parses it (parseFormula: every limit and every name
 * checked there, errors with a position) and answers both forms, so the two round-trip.
 */

/** Where a scan looks: the S&P 500, every US stock the source has, Canadian (TSX) stocks, crypto, the user's favourites. */
export const SCAN_UNIVERSES = ['sp500', 'us', 'tsx', 'crypto', 'favorites'] as const;
export const scanUniverse = z.enum(SCAN_UNIVERSES, { error: `universe must be one of ${SCAN_UNIVERSES.join(', ')}` });
export type ScanUniverse = z.infer<typeof scanUniverse>;
/** The universes' names as the screen shows them. */
export const SCAN_UNIVERSE_LABELS: Readonly<Record<ScanUniverse, string>> = {
  sp500: 'S&P 500',
  us: 'All US stocks',
  tsx: 'Canadian (TSX) stocks',
  crypto: 'Crypto',
  favorites: 'My favorites',
};

/** Most saved scans one user may keep. */
export const MAX_SAVED_SCANS = 50;
/** Most conditions in one builder group. */
export const MAX_GROUP_CONDITIONS = 40;

const finite = (name: string) => z.number({ error: `${name} must be a number` }).finite(`${name} must be a finite number`);

/** A field and its parameters, as in the catalogue (`{ field: 'rsi', params: [14] }`); parameters left out take their defaults. */
export const scanFieldRef = z.object({
  field: singleLineText('field', { max: 40, required: true, examples: ['rsi'] }),
  params: z.array(finite('A parameter'), { error: 'params must be a list of numbers' }).max(4, 'params may hold at most 4 numbers').default([]),
});

export const scanOperand = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('number'), value: finite('value') }),
  z.object({ kind: z.literal('field'), ref: scanFieldRef }),
], { error: 'An operand is { kind: "number", value } or { kind: "field", ref }' });

/** One condition of the builder: a comparison, a range, a cross, or a text field's list. */
export const scanCondition = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('compare'), left: scanFieldRef, op: z.enum(['<', '<=', '>', '>=', '=', '!='], { error: 'op must be one of < <= > >= = !=' }), right: scanOperand }),
  z.object({ kind: z.literal('between'), left: scanFieldRef, low: finite('low'), high: finite('high') }),
  z.object({ kind: z.literal('cross'), left: scanFieldRef, direction: z.enum(['above', 'below'], { error: 'direction must be above or below' }), right: scanOperand, within: z.number().int('within must be a whole number of sessions').min(1, 'within must be at least 1').max(250, 'within must be at most 250') }),
  z.object({ kind: z.literal('in'), left: scanFieldRef, values: z.array(singleLineText('A value', { max: 100, required: true })).min(1, 'values must hold at least one text').max(50, 'values may hold at most 50 texts'), negated: z.boolean().default(false) }),
], { error: 'A condition is of kind compare, between, cross or in' });
export type ScanConditionInput = z.input<typeof scanCondition>;

const group = (name: string) => z.array(scanCondition, { error: `${name} must be a list of conditions` }).max(MAX_GROUP_CONDITIONS, `${name} may hold at most ${MAX_GROUP_CONDITIONS} conditions`).default([]);

/** The builder's groups: all of (AND), any of (OR), none of (NOT). */
export const scanGroups = z.object({ all: group('all'), any: group('any'), none: group('none') });
export type ScanGroupsInput = z.input<typeof scanGroups>;
export type ScanGroupsOutput = z.output<typeof scanGroups>;

/** Checked in full by parseFormula (2,000 characters, with the position of each problem); this cap only bounds what is parsed. */
const scanFormula = multiLineText('formula', { max: 4000, maxMessage: 'The formula is longer than 2000 characters' });

/** A scan's conditions: `formula`, or `conditions` (the builder's groups); exactly one of them. */
const scanDefinition = {
  universe: scanUniverse,
  formula: scanFormula.optional(),
  conditions: scanGroups.optional(),
};
const oneDefinition = (value: { formula?: string | undefined; conditions?: unknown }) => (value.formula === undefined) !== (value.conditions === undefined);
const oneDefinitionMessage = { message: 'Give the scan as formula or as conditions (one of them)' };

const asOfDate = singleLineText('as_of', { examples: ['2026-03-02'] }).regex(/^\d{4}-\d{2}-\d{2}$/, 'as_of must be a date, YYYY-MM-DD');

/** POST api/scans/run. `as_of`: run as of that session (the last one on or before it), with only the bars known then. */
export const runScanRequest = z
  .object({ ...scanDefinition, as_of: asOfDate.optional() })
  .refine(oneDefinition, oneDefinitionMessage);
export type RunScanRequest = z.input<typeof runScanRequest>;

/** A column of the results: one per field the scan reads. */
export const scanColumn = z.object({
  /** `rsi(14)`, `close`: the field with its parameters, as in the formula. */
  key: z.string(),
  field: z.string(),
  params: z.array(z.number()),
  /** The builder's label with its parameters: `RSI(14)`. */
  label: z.string(),
  unit: scanFieldSpec.shape.unit,
});
export type ScanColumn = z.infer<typeof scanColumn>;

export const scanResultRow = z.object({
  symbol: z.string(),
  name: z.string(),
  /** The close as of the run date. */
  price: z.number().nullable(),
  /** Change of that close against the session before, in %. */
  change_pct: z.number().nullable(),
  /** One value per column (null: no value). */
  values: z.array(z.union([z.number(), z.string(), z.null()])),
  /** true: the symbol's figures come from an imported price file (docs/data-in-and-out.md); absent otherwise. */
  imported: z.literal(true).optional(),
});
export type ScanResultRow = z.infer<typeof scanResultRow>;

export const runScanResponse = z.object({
  universe: scanUniverse,
  /** The session the results are as of (the bars' last date used), YYYY-MM-DD; null when no symbol had bars. */
  as_of: z.string().nullable(),
  /** The market data source the bars came from (simulated, file, live). */
  source: z.string(),
  /** How many evaluated symbols' bars come from imported price files (docs/data-in-and-out.md): the screen says "imported prices for N symbols". */
  imported_symbols: z.number().int().nonnegative().optional(),
  /** The scan as one formula (the canonical form). */
  formula: z.string(),
  /** The scan as the builder's groups; null when its nesting does not fit them (edit it as a formula). */
  conditions: scanGroups.nullable(),
  columns: z.array(scanColumn),
  /** Symbols in the universe. */
  universe_size: z.number(),
  /** Symbols whose bars could be read (the others are named in `missing`). */
  evaluated: z.number(),
  missing: z.array(z.string()),
  matches: z.number(),
  /** The matching symbols, in the universe's order. */
  rows: z.array(scanResultRow),
});
export type RunScanResponse = z.infer<typeof runScanResponse>;

/** GET api/scans/chart: a result row's "Details" chart, the symbol's daily bars through the run date. */
export const scanChartQuery = z.object({
  symbol: symbolText((input) => (input === undefined ? 'symbol is required' : 'symbol must be text')),
  as_of: asOfDate.optional(),
});
export const scanChartResponse = z.object({
  symbol: z.string(),
  /** The market data source the bars came from. */
  source: z.string(),
  /** true: the bars come from an imported price file (docs/data-in-and-out.md); absent otherwise. */
  imported: z.literal(true).optional(),
  /** The last bar's date (on or before `as_of`), YYYY-MM-DD. */
  as_of: z.string(),
  /** About a year of daily bars (at most 260), oldest first, none after `as_of`. */
  bars: z.array(dailyBarRow),
});
export type ScanChartResponse = z.infer<typeof scanChartResponse>;

/** A saved scan, as the user's list and the calls that change one answer it. */
export const savedScan = z.object({
  id: z.number(),
  name: z.string(),
  universe: scanUniverse,
  formula: z.string(),
  conditions: scanGroups.nullable(),
  /** Goes up by one each time the universe or the conditions change (a stored backtest is of one version). */
  version: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SavedScan = z.infer<typeof savedScan>;

/** A starter scan the user can copy into their own. */
export const scanTemplate = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  universe: scanUniverse,
  formula: z.string(),
  conditions: scanGroups.nullable(),
});
export type ScanTemplate = z.infer<typeof scanTemplate>;

/** GET api/scans: the user's saved scans (newest change first), the templates, and the limit. */
export const listScansResponse = z.object({ scans: z.array(savedScan), templates: z.array(scanTemplate), limit: z.number() });
export type ListScansResponse = z.infer<typeof listScansResponse>;

export const scanIdParams = z.object({
  id: z.coerce.number({ error: 'id must be a scan id' }).int('id must be a scan id').positive('id must be a scan id').max(2_147_483_647, 'id must be a scan id'),
});

/** POST api/scans and PUT api/scans/{id}: the whole scan. */
export const saveScanRequest = z
  .object({ name: singleLineText('Name', { max: 80, required: 'Name is required', examples: ['Oversold in an uptrend'] }), ...scanDefinition })
  .refine(oneDefinition, oneDefinitionMessage);
export type SaveScanRequest = z.input<typeof saveScanRequest>;

export const scanResponse = z.object({ scan: savedScan });
export const saveScanResponse = z.object({ msg: z.string(), scan: savedScan });
export type SaveScanResponse = z.infer<typeof saveScanResponse>;

/*
 * Backtests (issue 26, docs/custom-scans.md "Backtest"): one stored per saved scan, of one version of
 * it. Returns are fractions (0.05 = +5 %), net of 5 bps a side; mature cohorts only.
 */
export const BACKTEST_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const backtestStatus = z.enum(BACKTEST_STATUSES);
export type BacktestStatus = z.infer<typeof backtestStatus>;

const rateWithInterval = z.object({ rate: z.number(), low: z.number(), high: z.number() });
export const backtestStats = z.object({
  n: z.number(),
  mean: z.number().nullable(),
  mean_low: z.number().nullable(),
  mean_high: z.number().nullable(),
  median: z.number().nullable(),
  /** Share of returns above 0, with its 95 % Wilson interval. */
  positive: rateWithInterval.nullable(),
});
export type BacktestStats = z.infer<typeof backtestStats>;

export const backtestHorizon = z.object({
  /** Sessions held: 5, 21 or 63. */
  horizon: z.number(),
  scan: backtestStats,
  /** Random entries (20 per entry) from the same universe on the same days, of the entry's ATR% tercile that day. */
  random: backtestStats,
  /** The benchmark (SPY; BTC for crypto) over the same windows; null without one. */
  benchmark_mean: z.number().nullable(),
  excess_mean: z.number().nullable(),
  /** Entries of months not yet mature at this horizon (left out of the figures). */
  immature: z.number(),
});

export const backtestResult = z.object({
  from: z.string(),
  to: z.string(),
  sessions: z.number(),
  symbols: z.number(),
  entries: z.number(),
  benchmark: z.string().nullable(),
  /** What the replay cannot know (today's members, listing data), in words. */
  survivorship: z.string(),
  horizons: z.array(backtestHorizon),
  /** Equal-weight entries held 21 sessions, compounded: 1 at the start. */
  equity: z.array(z.object({ date: z.string(), value: z.number() })),
  worst: z.array(z.object({ symbol: z.string(), date: z.string(), return_21: z.number() })),
});
export type BacktestResultBody = z.infer<typeof backtestResult>;

/** POST and GET api/scans/{id}/backtest: the scan's backtest, running or finished. */
export const scanBacktestResponse = z.object({
  scan_id: z.number(),
  /** The scan's version this backtest replays; `current` is false once the scan changed after it. */
  version: z.number(),
  current: z.boolean(),
  status: backtestStatus,
  /** Sessions replayed, of `total` (0 of 0 while queued). */
  done: z.number(),
  total: z.number(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  result: backtestResult.nullable(),
  /**
   * The imported prices `result` was replayed on (issue 29; docs/custom-scans.md "Backtest jobs"): 8 hex
   * digits, '' when the universe read none; null without a result.
   */
  data_version: z.string().nullable(),
  /**
   * The imported prices of the universe changed since the result before: a run under way replays the
   * new ones (started again for them); a finished result is of the earlier prices and runs again.
   */
  data_changed: z.boolean(),
});
export type ScanBacktestResponse = z.infer<typeof scanBacktestResponse>;
