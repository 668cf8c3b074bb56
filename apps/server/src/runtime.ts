/**
 * What both entries (server.ts, worker.ts) run on: clocks, shared state, market, database, mailer and,
 * with REDIS_URL, the job queue and the live-update bus. Each entry adds only what is its own (listening,
 * the scheduler, the job workers) and hands close() the rest of its shutdown.
 */
import type { AppDeps } from './app';
import type { Config } from './config';
import { openDatabase, type OpenDatabase } from './db/open';
import { createRedisBus } from './features/live/live-bus';
import { createJobQueue, type JobQueue } from './jobs/queue';
import { queuedWork } from './jobs/tasks';
import { createMemoryStore, type CacheStore } from './lib/cache-store';
import { createRedisStore } from './lib/cache-store.redis';
import { systemClock, type Clock } from './lib/clock';
import { applyHeapGrowth } from './lib/heap-growth';
import { resolveJwtSecret } from './lib/jwt-secret';
import { resolveEncryptionKey } from './lib/secret-box';
import { loadVapidKeys } from './lib/webpush/vapid';
import type { LiveBus } from './lib/live-bus';
import { controlledMarketClock, createTestControl, holdWhileControlled, offsetClock } from './lib/test-control';
import { createAnalyst } from './providers/ai';
import { createMailer, type Mailer } from './providers/mail';
import { createMarket, marketClock, withTestQuotes } from './providers/market';
import { createImportedPricesRepo } from './features/data-import/imported-prices.repo';
import type { CachedMarket } from './providers/market/cached-market';

export interface RuntimeLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface Runtime {
  clock: Clock;
  /** The market's clock (MARKET_NOW when pinned, the test control's when set). */
  marketClock: Clock;
  store: CacheStore;
  market: CachedMarket;
  database: OpenDatabase;
  mailer: Mailer;
  /** REDIS_URL only: the BullMQ queues the jobs run on. */
  jobQueue?: JobQueue;
  /** REDIS_URL only: the live updates reach every API process's streams through Redis pub/sub. */
  bus?: LiveBus;
  /** The buildApp deps both entries share; with REDIS_URL, work is handed to the queue. */
  appDeps(): Promise<AppDeps>;
  /**
   * Closes the queue, the store, the bus, the mailer and the database, in that order, each step even
   * when an earlier one failed (then it rejects with every failure). The embedded PostgreSQL is
   * stopped when this process started it, or always with `stopEmbedded: 'always'`.
   */
  close(options?: { stopEmbedded?: 'always' | 'startedHere' }): Promise<void>;
}

export interface RuntimeOptions {
  /** The server's: an embedded PostgreSQL that stops under it is started again (db/embedded-supervisor.ts). */
  superviseEmbedded?: boolean;
}

export async function openRuntime(config: Config, log: RuntimeLog, options: RuntimeOptions = {}): Promise<Runtime> {
  applyHeapGrowth(config.HEAP_GROWING_PERCENT);
  // TEST_CONTROL_FILE (NODE_ENV=test only; lib/test-control.ts): the browser tests move quotes and the clock.
  const control = config.TEST_CONTROL_FILE ? createTestControl(config.TEST_CONTROL_FILE, (message) => log.warn(message)) : undefined;
  if (control) log.warn(`TEST_CONTROL_FILE is set: quotes and the clock follow ${control.file} (a test setting)`);
  const clock = control ? offsetClock(systemClock, control) : systemClock;
  const clockForMarket = control ? controlledMarketClock(marketClock(config, clock), control) : marketClock(config, clock);
  // Shared state (market cache, rate limits, token buckets, analysis cache): on Redis when REDIS_URL is
  // set (every process sees it), else in this process's memory.
  const store = config.REDIS_URL
    ? createRedisStore({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, { onError: (error) => log.warn(`Redis (shared state): ${error.message}`) })
    : createMemoryStore();
  const database = await openDatabase(config, log, { superviseEmbedded: options.superviseEmbedded ?? false });
  const baseMarket = createMarket(config, clockForMarket, store, createImportedPricesRepo(database.db));
  const market = control ? withTestQuotes(baseMarket, control, clockForMarket) : baseMarket;
  const mailer = createMailer(config, database.db, clock);
  const redis = config.REDIS_URL ? { url: config.REDIS_URL, prefix: config.REDIS_PREFIX } : undefined;
  const jobQueue = redis ? createJobQueue(redis, { log }) : undefined;
  const bus = redis ? createRedisBus(redis, log) : undefined;

  return {
    clock,
    marketClock: clockForMarket,
    store,
    market,
    database,
    mailer,
    jobQueue,
    bus,
    async appDeps() {
      return {
        config,
        db: database.db,
        pool: database.pool,
        mailer,
        market,
        marketClock: clockForMarket,
        store,
        analyst: createAnalyst(config),
        jwtSecret: await resolveJwtSecret(config),
        encryptionKey: await resolveEncryptionKey(config),
        vapidKeys: await loadVapidKeys({ dataDir: config.DATA_DIR, publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY }),
        clock,
        ...(bus ? { bus } : {}),
        ...(jobQueue ? { queued: queuedWork(jobQueue, log, clock) } : {}),
        ...(control ? { holdJob: holdWhileControlled(control) } : {}),
      };
    },
    async close({ stopEmbedded = 'startedHere' } = {}) {
      const stopsEmbedded = Boolean(database.embedded) && (stopEmbedded === 'always' || database.embedded!.startedHere);
      const steps: [string, () => Promise<void> | void][] = [
        ['the job queue', () => jobQueue?.close()],
        ['the shared state', () => store.close()],
        ['the live-update bus', () => bus?.close()],
        ['the mailer', () => mailer.close()],
        [
          'the database',
          async () => {
            await database.close({ stopEmbedded: stopsEmbedded });
            if (stopsEmbedded) log.info('Embedded PostgreSQL server stopped');
          },
        ],
      ];
      const failures: string[] = [];
      for (const [name, step] of steps) {
        try {
          await step();
        } catch (error) {
          failures.push(`${name}: ${(error as Error).message}`);
        }
      }
      if (failures.length > 0) throw new Error(`closing ${failures.join('; ')}`);
    },
  };
}
