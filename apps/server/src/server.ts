import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from './features/auth/demo-account';
import { createUsersRepo } from './features/auth/users.repo';
import { systemClock } from './lib/clock';
import { createCacheStore } from './lib/cache-store';
import { consoleLog } from './lib/console-log';
import { startScheduler, type Scheduler } from './jobs/scheduler';
import { createJobQueue } from './jobs/queue';
import { queuesReadinessCheck } from './features/health/readiness';
import { queuedWork, scheduleTasks, taskDepsOf } from './jobs/tasks';
import { resolveJwtSecret } from './lib/jwt-secret';
import { createAnalyst } from './providers/ai';
import { createMailer } from './providers/mail';
import { createMarket, marketClock, withTestQuotes } from './providers/market';
import { createRedisBus } from './features/live/live-bus';
import { controlledMarketClock, createTestControl, offsetClock } from './lib/test-control';
import { collectProcessMetrics } from './lib/metrics';
import { startMetricsServer, stopMetricsServer } from './features/metrics/metrics-server';

const SHUTDOWN_TIMEOUT_MS = 20_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // TEST_CONTROL_FILE (NODE_ENV=test only; lib/test-control.ts): the browser tests move quotes and the clock.
  const control = config.TEST_CONTROL_FILE ? createTestControl(config.TEST_CONTROL_FILE, (message) => consoleLog.warn(message)) : undefined;
  if (control) consoleLog.warn(`TEST_CONTROL_FILE is set: quotes and the clock follow ${control.file} (a test setting)`);
  const clock = control ? offsetClock(systemClock, control) : systemClock;
  const clockForMarket = control ? controlledMarketClock(marketClock(config, clock), control) : marketClock(config, clock);
  // Shared state (market cache, rate limits, token buckets, analysis cache): Redis when REDIS_URL is set.
  const store = createCacheStore(config, (error) => consoleLog.warn(`Redis (shared state): ${error.message}`));
  const market = control ? withTestQuotes(createMarket(config, clockForMarket, store), control, clockForMarket) : createMarket(config, clockForMarket, store);
  const database = await openDatabase(config, consoleLog);
  const mailer = createMailer(config, database.db, clock);
  // REDIS_URL: the jobs run in `npm run worker` processes (jobs/queue.ts); this process only enqueues.
  const jobQueue = config.REDIS_URL ? createJobQueue({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, { log: consoleLog }) : undefined;
  const demoCreated = config.DEMO_ACCOUNT ? await ensureDemoAccount(createUsersRepo(database.db)) : false;
  // Live updates across replicas and workers: Redis pub/sub when REDIS_URL is set (else in-process).
  const bus = config.REDIS_URL ? createRedisBus({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, consoleLog) : undefined;
  const app = await buildApp({
    config,
    db: database.db,
    pool: database.pool,
    mailer,
    market,
    marketClock: clockForMarket,
    store,
    analyst: createAnalyst(config),
    jwtSecret: await resolveJwtSecret(config),
    clock,
    ...(bus ? { bus } : {}),
    ...(jobQueue ? { queued: queuedWork(jobQueue, consoleLog, clock), readinessChecks: [queuesReadinessCheck(jobQueue.queues)] } : {}),
  });

  /** Started once the server listens; stopped first on shutdown. */
  const running: { scheduler?: Scheduler; metricsServer?: Awaited<ReturnType<typeof startMetricsServer>> } = {};
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLog.info(`${signal} received: shutting down`);
    const timer = setTimeout(() => {
      consoleLog.warn('Shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await running.scheduler?.stop();
      if (running.metricsServer) await stopMetricsServer(running.metricsServer);
      await app.alertEvaluation.stop();
      await app.close();
      await jobQueue?.close();
      await store.close();
      await bus?.close();
      mailer.close();
      await database.close({ stopEmbedded: true });
      if (database.embedded) consoleLog.info('Embedded PostgreSQL server stopped');
      process.exit(0);
    } catch (error) {
      consoleLog.warn(`Shutdown failed: ${(error as Error).message}`);
      process.exit(1);
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
    await store.close();
    await database.close({ stopEmbedded: database.embedded?.startedHere ?? false });
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
