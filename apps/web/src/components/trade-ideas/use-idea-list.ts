import type { IdeaListQuery, ReplayStatus } from '@signalboard/core';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { usePollingWhileDown } from '../live/use-live';
import { getIdeaPage, getReplayStatus, IDEA_PAGE_LIMIT, type IdeaRowOf, type ListEngine, type TradeEngine } from '../../lib/api/trade-ideas';

/** While an engine's replay runs, its status and its list are re-read this often. */
export const REPLAY_POLL_MS = 5_000;
/** Prices move through the day (the intraday pass refreshes CurrentPrice): lists re-read this often. */
export const LIST_REFRESH_MS = 60_000;

const replaying = (status: ReplayStatus | undefined) => status !== undefined && (status.state === 'pending' || status.state === 'running');

/** The engine's replay, if any (the latest rule version's entry). */
export function useReplayStatus(engine: TradeEngine) {
  const query = useQuery({
    queryKey: ['trade-ideas', 'replay-status'],
    queryFn: ({ signal }) => getReplayStatus(signal),
    refetchInterval: (current) => (current.state.data?.some((status) => status.engine === engine && replaying(status)) ? REPLAY_POLL_MS : false),
  });
  const statuses = query.data?.filter((status) => status.engine === engine) ?? [];
  const running = statuses.find(replaying);
  return { status: running ?? statuses.at(-1), running: running !== undefined };
}

/**
 * An engine's ideas for the server-side part of the screen's filters, newest first, page by page
 * (X-Next-Cursor). The previous rows stay on screen while a changed filter loads. Not enabled: no
 * status is ticked, nothing to ask for.
 */
export function useIdeaList<E extends ListEngine>(engine: E, query: IdeaListQuery, replayRunning: boolean, enabled = true) {
  // Live updates re-read the list when the engine's pass or marks wrote (LiveProvider); polled only while the stream is down.
  const listRefetchMs = usePollingWhileDown(LIST_REFRESH_MS);
  const result = useInfiniteQuery({
    queryKey: ['trade-ideas', engine, 'list', query],
    queryFn: ({ pageParam, signal }) => getIdeaPage(engine, { ...query, limit: IDEA_PAGE_LIMIT, ...(pageParam ? { cursor: pageParam } : {}) }, signal),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: replayRunning ? REPLAY_POLL_MS : listRefetchMs,
  });
  const rows: IdeaRowOf[E][] = result.data?.pages.flatMap((page) => page.rows) ?? [];
  return { ...result, rows };
}
