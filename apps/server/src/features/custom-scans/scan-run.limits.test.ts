import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import type { CacheStore } from '../../lib/cache-store';
import { createRedisStore } from '../../lib/cache-store.redis';
import { createMarket, marketClock } from '../../providers/market';
import { createTestApp, createUser, login, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { createFavoritesRepo } from '../watchlist/watchlist.repo';
import { createScanRunService } from './scan-run.service';

// POST api/scans/run per user (docs/custom-scans.md "Running a scan"): at most SCAN_RUN_MAX_PER_USER
// runs every SCAN_RUN_WINDOW_SECONDS, on the shared user-limit machinery (lib/user-limit.ts): on Redis
// every API process counts together. Here 3 a minute, on the test app's clock.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SCAN_RUN_MAX_PER_USER: '3', SCAN_RUN_WINDOW_SECONDS: '60' });
});
afterAll(async () => t?.close());

async function signedIn(label: string): Promise<{ id: number; headers: { authorization: string } }> {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'pw');
  return { id, headers: await login(t.app, email, 'pw') };
}
const body = { universe: 'crypto', formula: 'close > sma(20)' } as const;
const run = (headers: { authorization: string }, payload: Record<string, unknown> = body) => t.app.inject({ method: 'POST', url: '/api/scans/run', headers, payload });

describe('scan runs per user', () => {
  it('answers the 4th run of a minute 429 with a msg and retry-after; another user is not affected; after the window it works again', async () => {
    const user = await signedIn('scan-run-limit');
    for (let index = 0; index < 3; index += 1) expect((await run(user.headers)).statusCode).toBe(200);
    t.clock.advance(20_000);
    const limited = await run(user.headers);
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many scan runs (at most 3 every minute). Please try again in 40 seconds.' }]);
    expect(limited.headers['retry-after']).toBe('40');
    // A body that is no scan is still answered for what it is.
    expect((await run(user.headers, { universe: 'nowhere', formula: 'close > 0' })).statusCode).toBe(400);

    const other = await signedIn('scan-run-other');
    expect((await run(other.headers)).statusCode).toBe(200);

    t.clock.advance(40_000);
    expect((await run(user.headers)).statusCode).toBe(200);
  });

  it('does not count the runs of the Custom Scan alerts (the service itself, no call): the user still has every run of the window', async () => {
    const user = await signedIn('scan-run-alerts');
    // What the alert job runs (container.ts: createScanRunService(...).run), here five times for the user.
    const service = createScanRunService({ market: t.market, marketClock: marketClock(t.config, t.clock), favorites: createFavoritesRepo(t.db) });
    for (let index = 0; index < 5; index += 1) expect((await service.run(user.id, { ...body }, pino({ level: 'silent' }))).universe).toBe('crypto');
    for (let index = 0; index < 3; index += 1) expect((await run(user.headers)).statusCode).toBe(200);
    expect((await run(user.headers)).statusCode).toBe(429);
  });
});

describe.skipIf(!testRedisUrl())('scan runs per user across two API processes on Redis', () => {
  const env = { SCAN_RUN_MAX_PER_USER: '2', SCAN_RUN_WINDOW_SECONDS: '60' };
  let settings: ReturnType<typeof testRedisSettings>;
  let a: TestApp;
  let b: FastifyInstance;
  let storeB: CacheStore;
  beforeAll(async () => {
    settings = testRedisSettings('scan-run-limit');
    a = await createTestApp(env, { redis: settings });
    // The second process: the same database and Redis prefix, a store (connection) of its own.
    storeB = createRedisStore(settings, { connectionName: 'test-app-b' });
    const config = loadConfig({ ...env, DATA_DIR: a.dataDir, LOG_LEVEL: 'silent', WEB_DIST: a.config.WEB_DIST! });
    b = await buildApp({ config, db: a.db, pool: a.pool, mailer: a.mailer, market: createMarket(config, a.clock, storeB), marketClock: a.clock, store: storeB, jwtSecret: TEST_JWT_SECRET, clock: a.clock, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await storeB?.close();
    await a?.close();
    await settings?.clear();
  });

  it('counts the runs of both APIs together', async () => {
    const email = uniqueEmail('scan-run-shared');
    await createUser(a.db, email, 'pw');
    const headers = await login(a.app, email, 'pw');
    const runOn = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/scans/run', headers, payload: body });
    expect((await runOn(a.app)).statusCode).toBe(200);
    expect((await runOn(b)).statusCode).toBe(200);
    for (const app of [a.app, b]) {
      const limited = await runOn(app);
      expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many scan runs (at most 2 every minute). Please try again in 60 seconds.' }]);
      expect(limited.headers['retry-after']).toBe('60');
    }
  });
});
