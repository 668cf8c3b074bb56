/**
 * The embedded database across process deaths (no browser): kill -9 of the app, a stale lock after
 * the database itself was killed, clean shutdown on SIGTERM, and a taken HTTP port.
 */
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { makeDataDir, REPO_ROOT, serverEnv, startServer, type RunningServer } from './support/server-process';

const dirs: string[] = [];
const running: RunningServer[] = [];
afterAll(async () => {
  for (const server of running) await server.stop('SIGTERM');
  for (const dir of dirs) await fs.rm(path.dirname(dir), { recursive: true, force: true });
});

function postmasterLines(dataDir: string): string[] | undefined {
  const file = path.join(dataDir, 'pg', 'postmaster.pid');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : undefined;
}

function postmasterPid(dataDir: string): number | undefined {
  const lines = postmasterLines(dataDir);
  return lines ? Number(lines[0]) : undefined;
}

/** Whether anything accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** A live process, not a zombie (an exited postmaster re-parented to an init that does not reap). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function call(server: RunningServer, url: string, init: { token?: string; json?: unknown } = {}) {
  const response = await fetch(`${server.baseUrl}/api/${url}`, {
    method: init.json === undefined ? 'GET' : 'POST',
    headers: {
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & unknown[] };
}

/** The demo account's own password once its first login is past (a first-login session may only change it). */
const DEMO_CHOSEN_PASSWORD = 'the lifecycle demo password';

/** A token of the demo account past its first login: its first sign-in on a data directory changes the password. */
async function demoToken(server: RunningServer): Promise<string> {
  const chosen = await call(server, 'login', { json: { email: 'demo@signalboard.local', password: DEMO_CHOSEN_PASSWORD } });
  if (chosen.status === 200) return chosen.body.access_token as string;
  const { status, body } = await call(server, 'login', { json: { email: 'demo@signalboard.local', password: 'demo' } });
  expect(status).toBe(200);
  const changed = await call(server, 'update-password', { token: body.access_token as string, json: { new_password: DEMO_CHOSEN_PASSWORD } });
  expect(changed.status).toBe(200);
  // The session that changed the password may do everything from then on.
  return body.access_token as string;
}

describe('embedded PostgreSQL lifecycle', () => {
  it('survives kill -9 of the app, recovers from a killed database, and stops cleanly on SIGTERM', async () => {
    const dataDir = await makeDataDir('lifecycle');
    dirs.push(dataDir);

    const first = await startServer(dataDir);
    running.push(first);
    expect(first.output()).toContain('Demo account created: demo@signalboard.local / demo');
    const saved = await call(first, 'batch_update_favorite_stocks', {
      token: await demoToken(first),
      json: { stocks: [{ symbol: 'IBM', description: 'International Business Machines' }] },
    });
    expect(saved.status).toBe(200);
    const pid = postmasterPid(dataDir)!;
    expect(alive(pid)).toBe(true);

    // kill -9 of the app: the database keeps running and the next start adopts it.
    await first.stop('SIGKILL');
    expect(alive(pid)).toBe(true);
    const second = await startServer(dataDir);
    running.push(second);
    expect(second.output()).toContain(`already running (pid ${pid}`);
    expect(second.output()).not.toContain('Demo account created');
    const afterKill = await call(second, 'get_favorite_stocks', { token: await demoToken(second) });
    expect(afterKill.body).toEqual([{ symbol: 'IBM', description: 'International Business Machines' }]);

    // The app and the database both killed: a stale lock is left behind; the next start recovers.
    await second.stop('SIGKILL');
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
    expect(postmasterPid(dataDir)).toBe(pid);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let orphaned backends notice and exit
    const third = await startServer(dataDir);
    running.push(third);
    const afterCrash = await call(third, 'get_favorite_stocks', { token: await demoToken(third) });
    expect(afterCrash.body).toEqual([{ symbol: 'IBM', description: 'International Business Machines' }]);
    const thirdPid = postmasterPid(dataDir)!;
    expect(thirdPid).not.toBe(pid);

    // SIGTERM: the app exits 0 and stops the database cleanly.
    expect(await third.stop('SIGTERM')).toBe(0);
    expect(third.output()).toContain('Embedded PostgreSQL server stopped');
    expect(alive(thirdPid)).toBe(false);
    expect(postmasterPid(dataDir)).toBeUndefined();
  });

  // What a supervisor (or a user's `kill`) does: signal the pid of the process `npm start` created.
  // npm must not exit alone and leave the server and the embedded database serving.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the server and the embedded database when npm start's process gets ${signal}`, async () => {
      const dataDir = await makeDataDir(`npm-${signal}`);
      dirs.push(dataDir);
      const app = await startServer(dataDir, { via: 'npm start' });
      running.push(app);
      const httpPort = Number(new URL(app.baseUrl).port);
      const [pgPid, , , pgPort] = postmasterLines(dataDir)!.map(Number) as [number, number, number, number];
      expect(await listening(httpPort)).toBe(true);
      expect(await listening(pgPort)).toBe(true);

      expect(await app.stop(signal)).toBe(0);
      expect(app.output()).toContain(`${signal} received: shutting down`);
      expect(app.output()).toContain('Embedded PostgreSQL server stopped');
      expect(await listening(httpPort)).toBe(false);
      expect(await listening(pgPort)).toBe(false);
      expect(alive(pgPid)).toBe(false);
      expect(postmasterPid(dataDir)).toBeUndefined();
    });
  }

  it('explains a taken HTTP port and leaves nothing running', async () => {
    const dataDir = await makeDataDir('port');
    dirs.push(dataDir);
    const holder = await startServer(dataDir);
    running.push(holder);
    const port = Number(new URL(holder.baseUrl).port);
    const otherDir = await makeDataDir('port-other');
    dirs.push(otherDir);
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'apps/server/dist/server.js')], {
      env: serverEnv(otherDir, port),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain(`Port ${port} is already in use: set PORT to another port.`);
    await expect.poll(() => postmasterPid(otherDir), { timeout: 10_000 }).toBeUndefined();
    expect(await holder.stop('SIGINT')).toBe(0);
  });
});
