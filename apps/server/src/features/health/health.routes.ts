import type { FastifyInstance } from 'fastify';
import type { HealthResponse, ReadyResponse } from '@signalboard/core';
import type { Config } from '../../config';
import { nowSeconds, type Clock } from '../../lib/clock';
import type { Readiness } from './readiness';

export const APP_VERSION = '0.1.0';

export async function healthRoutes(
  app: FastifyInstance,
  options: { config: Config; mailKind: 'smtp' | 'outbox'; smsKind: 'outbox' | 'twilio'; clock: Clock; alertsEvaluatedAt?: () => number | null; readiness: Readiness },
) {
  app.get('/health', async (): Promise<HealthResponse> => ({
    status: 'ok',
    version: APP_VERSION,
    market_data: options.config.MARKET_DATA,
    database: options.config.isExternalDatabase ? 'external' : 'embedded',
    mail: options.mailKind,
    sms: options.smsKind,
    time: nowSeconds(options.clock),
    ...(options.alertsEvaluatedAt ? { alerts_evaluated_at: options.alertsEvaluatedAt() } : {}),
  }));

  // Readiness: each dependency with its state; 503 (same body) while a required one is down.
  app.get('/ready', async (_request, reply): Promise<ReadyResponse> => {
    const { ready, body } = await options.readiness.check();
    reply.status(ready ? 200 : 503);
    return body;
  });
}
