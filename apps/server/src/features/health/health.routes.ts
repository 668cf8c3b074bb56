import type { FastifyInstance } from 'fastify';
import type { HealthResponse } from '@signalboard/core';
import type { Config } from '../../config';
import { nowSeconds, type Clock } from '../../lib/clock';

export const APP_VERSION = '0.1.0';

export async function healthRoutes(
  app: FastifyInstance,
  options: { config: Config; mailKind: 'smtp' | 'outbox'; smsKind: 'outbox' | 'twilio'; clock: Clock; alertsEvaluatedAt?: () => number | null },
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
}
