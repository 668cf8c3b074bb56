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
  /** Closes the pool; with `stopEmbedded`, also stops the embedded server. */
  close(options?: { stopEmbedded?: boolean }): Promise<void>;
}

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
  return {
    db: createDatabase(pool),
    pool,
    get embedded() {
      return supervisor?.current() ?? embedded;
    },
    async close({ stopEmbedded = false } = {}) {
      // First: a deliberate stop must not be taken for a crash and restarted.
      await supervisor?.stop();
      await pool.end().catch(() => undefined);
      const running = supervisor?.current() ?? embedded;
      if (stopEmbedded && running) await running.stop();
    },
  };
}
