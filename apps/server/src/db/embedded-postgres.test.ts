import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_DATABASE, ensureEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A pid no process has, so a lock file naming it is stale. */
function deadPid(): number {
  for (let pid = 999_999; ; pid += 1) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

// Only where the suite runs the embedded server; against DATABASE_URL this machinery is not used.
describe.skipIf(process.env.SB_TEST_DATABASE === 'external')('the embedded PostgreSQL server', () => {
  let dir: string;
  let running: EmbeddedPostgres | undefined;
  const messages: string[] = [];
  const log = { info: (msg: string) => messages.push(`info: ${msg}`), warn: (msg: string) => messages.push(`warn: ${msg}`) };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-embedded-test-'));
    // As root the server runs as the postgres user, which must be able to enter the folder.
    await fs.chmod(dir, 0o755);
  });
  afterAll(async () => {
    await running?.stop().catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('starts, is adopted by a second start, and restarts over a stale lock with its committed data', async () => {
    const dataDir = path.join(dir, 'data');
    const first = await ensureEmbeddedPostgres(dataDir, log);
    running = first;
    expect(first.startedHere).toBe(true);
    expect(first.url).toBe(`postgres://postgres:${new URL(first.url).password}@127.0.0.1:${first.port}/${APP_DATABASE}`);
    expect(await query(first.url, 'select 1 as one, current_database() as db')).toEqual([{ one: 1, db: APP_DATABASE }]);
    await query(first.url, "create table kept (value text); insert into kept values ('committed')");

    const second = await ensureEmbeddedPostgres(dataDir, log);
    expect(second.startedHere).toBe(false);
    expect(second.port).toBe(first.port);
    expect(second.url).toBe(first.url);
    expect(messages.some((line) => line.startsWith('info: Using the embedded PostgreSQL server already running'))).toBe(true);

    const lockFile = path.join(dataDir, 'pg', 'postmaster.pid');
    const lock = (await fs.readFile(lockFile, 'utf8')).split('\n');
    await first.stop();
    running = undefined;
    expect(existsSync(lockFile)).toBe(false);
    await expect(query(first.adminUrl, 'select 1')).rejects.toThrow();

    // A crash leaves the lock behind; its pid now belongs to nobody.
    const stalePid = deadPid();
    await fs.writeFile(lockFile, [String(stalePid), ...lock.slice(1)].join('\n'));
    const third = await ensureEmbeddedPostgres(dataDir, log);
    running = third;
    expect(third.startedHere).toBe(true);
    expect(messages).toContain(`warn: Removing the stale lock of an embedded PostgreSQL server that is gone (pid ${stalePid})`);
    expect(await query(third.url, 'select value from kept')).toEqual([{ value: 'committed' }]);
    await third.stop();
    running = undefined;
  }, 180_000);
});
