/**
 * POST api/scans/run (docs/custom-scans.md, "Running a scan"): a scan run over a universe as of its
 * run date. The scan is parsed once (scan-definition.ts) and compiled once (core's compileScan); each
 * symbol's daily bars are read through the market cache for a window that ends on the run date, the
 * facts the scan reads are added (scan-facts.ts), and the scan is evaluated symbol by symbol at the
 * last bar on or before the run date: nothing after that date is read.
 */
import type { z } from 'zod';
import {
  compileScan,
  dayNumber,
  isIsoDate,
  isoFromDayNumber,
  scanField,
  sessionsNeeded,
  type CompiledScan,
  type FieldSpec,
  type RunScanResponse,
  type runScanRequest,
  type ScanColumn,
  type ScanExpr,
  type ScanFacts,
  type ScanResultRow,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { createPacer, NO_FOREGROUND } from '../../lib/foreground';
import { badRequest } from '../../lib/errors';
import { failureReason, type ScanLog } from '../../lib/scan-failure';
import type { CachedMarket } from '../../providers/market/cached-market';
import { barsAreImported } from '../../providers/market/imported/imported-figures';
import type { Bars } from '../../providers/market/types';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import { loadScanBars, scanConcurrency } from './scan-bars';
import { scanDefinitionOf } from './scan-definition';
import { factSourcesOf, readScanFacts } from './scan-facts';
import { scanUniverseMembers, type ScanMember } from './scan-universe';

export type RunScanInput = z.output<typeof runScanRequest>;

export interface ScanRunDeps {
  market: CachedMarket;
  /** The market's clock: the run date of a run without `as_of` is its day. */
  marketClock: Clock;
  favorites: Pick<FavoritesRepo, 'list'>;
  /** Symbols read at once (default: 8, 1 on the live source, whose adapters pace themselves). */
  concurrency?: number;
}

const DAY_SECONDS = 86_400;
/**
 * The fewest calendar days of bars a run reads up to its run date: about 275 sessions, enough for the
 * 52-week fields and for the recursive indicators' warm-up (RSI(14)'s weight on its first bar is then
 * below 1e-8). A field that needs more history (sessionsNeeded, fields.ts) widens the window.
 */
export const MIN_LOOKBACK_DAYS = 400;

/** The largest `within` of the scan's crosses (0 without a cross). */
function longestCross(expr: ScanExpr): number {
  if (expr.kind === 'and' || expr.kind === 'or') return Math.max(0, ...expr.items.map(longestCross));
  if (expr.kind === 'not') return longestCross(expr.item);
  return expr.kind === 'cross' ? expr.within : 0;
}

/**
 * The calendar days of bars a run reads before its run date: the sessions the fields need plus the
 * longest cross's look-back, counted generously (250 sessions a year, a week for holidays), at least
 * MIN_LOOKBACK_DAYS. The window ends on the run date, so a run as of a date reads the same bars
 * whenever it is asked for, and a run as of a past date has the same warm-up as one of today.
 */
export function lookbackDays(compiled: Pick<CompiledScan, 'expr' | 'fields'>): number {
  let sessions = 0;
  for (const ref of compiled.fields) sessions = Math.max(sessions, sessionsNeeded(scanField(ref.field)!, ref.params));
  sessions += longestCross(compiled.expr);
  return Math.max(MIN_LOOKBACK_DAYS, Math.ceil((sessions * 365) / 250) + 7);
}

/** A column's label: the catalogue's label with the parameters, `RSI(14)`, `% below high (252)`, `Change % (1)`. */
export function columnLabel(spec: Pick<FieldSpec, 'label'>, params: readonly number[]): string {
  if (params.length === 0) return spec.label;
  // After an acronym the parameters follow it (`SMA(50)`); after a word or a sign, a space sets them apart.
  const joined = /[A-Z]$/.test(spec.label);
  return `${spec.label}${joined ? '' : ' '}(${params.join(', ')})`;
}

/** The day (days since 1970-01-01) the scan runs as of: `as_of`, or today on the market's clock; 400 for a date that cannot be. */
export function runLimitDay(asOf: string | undefined, todayDay: number): number {
  if (asOf === undefined) return todayDay;
  if (!isIsoDate(asOf)) throw badRequest(`as_of must be a calendar date (YYYY-MM-DD), got ${asOf}`);
  const day = dayNumber(asOf);
  if (day > todayDay) throw badRequest(`as_of ${asOf} is after the last session: the market's date is ${isoFromDayNumber(todayDay)}, pick a session on or before it`);
  return day;
}

const finiteOrNull = (value: number | undefined): number | null => (value !== undefined && Number.isFinite(value) ? value : null);

export function createScanRunService(deps: ScanRunDeps) {
  const { market, marketClock, favorites } = deps;
  const concurrency = deps.concurrency ?? scanConcurrency(market);

  return {
    /** Runs the scan for the user (whose favourites are the `favorites` universe); 400 for a scan or a date that cannot run. */
    async run(userId: number, input: RunScanInput, log: ScanLog): Promise<RunScanResponse> {
      const definition = scanDefinitionOf(input);
      let compiled: CompiledScan;
      try {
        compiled = compileScan(definition.expr);
      } catch (error) {
        // The parser lets no such scan through; should one come, it is still the caller's scan that is wrong.
        if (error instanceof RangeError) throw badRequest(error.message);
        throw error;
      }
      const todayDay = Math.floor(marketClock.nowMs() / 1000 / DAY_SECONDS);
      const limitDay = runLimitDay(input.as_of, todayDay);

      const members = await scanUniverseMembers(input.universe, { market, favorites }, userId);
      // A cold read generates simulated histories synchronously: a yield per slice lets other requests in meanwhile.
      const loaded = await loadScanBars(market, members, limitDay - lookbackDays(compiled), limitDay, { concurrency, onSymbol: createPacer(NO_FOREGROUND) });

      const evaluated: Array<{ member: ScanMember; bars: Bars; end: number }> = [];
      const missing: string[] = [];
      let runDay = Number.NEGATIVE_INFINITY;
      for (const member of members) {
        const bars = loaded.bars.get(member.symbol);
        const end = bars ? Math.min(bars.time.length, bars.close.length) - 1 : -1;
        if (!bars || end < 0) {
          missing.push(member.symbol);
          continue;
        }
        evaluated.push({ member, bars, end });
        runDay = Math.max(runDay, Math.round(bars.time[end]! / DAY_SECONDS));
      }
      if (loaded.failed > 0) {
        const reason = failureReason(loaded.firstError);
        log[reason.log === 'error' ? 'error' : 'warn']({ failed: loaded.failed, err: loaded.firstError }, 'custom scan: some symbols\' bars could not be read (listed as missing)');
        // Nothing could be read and the market is why: the market's error answers (502, 503), not an empty result.
        if (evaluated.length === 0) throw loaded.firstError;
      }
      if (input.as_of !== undefined && evaluated.length === 0 && loaded.bars.size > 0) {
        throw badRequest(`as_of ${input.as_of} is before the source's history: no symbol of the universe has a session on or before it`);
      }

      const sources = factSourcesOf(compiled.fields);
      const facts =
        sources.size === 0 || evaluated.length === 0
          ? new Map<string, ScanFacts>()
          : await readScanFacts(sources, { market, members: evaluated.map((one) => one.member), runDay, concurrency, log });

      const noFacts: ScanFacts = {};
      const rows: ScanResultRow[] = [];
      for (const { member, bars, end } of evaluated) {
        const values = compiled.valuesIfMatch(bars, facts.get(member.symbol) ?? noFacts, end);
        if (values === null) continue;
        const close = finiteOrNull(bars.close[end]);
        const previous = end > 0 ? finiteOrNull(bars.close[end - 1]) : null;
        rows.push({
          symbol: member.symbol,
          name: member.name,
          price: close,
          change_pct: close !== null && previous !== null ? finiteOrNull((close / previous - 1) * 100) : null,
          values,
          ...(barsAreImported(bars) ? { imported: true as const } : {}),
        });
      }
      const importedSymbols = evaluated.filter(({ bars }) => barsAreImported(bars)).length;

      const columns: ScanColumn[] = compiled.fields.map((ref, index) => {
        const spec = scanField(ref.field)!;
        return { key: compiled.columns[index]!, field: spec.name, params: [...ref.params], label: columnLabel(spec, ref.params), unit: spec.unit };
      });
      return {
        universe: input.universe,
        as_of: evaluated.length > 0 ? isoFromDayNumber(runDay) : null,
        source: market.source,
        ...(importedSymbols > 0 ? { imported_symbols: importedSymbols } : {}),
        formula: definition.formula,
        conditions: definition.conditions,
        columns,
        universe_size: members.length,
        evaluated: evaluated.length,
        missing,
        matches: rows.length,
        rows,
      };
    },
  };
}

export type ScanRunService = ReturnType<typeof createScanRunService>;
