import type pg from 'pg';
import type { Config } from '../config';
import { createDatabase, createPool, migrateDatabase, type Database } from './client';
import { ensureEmbeddedPostgres, type EmbeddedPostgres, type Logger } from './embedded-postgres';

export interface OpenDatabase {
  db: Database;
  pool: pg.Pool;
  embedded?: EmbeddedPostgres;
  /** Closes the pool; with `stopEmbedded`, also stops the embedded server. */
  close(options?: { stopEmbedded?: boolean }): Promise<void>;
}

/** Connects to DATABASE_URL or to the embedded server (starting it when needed), then migrates. */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  const embedded = config.DATABASE_URL ? undefined : await ensureEmbeddedPostgres(config.DATA_DIR, log);
  const pool = createPool(config.DATABASE_URL ?? embedded!.url);
  try {
    await migrateDatabase(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (embedded?.startedHere) await embedded.stop().catch(() => undefined);
    throw error;
  }
  return {
    db: createDatabase(pool),
    pool,
    embedded,
    async close({ stopEmbedded = false } = {}) {
      await pool.end().catch(() => undefined);
      if (stopEmbedded && embedded) await embedded.stop();
    },
  };
}
