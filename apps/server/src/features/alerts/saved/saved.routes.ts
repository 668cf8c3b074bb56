import type { FastifyInstance } from 'fastify';
import {
  type GetUserOptionAlertsResponse,
  type GetUserStockScannerAlertsResponse,
  saveUserOptionAlertsRequest,
  type SaveUserOptionAlertsResponse,
  saveUserStockScannerAlertsRequest,
  type SaveUserStockScannerAlertsResponse,
} from '@signalboard/core';
import type { Database } from '../../../db/client';
import { parseInput } from '../../../lib/errors';
import { createSavedAlertsRepo } from './saved.repo';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The save's msg: how many were saved and how many left out (closed, unknown or of another type). */
function saveMessage(saved: number, dropped: number, kind: string): string {
  if (saved === 0 && dropped === 0) return `Cleared your ${kind} alerts.`;
  const head = `Saved ${plural(saved, `${kind} alert`, `${kind} alerts`)}.`;
  return dropped === 0 ? head : `${head} Left out ${plural(dropped, 'item that is', 'items that are')} no longer active or unknown.`;
}

/** The saved-alert calls of the option trades and drop screens (spec §7); each is the signed-in user's. */
export async function savedAlertsRoutes(app: FastifyInstance, options: { db: Database }) {
  const repo = createSavedAlertsRepo(options.db);

  app.get('/get_user_option_alerts', async (request): Promise<GetUserOptionAlertsResponse> => ({
    option_chain_ids: await repo.optionAlerts(request.user.id),
  }));

  app.post('/save_user_option_alerts', async (request): Promise<SaveUserOptionAlertsResponse> => {
    const { option_chain_ids: ids } = parseInput(saveUserOptionAlertsRequest, request.body);
    const result = await repo.saveOptionAlerts(request.user.id, ids);
    return { msg: saveMessage(result.saved.length, result.dropped.length, 'option'), ...result };
  });

  app.get('/get_user_stock_scanner_alerts', async (request): Promise<GetUserStockScannerAlertsResponse> => ({
    alerts: await repo.stockScannerAlerts(request.user.id),
  }));

  app.post('/save_user_stock_scanner_alerts', async (request): Promise<SaveUserStockScannerAlertsResponse> => {
    const { alerts } = parseInput(saveUserStockScannerAlertsRequest, request.body);
    const result = await repo.saveStockScannerAlerts(request.user.id, alerts);
    return { msg: saveMessage(result.saved.length, result.dropped.length, 'drop'), ...result };
  });
}
