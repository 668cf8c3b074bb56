/** Starts and stops the built server (apps/server/dist/server.js) as a real process. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_JS = path.join(REPO_ROOT, 'apps/server/dist/server.js');
const CLI_JS = path.join(REPO_ROOT, 'apps/server/dist/cli.js');

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

/** A temporary DATA_DIR the postgres user can reach (the embedded server runs as it under root). */
export async function makeDataDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `sb-${label}-`));
  await fs.chmod(dir, 0o755);
  return path.join(dir, 'data');
}

/** The environment every test server gets: embedded database, generous sign-in limits. */
export function serverEnv(dataDir: string, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOGIN_MAX_PER_EMAIL: '1000',
    LOGIN_MAX_PER_ADDRESS: '100000',
    FORGOT_PASSWORD_MAX_PER_ADDRESS: '1000',
    FORGOT_PASSWORD_MAX_PER_EMAIL: '100',
    // Every browser test asks from 127.0.0.1: the per-address and installation SMS limits would add up across specs.
    VERIFICATION_MAX_PER_ADDRESS_PER_DAY: '1000',
    VERIFICATION_MAX_PER_DAY: '1000',
    SMS_DAILY_LIMIT: '10000',
    ...extra,
  };
  delete env.DATABASE_URL; // browser tests always run on the embedded server
  delete env.REDIS_URL; // … in one process (the scale-out spec starts its own API and worker processes on Redis)
  delete env.SMTP_URL;
  return env;
}

export interface RunningServer {
  process: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Sends the signal (SIGTERM by default) and waits for the exit; answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(
  dataDir: string,
  options: { port?: number; env?: Record<string, string>; via?: 'node' | 'npm start' } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  let output = '';
  // `npm start` is what a user (or a supervisor) runs: npm, then the server in a child of its own.
  const [command, args] = options.via === 'npm start' ? ['npm', ['start']] : [process.execPath, [SERVER_JS]];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: serverEnv(dataDir, port, options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    process: child,
    baseUrl,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the admin CLI (what `npm run user -- …` runs) against DATA_DIR. */
export function runCli(dataDir: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_JS, ...args], {
    env: serverEnv(dataDir, 0),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
