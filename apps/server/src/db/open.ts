import type pg from 'pg';
import type { Config } from '../config';
import { createDatabase, createPool, migrateDatabase, type Database } from './client';
import { ensureEmbeddedPostgres, type EmbeddedPostgres, type Logger } from './embedded-postgres';
import { superviseEmbeddedPostgres, type EmbeddedSupervisor } from './embedded-supervisor';

export interface OpenDatabase {
  db: Database;
  pool: pg.Pool;
  /** The embedded server now running (after a restart by the supervisor, the new one). */
  readonly embedded?: EmbeddedPostgres;
  /**
   * Closes the pool (waiting at most POOL_END_WAIT_MS for the connections in use); with
   * `stopEmbedded`, also stops the embedded server serving DATA_DIR — whichever postmaster that is
   * now (a restarted one included). Safe to call more than once (a shutdown's last resort calls it again).
   */
  close(options?: { stopEmbedded?: boolean }): Promise<void>;
}

/** How long close() waits for the connections still in use before it stops the embedded server anyway. */
export const POOL_END_WAIT_MS = 5_000;

export interface OpenDatabaseOptions {
  /**
   * The embedded server is started again when it stops under this process (embedded-supervisor.ts).
   * For the process that owns it (the server); not for the CLI or a worker.
   */
  superviseEmbedded?: boolean;
}

/** Connects to DATABASE_URL or to the embedded server (starting it when needed), then migrates. */
export async function openDatabase(config: Config, log: Logger, options: OpenDatabaseOptions = {}): Promise<OpenDatabase> {
  const embedded = config.DATABASE_URL ? undefined : await ensureEmbeddedPostgres(config.DATA_DIR, log);
  const pool = createPool(config.DATABASE_URL ?? embedded!.url);
  try {
    await migrateDatabase(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (embedded?.startedHere) await embedded.stop().catch(() => undefined);
    throw error;
  }
  const supervisor: EmbeddedSupervisor | undefined =
    embedded && options.superviseEmbedded ? superviseEmbeddedPostgres({ dataDir: config.DATA_DIR, embedded, pool, log }) : undefined;
  let ending: Promise<void> | undefined;
  return {
    db: createDatabase(pool),
    pool,
    get embedded() {
      return supervisor?.current() ?? embedded;
    },
    async close({ stopEmbedded = false } = {}) {
      // First: a deliberate stop must not be taken for a crash and restarted (nor a restart under way finish starting one).
      await supervisor?.stop();
      // A connection still in use (a query stuck on a server that went away) must not keep the server running.
      ending ??= pool.end().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ending, new Promise((resolve) => (timer = setTimeout(resolve, POOL_END_WAIT_MS)))]);
      clearTimeout(timer);
      // pg_ctl stop on the data directory: the postmaster running now, however often it was restarted.
      const running = supervisor?.current() ?? embedded;
      if (stopEmbedded && running) await running.stop();
    },
  };
}
