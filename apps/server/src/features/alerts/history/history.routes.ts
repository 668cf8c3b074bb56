import type { FastifyInstance } from 'fastify';
import { alertsEndpoints, type GetAlertHistoryResponse } from '@signalboard/core';
import type { Clock } from '../../../lib/clock';
import { route } from '../../../lib/endpoint';
import type { AlertHistoryService } from './history.service';

/**
 * The Alert History tab's calls (issue 15), each strictly the signed-in user's:
 * POST api/get_alert_history (JSON filters) and GET api/alert_history.csv (the same filters as query).
 */
export async function alertHistoryRoutes(app: FastifyInstance, options: { service: AlertHistoryService; clock: Clock }) {
  const { service, clock } = options;

  route(app, alertsEndpoints.getAlertHistory, async (request, _reply, filters): Promise<GetAlertHistoryResponse> => {
    return { data: await service.page(request.user.id, filters) };
  });

  route(app, alertsEndpoints.downloadAlertHistoryCsv, async (request, reply, filters) => {
    const csv = await service.csv(request.user.id, filters);
    const day = new Date(clock.nowMs()).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="alert-history-${day}.csv"`)
      .send(csv);
  });
}
