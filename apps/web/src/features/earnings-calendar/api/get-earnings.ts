import { marketEndpoints, type EarningsRow } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

export interface EarningsCalendarRequestBody {
  start_date: string;
  end_date: string;
}

export const EARNINGS_FETCH_FAILED_LOG = 'Error fetching earnings data:';
export const NO_EARNINGS_LOG = 'No earnings data available.';

/**
 * POST api/earnings_calendar for one visible range (spec §7). Spec §8's console lines are kept:
 * 'Error fetching earnings data:' on failure, 'No earnings data available.' for an empty answer.
 */
export async function getEarningsCalendar(range: EarningsCalendarRequestBody, signal?: AbortSignal): Promise<EarningsRow[]> {
  let rows: EarningsRow[];
  try {
    rows = await apiCall(marketEndpoints.getEarningsCalendar, { body: range, signal });
  } catch (error) {
    if ((error as Error).name !== 'AbortError') console.error(EARNINGS_FETCH_FAILED_LOG, error);
    throw error;
  }
  if (rows.length === 0) {
    console.log(NO_EARNINGS_LOG);
    return [];
  }
  return rows;
}

export const earningsCalendarQuery = (range: EarningsCalendarRequestBody | null) =>
  queryOptions({
    queryKey: ['earnings_calendar', range?.start_date, range?.end_date],
    queryFn: ({ signal }) => getEarningsCalendar(range!, signal),
    enabled: range !== null,
  });

export const useEarningsCalendar = (range: EarningsCalendarRequestBody | null) => useQuery(earningsCalendarQuery(range));
