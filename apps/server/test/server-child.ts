/**
 * The server entry (src/server.ts) as a real process of its own, run from the source with tsx: what
 * `npm start` runs, for the tests that take its database or Redis away under it (test/db-outage.test.ts, test/redis-outage.test.ts).
 */
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { freePort, spawnProcess, waitUntilHealthy, type SpawnedProcess } from './processes';

export { freePort } from './processes';
export { tempDir } from './run-dirs';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface ServerChild {
  process: SpawnedProcess['process'];
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
  const child = spawnProcess(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: SERVER_DIR, env: childEnv });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilHealthy(child, baseUrl);
  return { process: child.process, baseUrl, output: child.output, alive: child.alive, stop: () => child.stop('SIGTERM', 20_000) };
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

/** The demo account the server children make (DEMO_ACCOUNT=true). */
export const DEMO = { email: 'demo@signalboard.local', password: 'demo' };
/** The demo account's password once its first login is past. */
export const DEMO_CHOSEN_PASSWORD = 'the demo password, changed';

/**
 * Signs the demo account in past its first login (until its password is changed a session may only
 * change it: docs/accounts.md): the first time, with `demo`, changing the password in that session;
 * afterwards with the chosen one. Answers the login call's answer (or the refusal that stopped it).
 */
export async function signInDemo(baseUrl: string): Promise<Awaited<ReturnType<typeof call>>> {
  const chosen = await call(baseUrl, 'login', { json: { email: DEMO.email, password: DEMO_CHOSEN_PASSWORD } });
  if (chosen.status !== 401) return chosen;
  const first = await call(baseUrl, 'login', { json: DEMO });
  if (first.status !== 200 || first.body.first_login !== true) return first;
  const changed = await call(baseUrl, 'update-password', { token: first.body.access_token as string, json: { new_password: DEMO_CHOSEN_PASSWORD } });
  return changed.status === 200 ? first : changed;
}

/** GET /api/ready with the details (the METRICS_TOKEN bearer). */
export const readiness = (server: { baseUrl: string }) => call(server.baseUrl, 'ready', { token: READINESS_TOKEN });

/** Polls `probe` (never a fixed sleep) until it answers something `done` accepts; fails after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe().catch((error: unknown) => error as T);
    if (done(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The clean-ups of a test file, run after its tests (registered by calling this at the top level):
 * `add` ones newest first, then the `last` ones (e.g. the servers the added clients talk to).
 */
export function cleanupAfterAll(): { add(cleanup: () => Promise<unknown>): void; last(cleanup: () => Promise<unknown>): void } {
  const added: Array<() => Promise<unknown>> = [];
  const lasts: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of [...added.reverse(), ...lasts]) await cleanup().catch(() => undefined);
  });
  return { add: (cleanup) => void added.push(cleanup), last: (cleanup) => void lasts.push(cleanup) };
}
