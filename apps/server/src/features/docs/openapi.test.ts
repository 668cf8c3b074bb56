import { ALL_ENDPOINTS, uncheckedTextFields } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { fastifyPath, apiRoutes as listApiRoutes, openApiPath, type Route } from '../../../test/routes';
import { buildOpenApiDocument, errorStatuses } from './openapi';

/** Every declared endpoint (packages/core/src/endpoints); the document is checked to list exactly these. */
const OPERATIONS = ALL_ENDPOINTS;

type Doc = { paths: Record<string, Record<string, { operationId: string; security: unknown[]; responses: Record<string, { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } }>; parameters?: Array<{ name: string; required: boolean }> }>> };
let t: TestApp;
let headers: { authorization: string };
let apiRoutes: Route[];
/** The document the app serves: built from the declarations its routes were registered with. */
let doc: Doc;

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: '2026-11-20T16:00:00Z' });
  const email = uniqueEmail('docs');
  const id = await createUser(t.db, email, 'pw');
  // An admin: the admin calls' answers are checked too (a member's are 403 before any body is read).
  await t.pool.query("update users set role = 'admin' where id = $1", [id]);
  headers = await login(t.app, email, 'pw');
  apiRoutes = listApiRoutes(t.app);
  doc = (await t.app.inject({ method: 'GET', url: '/api/docs', headers })).json<Doc>();
});
afterAll(async () => t.close());

describe('the route list is read correctly', () => {
  it('finds routes that printRoutes nests under a shared prefix, and only real ones', () => {
    const names = apiRoutes.map((route) => `${route.method} ${route.url}`);
    // quote_td and earnings_calendar_td print as children of quote and earnings_calendar.
    expect(names).toEqual(expect.arrayContaining(['GET /api/quote', 'GET /api/quote_td', 'POST /api/earnings_calendar', 'POST /api/earnings_calendar_td', 'GET /api/health']));
    for (const route of apiRoutes) expect(t.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url}`).toBe(true);
    expect(apiRoutes.length).toBeGreaterThanOrEqual(OPERATIONS.length);
  });
});

describe('the OpenAPI document is complete', () => {
  const documented = () => Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));

  it('lists every registered /api route and nothing else (a route registered without a declaration is missing from it)', () => {
    const registered = apiRoutes.map((route) => `${route.method} ${openApiPath(route.url)}`);
    expect(documented().sort()).toEqual([...new Set(registered)].sort());
    expect(registered.length).toBe(new Set(registered).size);
  });

  it('lists every declared endpoint once, under its operationId (a declaration never registered is missing from it)', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `${op.operationId} ${method} ${path}`));
    expect(operations.sort()).toEqual(ALL_ENDPOINTS.map((endpoint) => `${endpoint.operationId} ${endpoint.method} ${endpoint.path}`).sort());
    const ids = ALL_ENDPOINTS.map((endpoint) => endpoint.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id, id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    // The served document is the declarations' (the fuzz test builds it from them).
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(ALL_ENDPOINTS))));
  });

  it('documents no call that does not exist', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        expect(t.app.hasRoute({ method: method.toUpperCase() as 'GET', url: fastifyPath(path) }), `${method} ${path}`).toBe(true);
      }
    }
  });

  it('marks exactly the calls that need no token as open', async () => {
    for (const op of OPERATIONS) {
      const response = await t.app.inject({ method: op.method.toUpperCase() as 'GET', url: op.path });
      const documented = doc.paths[op.path]![op.method]!;
      if (op.open) {
        expect(documented.security, op.path).toEqual([]);
        expect(response.statusCode, op.path).not.toBe(401);
      } else {
        expect(documented.security, op.path).toEqual([{ bearer: [] }]);
        expect(response.statusCode, op.path).toBe(401);
        expect(response.json(), op.path).toEqual({ msg: 'Auth token missing' });
      }
    }
  });
});

describe('input hygiene', () => {
  it("builds every text field of every call's query and body with core's text builders (control characters answer 400)", () => {
    const unchecked = OPERATIONS.flatMap((op) =>
      [op.query, op.body].flatMap((schema) => (schema ? uncheckedTextFields(schema).map((field) => `${op.method} ${op.path}: ${field}`) : [])),
    );
    expect(unchecked).toEqual([]);
    expect(OPERATIONS.filter((op) => op.query || op.body).length).toBeGreaterThan(20);
  });
});

describe('documented error responses', () => {
  const responsesOf = (path: string, method: string) => doc.paths[path]![method]!.responses;

  it('gives every error a { msg } body', () => {
    for (const op of OPERATIONS) {
      for (const status of errorStatuses(op)) {
        const schema = responsesOf(op.path, op.method)[String(status)]!.content['application/json'].schema;
        expect(schema.required, `${op.path} ${status}`).toEqual(['msg']);
        expect(Object.keys(schema.properties).sort()).toEqual(['code', 'error', 'msg']);
      }
    }
  });

  it('documents 400, 401, 403, 404, 413, 502 and 503 where they can happen', () => {
    const statuses = (path: string, method = 'get') => Object.keys(responsesOf(path, method)).map(Number).filter((status) => status >= 400);
    // 403 on every call behind the token a first-login session may not make (docs/accounts.md).
    expect(statuses('/api/quote')).toEqual([400, 401, 403, 404, 502, 503]);
    expect(statuses('/api/fetch_metrics')).toEqual([400, 401, 403, 404, 502, 503]);
    expect(statuses('/api/market-news')).toEqual([401, 403, 502, 503]);
    expect(statuses('/api/getemail')).toEqual([401]);
    expect(statuses('/api/logout', 'post')).toEqual([400, 401, 413, 415]);
    expect(statuses('/api/health')).toEqual([]);
    expect(statuses('/api/login', 'post')).toEqual([400, 401, 403, 413, 415, 429]);
    expect(statuses('/api/contact-support', 'post')).toEqual([400, 401, 403, 413, 415, 429, 502, 503]);
    // At the first login it is the one call; a session that must turn two-factor on is refused it (403).
    expect(statuses('/api/update-password', 'post')).toEqual([400, 401, 403, 413, 415, 429]);
    expect(statuses('/api/login/two_factor', 'post')).toEqual([400, 401, 413, 415, 429]);
    expect(statuses('/api/two_factor/enable', 'post')).toEqual([400, 401, 403, 409, 413, 415, 429]);
    expect(statuses('/api/news-analysis', 'post')).toEqual([400, 401, 403, 413, 415, 429, 502]);
    expect(statuses('/api/stock-high-low', 'post')).toEqual([400, 401, 403, 404, 413, 415, 502, 503]);
    expect(statuses('/api/end_session', 'post')).toEqual([400, 401, 403, 404, 413, 415]);
  });

  // The app's real answers must be among the documented ones.
  const inject = (method: string, url: string, extra: { payload?: string; contentType?: string } = {}) =>
    t.app.inject({
      method: method.toUpperCase() as 'GET',
      url,
      headers: { ...headers, ...(extra.contentType ? { 'content-type': extra.contentType } : {}) },
      ...(extra.payload === undefined ? {} : { payload: extra.payload }),
    });
  const expectDocumented = (op: (typeof OPERATIONS)[number], status: number, what: string) =>
    expect(Object.keys(responsesOf(op.path, op.method)), `${op.method} ${op.path}: ${what} answered ${status}`).toContain(String(status));

  it('answers documented statuses for a missing required parameter, a malformed body, an oversized body and a wrong content type', async () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      const required = doc.paths[op.path]![op.method]!.parameters?.some((parameter) => parameter.required) ?? false;
      if (op.method === 'get' && required) {
        const response = await inject('get', op.path);
        expect(response.statusCode).toBe(400);
        expectDocumented(op, response.statusCode, 'no parameters');
        checked += 1;
      }
      if (op.method === 'post') {
        const malformed = await inject('post', op.path, { payload: '{"symbol":', contentType: 'application/json' });
        expect(malformed.statusCode, op.path).toBe(400);
        expectDocumented(op, malformed.statusCode, 'malformed JSON');
        const oversized = await inject('post', op.path, { payload: JSON.stringify({ symbol: 'x'.repeat(1_100_000) }), contentType: 'application/json' });
        expect(oversized.statusCode, op.path).toBe(413);
        expectDocumented(op, oversized.statusCode, 'a body over 1 MB');
        // A call whose body is a CSV file (bodyType 'csv') takes text/csv: JSON is its wrong type.
        const wrongType = op.bodyType === 'csv' ? await inject('post', op.path, { payload: '{}', contentType: 'application/json' }) : await inject('post', op.path, { payload: 'symbol', contentType: 'text/csv' });
        expect(wrongType.statusCode, op.path).toBe(415);
        expectDocumented(op, wrongType.statusCode, op.bodyType === 'csv' ? 'application/json' : 'text/csv');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('answers 404 for an unknown symbol exactly where documented', async () => {
    let checked = 0;
    for (const op of OPERATIONS) {
      if (op.method !== 'get' || !doc.paths[op.path]!.get!.parameters?.some((parameter) => parameter.name === 'symbol' && parameter.required)) continue;
      const only = doc.paths[op.path]!.get!.parameters!.filter((parameter) => parameter.required).length === 1;
      if (!only) continue;
      const response = await inject('get', `${op.path}?symbol=ZZZZQ`);
      // Documented 404 ⇔ answers 404 (symbol_search takes `symbol` as a query: no match is an empty list).
      expect(response.statusCode === 404, `${op.path} answered ${response.statusCode}`).toBe(errorStatuses(op).includes(404));
      if (response.statusCode === 404) {
        expect(response.json()).toEqual({ msg: 'Unknown symbol: ZZZZQ' });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});
