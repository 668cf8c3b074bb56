/**
 * The per-user limits of the costly calls (news analysis, contact support, password change) in two
 * API processes of one installation (two apps on one database and one Redis prefix): the calls count
 * together. Runs when REDIS_URL is set:
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server-pg test/costly-calls.shared-limits.test.ts`
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createRedisStore } from '../src/lib/cache-store.redis';
import type { CacheStore } from '../src/lib/cache-store';
import type { AnalysisRequest, Analyst } from '../src/providers/ai';
import { AnalystError } from '../src/providers/ai';
import { createMarket } from '../src/providers/market';
import { createTestApp, createUser, login, TEST_JWT_SECRET, uniqueEmail, type TestApp } from './helpers';
import { testRedisSettings, testRedisUrl } from './redis';

class CountingAnalyst implements Analyst {
  readonly kind = 'local';
  calls = 0;
  async analyze(request: AnalysisRequest): Promise<string> {
    this.calls += 1;
    return `analysis of ${request.text.length} characters`;
  }
  async summarizeNews(): Promise<string> {
    throw new AnalystError('not used here', 'provider');
  }
  async explainIndicator(): Promise<string> {
    throw new AnalystError('not used here', 'provider');
  }
}

describe.skipIf(!testRedisUrl())('costly-call limits across two API processes on Redis', () => {
  const env = {
    ANALYSIS_MAX_PER_USER: '2',
    ANALYSIS_WINDOW_SECONDS: '600',
    SUPPORT_MAX_PER_USER: '2',
    SUPPORT_WINDOW_SECONDS: '3600',
    PASSWORD_CHANGE_MAX_PER_USER: '2',
    PASSWORD_CHANGE_WINDOW_SECONDS: '3600',
  };
  let settings: ReturnType<typeof testRedisSettings>;
  let a: TestApp;
  let b: FastifyInstance;
  let storeB: CacheStore;
  const analyst = new CountingAnalyst();
  beforeAll(async () => {
    settings = testRedisSettings('costly');
    a = await createTestApp(env, { redis: settings, analyst });
    // The second process: the same database and Redis prefix, a store (connection) of its own.
    storeB = createRedisStore(settings, { connectionName: 'test-app-b' });
    const config = loadConfig({ ...env, DATA_DIR: a.dataDir, LOG_LEVEL: 'silent', WEB_DIST: a.config.WEB_DIST! });
    b = await buildApp({ config, db: a.db, pool: a.pool, mailer: a.mailer, market: createMarket(config, a.clock, storeB), marketClock: a.clock, store: storeB, analyst, jwtSecret: TEST_JWT_SECRET, clock: a.clock, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await storeB?.close();
    await a?.close();
    await settings?.clear();
  });

  async function user(label: string) {
    const email = uniqueEmail(label);
    await createUser(a.db, email, 'pw');
    return { email, headers: await login(a.app, email, 'pw') };
  }
  const apps = () => [a.app, b] as const;

  it('counts the news analyses of both APIs together', async () => {
    const { headers } = await user('shared-analysis');
    const analyse = (app: FastifyInstance, text: string) => app.inject({ method: 'POST', url: '/api/news-analysis', headers, payload: { event_string: `${text} ${Date.now()}` } });
    expect((await analyse(a.app, 'A: one')).statusCode).toBe(200);
    expect((await analyse(b, 'B: two')).statusCode).toBe(200);
    const asked = analyst.calls;
    for (const app of apps()) {
      const limited = await analyse(app, 'C: three');
      expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many news analyses (at most 2 every 10 minutes). Please try again in 10 minutes.' }]);
      expect(limited.headers['retry-after']).toBe('600');
    }
    expect(analyst.calls).toBe(asked);
  });

  it('counts the support requests of both APIs together', async () => {
    const { headers } = await user('shared-support');
    const support = (app: FastifyInstance) => {
      const form = `--xyz\r\nContent-Disposition: form-data; name="header"\r\n\r\nHelp\r\n--xyz\r\nContent-Disposition: form-data; name="body"\r\n\r\nPlease\r\n--xyz--\r\n`;
      return app.inject({ method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' }, payload: form });
    };
    expect((await support(b)).statusCode).toBe(200);
    expect((await support(a.app)).statusCode).toBe(200);
    for (const app of apps()) {
      const limited = await support(app);
      expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many support requests (at most 2 every hour). Please try again in 60 minutes.' }]);
      expect(limited.headers['retry-after']).toBe('3600');
    }
  });

  it('counts the password changes of both APIs together', async () => {
    const { headers } = await user('shared-password');
    const change = (app: FastifyInstance, password: string, current: string) =>
      app.inject({ method: 'POST', url: '/api/update-password', headers, payload: { new_password: password, current_password: current } });
    expect((await change(a.app, 'first password', 'pw')).statusCode).toBe(200);
    expect((await change(b, 'second password', 'first password')).statusCode).toBe(200);
    for (const app of apps()) {
      const limited = await change(app, 'third password', 'second password');
      expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many password changes (at most 2 every hour). Please try again in 60 minutes.' }]);
      expect(limited.headers['retry-after']).toBe('3600');
    }
  });
});
