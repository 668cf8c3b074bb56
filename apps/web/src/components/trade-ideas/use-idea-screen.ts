import type { IdeaListQuery } from '@signalboard/core';
import { useMemo } from 'react';
import { getRemainingPages, type IdeaRowOf, type ListEngine } from '../../lib/api/trade-ideas';
import { useLiveEngine } from '../live/use-live';
import type { EngineView } from './engine-view';
import type { DateSymbolFilter } from './filter-values';
import { useIdeaList, useReplayStatus } from './use-idea-list';
import { useTradeFilters } from './use-trade-filters';

/** What TradeFilterBar takes of a screen's filter state. */
export interface FilterBarState<K extends string> {
  statuses: Record<K, boolean>;
  onStatusesChange: (next: Record<K, boolean>) => void;
  filter: DateSymbolFilter;
  onFilterChange: (next: DateSymbolFilter) => void;
}

/**
 * A trade screen's filters → list call → shown rows, in one place, for the engine `view` shows (its
 * screen configuration, registered with the live stream here): the status checkboxes, dates and
 * symbol (useTradeFilters); the part of them the server answers (`serverFilter`: the status and
 * type of the list call, or null when no box is ticked and there is nothing to ask for); the
 * engine's replay; the list; and the rows after the screen's own filter and order (`filterRows`).
 * `filterBar` is what TradeFilterBar takes of it, `section` what IdeaListSection takes, with
 * `exportRows`: the whole filtered list for 'Export CSV' (the pages loaded so far, then every page
 * after them of the same call, through the same filter).
 */
export function useIdeaScreen<E extends ListEngine, K extends string>({
  view,
  initialStatuses,
  serverFilter,
  filterRows,
}: {
  view: EngineView<E>;
  initialStatuses: Record<K, boolean>;
  serverFilter: (statuses: Record<K, boolean>) => Pick<IdeaListQuery, 'status' | 'type'> | null;
  filterRows: (rows: readonly IdeaRowOf[E][], statuses: Record<K, boolean>, filter: DateSymbolFilter) => IdeaRowOf[E][];
}) {
  const engine = view.id;
  useLiveEngine(view);
  const { statuses, setStatuses, filter, setFilter, serverScope } = useTradeFilters(initialStatuses);
  const server = serverFilter(statuses);
  const skipped = server === null;
  const query: IdeaListQuery = { ...serverScope, ...server };
  const replay = useReplayStatus(engine);
  const list = useIdeaList(engine, query, replay.running, !skipped);
  const rows = useMemo(() => (skipped ? [] : filterRows(list.rows, statuses, filter)), [filterRows, list.rows, statuses, filter, skipped]);
  const exportRows = async () => {
    if (skipped) return [];
    // Pages of a previous filter, kept on screen while this one loads, are not this list's.
    const loaded = list.isPlaceholderData ? [] : (list.data?.pages ?? []);
    return filterRows(await getRemainingPages(engine, query, loaded), statuses, filter);
  };
  return {
    serverScope,
    replay,
    list,
    filterBar: { statuses, onStatusesChange: setStatuses, filter, onFilterChange: setFilter } satisfies FilterBarState<K>,
    section: { view, list, rows, skipped, replay, exportRows },
  };
}
