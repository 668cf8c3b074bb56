/**
 * The sign-in and reset limits of two API processes of one installation (two apps on one Redis
 * prefix): the attempts count together. Runs when REDIS_URL is set:
 * `REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project server src/features/auth/auth.shared-limits.test.ts`
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl, useRedisForApps } from '../../../test/redis';

describe.skipIf(!useRedisForApps())('test apps in the SB_TEST_REDIS=external leg', () => {
  it('are built on a Redis store of their own', async () => {
    const t = await createTestApp();
    try {
      expect(t.store?.shared).toBe(true);
      expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: uniqueEmail('leg'), password: 'x' } })).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!testRedisUrl())('rate limits across two API processes on Redis', () => {
  const env = { LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_ADDRESS: '50', LOGIN_WINDOW_SECONDS: '60', FORGOT_PASSWORD_MAX_PER_EMAIL: '2', FORGOT_PASSWORD_MAX_PER_ADDRESS: '50', FORGOT_PASSWORD_WINDOW_SECONDS: '60' };
  let settings: ReturnType<typeof testRedisSettings>;
  let apps: TestApp[];
  beforeAll(async () => {
    settings = testRedisSettings('auth');
    apps = [await createTestApp(env, { redis: settings }), await createTestApp(env, { redis: settings })];
  });
  afterAll(async () => {
    for (const app of apps ?? []) await app.close();
    await settings?.clear();
  });

  const post = (index: number, url: string, payload: object) =>
    apps[index]!.app.inject({ method: 'POST', url, payload, remoteAddress: `10.9.${index}.1` });

  it('answers 429 once the attempts on both APIs together reach the sign-in limit', async () => {
    const email = uniqueEmail('shared-limit');
    expect((await post(0, '/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    expect((await post(1, '/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    expect((await post(0, '/api/login', { email, password: 'wrong' })).statusCode).toBe(401);
    const limited = await post(1, '/api/login', { email, password: 'wrong' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ msg: 'Too many login attempts. Please try again in 60 seconds.', error: expect.any(String) });
    expect(limited.headers['retry-after']).toBe('60');
    expect((await post(0, '/api/login', { email, password: 'wrong' })).statusCode).toBe(429);
  });

  it('counts password-reset requests of both APIs together', async () => {
    const email = uniqueEmail('shared-forgot');
    expect((await post(0, '/api/forgot-password', { email })).statusCode).toBe(200);
    expect((await post(1, '/api/forgot-password', { email })).statusCode).toBe(200);
    const limited = await post(0, '/api/forgot-password', { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
  });
});
