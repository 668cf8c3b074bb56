/** Starts and stops the built server (apps/server/dist/server.js) as a real process. */
import { spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, spawnProcess, waitUntilHealthy } from '../../apps/server/test/processes';
import { tempDir } from '../../apps/server/test/run-dirs';

export { freePort } from '../../apps/server/test/processes';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER_JS = path.join(REPO_ROOT, 'apps/server/dist/server.js');
const CLI_JS = path.join(REPO_ROOT, 'apps/server/dist/cli.js');

/**
 * A temporary DATA_DIR the postgres user can reach (the embedded server runs as it under root), in
 * the run's folder (apps/server/test/run-dirs.ts: a later run stops what an interrupted one left there).
 */
export async function makeDataDir(label: string): Promise<string> {
  return path.join((await tempDir(label)).dir, 'data');
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
  /** Sends the signal (SIGTERM by default) and waits for the exit (SIGKILL after `killAfterMs` if given); answers the exit code. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | null>;
}

export async function startServer(
  dataDir: string,
  options: { port?: number; env?: Record<string, string>; via?: 'node' | 'npm start' } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  // `npm start` is what a user (or a supervisor) runs: npm, then the server in a child of its own.
  const [command, args] = options.via === 'npm start' ? ['npm', ['start']] : [process.execPath, [SERVER_JS]];
  const child = spawnProcess(command, args, { cwd: REPO_ROOT, env: serverEnv(dataDir, port, options.env) });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, baseUrl);
  return { process: child.process, baseUrl, output: child.output, stop: child.stop };
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
