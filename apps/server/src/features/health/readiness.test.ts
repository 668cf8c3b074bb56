import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readyPublicResponse, readyResponse } from '@signalboard/core';
import { loadConfig } from '../../config';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { testRedisUrl } from '../../../test/redis';
import { createReadiness, defaultReadinessChecks, queuesReadinessCheck, type ReadinessCheck } from './readiness';

const METRICS_TOKEN = 'readiness-details-token-0123';
const withToken = { authorization: `Bearer ${METRICS_TOKEN}` };

describe('GET /api/ready on the defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN });
  });
  afterAll(async () => t.close());

  it('answers ready without a token, naming each dependency with its state only', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = readyPublicResponse.parse(response.json());
    expect(body.status).toBe('ready');
    expect(body.checks.database).toEqual({ state: 'up' });
    expect(body.checks.mail).toEqual({ state: 'up' });
    expect(body.checks.redis).toEqual({ state: t.config.isRedis ? 'up' : 'not_configured' });
  });

  it('answers the details to Authorization: Bearer <METRICS_TOKEN>', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready', headers: withToken });
    expect(response.statusCode).toBe(200);
    const body = readyResponse.parse(response.json());
    expect(body.status).toBe('ready');
    expect(body.checks.database).toMatchObject({ state: 'up', required: true, kind: t.config.isExternalDatabase ? 'external' : 'embedded' });
    if (t.config.isRedis) {
      // The suite's Redis leg: Redis is required and answers; the queues' check comes with the jobs.
      expect(body.checks.redis).toMatchObject({ state: 'up', required: true });
    } else {
      expect(Object.keys(body.checks).sort()).toEqual(['database', 'mail', 'market_data', 'queues', 'redis', 'sms']);
      expect(body.checks.redis).toMatchObject({ state: 'not_configured', required: false });
      expect(body.checks.queues).toMatchObject({ state: 'not_configured', required: false });
    }
    expect(body.checks.market_data).toMatchObject({ state: 'up', source: 'simulated' });
    expect(body.checks.mail).toMatchObject({ state: 'up', kind: 'outbox' });
    expect(body.checks.sms).toMatchObject({ state: 'up', kind: 'outbox' });
    for (const check of Object.values(body.checks)) expect(check.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('leaves the liveness answer as it was', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', market_data: 'simulated' });
  });
});

describe('GET /api/ready with a dependency down', () => {
  let t: TestApp;
  const failingDatabase: ReadinessCheck = {
    name: 'database',
    required: true,
    run: async () => {
      throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
  };
  const queues: ReadinessCheck = { name: 'queues', required: false, run: async () => ({ state: 'degraded', msg: '3 failed jobs', counts: { waiting: 1, failed: 3 } }) };
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN }, { readinessChecks: [failingDatabase, queues] });
  });
  afterAll(async () => t.close());

  it('answers 503 not_ready with the states only: no error text, latency or queue details, also to a wrong token', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-metrics-token' }, { authorization: METRICS_TOKEN }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/ready', headers });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'not_ready',
        checks: { database: { state: 'down' }, queues: { state: 'degraded' }, redis: { state: t.config.isRedis ? 'up' : 'not_configured' }, market_data: { state: 'up' }, mail: { state: 'up' }, sms: { state: 'up' } },
      });
      expect(response.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|failed jobs|latency|waiting/);
    }
  });

  it('answers 503 not_ready and names the required dependency that is down; injected checks replace the defaults', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready', headers: withToken });
    expect(response.statusCode).toBe(503);
    const body = readyResponse.parse(response.json());
    expect(body.status).toBe('not_ready');
    expect(body.checks.database).toMatchObject({ state: 'down', required: true, msg: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(body.checks.queues).toMatchObject({ state: 'degraded', msg: '3 failed jobs', counts: { waiting: 1, failed: 3 } });
    expect(body.checks.mail).toMatchObject({ state: 'up' });
  });
});

describe('createReadiness', () => {
  it('counts a check that does not answer in time as down, and aborts it', async () => {
    let aborted = false;
    const hanging: ReadinessCheck = {
      name: 'database',
      required: true,
      run: (signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
    };
    const { ready, body } = await createReadiness([hanging], { timeoutMs: 50 }).check();
    expect(ready).toBe(false);
    expect(body.checks.database).toMatchObject({ state: 'down', msg: 'no answer within 50 ms' });
    expect(body.checks.database!.latency_ms).toBeGreaterThanOrEqual(45);
    expect(aborted).toBe(true);
  });

  it('stays ready when only an optional dependency is down', async () => {
    const optional: ReadinessCheck = { name: 'market_data', required: false, run: async () => Promise.reject(new Error('provider down')) };
    const { ready, body } = await createReadiness([optional]).check();
    expect(ready).toBe(true);
    expect(body).toEqual({ status: 'ready', checks: { market_data: { state: 'down', required: false, latency_ms: expect.any(Number), msg: 'provider down' } } });
  });
});

describe('the Redis check', () => {
  const pool = { query: async () => ({ rows: [] }) } as never;

  it('is required and down when REDIS_URL points at no server', async () => {
    const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' });
    const defaults = defaultReadinessChecks({ config, pool, mailKind: 'outbox', smsKind: 'outbox' });
    const readiness = createReadiness(defaults.checks, { onClose: defaults.close });
    try {
      const { ready, body } = await readiness.check();
      expect(ready).toBe(false);
      expect(body.checks.redis).toMatchObject({ state: 'down', required: true });
      expect(body.checks.redis!.msg).toBeTruthy();
      expect(body.checks.queues).toBeUndefined(); // with Redis the jobs' own check names the queues
    } finally {
      await readiness.close();
    }
  });

  it.skipIf(!testRedisUrl())('is up when Redis answers PING', async () => {
    const config = loadConfig({ REDIS_URL: testRedisUrl()!, LOG_LEVEL: 'silent' });
    const defaults = defaultReadinessChecks({ config, pool, mailKind: 'outbox', smsKind: 'outbox' });
    const readiness = createReadiness(defaults.checks, { onClose: defaults.close });
    try {
      const { ready, body } = await readiness.check();
      expect(ready).toBe(true);
      expect(body.checks.redis).toMatchObject({ state: 'up', required: true, prefix: 'signalboard' });
    } finally {
      await readiness.close();
    }
  });
});

describe('queuesReadinessCheck', () => {
  it('names each queue with its job counts by state', async () => {
    const asked: string[][] = [];
    const queue = (name: string, counts: Record<string, number>) => ({
      name,
      getJobCounts: async (...types: string[]) => {
        asked.push(types);
        return counts;
      },
    });
    const check = queuesReadinessCheck([queue('alerts', { waiting: 2, active: 1, delayed: 0, failed: 0 }), queue('jobs', { waiting: 0, active: 0, delayed: 3, failed: 1 })]);
    const { ready, body } = await createReadiness([check]).check();
    expect(ready).toBe(true);
    expect(body.checks.queues).toMatchObject({ state: 'up', required: false, counts: { alerts: { waiting: 2, active: 1 }, jobs: { delayed: 3, failed: 1 } } });
    expect(asked).toEqual([
      ['waiting', 'active', 'delayed', 'failed'],
      ['waiting', 'active', 'delayed', 'failed'],
    ]);
  });

  it('is down when a queue cannot be read', async () => {
    const broken = { name: 'jobs', getJobCounts: async () => Promise.reject(new Error('Connection is closed.')) };
    const { ready, body } = await createReadiness([queuesReadinessCheck([broken], true)]).check();
    expect(ready).toBe(false);
    expect(body.checks.queues).toMatchObject({ state: 'down', required: true, msg: 'Connection is closed.' });
  });
});
