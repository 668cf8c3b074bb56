/**
 * Prometheus metrics (prom-client), one registry per process. Off by default: nothing exposes the
 * registry unless METRICS_PORT (a separate port) or METRICS_TOKEN (GET /metrics on the API port with
 * that bearer token) is set; recording into it costs a few counters either way, except the
 * request latencies, which app.ts records only when one of the two is set (a hook on every
 * request). Every component records into these named metrics; label values are small fixed sets
 * (never a user id or a symbol).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();

let defaultsCollected = false;
/** Process metrics (CPU, memory, event-loop lag, GC): started once, by whichever entry exposes metrics. */
export function collectProcessMetrics(role: 'api' | 'worker'): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  metricsRegistry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'signalboard_' });
}

export const metrics = {
  /** Request latency by route pattern (e.g. '/api/get_quote'), method and status code. */
  httpRequestDuration: new Histogram({
    name: 'signalboard_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metricsRegistry],
  }),
  /** Jobs waiting, active, delayed or failed per queue (set when the registry is scraped). */
  queueDepth: new Gauge({
    name: 'signalboard_queue_jobs',
    help: 'Jobs per queue and state',
    labelNames: ['queue', 'state'] as const,
    registers: [metricsRegistry],
  }),
  jobDuration: new Histogram({
    name: 'signalboard_job_duration_seconds',
    help: 'Job run time by job name and outcome (done, skipped, failed)',
    labelNames: ['job', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [metricsRegistry],
  }),
  jobFailures: new Counter({
    name: 'signalboard_job_failures_total',
    help: 'Job runs that failed, by job name',
    labelNames: ['job'] as const,
    registers: [metricsRegistry],
  }),
  /** Seconds between a quote's time and the end of the evaluation pass that read it. */
  alertEvaluationLag: new Gauge({
    name: 'signalboard_alert_evaluation_lag_seconds',
    help: 'Age of the newest completed alert evaluation pass',
    registers: [metricsRegistry],
  }),
  alertDeliveries: new Counter({
    name: 'signalboard_alert_deliveries_total',
    help: 'Alert delivery attempts by channel (sms, email) and status (sent, delivered, failed, skipped, …)',
    labelNames: ['channel', 'status'] as const,
    registers: [metricsRegistry],
  }),
  providerErrors: new Counter({
    name: 'signalboard_provider_errors_total',
    help: 'Upstream provider errors by provider and kind (timeout, rate_limit, http, shape, network)',
    labelNames: ['provider', 'kind'] as const,
    registers: [metricsRegistry],
  }),
  /** Cache lookups: cache 'market' | 'analysis'; result 'hit' | 'miss' | 'stale' | 'shared' (another process loaded it). */
  cacheLookups: new Counter({
    name: 'signalboard_cache_lookups_total',
    help: 'Cache lookups by cache and result',
    labelNames: ['cache', 'result'] as const,
    registers: [metricsRegistry],
  }),
  liveConnections: new Gauge({
    name: 'signalboard_live_connections',
    help: 'Open live-update streams in this process',
    registers: [metricsRegistry],
  }),
};
