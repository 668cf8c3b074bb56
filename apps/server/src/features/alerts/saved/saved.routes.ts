import type { FastifyInstance } from 'fastify';
import {
  savedAlertsEndpoints,
  type GetUserOptionAlertsResponse,
  type GetUserStockScannerAlertsResponse,
  type SaveUserOptionAlertsResponse,
  type SaveUserStockScannerAlertsResponse,
} from '@signalboard/core';
import type { Database } from '../../../db/client';
import { route } from '../../../lib/endpoint';
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

  route(app, savedAlertsEndpoints.getUserOptionAlerts, async (request): Promise<GetUserOptionAlertsResponse> => ({
    option_chain_ids: await repo.optionAlerts(request.user.id),
  }));

  route(app, savedAlertsEndpoints.saveUserOptionAlerts, async (request, _reply, { option_chain_ids: ids }): Promise<SaveUserOptionAlertsResponse> => {
    const result = await repo.saveOptionAlerts(request.user.id, ids);
    return { msg: saveMessage(result.saved.length, result.dropped.length, 'option'), ...result };
  });

  route(app, savedAlertsEndpoints.getUserStockScannerAlerts, async (request): Promise<GetUserStockScannerAlertsResponse> => ({
    alerts: await repo.stockScannerAlerts(request.user.id),
  }));

  route(app, savedAlertsEndpoints.saveUserStockScannerAlerts, async (request, _reply, { alerts }): Promise<SaveUserStockScannerAlertsResponse> => {
    const result = await repo.saveStockScannerAlerts(request.user.id, alerts);
    return { msg: saveMessage(result.saved.length, result.dropped.length, 'drop'), ...result };
  });
}
