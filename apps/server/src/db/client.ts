import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Database = NodePgDatabase<typeof schema>;

/** Where the SQL migrations live: beside this file in the source, copied beside the bundle by the build. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * A connection the database does not accept in this long counts as down (the request answers 503
 * instead of hanging on an unreachable host). pg-pool applies it to waiting for a free connection of
 * a busy pool too, hence generous.
 */
export const CONNECT_TIMEOUT_MS = 30_000;

export function createPool(connectionString: string, max = 12): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Nor a checked-out one (a transaction between two statements, the LISTEN connection): the pool
  // listens only while a client is idle, and an 'error' event nobody listens to ends the process.
  // Its query in flight fails anyway, and the pool drops a broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function createDatabase(pool: pg.Pool): Database {
  return drizzle(pool, { schema });
}

/** Lock id shared by every process that migrates (server, CLI, tests). */
const MIGRATION_LOCK_ID = 7_340_125;

/** Applies pending migrations; an advisory lock keeps two processes from migrating at once. */
export async function migrateDatabase(pool: pg.Pool, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
