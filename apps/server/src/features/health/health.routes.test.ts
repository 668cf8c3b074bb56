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
