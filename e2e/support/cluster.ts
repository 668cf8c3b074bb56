/**
 * The scale-out topology as processes (what docker-compose.yml runs as containers): N built API
 * servers (apps/server/dist/server.js) and M workers (apps/server/dist/worker.js) on one PostgreSQL
 * database and one Redis, each with a DATABASE_URL database and a REDIS_PREFIX of the test's own.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { freePort, spawnProcess, waitUntilHealthy, type SpawnedProcess } from '../../apps/server/test/processes';
import { REPO_ROOT } from './server-process';

const SERVER_JS = path.join(REPO_ROOT, 'apps/server/dist/server.js');
const WORKER_JS = path.join(REPO_ROOT, 'apps/server/dist/worker.js');

export interface ClusterProcess {
  name: string;
  process: ChildProcess;
  /** API processes: where they listen. */
  baseUrl?: string;
  output(): string;
  /** Sends the signal (SIGTERM by default) and waits for the exit; answers the exit code (-1: killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export type ApiProcess = ClusterProcess & { baseUrl: string };

export interface ClusterDatabase {
  url: string;
  /** A pool on the test's database, for checks. */
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh database on DATABASE_URL's server. */
export async function createClusterDatabase(adminUrl: string): Promise<ClusterDatabase> {
  const name = `sb_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 3 });
  return {
    url: url.toString(),
    pool,
    async drop() {
      await pool.end().catch(() => undefined);
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    },
  };
}

function spawnNamed(name: string, script: string, env: NodeJS.ProcessEnv): SpawnedProcess & { output(): string } {
  const spawned = spawnProcess(process.execPath, [script], { cwd: REPO_ROOT, env, keepChars: 200_000 });
  return { ...spawned, output: () => `[${name}]\n${spawned.output()}` };
}

/** Starts an API process and waits until /api/health answers. */
export async function startApi(name: string, env: NodeJS.ProcessEnv): Promise<ApiProcess> {
  const port = await freePort();
  const spawned = spawnNamed(name, SERVER_JS, { ...env, PORT: String(port), HOST: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(spawned, baseUrl, name);
  return { name, process: spawned.process, baseUrl, output: spawned.output, stop: (signal) => spawned.stop(signal) };
}

/** Starts a worker and waits until its log says it is ready (`readyLine`). */
export async function startWorker(name: string, env: NodeJS.ProcessEnv, readyLine: RegExp): Promise<ClusterProcess> {
  const spawned = spawnNamed(name, WORKER_JS, env);
  const { process: child, output } = spawned;
  const deadline = Date.now() + 90_000;
  while (!readyLine.test(output())) {
    if (child.exitCode !== null) throw new Error(`${name} exited early (${child.exitCode}):\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not say it was ready:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { name, process: child, output, stop: (signal) => spawned.stop(signal) };
}

/** The environment every process of one cluster shares. */
export function clusterEnv(databaseUrl: string, redisUrl: string, redisPrefix: string, dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: redisPrefix,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    JWT_SECRET: 'scale-out-test-secret-scale-out-test-secret',
    ...extra,
  };
  delete env.SMTP_URL;
  delete env.METRICS_PORT;
  return env;
}
