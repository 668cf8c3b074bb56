import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DEMO_EMAIL, DEMO_PASSWORD, startDemoAccount } from './features/auth/demo-account';
import { createAuditRepo } from './features/admin/audit.repo';
import { applyAdminEmails } from './features/auth/roles';
import { createUsersRepo } from './features/auth/users.repo';
import { consoleLog } from './lib/console-log';
import { startScheduler, type Scheduler } from './jobs/scheduler';
import { queuesReadinessCheck } from './features/health/readiness';
import { scheduleTasks, taskDepsOf } from './jobs/tasks';
import { collectProcessMetrics } from './lib/metrics';
import { startMetricsServer, stopMetricsServer } from './features/metrics/metrics-server';
import { closeHttp, settledWithin } from './lib/graceful-shutdown';
import { openRuntime } from './runtime';

/** Past the drains (jobs, then requests; SHUTDOWN_DRAIN_SECONDS each), closing the rest gets this long before the process gives up. */
const SHUTDOWN_MARGIN_MS = 15_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // REDIS_URL: the jobs run in `npm run worker` processes (jobs/queue.ts); this process only enqueues.
  // An embedded PostgreSQL that stops under the server is started again (a restart of it, a crash).
  const runtime = await openRuntime(config, consoleLog, { superviseEmbedded: true });
  const { clock, jobQueue, mailer } = runtime;
  const app = await buildApp({
    ...(await runtime.appDeps()),
    ...(jobQueue ? { readinessChecks: [queuesReadinessCheck(jobQueue.queues)] } : {}),
  });
  // The demo account: only loopback + embedded database unless DEMO_ACCOUNT says otherwise (a warn line then).
  const users = createUsersRepo(runtime.database.db);
  const demoCreated = await startDemoAccount(config, users, app.log);
  // ADMIN_EMAILS: these accounts are admins (features/auth/roles.ts).
  await applyAdminEmails(users, config.ADMIN_EMAILS, consoleLog, createAuditRepo(runtime.database.db));

  /** Started once the server listens; stopped first on shutdown. */
  const running: { scheduler?: Scheduler; metricsServer?: Awaited<ReturnType<typeof startMetricsServer>> } = {};
  let stopping = false;
  const drainMs = config.SHUTDOWN_DRAIN_SECONDS * 1000;
  /** The shutdown took too long: the embedded PostgreSQL (detached, it would outlive this process) is stopped all the same. */
  const giveUp = async () => {
    consoleLog.warn('Shutdown took too long; stopping the database and exiting');
    setTimeout(() => process.exit(1), SHUTDOWN_MARGIN_MS).unref();
    await runtime.database.close({ stopEmbedded: true }).catch((error: unknown) => consoleLog.warn(`Stopping the database failed: ${String(error)}`));
    process.exit(1);
  };
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLog.info(`${signal} received: shutting down (the jobs and requests under way get ${config.SHUTDOWN_DRAIN_SECONDS} s each to finish)`);
    const timer = setTimeout(() => void giveUp(), 2 * drainMs + SHUTDOWN_MARGIN_MS);
    timer.unref();
    try {
      // 1. No new ticks; the pass under way, the replays (they stop at their next session) and the
      // alert evaluation get drainMs to finish and record their job_runs rows while the pool is
      // still open. Requests are still answered meanwhile.
      const drained = await settledWithin(drainMs, [running.scheduler?.stop(drainMs), app.tradeJobs.stop(), app.alertEvaluation.stop(), app.telegram.stop()]);
      if (!drained) consoleLog.warn(`Jobs still running after ${config.SHUTDOWN_DRAIN_SECONDS} s: they are cut short (their claims are taken over once stale)`);
      if (running.metricsServer) await stopMetricsServer(running.metricsServer);
      // 2. HTTP: stop accepting, end the live streams, give the requests in flight drainMs; then the services stop.
      if ((await closeHttp(app, drainMs)) === 'cut') consoleLog.warn(`Requests still in flight after ${config.SHUTDOWN_DRAIN_SECONDS} s were cut`);
      // 3. The job queue (Redis/BullMQ), the shared state, the bus, the mailer and the pool.
      // Even an adopted embedded server (left by a killed run) stops: once `npm start` ends, nothing of it keeps serving.
      await runtime.close({ stopEmbedded: 'always' });
      process.exit(0);
    } catch (error) {
      consoleLog.warn(`Shutdown failed: ${(error as Error).message}`);
      await giveUp();
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    const inUse = (error as { code?: string }).code === 'EADDRINUSE';
    consoleLog.warn(inUse ? `Port ${config.PORT} is already in use: set PORT to another port.` : String(error));
    await app.close().catch(() => undefined);
    await runtime.close().catch((closeError: unknown) => consoleLog.warn(String(closeError)));
    process.exit(1);
  }
  // Prometheus metrics (off by default): process metrics, on METRICS_PORT and/or at /metrics with METRICS_TOKEN.
  if (config.METRICS_PORT || config.METRICS_TOKEN) collectProcessMetrics('api');
  if (config.METRICS_PORT) {
    running.metricsServer = await startMetricsServer(config.METRICS_PORT, config.HOST);
    consoleLog.info(`Metrics: http://${config.HOST}:${config.METRICS_PORT}/metrics`);
  }
  // Every scheduled job (the dashboard's refreshes; the trade engines' replays, daily passes and
  // marks): a first pass now (a new installation's dashboard is filled at once, the engines' history
  // replays start in the background), then every minute whatever slot is due.
  if (jobQueue) {
    // On Redis the same work is scheduled on BullMQ (one schedule however many processes upsert it).
    scheduleTasks(jobQueue, taskDepsOf(app, clock))
      .then(() => consoleLog.info('Jobs: scheduled on Redis; `npm run worker` processes run them'))
      .catch((error: unknown) => consoleLog.warn(`Scheduling the jobs on Redis failed: ${String(error)}`));
  } else {
    running.scheduler = startScheduler(app.jobs, consoleLog);
    // The alert rules: the quote poller and the engines' events, evaluated as they come.
    app.alertEvaluation.start();
    // Alert deliveries: a pass every 2 seconds (and at once when the evaluator commits an alert).
    app.alertDelivery.start();
    // Live quotes of the symbols open streams show (with Redis a worker publishes them).
    app.liveQuotes.start();
    // Telegram's /start and /stop (TELEGRAM_BOT_TOKEN): polled here, or the webhook set (with Redis a worker does it).
    void app.telegram.start();
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = config.HOST === '0.0.0.0' || config.HOST === '127.0.0.1' || config.HOST === '::' ? 'localhost' : config.HOST;
  consoleLog.info(`Signalboard is running at http://${host}:${port}`);
  consoleLog.info(
    `Database: ${config.isExternalDatabase ? 'external PostgreSQL (DATABASE_URL)' : `embedded PostgreSQL, data in ${config.DATA_DIR}/pg`}; ` +
      `mail: ${mailer.kind === 'smtp' ? 'SMTP' : `outbox in ${config.DATA_DIR}/outbox`}; ` +
      `SMS: ${config.SMS_PROVIDER === 'twilio' ? 'Twilio' : `outbox in ${config.DATA_DIR}/sms-outbox`}; market data: ${config.MARKET_DATA}`,
  );
  if (demoCreated) {
    consoleLog.info(`Demo account created: ${DEMO_EMAIL} / ${DEMO_PASSWORD} (you will be asked to choose a new password)`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
