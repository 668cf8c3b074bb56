import { customScansEndpoints } from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/scans/chart: a result row's daily bars through the run's session (docs/custom-scans.md, "Running a scan"). */
export const getScanChart = (symbol: string, asOf: string | null, signal?: AbortSignal) =>
  apiCall(customScansEndpoints.getScanChart, { query: asOf ? { symbol, as_of: asOf } : { symbol }, signal });

/** The bars of one symbol as of one session never change: read once per (symbol, session). */
export const scanChartQuery = (symbol: string, asOf: string | null) =>
  queryOptions({
    queryKey: ['scans', 'chart', symbol, asOf],
    queryFn: ({ signal }) => getScanChart(symbol, asOf, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
