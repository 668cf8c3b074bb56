import { customScansEndpoints, type ScanBacktestResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../lib/client';

/** How often a backtest under way is read again. */
export const BACKTEST_POLL_MS = 1_000;
/**
 * How often a result whose imported prices changed is read again while it waits for the user's other
 * backtest (the read that finds that one finished starts its replay): the server's retry-after.
 */
export const DATA_CHANGED_POLL_MS = 10_000;

/** Queued or running: the job is still replaying, so the answer is read again until it ends. */
export const isUnderWay = (backtest: ScanBacktestResponse | null | undefined) => backtest?.status === 'queued' || backtest?.status === 'running';

/** GET api/scans/{id}/backtest: the scan's backtest, or null when it has none yet (404). */
export async function getScanBacktest(id: number, signal?: AbortSignal): Promise<ScanBacktestResponse | null> {
  try {
    return await apiCall(customScansEndpoints.getScanBacktest, { params: { id }, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** POST api/scans/{id}/backtest: starts the backtest of the scan's saved version (or answers the stored one). */
export const startScanBacktest = (id: number) => apiCall(customScansEndpoints.startScanBacktest, { params: { id } });

/** DELETE api/scans/{id}/backtest: cancels the backtest under way. */
export const cancelScanBacktest = (id: number) => apiCall(customScansEndpoints.cancelScanBacktest, { params: { id } });

/**
 * The backtest of one version of a saved scan. The version is in the key, so saving new conditions
 * reads the backtest again (then answered with `current` false). Read every second while it runs; a
 * read of a result whose imported prices changed starts its replay on the server.
 */
export const scanBacktestQuery = (id: number, version: number) =>
  queryOptions({
    queryKey: ['scans', 'backtest', id, version],
    queryFn: ({ signal }) => getScanBacktest(id, signal),
    refetchInterval: (query) => (isUnderWay(query.state.data) ? BACKTEST_POLL_MS : query.state.data?.data_changed ? DATA_CHANGED_POLL_MS : false),
  });

export const useScanBacktest = (id: number, version: number) => useQuery(scanBacktestQuery(id, version));

/** Starts (or restarts) the backtest; its answer is the query's data at once, which starts the polling. */
export function useStartBacktest(id: number, version: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startScanBacktest(id),
    onSuccess: (answer) => queryClient.setQueryData(scanBacktestQuery(id, version).queryKey, answer),
  });
}

/**
 * Cancels the backtest, then reads it again (cancelled, or finished meanwhile). A 404 means nothing
 * was under way any more: the fresh read says what happened, so it is not an error to show.
 */
export function useCancelBacktest(id: number, version: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        return await cancelScanBacktest(id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: scanBacktestQuery(id, version).queryKey }),
  });
}
