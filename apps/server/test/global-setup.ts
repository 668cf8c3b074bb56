/**
 * One PostgreSQL server for the whole server suite: the embedded one in a temporary DATA_DIR, or the
 * server at DATABASE_URL (SB_TEST_DATABASE=external). A migrated template database is made once;
 * every test file copies it into a fresh database of its own (see test/helpers.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPool, migrateDatabase } from '../src/db/client';
import { ensureEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';

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
  const external = process.env.SB_TEST_DATABASE === 'external';
  let embedded: EmbeddedPostgres | undefined;
  let tempDir: string | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = withDatabase(process.env.DATABASE_URL!, 'postgres');
  } else {
    tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-server-test-'));
    await fs.chmod(tempDir, 0o755);
    embedded = await ensureEmbeddedPostgres(path.join(tempDir, 'data'), { info: () => undefined, warn: () => undefined });
    adminUrl = embedded.adminUrl;
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
    const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [`${prefix}%`]);
    for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
    if (embedded) await embedded.stop();
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true });
  };
}
