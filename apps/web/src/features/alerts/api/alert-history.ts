import { alertsEndpoints, type AlertHistoryQuery, type GetAlertHistoryResponse } from '@signalboard/core';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiCall, apiCallResponse } from '../../../lib/client';

/** POST api/get_alert_history {filters}: a page of the user's fired alerts, newest first. */
export async function getAlertHistory(query: AlertHistoryQuery, signal?: AbortSignal): Promise<GetAlertHistoryResponse['data']> {
  return (await apiCall(alertsEndpoints.getAlertHistory, { body: query, signal })).data;
}

export const alertHistoryQueryOptions = (query: AlertHistoryQuery) =>
  queryOptions({
    queryKey: ['alert-history', query],
    queryFn: ({ signal }) => getAlertHistory(query, signal),
    retry: false,
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });

/** The query string of the CSV call: the filters given, as text (page and limit do not apply). */
function csvParams(query: AlertHistoryQuery): AlertHistoryQuery {
  const params: AlertHistoryQuery = {};
  for (const key of ['alert_type', 'symbol', 'from', 'to', 'time_zone'] as const) {
    const value = query[key];
    if (typeof value === 'string' && value !== '') params[key] = value;
  }
  return params;
}

/**
 * GET api/alert_history.csv?filters with the bearer header (never a token in the URL): the file's
 * name (from Content-Disposition) and its text.
 */
export async function fetchAlertHistoryCsv(query: AlertHistoryQuery): Promise<{ filename: string; text: string }> {
  const response = await apiCallResponse(alertsEndpoints.downloadAlertHistoryCsv, { query: csvParams(query) }, 'text/csv');
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'alert-history.csv';
  return { filename, text: await response.text() };
}
