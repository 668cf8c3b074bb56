import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/open';
import { DEMO_EMAIL, DEMO_PASSWORD, ensureDemoAccount } from './features/auth/demo-account';
import { createUsersRepo } from './features/auth/users.repo';
import { systemClock } from './lib/clock';
import { consoleLog } from './lib/console-log';
import { startScheduler, type Scheduler } from './jobs/scheduler';
import { resolveJwtSecret } from './lib/jwt-secret';
import { createAnalyst } from './providers/ai';
import { createMailer } from './providers/mail';
import { createMarket, marketClock, withTestQuotes } from './providers/market';
import { createRedisBus } from './features/live/live-bus';
import { controlledMarketClock, createTestControl, offsetClock } from './lib/test-control';

const SHUTDOWN_TIMEOUT_MS = 20_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // TEST_CONTROL_FILE (NODE_ENV=test only; lib/test-control.ts): the browser tests move quotes and the clock.
  const control = config.TEST_CONTROL_FILE ? createTestControl(config.TEST_CONTROL_FILE, (message) => consoleLog.warn(message)) : undefined;
  if (control) consoleLog.warn(`TEST_CONTROL_FILE is set: quotes and the clock follow ${control.file} (a test setting)`);
  const clock = control ? offsetClock(systemClock, control) : systemClock;
  const clockForMarket = control ? controlledMarketClock(marketClock(config, clock), control) : marketClock(config, clock);
  const market = control ? withTestQuotes(createMarket(config, clockForMarket), control, clockForMarket) : createMarket(config, clockForMarket);
  const database = await openDatabase(config, consoleLog);
  const mailer = createMailer(config, database.db, clock);
  const demoCreated = config.DEMO_ACCOUNT ? await ensureDemoAccount(createUsersRepo(database.db)) : false;
  // Live updates across replicas and workers: Redis pub/sub when REDIS_URL is set (else in-process).
  const bus = config.REDIS_URL ? createRedisBus({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, consoleLog) : undefined;
  const app = await buildApp({ config, db: database.db, pool: database.pool, mailer, market, marketClock: clockForMarket, analyst: createAnalyst(config), jwtSecret: await resolveJwtSecret(config), clock, ...(bus ? { bus } : {}) });

  /** Started once the server listens; stopped first on shutdown. */
  const running: { scheduler?: Scheduler } = {};
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
      await app.alertEvaluation.stop();
      await app.close();
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
    await database.close({ stopEmbedded: database.embedded?.startedHere ?? false });
    process.exit(1);
  }
  // Every scheduled job (the dashboard's refreshes; the trade engines' replays, daily passes and
  // marks): a first pass now (a new installation's dashboard is filled at once, the engines' history
  // replays start in the background), then every minute whatever slot is due.
  running.scheduler = startScheduler(app.jobs, consoleLog);
  // The alert rules: the quote poller and the engines' events, evaluated as they come.
  app.alertEvaluation.start();
  // Alert deliveries: a pass every 2 seconds (and at once when the evaluator commits an alert).
  app.alertDelivery.start();
  // Live quotes of the symbols open streams show: this process's timer; with Redis a worker runs them.
  if (!config.isRedis) app.liveQuotes.start();
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
