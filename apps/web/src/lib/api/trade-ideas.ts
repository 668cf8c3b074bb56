import {
  tradesEndpoints,
  type DropItem,
  type IdeaDetail,
  type IdeaListQuery,
  type LayeredTrade,
  type OptionTrade,
  type ReplayStatus,
  type SwingTrade,
  type TrackRecord,
} from '@signalboard/core';
import { apiCall, apiCallResponse, endpointPath, parseAnswer } from '../client';

/**
 * The trade-idea calls (issue 11; core contract/trades.ts): the spec's list calls with their optional
 * filters and cursor, an idea's detail, an engine's track record and the replay status. Every answer
 * is parsed with the contract's schema: an answer of the wrong shape rejects with an UnexpectedAnswerError.
 */

/** The engines whose ideas the list screens show, and each one's list call (spec §7). */
export const IDEA_LIST_ENDPOINTS = {
  layered: tradesEndpoints.getLayeredTrades,
  swing: tradesEndpoints.getSwingTradeEntries,
  options: tradesEndpoints.getCombinedOptionsData,
  drop: tradesEndpoints.getStockScannerData,
} as const;
export type ListEngine = keyof typeof IDEA_LIST_ENDPOINTS;
/** Every engine, crypto too (its own list call: features/crypto/api/crypto.ts). */
export type TradeEngine = IdeaDetail['engine'];

export interface IdeaRowOf {
  layered: LayeredTrade;
  swing: SwingTrade;
  options: OptionTrade;
  drop: DropItem;
}

/** One page of a list: its rows (newest first) and the next page's cursor (X-Next-Cursor), if any. */
export interface IdeaPage<E extends ListEngine> {
  rows: IdeaRowOf[E][];
  nextCursor: string | null;
}

/** The server's page size limit (contract: limit ≤ 500). */
export const IDEA_PAGE_LIMIT = 500;

export async function getIdeaPage<E extends ListEngine>(engine: E, query: IdeaListQuery, signal?: AbortSignal): Promise<IdeaPage<E>> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params[key] = value;
  const endpoint: (typeof IDEA_LIST_ENDPOINTS)[ListEngine] = IDEA_LIST_ENDPOINTS[engine];
  // Read here rather than by apiCall: the next page's cursor is a header, and an empty answer is no rows.
  const response = await apiCallResponse(endpoint, { query: params as IdeaListQuery, signal });
  const text = await response.text();
  const rows = parseAnswer(endpoint.response, endpointPath(endpoint), text ? JSON.parse(text) : []) as IdeaRowOf[E][];
  return { rows, nextCursor: response.headers.get('X-Next-Cursor') || null };
}

/**
 * The whole list of `query`: the pages already loaded (`loaded`, from the first one on; none: from
 * the start), then every page after them, following X-Next-Cursor. What 'Export CSV' writes of a
 * list a screen has only partly loaded.
 */
export async function getRemainingPages<E extends ListEngine>(engine: E, query: IdeaListQuery, loaded: readonly IdeaPage<E>[], signal?: AbortSignal): Promise<IdeaRowOf[E][]> {
  const rows = loaded.flatMap((page) => page.rows);
  const first: IdeaListQuery = { ...query, limit: IDEA_PAGE_LIMIT };
  let cursor = loaded.length > 0 ? loaded[loaded.length - 1]!.nextCursor : '';
  while (cursor !== null) {
    const page = await getIdeaPage(engine, cursor ? { ...first, cursor } : first, signal);
    rows.push(...page.rows);
    cursor = page.nextCursor;
  }
  return rows;
}

/** GET api/trade_ideas/{engine}/{id}: the row, its event log and the bars for its chart (crypto too: a coin's row). */
export async function getIdeaDetail(engine: TradeEngine, id: string, signal?: AbortSignal): Promise<IdeaDetail> {
  return apiCall(tradesEndpoints.getIdeaDetail, { params: { engine, id }, signal });
}

export interface TrackRecordScope {
  from?: string;
  to?: string;
  symbol?: string;
}

/** GET api/trade_ideas/{engine}/track_record?from&to&symbol */
export async function getTrackRecord(engine: ListEngine, scope: TrackRecordScope, signal?: AbortSignal): Promise<TrackRecord> {
  const query: TrackRecordScope = {};
  for (const key of Object.keys(scope) as (keyof TrackRecordScope)[]) if (scope[key]) query[key] = scope[key];
  return apiCall(tradesEndpoints.getTrackRecord, { params: { engine }, query, signal });
}

/** GET api/trade_ideas/replay_status: one entry per engine (and rule version) being or been replayed. */
export async function getReplayStatus(signal?: AbortSignal): Promise<ReplayStatus[]> {
  return apiCall(tradesEndpoints.getReplayStatus, { signal });
}
