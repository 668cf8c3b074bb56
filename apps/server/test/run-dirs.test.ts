/**
 * test/run-dirs.ts: a run interrupted before its teardown left an embedded PostgreSQL (and a process
 * on its DATA_DIR) running; the next run's set-up stops them and removes the folder. A live run's
 * folder, and a process that only reuses a postmaster.pid's number, are left alone.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedPostmaster, ensureEmbeddedPostgres } from '../src/db/embedded-postgres';
import { clearStaleRuns, RUNS_ROOT } from './run-dirs';

const quiet = { info: () => undefined, warn: () => undefined };
const sleeper = () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
const children: Array<ReturnType<typeof sleeper>> = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** A pid that is no process now (a run's vitest that is gone). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

// Embedded PostgreSQL servers of its own: not in the leg on an external database.
describe.skipIf(process.env.SB_TEST_DATABASE === 'external')('the folders of interrupted test runs', () => {
  it('stops the postmaster and the server process an interrupted run left, removes its folder, and leaves a live run alone', async () => {
    await fs.mkdir(RUNS_ROOT, { recursive: true });
    await fs.chmod(RUNS_ROOT, 0o755);
    const staleRun = path.join(RUNS_ROOT, `e2e-${await deadPid()}`);
    const dataDir = path.join(staleRun, 'sb-e2e-x', 'data');
    await fs.mkdir(path.dirname(dataDir), { recursive: true, mode: 0o755 });
    await fs.chmod(staleRun, 0o755);
    await fs.chmod(path.dirname(dataDir), 0o755);
    await ensureEmbeddedPostgres(dataDir, quiet);
    const postmaster = embeddedPostmaster(dataDir);
    expect(postmaster).toBeTypeOf('number');
    // The run's server, still running on that DATA_DIR.
    const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { ...process.env, DATA_DIR: dataDir } });
    children.push(server);
    const serverGone = new Promise((resolve) => server.on('exit', resolve));

    // A live run (its owner a running node process) with a postmaster.pid naming a live process that is no postgres.
    const owner = sleeper();
    const impostor = sleeper();
    children.push(owner, impostor);
    const liveRun = path.join(RUNS_ROOT, `e2e-${owner.pid}`);
    const liveData = path.join(liveRun, 'data');
    await fs.mkdir(path.join(liveData, 'pg'), { recursive: true });
    await fs.writeFile(path.join(liveData, 'pg', 'PG_VERSION'), '17\n');
    await fs.writeFile(path.join(liveData, 'pg', 'postmaster.pid'), `${impostor.pid}\n${path.join(liveData, 'pg')}\n`);
    // A stale run whose postmaster.pid names that same live non-postgres process: not killed either.
    const staleImpostor = path.join(RUNS_ROOT, `server-${await deadPid()}`);
    await fs.cp(liveRun, staleImpostor, { recursive: true });

    const lines: string[] = [];
    await clearStaleRuns((line) => lines.push(line));

    expect(embeddedPostmaster(dataDir)).toBeUndefined();
    expect(() => process.kill(postmaster!, 0)).toThrow();
    await serverGone;
    expect(existsSync(staleRun)).toBe(false);
    expect(existsSync(staleImpostor)).toBe(false);
    expect(lines).toEqual([expect.stringContaining(`pid ${postmaster}`)]);
    expect(existsSync(path.join(liveData, 'pg', 'postmaster.pid'))).toBe(true);
    expect(impostor.exitCode).toBeNull();
    expect(impostor.signalCode).toBeNull();
    await fs.rm(liveRun, { recursive: true, force: true });
  }, 120_000);
});
