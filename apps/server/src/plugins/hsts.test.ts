/** HSTS_MAX_AGE_SECONDS: Strict-Transport-Security on every answer when > 0, never by default. */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

describe('Strict-Transport-Security', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const appWith = async (env: Record<string, string>) => {
    const t = await createTestApp(env);
    apps.push(t);
    return t.app;
  };

  it('is not sent by default (installations on plain http)', async () => {
    const app = await appWith({});
    expect((await app.inject({ url: '/api/health' })).headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent with HSTS_MAX_AGE_SECONDS, on answers and on errors before any route', async () => {
    const app = await appWith({ HSTS_MAX_AGE_SECONDS: '31536000' });
    for (const url of ['/api/health', '/api/no-such-route']) {
      expect((await app.inject({ url })).headers['strict-transport-security'], url).toBe('max-age=31536000');
    }
    const badJson = await app.inject({ method: 'POST', url: '/api/login', payload: '{', headers: { 'content-type': 'application/json' } });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.headers['strict-transport-security']).toBe('max-age=31536000');
  });
});
