/**
 * One PostgreSQL server for the whole server suite: the embedded one in a temporary DATA_DIR, or the
 * server at DATABASE_URL (SB_TEST_DATABASE=external). A migrated template database is made once;
 * every test file copies it into a fresh database of its own (see test/helpers.ts). The embedded
 * server's DATA_DIR is in the run's folder (test/run-dirs.ts): a run interrupted before its teardown
 * leaves it running, and the next run of this checkout stops it.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPool, migrateDatabase } from '../src/db/client';
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { startRun } from './run-dirs';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
    databasePrefix: string;
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  const run = await startRun(project.name);
  try {
    return await prepare(project, run);
  } catch (error) {
    await run.finish();
    throw error;
  }
}

/**
 * The suite's own embedded server (a temporary data directory, removed after the run) commits
 * without waiting for the disk: no fsync per commit (~3 ms each here, thousands in a run, and two
 * test workers queue on the same disk), no full-page images, no flush when a test database is
 * copied from the template. A crash of this server loses nothing a test needs. The external leg's
 * server (DATABASE_URL) is never touched, and the tests that kill a database (test/db-outage.test.ts)
 * run servers of their own with the product's settings.
 */
async function withoutDurability(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const setting of ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']) await client.query(`alter system set ${setting}`);
    await client.query('select pg_reload_conf()');
  } finally {
    await client.end();
  }
}

async function prepare(project: TestProject, run: Awaited<ReturnType<typeof startRun>>) {
  // The project's `env` reaches its test workers, not this set-up (it runs in vitest's main process):
  // read it from the project's configuration, or server-pg would quietly test an embedded server.
  const external = (project.config.env?.SB_TEST_DATABASE ?? process.env.SB_TEST_DATABASE) === 'external';
  let embedded: EmbeddedPostgres | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = withDatabase(process.env.DATABASE_URL!, 'postgres');
  } else {
    embedded = await ensureEmbeddedPostgres(path.join(run.dir, 'data'), { info: () => undefined, warn: () => undefined });
    adminUrl = embedded.adminUrl;
    await withoutDurability(adminUrl);
  }
  const prefix = `sbt_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const pool = createPool(withDatabase(adminUrl, template), 1);
  await migrateDatabase(pool);
  await pool.end();

  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('databasePrefix', prefix);

  return async () => {
    // Each step even when one before it failed: the embedded server and the folder never stay behind.
    try {
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await admin.end().catch(() => undefined);
      await embedded?.stop().catch((error: unknown) => console.error(`could not stop the embedded PostgreSQL: ${String(error)}`));
      await run.finish(); // stops a postmaster still there, removes the folder
    }
  };
}
