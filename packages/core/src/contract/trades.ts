import { z } from 'zod';
import { singleLineText } from '../validation/text';

/**
 * The trade-idea calls (issue 11): the spec's list calls (GET api/all_stocks_scanner,
 * GET api/get_swing_trade_entries) with optional filters and pagination, an idea's detail, an
 * engine's track record and the replay status. Rows are the fold of the idea's events
 * (docs/rules/conventions.md §0.4): the spec's fields first, then the added ones.
 */

const isoInstant = z.string();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');

export const origin = z.enum(['replayed', 'live']);
export const closeReason = z.enum(['target', 'stop', 'time', 'index_exit', 'corporate_action', 'void']);
export const tradeEngine = z.enum(['layered', 'swing', 'crypto', 'options', 'drop']);

/** Fields every idea row carries beyond the spec (docs/rules/conventions.md §0.4 "Rows"); every engine's row spreads them. */
export const ideaStamps = {
  /** The idea's id (stable; the detail call takes it). */
  Id: z.string(),
  Market: z.enum(['US', 'TO', 'CRYPTO']),
  CloseReason: closeReason.nullable(),
  /** ISO 8601 UTC, null while open. */
  ClosedAt: isoInstant.nullable(),
  ExitPrice: z.number().nullable(),
  /** Close of the signal bar. */
  SignalPrice: z.number(),
  /** True until the entry bar's pass records the fill (docs/rules/conventions.md §0.1). */
  EntryPending: z.boolean(),
  RuleVersion: z.string(),
  ParamHash: z.string(),
  Origin: origin,
  /** Replayed over today's index members (no point-in-time membership source). */
  SurvivorshipBiased: z.boolean(),
  /**
   * Its figures come from an imported price file (its symbol's, on a rule version run on imported
   * prices: docs/data-in-and-out.md "Where imported figures are labelled"); absent otherwise. Added as
   * the row is sent, not stored.
   */
  Imported: z.literal(true).optional(),
};

/** One level of a layered plan as the card shows it (spec §5 "Entry and exit plans"). */
export const planLevel = z.object({
  /** ENL1…ENL5, EXL1…EXL5; 'CURRENT' / 'HIGH' for the single 100% fallback level. */
  name: z.string(),
  price: z.number(),
  /** Percent, 1 decimal. */
  allocation: z.number(),
  hit: z.boolean(),
  count: z.number().int().nonnegative(),
  lastReached: isoInstant.nullable(),
});
export type PlanLevel = z.infer<typeof planLevel>;

const levelFields = (prefix: 'ENL' | 'EXL') => {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (let n = 1; n <= 5; n += 1) {
    shape[`${prefix}${n}`] = z.number().nullable();
    shape[`Is${prefix}${n}`] = z.boolean();
    shape[`${prefix}${n}_Count`] = z.number().int().nonnegative();
    shape[`${prefix}${n}_LastReached`] = isoInstant.nullable();
  }
  return shape;
};

export type LayeredStatus = 'Active' | 'Successful' | 'Failed';

/** Spec §3 "Layered stock trade" with its derived fields (docs/rules/long-term.md §1.5). */
export const layeredTrade = z
  .object({
    Symbol: z.string(),
    CreatedAt: isoInstant,
    UpdatedAt: isoInstant,
    IsActive: z.boolean(),
    OriginalEntryPrice: z.number(),
    CurrentPrice: z.number(),
    ThirtyDayHigh: z.number(),
    ...levelFields('ENL'),
    ...levelFields('EXL'),
    CurrentProfit: z.number(),
    IsTarget: z.boolean(),
    IsNewTrade: z.boolean(),
    entriesHit: z.string(),
    exitsHit: z.string(),
    entryPlan: z.array(planLevel),
    exitPlan: z.array(planLevel),
    latestExitLevel: z.number(),
    /** Beyond the spec. */
    Status: z.enum(['Active', 'Successful', 'Failed']),
    PotentialProfit: z.number(),
    Budget: z.number(),
    SharesHeld: z.number(),
    CapitalDeployed: z.number(),
    Proceeds: z.number(),
    StepPct: z.number(),
    StopPrice: z.number(),
    ...ideaStamps,
  })
  .passthrough();
export type LayeredTrade = z.infer<typeof layeredTrade> & Record<string, unknown>;
/** GET api/all_stocks_scanner */
export const layeredTradesResponse = z.array(layeredTrade);

export type SwingStatus = 'Active' | 'Successful' | 'Partial' | 'Failed';

/** Spec §3 "Short-term trade" (docs/rules/swing.md §2.2). */
export const swingTrade = z.object({
  Symbol: z.string(),
  EntryPrice: z.number(),
  CurrentPrice: z.number(),
  PercentProfitTarget1: z.number(),
  PercentProfitTarget2: z.number(),
  IsProfit1: z.boolean(),
  IsProfit2: z.boolean(),
  IsActive: z.boolean(),
  IsDrop: z.boolean(),
  NearSupport: z.boolean(),
  CurrentProfit: z.number(),
  DateCreated: isoInstant,
  DateUpdated: isoInstant,
  /** Beyond the spec. */
  TradeType: z.enum(['Price Drop', 'Trend']),
  Status: z.enum(['Active', 'Successful', 'Partial', 'Failed']),
  Target1Price: z.number(),
  Target2Price: z.number(),
  StopPrice: z.number(),
  ATRAtSignal: z.number(),
  RSI2: z.number().nullable(),
  DropATR: z.number().nullable(),
  VolumeRatio: z.number().nullable(),
  SupportLevel: z.number().nullable(),
  EarningsSoon: z.boolean(),
  ...ideaStamps,
});
export type SwingTrade = z.infer<typeof swingTrade>;
/** GET api/get_swing_trade_entries */
export const swingTradesResponse = z.array(swingTrade);

/**
 * The list calls' optional query (both engines). No parameter at all: the spec's call, the first
 * page (≤ 100) as a bare list. The next page's cursor, when there is one, comes in the
 * `X-Next-Cursor` response header; the list is always newest first.
 */
export const ideaListQuery = z
  .object({
    /**
     * Comma-separated statuses: active, successful, partial, failed (layered, swing; options without
     * partial); drop items (get_stock_scanner_data): active, deactivated.
     */
    status: singleLineText('status', { max: 60, examples: ['active,successful'] })
      .regex(
        /^(active|successful|partial|failed|deactivated)(,(active|successful|partial|failed|deactivated))*$/,
        'status must be a comma-separated list of active, successful, partial, failed, deactivated',
      )
      .optional(),
    /** Created at or after (ISO 8601 instant or YYYY-MM-DD, UTC midnight). */
    from: singleLineText('from', { max: 40, examples: ['2026-01-01'] }).optional(),
    /** Created at or before (ISO 8601 instant, or YYYY-MM-DD meaning through 23:59:59.999 UTC). */
    to: singleLineText('to', { max: 40, examples: ['2026-11-20T23:59:59.999Z'] }).optional(),
    /** Case-insensitive contains on the symbol. */
    symbol: singleLineText('symbol', { max: 20, examples: ['AA'] }).optional(),
    origin: origin.optional(),
    /**
     * Swing: trend, drop, level; drop items (get_stock_scanner_data): S, L, O. Each optionally with
     * the one status wanted of that type ('S:deactivated', 'drop:successful'; a status of its list),
     * so that any set of a screen's per-type status boxes is one call (comma-separated; entries are
     * or-ed, and and-ed with `status` when both are given).
     */
    type: singleLineText('type', { max: 200, examples: ['trend,drop', 'S,O', 'S,L:deactivated', 'trend:active,drop:active,drop:successful,drop:partial'] })
      .regex(
        /^(trend|drop|level|[SLO])(:(active|successful|partial|failed|deactivated))?(,(trend|drop|level|[SLO])(:(active|successful|partial|failed|deactivated))?)*$/,
        'type must be a comma-separated list of trend, drop, level (swing) or S, L, O (drop items), each optionally with :status (one status of its list)',
      )
      .optional(),
    limit: z.coerce.number().int('limit must be a whole number').min(1, 'limit must be between 1 and 500').max(500, 'limit must be between 1 and 500').optional(),
    cursor: singleLineText('cursor', { max: 200, maxMessage: 'cursor is not valid' }).optional(),
  })
  .strict();
export type IdeaListQuery = z.infer<typeof ideaListQuery>;

/** An event of the log as the detail call answers it. */
export const ideaEventRow = z.object({
  type: z.string(),
  level: z.string(),
  barDate: isoDate,
  price: z.number().nullable(),
  data: z.record(z.string(), z.unknown()),
  ruleVersion: z.string(),
  paramHash: z.string(),
  origin,
  recordedAt: isoInstant,
});
export type IdeaEventRow = z.infer<typeof ideaEventRow>;

export const dailyBarRow = z.object({ date: isoDate, open: z.number(), high: z.number(), low: z.number(), close: z.number(), volume: z.number() });
export type DailyBarRow = z.infer<typeof dailyBarRow>;

/** GET api/trade_ideas/{engine}/{id}: the idea's row, its event log (oldest first), and bars for its chart. */
export const ideaDetail = z.object({
  engine: tradeEngine,
  idea: z.record(z.string(), z.unknown()),
  events: z.array(ideaEventRow),
  /** Daily bars from ~60 sessions before the signal to the exit (or today), oldest first. */
  bars: z.array(dailyBarRow),
});
export type IdeaDetail = z.infer<typeof ideaDetail>;
export const ideaDetailResponse = ideaDetail;

/** A share with its 95% Wilson interval (docs/rules/track-record.md §6.3). */
export const rateWithInterval = z.object({ rate: z.number(), low: z.number(), high: z.number() });

/** The statistics of a set of closed ideas (docs/rules/track-record.md §6.3). Returns are fractions (0.05 = +5 %). */
export const ideaStats = z.object({
  n: z.number().int(),
  entryWeeks: z.number().int(),
  wins: z.number().int(),
  winRate: rateWithInterval.nullable(),
  breakEvenWinRate: z.number().nullable(),
  meanReturn: z.number().nullable(),
  /** Block bootstrap over entry weeks, 2,000 resamples, fixed seed. */
  meanInterval: z.object({ low: z.number(), high: z.number() }).nullable(),
  medianReturn: z.number().nullable(),
  avgWin: z.number().nullable(),
  avgLoss: z.number().nullable(),
  /** null when there is no loss ('—'). */
  profitFactor: z.number().nullable(),
  /** Layered only: Σ P&L / Σ deployed, Σ P&L / Σ committed (N × budget), XIRR of the pooled cash flows. */
  dollarWeighted: z.object({ onDeployed: z.number().nullable(), onCommitted: z.number().nullable(), xirr: z.number().nullable() }).nullable(),
  holdingMedian: z.number().nullable(),
  holdingMax: z.number().nullable(),
  worstReturn: z.number().nullable(),
  /** Worst mark (return) during any trade. */
  maxAdverseExcursion: z.number().nullable(),
  /** Shares (0…1) per CloseReason. */
  exitReasons: z.record(z.string(), z.number()),
  /** Shares (0…1) per spec status (Successful, Partial, Failed). */
  statuses: z.record(z.string(), z.number()),
});
export type IdeaStats = z.infer<typeof ideaStats>;

export const trackRecordGroup = z.object({
  /** 'All', or the engine's type: 'Price Drop', 'Trend', 'Level System'. */
  type: z.string(),
  origin,
  ruleVersion: z.string(),
  /** Mature cohorts only (docs/rules/track-record.md §6.2); null: "no mature cohort yet". */
  mature: ideaStats.nullable(),
  /** All closed so far: "includes immature cohorts; biased toward quick exits". */
  allClosed: ideaStats,
  open: z.object({ count: z.number().int(), avgMark: z.number().nullable(), oldestSessions: z.number().int().nullable() }),
  voided: z.number().int(),
  /** Random entries through the same code (docs/rules/track-record.md §6.4 b), over the same ideas as allClosed. */
  baseline: z.object({ n: z.number().int(), winRate: rateWithInterval.nullable(), meanReturn: z.number().nullable(), dollarWeighted: z.number().nullable() }).nullable(),
  /** SPY over each idea's own window (docs/rules/track-record.md §6.4 a). */
  benchmark: z.object({ symbol: z.string(), meanReturn: z.number().nullable(), meanExcess: z.number().nullable() }).nullable(),
});
export type TrackRecordGroup = z.infer<typeof trackRecordGroup>;

/** GET api/trade_ideas/{engine}/track_record?from&to&symbol */
export const trackRecord = z.object({
  engine: tradeEngine,
  scope: z.object({ from: z.string().nullable(), to: z.string().nullable(), symbol: z.string().nullable() }),
  /** "survivorship: today's members" when any replayed idea used today's membership. */
  survivorshipNote: z.string().nullable(),
  costBps: z.number(),
  groups: z.array(trackRecordGroup),
  /** ISO 8601 UTC: when the figures were computed. */
  asOf: isoInstant,
});
export type TrackRecord = z.infer<typeof trackRecord>;
export const trackRecordResponse = trackRecord;

export const trackRecordQuery = z
  .object({
    from: singleLineText('from', { max: 40, examples: ['2026-01-01'] }).optional(),
    to: singleLineText('to', { max: 40, examples: ['2026-11-20T23:59:59.999Z'] }).optional(),
    symbol: singleLineText('symbol', { max: 20, examples: ['AA'] }).optional(),
  })
  .strict();

/** GET api/trade_ideas/replay_status: per engine, the install (or new rule version) replay. */
export const replayStatus = z.object({
  engine: tradeEngine,
  ruleVersion: z.string(),
  state: z.enum(['pending', 'running', 'done', 'failed']),
  sessionsDone: z.number().int(),
  sessionsTotal: z.number().int(),
  startedAt: isoInstant.nullable(),
  finishedAt: isoInstant.nullable(),
  error: z.string().nullable(),
});
export type ReplayStatus = z.infer<typeof replayStatus>;
export const replayStatusResponse = z.array(replayStatus);
