import type { FastifyInstance } from 'fastify';
import { healthEndpoints, type HealthResponse, type ReadyPublicResponse, type ReadyResponse } from '@signalboard/core';
import type { Config } from '../../config';
import { nowSeconds, type Clock } from '../../lib/clock';
import { route } from '../../lib/endpoint';
import { bearerMatches } from '../metrics/metrics.routes';
import type { Readiness } from './readiness';

export const APP_VERSION = '0.1.0';

export async function healthRoutes(
  app: FastifyInstance,
  options: {
    config: Config;
    mailKind: 'smtp' | 'outbox';
    smsKind: 'outbox' | 'twilio';
    clock: Clock;
    alertsEvaluatedAt?: () => number | null;
    readiness: Readiness;
    /** The symbols of imported price files (CachedMarket.importedSymbols), when the installation keeps them. */
    importedSymbols?: () => Promise<unknown[]>;
  },
) {
  /** How many symbols have imported prices; left out when they cannot be read (health answers all the same). */
  const importedCount = async (): Promise<{ imported_symbols?: number }> => {
    if (!options.importedSymbols) return {};
    try {
      return { imported_symbols: (await options.importedSymbols()).length };
    } catch {
      return {};
    }
  };
  route(app, healthEndpoints.getHealth, async (): Promise<HealthResponse> => ({
    status: 'ok',
    version: APP_VERSION,
    market_data: options.config.MARKET_DATA,
    database: options.config.isExternalDatabase ? 'external' : 'embedded',
    mail: options.mailKind,
    sms: options.smsKind,
    time: nowSeconds(options.clock),
    ...(options.alertsEvaluatedAt ? { alerts_evaluated_at: options.alertsEvaluatedAt() } : {}),
    ...(await importedCount()),
  }));

  // Readiness: each dependency with its state; 503 (same body) while a required one is down. Anyone
  // sees the states only; the details (latencies, kinds, error texts that may name internal hosts,
  // job counts) go only to `Authorization: Bearer <METRICS_TOKEN>`, never without that setting. Any
  // other credential gets the public body, not an error: a probe with a stale token keeps working.
  const token = options.config.METRICS_TOKEN;
  route(app, healthEndpoints.getReadiness, async (request, reply): Promise<ReadyResponse | ReadyPublicResponse> => {
    const { ready, body } = await options.readiness.check();
    reply.status(ready ? 200 : 503).header('cache-control', 'no-store').header('vary', 'authorization');
    if (token && bearerMatches(request.headers.authorization, token)) return body;
    return { status: body.status, checks: Object.fromEntries(Object.entries(body.checks).map(([name, check]) => [name, { state: check.state }])) };
  });
}
