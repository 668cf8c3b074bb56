import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('api/health', () => {
  it('answers without a token and names the sources', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', market_data: 'simulated', mail: 'outbox', sms: 'outbox', time: Math.floor(t.clock.nowMs() / 1000) });
  });
});

describe('api/ready without METRICS_TOKEN set', () => {
  it('never answers the details over HTTP, whatever the credential', async () => {
    expect(t.config.METRICS_TOKEN).toBeUndefined();
    for (const authorization of [undefined, 'Bearer ', 'Bearer undefined', 'Bearer anything-at-all-0123456789']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/ready', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode).toBe(200);
      const body = response.json<{ status: string; checks: Record<string, object> }>();
      expect(body.status).toBe('ready');
      for (const check of Object.values(body.checks)) expect(Object.keys(check)).toEqual(['state']);
    }
  });
});
