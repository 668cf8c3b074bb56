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
 * - An engine's own calls (EngineAdapter.routes): GET api/all_crypto_scanner and GET
 *   api/crypto_scorecard (engines/crypto.routes.ts, issue 13).
 * Each list call (endpoint, statuses, types, order) is its engine's adapter's (EngineAdapter.list). The
 * rows are the stored folds (ideas.row), sent as stored; crypto rows' IsNew (DateCreated within
 * 24 h) is taken at read time (EngineAdapter.rowAt), as in its scanner.
 */
import type { FastifyInstance } from 'fastify';
import { dataVersionIn, trackRecordQuery, tradeEngine, tradesEndpoints, type IdeaDetail, type ReplayStatus, type TrackRecord } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { badRequest, HttpError, parseInput } from '../../lib/errors';
import { UnknownSymbolError } from '../../providers/market/types';
import type { EngineRoutesContext } from './engine-adapter';
import { adapterOf, ENGINE_ADAPTERS } from './engines';
import { decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, parseBound } from './trades.query';
import type { TrackRecords } from './trades.record';
import type { AnyEngine } from './trades.types';
import { withImportedStamp } from './trades.versions';

/** Sessions of bars the detail shows before the signal (calendar days fetched: a little more). */
export const DETAIL_BARS_BEFORE_SIGNAL = 60;
const DAY_SECONDS = 86_400;

const joined = (values: readonly string[], last: string) => (values.length > 1 ? `${values.slice(0, -1).join(', ')} ${last} ${values[values.length - 1]}` : values.join(''));
const listOf = (values: readonly string[]) => joined(values, 'or');
/** The list calls that take a `type` filter (api/get_swing_trade_entries and api/get_stock_scanner_data). */
const TYPED_CALLS = joined(
  Object.values(ENGINE_ADAPTERS).flatMap(({ list }) => (list?.types ? [list.endpoint.path.slice(1)] : [])),
  'and',
);

export interface TradesRoutesOptions extends EngineRoutesContext {
  records: TrackRecords;
}

export async function tradesRoutes(app: FastifyInstance, options: TradesRoutesOptions) {
  const { versions, repo, market, marketClock, records } = options;

  /** The engine as it runs now (its rule version on the data it has: trades.versions.ts). */
  /** The symbols of imported price files (the market's list, at most 10 s old). */
  const importedSet = async () => new Set((await market.importedSymbols?.())?.map((info) => info.symbol));

  const engineOf = async (value: string): Promise<AnyEngine> => {
    const parsed = tradeEngine.safeParse(value);
    if (!parsed.success) throw badRequest(`engine must be one of ${tradeEngine.options.join(', ')}`);
    const engine = await versions.current(parsed.data);
    if (!engine) throw new HttpError(404, `The ${parsed.data} engine has no ideas yet`);
    return engine;
  };

  // Each engine's list call (its adapter's: spec §7), in the adapters' order.
  for (const { id, list } of Object.values(ENGINE_ADAPTERS)) {
    if (!list) continue;
    const call = list.endpoint.path.slice(1);
    route(app, list.endpoint, async (_request, reply, query) => {
      const engine = await versions.current(id);
      const statuses = query.status?.split(',');
      const allowedStatuses = list.statuses;
      if (statuses?.some((status) => !allowedStatuses.includes(status))) throw badRequest(`status of ${call} must be a comma-separated list of ${listOf(allowedStatuses)}`);
      const types = query.type?.split(',');
      const allowedTypes = list.types ? Object.keys(list.types) : undefined;
      if (types !== undefined && !allowedTypes) throw badRequest(`type applies to ${TYPED_CALLS} only`);
      // A type may carry the one status wanted of it ('L:deactivated', 'drop:successful'): a status of this list.
      const badType = (entry: string) => {
        const [type, status] = entry.split(':');
        return !allowedTypes!.includes(type!) || (status !== undefined && !allowedStatuses.includes(status));
      };
      if (types && allowedTypes && types.some(badType)) throw badRequest(`type of ${call} must be a comma-separated list of ${listOf(allowedTypes)}, each optionally with :${allowedStatuses.join(', :')}`);
      // Option trades: the spec's sort, ProfitPercent descending; every other list newest first.
      const order = list.order;
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
      // The stored rows' JSON as it is (no parse and stringify per request), an imported symbol's stamped so.
      const imported = await importedSet();
      return `[${page.rows.map((row) => withImportedStamp(row.json, row, imported)).join(',')}]`;
    });
  }

  // The engines' own calls (crypto's scanner and scorecard).
  for (const adapter of Object.values(ENGINE_ADAPTERS)) adapter.routes?.(app, { versions, repo, market, marketClock });

  route(app, tradesEndpoints.getReplayStatus, async (): Promise<ReplayStatus[]> => {
    const out: ReplayStatus[] = [];
    for (const engine of await versions.all()) {
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

  // Parsed here: the engine is checked first, with its own message.
  route(app, tradesEndpoints.getTrackRecord, { parse: 'none' }, async (request): Promise<TrackRecord> => {
    const engine = await engineOf((request.params as { engine: string }).engine);
    const query = parseInput(trackRecordQuery, request.query);
    const from = parseBound('from', query.from);
    const to = parseBound('to', query.to);
    if (from && to && from > to) throw badRequest('from must not be after to');
    return records.get(engine, { from: query.from || null, to: query.to || null, symbol: query.symbol || null });
  });

  // The path's parts are checked here, each with its own message.
  route(app, tradesEndpoints.getIdeaDetail, { parse: 'none' }, async (request): Promise<IdeaDetail> => {
    const params = request.params as { engine: string; id: string };
    const engine = await engineOf(params.engine);
    const id = params.id;
    if (id.length > 200 || !/^[\w.@:+-]+$/.test(id)) throw badRequest('id is not an idea id');
    const found = await repo.detail(engine.id, id);
    if (!found) throw new HttpError(404, `No ${engine.id} idea ${id}`);
    const { record, events } = found;
    const signalSeconds = Date.parse(`${record.signalDate}T00:00:00Z`) / 1000;
    // ~60 sessions are ~87 calendar days; the slice below keeps the last 60 bars before the signal.
    const fromSeconds = signalSeconds - Math.ceil((DETAIL_BARS_BEFORE_SIGNAL * 7) / 5 + 10) * DAY_SECONDS;
    const nowMs = marketClock.nowMs();
    // An open idea's bars through now (crypto: the completed UTC-day candles only; today's is still open).
    const adapter = adapterOf(engine);
    const lastOpen = adapter.detailBarsTo ? adapter.detailBarsTo(nowMs) : Math.floor(nowMs / 1000);
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
      idea: {
        ...(adapter.rowAt ? adapter.rowAt(record.row as Record<string, unknown>, nowMs) : (record.row as Record<string, unknown>)),
        ...((await importedSet()).has(record.symbol) && dataVersionIn(record.ruleVersion) !== '' ? { Imported: true } : {}),
      },
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
