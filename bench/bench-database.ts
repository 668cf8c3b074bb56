// A migrated database of its own for one bench: on DATABASE_URL's server when set, else on an embedded
// PostgreSQL in a temporary directory; dropped (and the embedded server stopped) when `work` ends.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, createPool, migrateDatabase, type Database } from '../apps/server/src/db/client';
import { ensureEmbeddedPostgres } from '../apps/server/src/db/embedded-postgres';

export async function withBenchDatabase<T>(label: string, options: { poolSize: number }, work: (bench: { db: Database; pool: pg.Pool; temp: string }) => Promise<T>): Promise<T> {
  const temp = await fs.mkdtemp(path.join(os.tmpdir(), `sb-${label}-bench-`));
  await fs.chmod(temp, 0o755);
  const quiet = { info: () => undefined, warn: () => undefined };
  const embedded = process.env.DATABASE_URL ? undefined : await ensureEmbeddedPostgres(path.join(temp, 'data'), quiet);
  const adminUrl = process.env.DATABASE_URL ?? embedded!.adminUrl;
  const name = `sb_${label.replace(/\W/g, '_')}_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = createPool(url.toString(), options.poolSize);
  try {
    await migrateDatabase(pool, path.join(process.cwd(), 'apps/server/src/db/migrations'));
    return await work({ db: createDatabase(pool), pool, temp });
  } finally {
    await pool.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    if (embedded) await embedded.stop();
    await fs.rm(temp, { recursive: true, force: true });
  }
}
