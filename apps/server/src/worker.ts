/**
 * The worker entry (`npm run worker`, REDIS_URL required): runs the jobs the API processes schedule
 * and enqueue on BullMQ (jobs/queue.ts, jobs/tasks.ts) — the dashboard's refreshes, the engines'
 * replays, passes and marks, the alert quote polls and their evaluation, idea events, news and the
 * deliveries. Any number of workers share one queue; the jobs run on the services of container.ts,
 * exactly those the API uses, with no HTTP app.
 */
import { pino } from 'pino';
import { createContainer } from './container';
import { startMetricsServer, stopMetricsServer } from './features/metrics/metrics-server';
import { collectProcessMetrics } from './lib/metrics';
import { ConfigError, loadConfig } from './config';
import { startJobWorkers, type JobLog } from './jobs/queue';
import { scheduleTasks, taskDepsOf, taskHandlers } from './jobs/tasks';
import { consoleLog } from './lib/console-log';
import { settledWithin } from './lib/graceful-shutdown';
import { openRuntime } from './runtime';

/** Past the jobs' drain (SHUTDOWN_DRAIN_SECONDS), closing the rest gets this long before the process gives up. */
const SHUTDOWN_MARGIN_MS = 15_000;

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.REDIS_URL) {
    throw new ConfigError('npm run worker needs REDIS_URL (the Redis the API processes use). Without it, `npm start` runs the jobs itself.');
  }
  // The same clocks, market, shared state and database as the API processes, and their queue and live-update bus.
  const runtime = await openRuntime(config, consoleLog);
  // REDIS_URL is set (checked above), so the runtime has opened the queue.
  const queue = runtime.jobQueue!;
  const settings = { url: config.REDIS_URL, prefix: config.REDIS_PREFIX };
  // The API's logger settings (app.ts), JSON lines on stdout.
  const logger = pino({ level: config.LOG_LEVEL, redact: ['*.password', '*.new_password', '*.current_password'] });
  const services = createContainer(await runtime.appDeps(), { log: logger });
  await services.start();

  const deps = taskDepsOf(services, runtime.clock);
  const asJobLog = (each: typeof logger): JobLog => ({ info: (message) => each.info(message), warn: (message) => each.warn(message) });
  const log = { ...asJobLog(logger), child: (bindings: Record<string, unknown>) => asJobLog(logger.child(bindings)) };
  // Workers upsert the schedule too (idempotent): a worker started before any API process still runs it.
  await scheduleTasks(queue, deps);
  // Telegram's /start and /stop: one worker polls (a second one gets 409 from Telegram and keeps retrying slowly), or the webhook is set.
  await services.telegram.start();
  const workers = startJobWorkers(settings, { handlers: taskHandlers(deps), queue, log, backtestConcurrency: config.SCAN_BACKTEST_MAX_CONCURRENT });
  // Prometheus (METRICS_PORT; a worker serves no API, so no token route): job durations, failures, queue depth.
  if (config.METRICS_PORT) collectProcessMetrics('worker');
  const metricsServer = config.METRICS_PORT ? await startMetricsServer(config.METRICS_PORT, config.HOST) : undefined;

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
    consoleLog.info(`${signal} received: the worker takes no new jobs and gives the ones under way ${config.SHUTDOWN_DRAIN_SECONDS} s to finish`);
    const timer = setTimeout(() => {
      consoleLog.warn('Shutdown took too long; exiting');
      process.exit(1);
    }, drainMs + SHUTDOWN_MARGIN_MS);
    timer.unref();
    try {
      // No new jobs; those under way get drainMs to finish and record their job_runs rows before the
      // queue's connections and the pool close (past it they are left to another worker's stalled
      // check). The engines' replays stop at their next session boundary rather than hold the drain:
      // the job fails and another worker retries it. The backtests stop at their next slice, marked failed.
      await Promise.all([workers.close(drainMs), settledWithin(drainMs, [services.tradeJobs.stop(), services.scanBacktests.stop()])]);
      if (metricsServer) await stopMetricsServer(metricsServer);
      await services.close();
      // An embedded PostgreSQL the API process started stays up.
      await runtime.close();
      process.exit(0);
    } catch (error) {
      consoleLog.warn(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  consoleLog.info(`Signalboard worker is running (queue ${config.REDIS_PREFIX}:jobs; database: ${config.isExternalDatabase ? 'external PostgreSQL' : 'embedded PostgreSQL'})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
