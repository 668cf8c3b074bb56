import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { ROBOTS_TXT } from './robots.routes';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /robots.txt', () => {
  it('answers a real robots.txt that keeps crawlers out, not the app page, without a token', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.body).toBe(ROBOTS_TXT);
    expect(answer.body).toMatch(/^User-agent: \*\nDisallow: \/\n$/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
