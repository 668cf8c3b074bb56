/**
 * The supervisor of the embedded PostgreSQL (embedded-supervisor.ts) at shutdown: a restart under way
 * when the server stops starts no new postmaster, and the stop stops the postmaster running now (a
 * restarted one), so nothing of the embedded database is left running after the server's shutdown.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config';
import { embeddedPostgresRunning } from './embedded-postgres';
import { openDatabase, type OpenDatabase } from './open';

/** The pid postmaster.pid names; 0 while there is none. */
function postmasterPid(dataDir: string): number {
  try {
    return Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(test: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(process.env.SB_TEST_DATABASE === 'external')('the embedded PostgreSQL supervisor at shutdown', () => {
  let dir: string;
  const opened: OpenDatabase[] = [];
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-supervisor-test-'));
    await fs.chmod(dir, 0o755);
  });
  afterAll(async () => {
    for (const database of opened) await database.close({ stopEmbedded: true }).catch(() => undefined);
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function open(dataDir: string, onWarn: (message: string) => void = () => undefined) {
    const messages: string[] = [];
    const log = { info: (msg: string) => messages.push(msg), warn: (msg: string) => (messages.push(msg), onWarn(msg)) };
    const database = await openDatabase({ DATA_DIR: dataDir } as Config, log, { superviseEmbedded: true });
    opened.push(database);
    return { database, messages };
  }

  it('stops the postmaster the supervisor started again, not only the first one', async () => {
    const dataDir = path.join(dir, 'restarted');
    const { database, messages } = await open(dataDir);
    const first = postmasterPid(dataDir);
    process.kill(first, 'SIGKILL');
    await until(() => messages.filter((msg) => msg.startsWith('Started the embedded PostgreSQL server')).length === 2, 'the restart');
    const restarted = postmasterPid(dataDir);
    expect(alive(restarted)).toBe(true);
    await database.close({ stopEmbedded: true });
    await until(() => !alive(restarted), 'the restarted postmaster gone', 10_000);
    expect(embeddedPostgresRunning(dataDir)).toBe(false);
  }, 120_000);

  it('a restart under way when the server stops starts no new postmaster', async () => {
    const dataDir = path.join(dir, 'restarting');
    let closing: Promise<void> | undefined;
    // The moment the supervisor says it starts the server again, the server shuts down.
    const { database, messages } = await open(dataDir, (msg) => {
      if (msg.includes('stopped; starting it again')) closing = database.close({ stopEmbedded: true });
    });
    const before = messages.length;
    process.kill(postmasterPid(dataDir), 'SIGKILL');
    await until(() => closing !== undefined, 'the restart begun');
    await closing;
    // The restart that was under way has had time to start a server (about a second here): none comes.
    const settled = Date.now() + 8_000;
    while (Date.now() < settled && !embeddedPostgresRunning(dataDir)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(embeddedPostgresRunning(dataDir)).toBe(false);
    expect(messages.slice(before).filter((msg) => msg.startsWith('Started the embedded PostgreSQL server'))).toEqual([]);
  }, 120_000);
});
