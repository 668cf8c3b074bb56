import { savedAlertsEndpoints, type GetUserStockScannerAlertsResponse } from '@signalboard/core';
import { apiCall } from '../client';

/**
 * The per-user saved alerts of the Option Scanner and the All Stocks Scanner (spec §3 "Saved option
 * alerts", "Saved stock scanner alert"; §7). The server keeps only ids of active items that exist and
 * reports the ones it dropped. Every answer is parsed with the contract's schema: a wrong shape rejects.
 */

/** What a save answers, as the screens use it: the saved ids now, and the ones left out and why. */
export interface SaveAlertsResult {
  msg: string;
  saved: string[];
  dropped: Array<{ id: string; reason: string }>;
}
export type StockScannerAlert = GetUserStockScannerAlertsResponse['alerts'][number];

/** GET api/get_user_option_alerts → the saved option trade ids. */
export async function getUserOptionAlerts(signal?: AbortSignal): Promise<string[]> {
  return (await apiCall(savedAlertsEndpoints.getUserOptionAlerts, { signal })).option_chain_ids;
}

/** POST api/save_user_option_alerts { option_chain_ids }: the saved set becomes exactly these (the active ones). */
export async function saveUserOptionAlerts(ids: string[]): Promise<SaveAlertsResult> {
  return apiCall(savedAlertsEndpoints.saveUserOptionAlerts, { body: { option_chain_ids: ids } });
}

/** GET api/get_user_stock_scanner_alerts → the saved drop items (id and type). */
export async function getUserStockScannerAlerts(signal?: AbortSignal): Promise<StockScannerAlert[]> {
  return (await apiCall(savedAlertsEndpoints.getUserStockScannerAlerts, { signal })).alerts;
}

/** POST api/save_user_stock_scanner_alerts { alerts }: the saved set becomes these (the active ones), by id. */
export async function saveUserStockScannerAlerts(alerts: StockScannerAlert[]): Promise<SaveAlertsResult> {
  const answer = await apiCall(savedAlertsEndpoints.saveUserStockScannerAlerts, { body: { alerts } });
  return { msg: answer.msg, saved: answer.saved.map((alert) => alert.stock_id), dropped: answer.dropped.map(({ id, reason }) => ({ id, reason })) };
}
