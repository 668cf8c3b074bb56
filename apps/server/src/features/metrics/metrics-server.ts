/**
 * Prometheus metrics on a port of their own (METRICS_PORT): a small node:http server answering
 * GET /metrics (and 404 for anything else), bound to HOST like the API. No token: keep the port on a
 * private network (docker-compose publishes it nowhere).
 */
import { createServer, type Server } from 'node:http';
import { metricsRegistry } from '../../lib/metrics';

export async function startMetricsServer(port: number, host: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ msg: 'Not found: metrics are at GET /metrics' }));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ msg: `metrics failed: ${(error as Error).message}` })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function stopMetricsServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
