/**
 * An engine's track record (docs/rules/track-record.md §6), whatever the engine: the §6.3 statistics per
 * (type, origin, RuleVersion) — origins are never pooled (§0.5) — over mature cohorts and over all
 * closed ideas, the open ideas beside them, the voided count, the random-entry baseline through the
 * engine's own code (§6.4 b) and the market benchmark (§6.4 a). Pure: every input is an argument,
 * `now` included, and the same inputs always give the same answer.
 */
import { type TrackRecord, type TrackRecordGroup } from '../../contract/trades';
import { dayNumber, newYorkInstantMs } from '../../market/trading-calendar';
import { type DailySeries, type EngineDefinition, type IdeaOutcome, type Origin } from '../types';
import { baselineSummary, createBaseline } from './baseline';
import { benchmarkSummary, indexBenchmark } from './benchmark';
import { cohortMaturity, cohortOf, type SessionCalendar } from './cohorts';
import { computeIdeaStats, LAYERED_BUDGET, mean } from './stats';

/** Stock fills pay 5 bps per side (docs/rules/track-record.md §6.1 `costBps`) unless the engine's parameters say otherwise. */
export const DEFAULT_COST_BPS = 5;
/** The group of every type together. */
export const ALL_TYPES = 'All';
export const SURVIVORSHIP_NOTE = "survivorship: today's members";

/** Voided ideas of an (origin, RuleVersion), scoped by the caller; `types` adds them to those type groups too. */
export interface VoidedCount {
  origin: Origin;
  ruleVersion: string;
  types?: readonly string[];
  count: number;
}

/** The screen's filters the record follows (the status checkboxes never filter it). */
export interface TrackRecordScope {
  /** CreatedAt at or after: an ISO 8601 instant, or YYYY-MM-DD (UTC midnight). */
  from?: string | null;
  /** CreatedAt at or before: an ISO 8601 instant, or YYYY-MM-DD (through 23:59:59.999 UTC). */
  to?: string | null;
  /** Case-insensitive contains on the symbol. */
  symbol?: string | null;
}

export interface TrackRecordInput<P, S, Row> {
  engine: EngineDefinition<P, S, Row>;
  /** Every entered idea of the engine (engine.outcome of each), open or closed, any origin or version. */
  outcomes: readonly IdeaOutcome[];
  voided: readonly VoidedCount[];
  /** Full daily histories of the universe, for the baseline's draws. */
  series: ReadonlyMap<string, DailySeries>;
  /** The engine's universe on a session. */
  universeOn: (date: string) => readonly string[];
  /** SPY (BTC for crypto), or null when not loaded. */
  benchmark: DailySeries | null;
  scope: TrackRecordScope;
  /** ISO 8601 UTC. */
  now: string;
  /** Replayed ideas used today's index members. */
  survivorshipBiased: boolean;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** The nominal pass time (16:30 New York, docs/rules/conventions.md §0.5) stands for a date-only CreatedAt. */
const PASS_MINUTE = 16 * 60 + 30;

/** An instant (epoch ms) of a scope bound; throws a RangeError naming the field when it is not a date. */
function boundMs(value: string, field: 'from' | 'to'): number {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00.000Z`);
    if (Number.isFinite(ms) && new Date(ms).toISOString().startsWith(value)) return field === 'to' ? ms + 86_400_000 - 1 : ms;
  } else {
    const ms = Date.parse(value);
    if (Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}T/.test(value)) return ms;
  }
  throw new RangeError(`${field} must be an ISO 8601 instant or a date (YYYY-MM-DD)`);
}

function createdAtMs(createdAt: string): number {
  return DATE_ONLY.test(createdAt) ? newYorkInstantMs(dayNumber(createdAt), PASS_MINUTE) : Date.parse(createdAt);
}

/**
 * The ideas in a screen's scope: CreatedAt within [from, to] (inclusive) and the symbol containing
 * the filter, ignoring case. A date-only CreatedAt is read as that session's pass time.
 */
export function filterScope<T extends Pick<IdeaOutcome, 'createdAt' | 'symbol'>>(items: readonly T[], scope: TrackRecordScope): T[] {
  const from = scope.from ? boundMs(scope.from, 'from') : Number.NEGATIVE_INFINITY;
  const to = scope.to ? boundMs(scope.to, 'to') : Number.POSITIVE_INFINITY;
  const needle = scope.symbol ? scope.symbol.toUpperCase() : '';
  return items.filter((item) => {
    const at = createdAtMs(item.createdAt);
    return at >= from && at <= to && (needle === '' || item.symbol.toUpperCase().includes(needle));
  });
}

function numericParam(params: unknown, key: string): number | null {
  if (params === null || typeof params !== 'object') return null;
  const value = (params as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Newer rule versions first (numeric-aware), then live before replayed, then 'All' before the types (alphabetical). */
function compareGroups(a: TrackRecordGroup, b: TrackRecordGroup): number {
  const version = b.ruleVersion.localeCompare(a.ruleVersion, 'en', { numeric: true });
  if (version !== 0) return version;
  if (a.origin !== b.origin) return a.origin === 'live' ? -1 : 1;
  const rank = (type: string) => (type === ALL_TYPES ? 0 : 1);
  if (rank(a.type) !== rank(b.type)) return rank(a.type) - rank(b.type);
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

/** GET api/trade_ideas/{engine}/track_record's answer (the contract's TrackRecord). */
export function computeTrackRecord<P, S, Row>(input: TrackRecordInput<P, S, Row>): TrackRecord {
  const { engine, now } = input;
  const calendar: SessionCalendar = engine.calendar ?? 'us';
  // An idea's cohort is mature once its month plus the longest hold of the idea's own type has
  // passed (docs/rules/track-record.md §6.2: drop S 21, L 252, O 10 sessions), else the engine's longest hold.
  const maturityByHold = new Map<number, (cohort: string) => boolean>();
  const isMatureIdea = (idea: IdeaOutcome) => {
    const hold = engine.maxHoldSessionsOf?.(idea.types[0] ?? ALL_TYPES) ?? engine.maxHoldSessions;
    let isMature = maturityByHold.get(hold);
    if (!isMature) {
      isMature = cohortMaturity(hold, now, calendar);
      maturityByHold.set(hold, isMature);
    }
    return isMature(cohortOf(idea.entryDate));
  };
  const budget = numericParam(engine.params, 'budget') ?? LAYERED_BUDGET;
  const costBps = numericParam(engine.params, 'costBps') ?? DEFAULT_COST_BPS;
  const inScope = filterScope(input.outcomes, input.scope);
  const bench = input.benchmark ? indexBenchmark(input.benchmark) : null;
  const baseline = createBaseline({ engine, series: input.series, universeOn: input.universeOn, now });
  // An idea sits in several type groups: its draws run once. Keyed by origin and version too, since
  // ideaIdOf does not name the version (a new version's replay reuses the ids).
  const drawsMemo = new Map<string, IdeaOutcome[]>();
  const drawsOf = (idea: IdeaOutcome): IdeaOutcome[] => {
    const key = `${idea.origin}\u0000${idea.ruleVersion}\u0000${idea.ideaId}`;
    let draws = drawsMemo.get(key);
    if (!draws) {
      draws = baseline.drawsFor(idea);
      drawsMemo.set(key, draws);
    }
    return draws;
  };

  // (origin, ruleVersion) → its ideas; voided counts may name keys without an entered idea.
  const keyOf = (origin: Origin, ruleVersion: string) => `${origin}\u0000${ruleVersion}`;
  const byKey = new Map<string, { origin: Origin; ruleVersion: string; ideas: IdeaOutcome[] }>();
  const entry = (origin: Origin, ruleVersion: string) => {
    const key = keyOf(origin, ruleVersion);
    let found = byKey.get(key);
    if (!found) {
      found = { origin, ruleVersion, ideas: [] };
      byKey.set(key, found);
    }
    return found;
  };
  for (const idea of inScope) entry(idea.origin, idea.ruleVersion).ideas.push(idea);
  for (const v of input.voided) if (v.count > 0) entry(v.origin, v.ruleVersion);

  const groups: TrackRecordGroup[] = [];
  for (const { origin, ruleVersion, ideas } of byKey.values()) {
    const types = new Set<string>();
    for (const idea of ideas) for (const type of idea.types) if (type !== ALL_TYPES) types.add(type);
    for (const v of input.voided) if (v.origin === origin && v.ruleVersion === ruleVersion) for (const type of v.types ?? []) types.add(type);
    for (const type of [ALL_TYPES, ...types]) {
      const members = type === ALL_TYPES ? ideas : ideas.filter((idea) => idea.types.includes(type));
      const closed = members.filter((idea) => idea.closed);
      const open = members.filter((idea) => !idea.closed);
      const matureClosed = closed.filter(isMatureIdea);
      let voided = 0;
      for (const v of input.voided) {
        if (v.origin === origin && v.ruleVersion === ruleVersion && (type === ALL_TYPES || (v.types ?? []).includes(type))) voided += v.count;
      }
      // The baseline runs the engine's current code: only that version's ideas have one.
      const baselineFigures = ruleVersion === engine.ruleVersion ? baselineSummary(closed.flatMap(drawsOf)) : null;
      groups.push({
        type,
        origin,
        ruleVersion,
        mature: matureClosed.length > 0 ? computeIdeaStats(matureClosed, { budget }) : null,
        allClosed: computeIdeaStats(closed, { budget }),
        open: {
          count: open.length,
          avgMark: mean(open.map((idea) => idea.returnPct)),
          oldestSessions: open.length > 0 ? open.reduce((oldest, idea) => Math.max(oldest, idea.holdingSessions), 0) : null,
        },
        voided,
        baseline: baselineFigures,
        benchmark: bench ? benchmarkSummary(closed, bench) : null,
      });
    }
  }
  groups.sort(compareGroups);
  return {
    engine: engine.id,
    scope: { from: input.scope.from || null, to: input.scope.to || null, symbol: input.scope.symbol || null },
    survivorshipNote: input.survivorshipBiased ? SURVIVORSHIP_NOTE : null,
    costBps,
    groups,
    asOf: now,
  };
}
