/**
 * The demo account (demo@signalboard.local / demo): on the one-machine `npm start` (loopback HOST,
 * embedded database) only, unless DEMO_ACCOUNT says otherwise; DEMO_ACCOUNT=true elsewhere warns.
 * The start-up cases run what server.ts runs: openRuntime on the configuration, then startDemoAccount.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../config';
import { openRuntime } from '../../runtime';
import { createTestDatabase } from '../../../test/helpers';
import { DEMO_EMAIL, demoAccountPlan, isLoopbackHost, startDemoAccount } from './demo-account';
import { createUsersRepo } from './users.repo';

describe('isLoopbackHost', () => {
  it('knows the addresses of this machine only', () => {
    for (const host of ['127.0.0.1', '127.0.1.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.1', 'box.lan', '128.0.0.1', '::ffff:10.0.0.1', 'localhost.example.com']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('demoAccountPlan', () => {
  const plan = (env: Record<string, string>) => demoAccountPlan(loadConfig(env));
  const external = { DATABASE_URL: 'postgres://u@db:5432/sb' };

  it('creates the demo account, unasked, only on loopback with the embedded database', () => {
    expect(plan({})).toEqual({ create: true });
    expect(plan({ HOST: 'localhost' })).toEqual({ create: true });
    expect(plan({ HOST: '::1' })).toEqual({ create: true });
    expect(plan({ HOST: '0.0.0.0' })).toEqual({ create: false });
    expect(plan({ HOST: '192.168.1.20' })).toEqual({ create: false });
    expect(plan({ ...external })).toEqual({ create: false });
    expect(plan({ HOST: '0.0.0.0', ...external })).toEqual({ create: false });
  });

  it('never with DEMO_ACCOUNT=false', () => {
    for (const env of [{}, { HOST: '0.0.0.0' }, external] as Record<string, string>[]) expect(plan({ ...env, DEMO_ACCOUNT: 'false' })).toEqual({ create: false });
  });

  it('everywhere with DEMO_ACCOUNT=true, warning when the server is reachable beyond this machine or on an external database', () => {
    expect(plan({ DEMO_ACCOUNT: 'true' })).toEqual({ create: true });
    const open = plan({ DEMO_ACCOUNT: 'true', HOST: '0.0.0.0' });
    expect(open.create).toBe(true);
    expect(open.warning).toMatch(/^DEMO_ACCOUNT=true on HOST=0\.0\.0\.0, beyond this machine: anyone who reaches this server can sign in as demo@signalboard\.local/);
    const shared = plan({ DEMO_ACCOUNT: 'true', ...external });
    expect(shared.create).toBe(true);
    expect(shared.warning).toMatch(/^DEMO_ACCOUNT=true on an external database \(DATABASE_URL\): anyone who reaches/);
  });
});

describe('the server start-up on an empty database', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function dataDir(): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-demo-test-'));
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /** Starts the runtime on `env` over a fresh (user-less) database, runs the demo step; answers what it did. */
  async function start(env: Record<string, string>, options: { external: boolean }) {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const config: Config = loadConfig({ DATA_DIR: await dataDir(), LOG_LEVEL: 'silent', ...env, ...(options.external ? { DATABASE_URL: database.url } : {}) });
    const warnings: string[] = [];
    const log = { info: () => undefined, warn: (message: string) => warnings.push(message) };
    let created: boolean;
    if (options.external) {
      // The image's start-up: DATABASE_URL, so the runtime opens (and migrates) that database itself.
      const runtime = await openRuntime(config, log);
      try {
        created = await startDemoAccount(config, createUsersRepo(runtime.database.db), log);
      } finally {
        await runtime.close();
      }
    } else {
      // The embedded database's own server is the suite's; the decision reads the configuration only.
      created = await startDemoAccount(config, createUsersRepo(database.db), log);
    }
    const { rows } = await database.pool.query<{ email: string }>('select email from users');
    return { created, emails: rows.map((row) => row.email), warnings };
  }

  it('creates no demo user for the image (HOST=0.0.0.0, external database) without DEMO_ACCOUNT', async () => {
    expect(await start({ HOST: '0.0.0.0' }, { external: true })).toEqual({ created: false, emails: [], warnings: [] });
  });

  it('creates no demo user on the embedded database listening beyond loopback', async () => {
    expect(await start({ HOST: '0.0.0.0' }, { external: false })).toEqual({ created: false, emails: [], warnings: [] });
  });

  it('still creates it for `npm start` (embedded database on loopback)', async () => {
    expect(await start({}, { external: false })).toEqual({ created: true, emails: [DEMO_EMAIL], warnings: [] });
  });

  it('creates it with DEMO_ACCOUNT=true on the image, with a warning', async () => {
    const result = await start({ HOST: '0.0.0.0', DEMO_ACCOUNT: 'true' }, { external: true });
    expect(result).toMatchObject({ created: true, emails: [DEMO_EMAIL] });
    expect(result.warnings).toEqual([expect.stringMatching(/^DEMO_ACCOUNT=true on an external database/)]);
  });

  it('not with DEMO_ACCOUNT=false, even for `npm start`', async () => {
    expect(await start({ DEMO_ACCOUNT: 'false' }, { external: false })).toEqual({ created: false, emails: [], warnings: [] });
  });
});
