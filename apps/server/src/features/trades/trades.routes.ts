/**
 * The trade-idea calls (issue 11):
 * - GET api/all_stocks_scanner (layered), GET api/get_swing_trade_entries (swing),
 *   GET api/get_combined_options_data (options) and GET api/get_stock_scanner_data (drop): the
 *   spec's bare list, newest first (option trades: ProfitPercent descending); with no parameter the
 *   first page (≤ 100). Optional filters (ideaListQuery); the next page's cursor comes in `X-Next-Cursor`.
 * - GET api/trade_ideas/{engine}/{id}: an idea's row, its event log (oldest first) and daily bars
 *   from ~60 sessions before the signal to the exit (or today).
 * - GET api/trade_ideas/{engine}/track_record?from&to&symbol: the engine's track record (§6).
 * - GET api/trade_ideas/replay_status: per engine, the replay of its current rule version.
 * - GET api/all_crypto_scanner (crypto, issue 13): one row per coin by Symbol, optional filters
 *   symbol, signal (and horizon); GET api/crypto_scorecard?from&to&symbol: the signal scorecard
 *   (docs/rules/crypto.md §3.4), computeCryptoScorecard over the stored signal log and the coins' closes.
 * The rows are the stored folds (ideas.row), sent as stored; crypto rows' IsNew (DateCreated within
 * 24 h) is taken at read time, as the idea detail's.
 */
import type { FastifyInstance } from 'fastify';
import {
  computeCryptoScorecard,
  CRYPTO_BENCHMARK,
  CRYPTO_PARAMS,
  cryptoScannerQuery,
  cryptoScorecardQuery,
  cryptoSignalLog,
  ideaListQuery,
  trackRecordQuery,
  tradeEngine,
  type CryptoCloses,
  type CryptoScorecard,
  type EngineId,
  type IdeaDetail,
  type ReplayStatus,
  type TrackRecord,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { badRequest, HttpError, parseInput } from '../../lib/errors';
import type { CachedMarket } from '../../providers/market/cached-market';
import { UnknownSymbolError } from '../../providers/market/types';
import { cryptoPassDay } from './trades.crypto';
import { HISTORY_DAYS, toDailySeries } from './trades.market';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, parseBound } from './trades.query';
import type { TrackRecords } from './trades.record';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';

/** Sessions of bars the detail shows before the signal (calendar days fetched: a little more). */
export const DETAIL_BARS_BEFORE_SIGNAL = 60;
const DAY_SECONDS = 86_400;

/** The list call of each engine that has one now (spec §7). */
export const LIST_CALLS: Partial<Record<EngineId, string>> = {
  layered: '/all_stocks_scanner',
  swing: '/get_swing_trade_entries',
  options: '/get_combined_options_data',
  drop: '/get_stock_scanner_data',
};

/** The statuses each list accepts (its rows' Status values, lower case). */
const LIST_STATUSES: Partial<Record<EngineId, readonly string[]>> = {
  layered: ['active', 'successful', 'partial', 'failed'],
  swing: ['active', 'successful', 'partial', 'failed'],
  options: ['active', 'successful', 'failed'],
  drop: ['active', 'deactivated'],
};

/** The `type` values each list accepts (none: no type filter). */
const LIST_TYPES: Partial<Record<EngineId, readonly string[]>> = { swing: ['trend', 'drop', 'level'], drop: ['S', 'L', 'O'] };

/** Crypto rows at most (one per coin; the live universe is ≤ 50 coins, a dataset's may be more). */
const CRYPTO_ROWS_MAX = 1000;
const HOUR_MS = 3_600_000;

/** A crypto row with IsNew as of `nowMs`: a signal changed (DateCreated) within the last 24 h. */
export function cryptoRowAt(row: Record<string, unknown>, nowMs: number): Record<string, unknown> {
  const created = typeof row.DateCreated === 'string' ? Date.parse(row.DateCreated) : Number.NaN;
  return { ...row, IsNew: Number.isFinite(created) && nowMs - created < CRYPTO_PARAMS.newHours * HOUR_MS };
}

const listOf = (values: readonly string[]) => (values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}` : values.join(''));

export interface TradesRoutesOptions {
  engines: ReadonlyMap<EngineId, AnyEngine>;
  repo: TradesRepo;
  market: CachedMarket;
  marketClock: Clock;
  records: TrackRecords;
}

export async function tradesRoutes(app: FastifyInstance, options: TradesRoutesOptions) {
  const { engines, repo, market, marketClock, records } = options;

  const engineOf = (value: string): AnyEngine => {
    const parsed = tradeEngine.safeParse(value);
    if (!parsed.success) throw badRequest(`engine must be one of ${tradeEngine.options.join(', ')}`);
    const engine = engines.get(parsed.data);
    if (!engine) throw new HttpError(404, `The ${parsed.data} engine has no ideas yet`);
    return engine;
  };

  for (const [id, path] of Object.entries(LIST_CALLS) as Array<[EngineId, string]>) {
    app.get(path, async (request, reply) => {
      const engine = engines.get(id);
      const query = parseInput(ideaListQuery, request.query);
      const call = `api${path}`;
      const statuses = query.status?.split(',');
      const allowedStatuses = LIST_STATUSES[id] ?? [];
      if (statuses?.some((status) => !allowedStatuses.includes(status))) throw badRequest(`status of ${call} must be a comma-separated list of ${listOf(allowedStatuses)}`);
      const types = query.type?.split(',');
      const allowedTypes = LIST_TYPES[id];
      if (types !== undefined && !allowedTypes) throw badRequest('type applies to api/get_swing_trade_entries and api/get_stock_scanner_data only');
      // A type may carry the one status wanted of it ('L:deactivated', 'drop:successful'): a status of this list.
      const badType = (entry: string) => {
        const [type, status] = entry.split(':');
        return !allowedTypes!.includes(type!) || (status !== undefined && !allowedStatuses.includes(status));
      };
      if (types && allowedTypes && types.some(badType)) throw badRequest(`type of ${call} must be a comma-separated list of ${listOf(allowedTypes)}, each optionally with :${allowedStatuses.join(', :')}`);
      // Option trades: the spec's sort, ProfitPercent descending; every other list newest first.
      const order = id === 'options' ? 'profit' : 'created';
      const from = parseBound('from', query.from);
      const to = parseBound('to', query.to);
      if (from && to && from > to) throw badRequest('from must not be after to');
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      reply.header('content-type', 'application/json; charset=utf-8');
      if (!engine) return '[]';
      const page = await repo.list({
        engine: id,
        currentVersion: engine.ruleVersion,
        limit: query.limit ?? DEFAULT_PAGE_SIZE,
        order,
        ...(statuses ? { statuses } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        ...(query.symbol ? { symbol: query.symbol } : {}),
        ...(query.origin ? { origin: query.origin } : {}),
        ...(types ? { types } : {}),
        ...(after ? { after } : {}),
      });
      const last = page.rows[page.rows.length - 1];
      if (page.more && last) reply.header('x-next-cursor', encodeCursor(order === 'profit' ? last : { createdAt: last.createdAt, id: last.id }));
      // The stored rows' JSON as it is: no parse and stringify per request.
      return `[${page.rows.map((row) => row.json).join(',')}]`;
    });
  }

  app.get('/all_crypto_scanner', async (request) => {
    const query = parseInput(cryptoScannerQuery, request.query);
    if (query.horizon !== undefined && query.signal === undefined) throw badRequest('horizon needs a signal (Buy, Sell or Hold)');
    const engine = engines.get('crypto');
    if (!engine) return [];
    const page = await repo.list({ engine: 'crypto', currentVersion: engine.ruleVersion, limit: CRYPTO_ROWS_MAX, ...(query.symbol ? { symbol: query.symbol } : {}) });
    const nowMs = marketClock.nowMs();
    // Newest first: a coin that left the universe and came back shows its current row only.
    const bySymbol = new Map<string, Record<string, unknown>>();
    for (const stored of page.rows) {
      const row = JSON.parse(stored.json) as Record<string, unknown>;
      const symbol = String(row.Symbol);
      if (!bySymbol.has(symbol)) bySymbol.set(symbol, cryptoRowAt(row, nowMs));
    }
    const horizons = query.horizon ? [query.horizon] : (['Short', 'Medium', 'Long'] as const);
    const shows = (row: Record<string, unknown>) => query.signal === undefined || horizons.some((horizon) => row[`${horizon}TermSignal`] === query.signal);
    return [...bySymbol.keys()]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((symbol) => bySymbol.get(symbol)!)
      .filter(shows);
  });

  app.get('/crypto_scorecard', async (request): Promise<CryptoScorecard> => {
    const query = parseInput(cryptoScorecardQuery, request.query);
    if (query.from && query.to && query.from > query.to) throw badRequest('from must not be after to');
    const engine = engines.get('crypto');
    const nowMs = marketClock.nowMs();
    const stored = engine ? await repo.ideasOf('crypto') : { rows: [] };
    const events = await repo.eventsOf(
      repo.db,
      stored.rows.filter((row) => !row.isVoided).map((row) => row.id),
    );
    const signals = cryptoSignalLog([...events.values()].flat());
    // The closes of every coin with signals and of the benchmark, through the last completed candle.
    const lastDay = cryptoPassDay(nowMs);
    const closes = new Map<string, CryptoCloses>();
    for (const symbol of new Set([...signals.map((signal) => signal.symbol), CRYPTO_BENCHMARK])) {
      try {
        const bars = await market.getRecentDailyBars(symbol, HISTORY_DAYS);
        closes.set(symbol, toDailySeries(bars.value, 'CRYPTO', lastDay));
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
      }
    }
    try {
      return computeCryptoScorecard({ signals, closes, now: new Date(nowMs).toISOString(), scope: { from: query.from ?? null, to: query.to ?? null, symbol: query.symbol ?? null } });
    } catch (error) {
      // A date that does not exist (2026-02-30) is refused by the scorecard's scope check.
      if (error instanceof RangeError) throw badRequest(error.message);
      throw error;
    }
  });

  app.get('/trade_ideas/replay_status', async (): Promise<ReplayStatus[]> => {
    const out: ReplayStatus[] = [];
    for (const engine of engines.values()) {
      const row = await repo.version(engine.id, engine.ruleVersion);
      out.push({
        engine: engine.id,
        ruleVersion: engine.ruleVersion,
        state: row?.replayState ?? 'pending',
        sessionsDone: row?.sessionsDone ?? 0,
        sessionsTotal: row?.sessionsTotal ?? 0,
        startedAt: row?.startedAt?.toISOString() ?? null,
        finishedAt: row?.finishedAt?.toISOString() ?? null,
        error: row?.error ?? null,
      });
    }
    return out;
  });

  app.get<{ Params: { engine: string } }>('/trade_ideas/:engine/track_record', async (request): Promise<TrackRecord> => {
    const engine = engineOf(request.params.engine);
    const query = parseInput(trackRecordQuery, request.query);
    const from = parseBound('from', query.from);
    const to = parseBound('to', query.to);
    if (from && to && from > to) throw badRequest('from must not be after to');
    return records.get(engine, { from: query.from || null, to: query.to || null, symbol: query.symbol || null });
  });

  app.get<{ Params: { engine: string; id: string } }>('/trade_ideas/:engine/:id', async (request): Promise<IdeaDetail> => {
    const engine = engineOf(request.params.engine);
    const id = request.params.id;
    if (id.length > 200 || !/^[\w.@:-]+$/.test(id)) throw badRequest('id is not an idea id');
    const found = await repo.detail(engine.id, id);
    if (!found) throw new HttpError(404, `No ${engine.id} idea ${id}`);
    const { record, events } = found;
    const signalSeconds = Date.parse(`${record.signalDate}T00:00:00Z`) / 1000;
    // ~60 sessions are ~87 calendar days; the slice below keeps the last 60 bars before the signal.
    const fromSeconds = signalSeconds - Math.ceil((DETAIL_BARS_BEFORE_SIGNAL * 7) / 5 + 10) * DAY_SECONDS;
    const nowMs = marketClock.nowMs();
    // Crypto: UTC-day candles, the completed ones only (today's is still open).
    const lastOpen = engine.id === 'crypto' ? Math.floor(nowMs / 86_400_000) * DAY_SECONDS - 1 : Math.floor(nowMs / 1000);
    const toSeconds = record.closedBarDate ? Date.parse(`${record.closedBarDate}T00:00:00Z`) / 1000 : lastOpen;
    let bars: IdeaDetail['bars'] = [];
    try {
      const answer = await market.getDailyBars(record.symbol, fromSeconds, toSeconds);
      const value = answer.value;
      const all = Array.from(value.time, (time, index) => ({
        date: new Date(time * 1000).toISOString().slice(0, 10),
        open: value.open[index]!,
        high: value.high[index]!,
        low: value.low[index]!,
        close: value.close[index]!,
        volume: value.volume[index]!,
      }));
      const before = all.filter((bar) => bar.date < record.signalDate).slice(-DETAIL_BARS_BEFORE_SIGNAL);
      bars = [...before, ...all.filter((bar) => bar.date >= record.signalDate)];
    } catch (error) {
      if (!(error instanceof UnknownSymbolError)) throw error;
    }
    return {
      engine: engine.id,
      idea: engine.id === 'crypto' ? cryptoRowAt(record.row as Record<string, unknown>, nowMs) : (record.row as Record<string, unknown>),
      events: events.map((event) => ({
        type: event.type,
        level: event.level,
        barDate: event.barDate,
        price: event.price,
        data: event.data,
        ruleVersion: event.ruleVersion,
        paramHash: event.paramHash,
        origin: event.origin,
        recordedAt: event.recordedAt,
      })),
      bars,
    };
  });
}
