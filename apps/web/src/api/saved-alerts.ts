import { z } from 'zod';
import { apiRequest } from './client';

/**
 * The per-user saved alerts of the Option Scanner and the All Stocks Scanner (spec §3 "Saved option
 * alerts", "Saved stock scanner alert"; §7). The server keeps only ids of active items that exist and
 * reports the ones it dropped. Every answer is parsed: a wrong shape rejects with a ZodError.
 */

const dropped = z.array(z.object({ id: z.string(), reason: z.string() }));

export const savedOptionAlerts = z.object({ option_chain_ids: z.array(z.string()) });
export const savedStockScannerAlerts = z.object({ alerts: z.array(z.object({ stock_id: z.string(), trade_type: z.string() })) });
export const saveAlertsResult = z.object({ msg: z.string().optional(), saved: z.array(z.string()), dropped: dropped.optional().default([]) });
export type SaveAlertsResult = z.infer<typeof saveAlertsResult>;
export type StockScannerAlert = z.infer<typeof savedStockScannerAlerts>['alerts'][number];

/** GET api/get_user_option_alerts → the saved option trade ids. */
export async function getUserOptionAlerts(signal?: AbortSignal): Promise<string[]> {
  return savedOptionAlerts.parse(await apiRequest<unknown>('get_user_option_alerts', { signal })).option_chain_ids;
}

/** POST api/save_user_option_alerts { option_chain_ids }: the saved set becomes exactly these (the active ones). */
export async function saveUserOptionAlerts(ids: string[]): Promise<SaveAlertsResult> {
  return saveAlertsResult.parse(await apiRequest<unknown>('save_user_option_alerts', { method: 'POST', json: { option_chain_ids: ids } }));
}

/** GET api/get_user_stock_scanner_alerts → the saved drop items (id and type). */
export async function getUserStockScannerAlerts(signal?: AbortSignal): Promise<StockScannerAlert[]> {
  return savedStockScannerAlerts.parse(await apiRequest<unknown>('get_user_stock_scanner_alerts', { signal })).alerts;
}

/** POST api/save_user_stock_scanner_alerts { alerts }. */
export async function saveUserStockScannerAlerts(alerts: StockScannerAlert[]): Promise<SaveAlertsResult> {
  return saveAlertsResult.parse(await apiRequest<unknown>('save_user_stock_scanner_alerts', { method: 'POST', json: { alerts } }));
}
