/**
 * The server entry (src/server.ts) as a real process of its own, run from the source with tsx: what
 * `npm start` runs, for the tests that take its database or Redis away under it (test/outage.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A temporary folder the postgres user can enter (the embedded server runs as it under root); removed by `remove`. */
export async function tempDir(label: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `sb-${label}-`));
  await fs.chmod(dir, 0o755);
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

export interface ServerChild {
  process: ChildProcess;
  baseUrl: string;
  output(): string;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after 20 s; answers the exit code. */
  stop(): Promise<number | null>;
}

/** The servers' METRICS_TOKEN: GET /api/ready shows its details (required, msg, latency) only to this bearer. */
export const READINESS_TOKEN = 'server-child-readiness-token';

/** Starts the server with `env` (DATA_DIR, and DATABASE_URL / REDIS_URL when given) and waits until it answers. */
export async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOGIN_MAX_PER_EMAIL: '1000',
    LOGIN_MAX_PER_ADDRESS: '100000',
    METRICS_TOKEN: READINESS_TOKEN,
    // The tests sign in as the demo account, also on an external database (where it is not made unless asked).
    DEMO_ACCOUNT: 'true',
    ...env,
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'NODE_ENV', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) {
    if (!(name in env)) delete childEnv[name];
  }
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: SERVER_DIR, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    const up = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    process: child,
    baseUrl,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}

/** One API call: status, JSON body and headers. */
export async function call(
  baseUrl: string,
  name: string,
  init: { token?: string; json?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> & unknown[]; headers: Headers }> {
  const response = await fetch(`${baseUrl}/api/${name}`, {
    method: init.json === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[], headers: response.headers };
}
