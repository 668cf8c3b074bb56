/**
 * Prometheus metrics on the API port (METRICS_TOKEN): GET /metrics with `Authorization: Bearer
 * <token>`, compared in constant time; 401 `{ msg }` otherwise. Without METRICS_TOKEN the route is
 * not registered (404 like any unknown path). And the request-latency histogram every answer feeds.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { metrics, metricsRegistry } from '../../lib/metrics';

/** The route label of a request that matched no route (404s of unknown paths): one label, never the raw URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Records every answer's latency by route pattern (e.g. '/api/quote'), method and status. */
export function recordRequestDurations(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    metrics.httpRequestDuration.observe({ route, method: request.method, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether `header` is `Bearer <token>`; the comparison takes as long whatever it is given. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

export async function metricsRoutes(app: FastifyInstance, options: { token: string }) {
  app.get('/metrics', async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, options.token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ msg: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' });
    }
    return reply.header('cache-control', 'no-store').type(metricsRegistry.contentType).send(await metricsRegistry.metrics());
  });
}
