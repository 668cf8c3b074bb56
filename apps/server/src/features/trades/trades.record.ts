/**
 * GET api/trade_ideas/{engine}/track_record (docs/rules/track-record.md §6): computeTrackRecord (packages/core)
 * over the engine's stored ideas (engine.outcome of each entered one, the voided counts), the
 * universe's daily histories for the random-entry baseline and SPY for the market benchmark. The
 * answer is kept per scope until the log grows, a mark changes or RECORD_TTL_MS passes.
 */
import { computeTrackRecord, filterScope, type DailySeries, type EngineId, type IdeaOutcome, type TrackRecord, type TrackRecordScope, type UniverseMember, type VoidedCount } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import { UnknownSymbolError } from '../../providers/market/types';
import { adapterOf } from './engines';
import { engineUniverse } from './trades.extras';
import { HISTORY_DAYS, loadSeries, passSessionDay, toDailySeries } from './trades.market';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';

/** How long a computed record is served before it is computed again (marks move the open ideas). */
export const RECORD_TTL_MS = 5 * 60_000;
/** Scopes kept at most (the oldest go first). */
const MAX_CACHED_RECORDS = 50;
/** The market benchmark of the stock and option engines (docs/rules/track-record.md §6.4 a). */
export const BENCHMARK_SYMBOL = 'SPY';

export interface TrackRecordsDeps {
  repo: TradesRepo;
  market: CachedMarket;
  marketClock: Clock;
  universe?: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
}

export function createTrackRecords(deps: TrackRecordsDeps) {
  const { repo, market, marketClock } = deps;
  const universeOf = deps.universe ?? ((biased: boolean, engine: EngineId) => engineUniverse(market, engine, biased));
  const cache = new Map<string, { at: number; value: Promise<TrackRecord> }>();

  async function compute(engine: AnyEngine, scope: TrackRecordScope, stored: Awaited<ReturnType<TradesRepo['ideasOf']>>, nowMs: number): Promise<TrackRecord> {
    const events = await repo.eventsOf(
      repo.db,
      stored.rows.map((row) => row.id),
    );
    const outcomes: IdeaOutcome[] = [];
    // The list filter's type names → the record's type groups (EngineAdapter.list.types).
    const typeGroups: Readonly<Record<string, string>> = adapterOf(engine).list?.types ?? {};
    const voided = new Map<string, VoidedCount>();
    for (const row of stored.rows) {
      const log = events.get(row.id);
      if (!log?.length) continue;
      if (row.isVoided) {
        if (filterScope([{ createdAt: row.createdAt.toISOString(), symbol: row.symbol }], scope).length === 0) continue;
        const types = row.types.map((type) => typeGroups[type]).filter((type): type is string => type !== undefined);
        const key = `${row.origin}|${row.ruleVersion}|${types.join(',')}`;
        const count = voided.get(key) ?? { origin: row.origin as VoidedCount['origin'], ruleVersion: row.ruleVersion, ...(types.length ? { types } : {}), count: 0 };
        count.count += 1;
        voided.set(key, count);
        continue;
      }
      const outcome = engine.outcome(log, row.row as Record<string, unknown>);
      if (outcome) outcomes.push(outcome);
    }
    const universe = await universeOf(false, engine.id);
    const lastDay = passSessionDay(nowMs);
    // The baseline's draws and the benchmark read bars only for entered ideas: none, no bars.
    const series = outcomes.length > 0 ? await loadSeries(market, universe, lastDay) : new Map<string, DailySeries>();
    let benchmark: DailySeries | null = null;
    if (outcomes.length > 0) {
      try {
        const spy = await market.getRecentDailyBars(BENCHMARK_SYMBOL, HISTORY_DAYS);
        benchmark = toDailySeries(spy.value, 'US', lastDay);
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
      }
    }
    const symbols = universe.map((member) => member.symbol);
    return computeTrackRecord({
      engine,
      outcomes,
      voided: [...voided.values()],
      series,
      universeOn: () => symbols,
      benchmark,
      scope,
      now: new Date(nowMs).toISOString(),
      survivorshipBiased: stored.rows.some((row) => row.origin === 'replayed'),
    });
  }

  return {
    async get(engine: AnyEngine, scope: TrackRecordScope): Promise<TrackRecord> {
      const nowMs = marketClock.nowMs();
      const stored = await repo.ideasOf(engine.id);
      const marks = stored.rows.reduce((latest, row) => Math.max(latest, row.updatedAt.getTime()), 0);
      const key = JSON.stringify([engine.ruleVersion, scope.from ?? null, scope.to ?? null, scope.symbol?.toUpperCase() ?? null, stored.lastSequence, marks]);
      const hit = cache.get(key);
      if (hit && nowMs - hit.at < RECORD_TTL_MS) return hit.value;
      for (const [old, entry] of cache) if (nowMs - entry.at >= RECORD_TTL_MS || cache.size > MAX_CACHED_RECORDS) cache.delete(old);
      const value = compute(engine, scope, stored, nowMs);
      cache.set(key, { at: nowMs, value });
      value.catch(() => cache.delete(key));
      return value;
    },
  };
}

export type TrackRecords = ReturnType<typeof createTrackRecords>;
