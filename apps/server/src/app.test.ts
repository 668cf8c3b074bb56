import type { InjectOptions, LightMyRequestResponse } from 'fastify';
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

async function call(options: InjectOptions): Promise<LightMyRequestResponse> {
  const response = await t.app.inject(options);
  expect(response.statusCode, `${options.method} ${options.url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
const json = () => ({ 'content-type': 'application/json', ...headers });

describe('unknown calls', () => {
  it('answers an unknown /api call with 404 and a msg, with or without a token', async () => {
    for (const auth of [headers, {}]) {
      const answer = await call({ method: 'GET', url: '/api/xyz?x=1', headers: auth });
      expect([answer.statusCode, answer.json()]).toEqual([404, { msg: 'No such call: GET /api/xyz' }]);
    }
    const wrongMethod = await call({ method: 'GET', url: '/api/login' });
    expect([wrongMethod.statusCode, wrongMethod.json()]).toEqual([404, { msg: 'No such call: GET /api/login' }]);
    const bare = await call({ method: 'DELETE', url: '/api' });
    expect([bare.statusCode, bare.json()]).toEqual([404, { msg: 'No such call: DELETE /api' }]);
  });

  it('answers a non-API path with 404 and a msg when no web build is served', async () => {
    const answer = await call({ method: 'GET', url: '/dashboard/main' });
    expect([answer.statusCode, answer.json()]).toEqual([404, { msg: 'Not found' }]);
  });
});

describe('request bodies', () => {
  const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024) });

  it('answers a JSON body over 1 MB with 413 and a msg, on open and protected calls', async () => {
    const open = await call({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: big });
    expect([open.statusCode, open.json()]).toEqual([413, { msg: 'The request body is larger than 1024 KB.' }]);
    const stocks = JSON.stringify({ stocks: [{ symbol: 'A', description: 'x'.repeat(1_100_000) }] });
    const secured = await call({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: json(), payload: stocks });
    expect([secured.statusCode, secured.json()]).toEqual([413, { msg: 'The request body is larger than 1024 KB.' }]);
  });

  it('checks the token before reading a large body', async () => {
    const stocks = JSON.stringify({ stocks: [{ symbol: 'A', description: 'x'.repeat(1_100_000) }] });
    const answer = await call({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: { 'content-type': 'application/json' }, payload: stocks });
    expect([answer.statusCode, answer.json()]).toEqual([401, { msg: 'Auth token missing' }]);
  });

  it('answers unsupported content types with 4xx and a msg', async () => {
    const text = await call({ method: 'POST', url: '/api/login', headers: { 'content-type': 'text/plain' }, payload: 'email=a@b.c' });
    expect([text.statusCode, text.json()]).toEqual([400, { msg: 'The request body must be a JSON object with the fields of this call.' }]);
    for (const type of ['application/xml', 'application/octet-stream', 'image/png']) {
      const answer = await call({ method: 'POST', url: '/api/login', headers: { 'content-type': type }, payload: '<a/>' });
      expect([answer.statusCode, answer.json()], type).toEqual([415, { msg: 'Unsupported content type; send application/json.' }]);
    }
  });

  it('answers invalid and empty JSON with 400 and a msg', async () => {
    const invalid = await call({ method: 'POST', url: '/api/update-password', headers: json(), payload: '{"new_password":' });
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { msg: 'The request body is not valid JSON.' }]);
    const empty = await call({ method: 'POST', url: '/api/update-password', headers: json(), payload: '' });
    expect([empty.statusCode, empty.json()]).toEqual([400, { msg: 'The request body is empty; send a JSON object.' }]);
  });
});

describe('security headers', () => {
  it("sends the API's headers on every API answer, errors included: nothing loads or runs in it, never framed, sniffed or cached", async () => {
    const answers = [
      await call({ method: 'GET', url: '/api/health' }),
      await call({ method: 'GET', url: '/api/getemail' }),
      await call({ method: 'GET', url: '/api/nope' }),
      await call({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 404, 400]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      // Framing refused the same way by both headers: CSP frame-ancestors and the older X-Frame-Options.
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(answer.headers['cache-control']).toBe('no-store');
      // The page-only headers stay off the API's answers.
      expect(answer.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(answer.headers['x-xss-protection']).toBeUndefined();
    }
  });

  it('sends a CSP the app and news images work under, and nosniff, on the answers outside the API', async () => {
    const answer = await call({ method: 'GET', url: '/robots.txt' });
    expect(answer.statusCode).toBe(200);
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    // Images only from our own origin (no NEWS_IMAGE_ORIGINS here), not from any https host.
    expect(csp).toContain("img-src 'self';");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['x-frame-options']).toBe('DENY');
    expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
  });
});

describe('malformed input', () => {
  it('never answers 500 to the malformed inputs of every call', async () => {
    const calls: Array<[string, string]> = [
      ['POST', '/api/login'], ['POST', '/api/forgot-password'], ['POST', '/api/update-password'], ['POST', '/api/delete_favorite_stocks'],
      ['POST', '/api/batch_update_favorite_stocks'], ['POST', '/api/contact-support'], ['GET', '/api/symbol_lookup'], ['GET', '/api/symbol_search'],
      ['GET', '/api/quote'], ['GET', '/api/fetch_metrics'], ['GET', '/api/rsi'], ['GET', '/api/news-sentiment'], ['GET', '/api/support-resistance'],
      ['POST', '/api/stock-high-low'], ['POST', '/api/stock-high-td'], ['POST', '/api/trend-direction'], ['POST', '/api/earnings_calendar'],
      ['GET', '/api/company-news'], ['GET', '/api/getemail'], ['GET', '/api/get_favorite_stocks'],
    ];
    const bodies = [undefined, '{}', '[]', '"text"', 'null', '{"symbol":{"$ne":1},"email":[1],"days":-1,"start_date":"2026-99-99"}', '{"__proto__":{"admin":true}}'];
    for (const [method, url] of calls) {
      for (const body of bodies) {
        const answer = await call({
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

  // busboy's parse errors carry no status code; readMultipart turns them into 400s.
  it('answers a malformed multipart form post with 400 and a msg', async () => {
    const answers = [];
    for (const [type, payload] of [['multipart/form-data; boundary=xyz', 'garbage'], ['multipart/form-data', 'symbol=AAPL']] as const) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/stock-high-low', headers: { ...headers, 'content-type': type }, payload });
      answers.push({ type, status: answer.statusCode, msg: answer.json<{ msg?: unknown }>().msg });
    }
    expect(answers).toEqual([
      { type: 'multipart/form-data; boundary=xyz', status: 400, msg: expect.any(String) },
      { type: 'multipart/form-data', status: 400, msg: expect.any(String) },
    ]);
  });

  // Only the form routes parse multipart (lib/multipart.ts acceptMultipart); a JSON route refuses it.
  it('answers a multipart body on a JSON route with 415 and a msg', async () => {
    const form = new FormData();
    form.append('symbol', 'AAPL');
    form.append('days', '30');
    const body = new Response(form);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/trend-direction',
      headers: { ...headers, 'content-type': body.headers.get('content-type')! },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    expect([answer.statusCode, answer.json()]).toEqual([415, { msg: 'Unsupported content type; send application/json.' }]);
  });

  // An unread file part would stall request.parts(); readMultipart drains every part.
  it('answers a form post that carries an unexpected file part', async () => {
    const form = new FormData();
    form.append('symbol', 'AAPL');
    form.append('file', new Blob(['x']), 'a.txt');
    form.append('days', '30');
    const body = new Response(form);
    const pending = t.app.inject({
      method: 'POST',
      url: '/api/stock-high-low',
      headers: { ...headers, 'content-type': body.headers.get('content-type')! },
      payload: Buffer.from(await body.arrayBuffer()),
    });
    // A watchdog, not a wait: a healthy answer takes milliseconds; a stalled one never comes.
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), 5000)));
    const outcome = await Promise.race([pending, stalled]).finally(() => clearTimeout(timer));
    expect(outcome).not.toBe('stalled');
    expect((outcome as LightMyRequestResponse).statusCode).toBeLessThan(500);
  });
});
