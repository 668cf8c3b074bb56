/**
 * The temporary folders of this checkout's test runs (DATA_DIRs with embedded PostgreSQL servers in
 * them), and the clean-up of the runs an interrupted `vitest` left behind.
 *
 * A run's folder is `<tmp>/sb-runs-<checkout hash>/<kind>-<pid of the vitest process>`. A global
 * set-up calls `startRun`: it first clears every folder of this checkout whose vitest is gone — the
 * server processes whose DATA_DIR is in it are killed, each embedded postmaster serving a data
 * directory in it (by its postmaster.pid, and only when that pid is a postgres of that very
 * directory) is shut down — then makes its own and hands it to the test workers (SB_TEST_RUN_DIR).
 * Other checkouts' runs, and live runs of this one, are never touched.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { embeddedPostmaster } from '../src/db/embedded-postgres';

const CHECKOUT = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const RUNS_ROOT = path.join(os.tmpdir(), `sb-runs-${createHash('sha256').update(CHECKOUT).digest('hex').slice(0, 10)}`);
const RUN_DIR_ENV = 'SB_TEST_RUN_DIR';

/** Is `pid` a live process, and a node one (a pid reused by something else is not our vitest)? */
function aliveNode(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return /node/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '');
  } catch {
    return os.platform() !== 'linux';
  }
}

async function exitOf(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** The processes (other than this one) whose DATA_DIR lies in `dir`: a run's servers and workers. */
async function processesIn(dir: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await fs.readdir('/proc').catch(() => [] as string[])) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const environ = await fs.readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
    const dataDir = environ.split('\0').find((line) => line.startsWith('DATA_DIR='))?.slice('DATA_DIR='.length);
    if (dataDir && path.resolve(dataDir).startsWith(`${dir}${path.sep}`)) found.push(pid);
  }
  return found;
}

/** The DATA_DIRs (folders with a pg/ data directory) in `dir`, a few levels down. */
async function dataDirsIn(dir: string, depth = 4): Promise<string[]> {
  if (existsSync(path.join(dir, 'pg', 'PG_VERSION'))) return [dir];
  if (depth === 0) return [];
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(entries.filter((entry) => entry.isDirectory() && entry.name !== 'pg').map((entry) => dataDirsIn(path.join(dir, entry.name), depth - 1)));
  return nested.flat();
}

/**
 * Stops what a run left running in `dir` — its server processes, then the embedded postmasters of
 * its data directories (fast shutdown, immediate after 15 s) — and removes the folder. Answers the
 * postmaster pids it stopped.
 */
export async function clearRunDir(dir: string): Promise<number[]> {
  for (const pid of await processesIn(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    await exitOf(pid, 5_000);
  }
  const stopped: number[] = [];
  for (const dataDir of await dataDirsIn(dir)) {
    const pid = embeddedPostmaster(dataDir);
    if (pid === undefined) continue;
    process.kill(pid, 'SIGINT'); // fast shutdown: sessions ended, nothing left behind
    if (!(await exitOf(pid, 15_000))) {
      process.kill(pid, 'SIGQUIT');
      await exitOf(pid, 5_000);
    }
    stopped.push(pid);
  }
  await fs.rm(dir, { recursive: true, force: true });
  return stopped;
}

/** Clears the folders of this checkout's runs whose vitest process is gone; answers what it stopped. */
export async function clearStaleRuns(log: (line: string) => void = console.warn): Promise<void> {
  for (const name of await fs.readdir(RUNS_ROOT).catch(() => [] as string[])) {
    const owner = Number(/-(\d+)$/.exec(name)?.[1]);
    if (owner === process.pid || (Number.isInteger(owner) && aliveNode(owner))) continue;
    const stopped = await clearRunDir(path.join(RUNS_ROOT, name));
    if (stopped.length > 0) log(`test set-up: stopped the embedded PostgreSQL (pid ${stopped.join(', ')}) an interrupted run left in ${name}`);
  }
}

/**
 * For a global set-up: clears the stale runs, makes this run's folder and hands it to the workers
 * (they are started after the global set-up, with its environment). `finish` is the teardown's last step.
 */
export async function startRun(kind: string): Promise<{ dir: string; finish(): Promise<void> }> {
  await clearStaleRuns();
  const dir = path.join(RUNS_ROOT, `${kind}-${process.pid}`);
  await fs.mkdir(dir, { recursive: true });
  await fs.chmod(RUNS_ROOT, 0o755);
  await fs.chmod(dir, 0o755);
  process.env[RUN_DIR_ENV] = dir;
  return { dir, finish: async () => void (await clearRunDir(dir)) };
}

/** A temporary folder the postgres user can enter (the embedded server runs as it under root), in this run's folder when there is one. */
export async function tempDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const parent = process.env[RUN_DIR_ENV] ?? os.tmpdir();
  const dir = await fs.mkdtemp(path.join(parent, `sb-${label}-`));
  await fs.chmod(dir, 0o755);
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
