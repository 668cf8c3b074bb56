import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../test/helpers';

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  const email = uniqueEmail('app');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

describe('the app', () => {
  it('answers unknown calls with 404 and a msg', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/nope', headers });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ msg: 'No such call: GET /api/nope' });
  });

  it('answers an oversized JSON body with 413 and a msg', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/batch_update_favorite_stocks',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ stocks: [{ symbol: 'A', description: 'x'.repeat(1_100_000) }] }),
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({ msg: 'The request body is larger than 1024 KB.' });
  });

  it('sends the security headers with a CSP the app and news images work under', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = answer.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: https:");
    expect(csp).toContain("script-src 'self'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('never answers 500 to the malformed inputs of every call', async () => {
    const calls: Array<[string, string]> = [
      ['POST', '/api/login'], ['POST', '/api/forgot-password'], ['POST', '/api/update-password'], ['POST', '/api/delete_favorite_stocks'],
      ['POST', '/api/batch_update_favorite_stocks'], ['POST', '/api/contact-support'], ['GET', '/api/symbol_lookup'], ['GET', '/api/symbol_search'],
      ['GET', '/api/quote'], ['GET', '/api/fetch_metrics'], ['GET', '/api/rsi'], ['GET', '/api/news-sentiment'], ['GET', '/api/support-resistance'],
      ['POST', '/api/stock-high-low'], ['POST', '/api/stock-high-td'], ['POST', '/api/trend-direction'], ['POST', '/api/earnings_calendar'],
      ['GET', '/api/company-news'],
    ];
    const bodies = [undefined, '{}', '[]', '"text"', 'null', '{"symbol":{"$ne":1},"email":[1],"days":-1,"start_date":"2026-99-99"}'];
    for (const [method, url] of calls) {
      for (const body of bodies) {
        const answer = await t.app.inject({
          method: method as 'GET' | 'POST',
          url: method === 'GET' ? `${url}?symbol=%00&q=&from=x&to=y&resolution=Q` : url,
          headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          payload: body,
        });
        expect(answer.statusCode, `${method} ${url} ${body}`).toBeLessThan(500);
        if (answer.statusCode >= 400) expect(typeof answer.json().msg, `${method} ${url} ${body}`).toBe('string');
      }
    }
  });
});
