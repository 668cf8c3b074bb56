import { defineEndpoint, type Endpoint } from '@signalboard/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/** The answer the tests' fetch gives. */
const okAnswer = z.object({ ok: z.boolean() });

/** A GET declaration answering `response` (the tests' own: the client reads only what a declaration says). */
const getCall = <S extends z.ZodType>(path: string, response: S) => defineEndpoint({ operationId: 'testCall', method: 'get', path: `/api/${path}`, summary: 'A test call', response });
const postCall = <S extends z.ZodType>(path: string, response: S) => defineEndpoint({ operationId: 'testCall', method: 'post', path: `/api/${path}`, summary: 'A test call', response });

/**
 * apiFetch's wait for the page's first frame (client.ts, issue 24). jsdom paints nothing, so the
 * tests give it a browser's paint timing and frames, then load the client afresh.
 */
async function clientInAPaintingPage({ paintedAlready }: { paintedAlready: boolean }) {
  vi.resetModules();
  vi.stubGlobal('PerformanceObserver', { supportedEntryTypes: ['paint'] });
  vi.spyOn(performance, 'getEntriesByName').mockImplementation((name: string) =>
    paintedAlready && name === 'first-contentful-paint' ? [{ name } as PerformanceEntry] : [],
  );
  const frames: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  const client = await import('./client');
  return { client, fetchMock, frames };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('apiFetch and the first paint', () => {
  it('holds the first calls of a page until its next frame is drawn, then sends them all, and later ones at once', async () => {
    vi.useFakeTimers();
    const { client, fetchMock, frames } = await clientInAPaintingPage({ paintedAlready: false });
    const first = client.apiCall(getCall('getemail', okAnswer));
    const second = client.apiCall(getCall('market_overview', okAnswer));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]!(performance.now());
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
    await client.apiCall(getCall('health', okAnswer));
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(frames).toHaveLength(1);
  });

  it('sends after 250 ms when no frame comes', async () => {
    vi.useFakeTimers();
    const { client, fetchMock } = await clientInAPaintingPage({ paintedAlready: false });
    const call = client.apiCall(getCall('getemail', okAnswer));
    await vi.advanceTimersByTimeAsync(249);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(call).resolves.toEqual({ ok: true });
  });

  it('does not wait on a page that has painted already', async () => {
    const { client, fetchMock, frames } = await clientInAPaintingPage({ paintedAlready: true });
    await expect(client.apiCall(getCall('getemail', okAnswer))).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(frames).toHaveLength(0);
  });
});

describe('apiCall and the answer\'s schema', () => {
  const answering = (status: number, body: string) => vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })));

  it("answers the answer as the schema gives it (its defaults and transforms applied)", async () => {
    answering(200, '{"msg":"Saved.","extra":1}');
    const { apiCall } = await import('./client');
    const schema = z.object({ msg: z.string(), notices: z.array(z.string()).default([]) });
    await expect(apiCall(postCall('save_alert_preferences', schema))).resolves.toEqual({ msg: 'Saved.', notices: [] });
  });

  it('rejects an answer of the wrong shape with UnexpectedAnswerError, naming the call and what is wrong (not an ApiError)', async () => {
    answering(200, '{"rows":"not a list"}');
    const { apiCall, ApiError, UnexpectedAnswerError } = await import('./client');
    const failure = await apiCall(getCall('sector_sentiment_scanner', z.array(z.object({ sector: z.string() })))).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnexpectedAnswerError);
    expect(failure).not.toBeInstanceOf(ApiError);
    expect((failure as InstanceType<typeof UnexpectedAnswerError>).path).toBe('sector_sentiment_scanner');
    expect((failure as Error).message).toMatch(/^The server's answer to sector_sentiment_scanner is not in the expected form \(the answer: .+\)\. Reload the page and try again\.$/);
  });

  it('names the field of an answer that differs, and treats an empty answer as no value', async () => {
    answering(200, '{"email":42}');
    const { apiCall } = await import('./client');
    await expect(apiCall(getCall('getemail', z.object({ email: z.string() })))).rejects.toThrow(/\(email: /);
    answering(200, '');
    await expect(apiCall(getCall('getemail', z.object({ email: z.string() })))).rejects.toThrow(/not in the expected form/);
  });

  it("still fails a refused call with ApiError and the server's msg, before any parsing", async () => {
    answering(403, '{"msg":"Not allowed."}');
    const { apiCall, ApiError } = await import('./client');
    const failure = await apiCall(getCall('getemail', z.object({ email: z.string() }))).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as Error).message).toBe('Not allowed.');
  });

  it('sends a session that must change its password to Change Password (403 password_change_required), no other 403', async () => {
    const { apiCall, setPasswordChangeRequiredHandler } = await import('./client');
    const handler = vi.fn();
    setPasswordChangeRequiredHandler(handler);
    answering(403, '{"msg":"Not allowed."}');
    await apiCall(getCall('get_favorite_stocks', okAnswer)).catch(() => undefined);
    expect(handler).not.toHaveBeenCalled();
    answering(403, '{"msg":"Please change your password before using Signalboard.","code":"password_change_required"}');
    const failure = await apiCall(getCall('get_favorite_stocks', okAnswer)).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('Please change your password before using Signalboard.');
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('sends a session that must turn two-factor on to its setup (403 two_factor_setup_required), not to Change Password', async () => {
    const { apiCall, setPasswordChangeRequiredHandler, setTwoFactorSetupRequiredHandler } = await import('./client');
    const passwordHandler = vi.fn();
    const twoFactorHandler = vi.fn();
    setPasswordChangeRequiredHandler(passwordHandler);
    setTwoFactorSetupRequiredHandler(twoFactorHandler);
    answering(403, '{"msg":"Only an admin of this installation can do this."}');
    await apiCall(getCall('get_favorite_stocks', okAnswer)).catch(() => undefined);
    expect(twoFactorHandler).not.toHaveBeenCalled();
    answering(403, '{"msg":"Your installation requires two-factor sign-in: please turn it on to continue.","code":"two_factor_setup_required"}');
    const failure = await apiCall(getCall('get_favorite_stocks', okAnswer)).catch((error: unknown) => error);
    expect((failure as Error).message).toBe('Your installation requires two-factor sign-in: please turn it on to continue.');
    expect(twoFactorHandler).toHaveBeenCalledTimes(1);
    expect(passwordHandler).not.toHaveBeenCalled();
  });
});

describe('apiCall: the request from the declaration', () => {
  /** The tests' fetch: answers `body` (JSON) with `status`, and records each request. */
  function answering(status: number, body: unknown) {
    const fetchMock = vi.fn(async (_input: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    return fetchMock;
  }
  const ideaDetail = defineEndpoint({
    operationId: 'getIdeaDetail',
    method: 'get',
    path: '/api/trade_ideas/{engine}/{id}',
    summary: 'An idea',
    params: z.object({ engine: z.enum(['swing', 'layered']), id: z.string() }),
    query: z.object({ from: z.string().optional(), symbol: z.string().optional(), limit: z.coerce.number().optional() }),
    response: z.object({ id: z.string() }),
  });

  afterEach(() => window.localStorage.clear());

  it('fills the path parameters in (URI-encoded) and sends the query as given, in its order, without undefined values', async () => {
    window.localStorage.setItem('access_token', 'token-1');
    const fetchMock = answering(200, { id: 'swing.A B/1' });
    const { apiCall } = await import('./client');
    const answer = await apiCall(ideaDetail, { params: { engine: 'swing', id: 'swing.A B/1@1.0.0' }, query: { symbol: 'A&B', from: '2026-01-01', limit: 5 } });
    expect(answer).toEqual({ id: 'swing.A B/1' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [input, init] = fetchMock.mock.calls[0]!;
    expect(input).toBe('/api/trade_ideas/swing/swing.A%20B%2F1%401.0.0?symbol=A%26B&from=2026-01-01&limit=5');
    expect(init).toMatchObject({ method: 'GET', body: undefined, headers: { accept: 'application/json', authorization: 'Bearer token-1' } });
    await apiCall(ideaDetail, { params: { engine: 'layered', id: 'x' }, query: { symbol: undefined } });
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/trade_ideas/layered/x?');
    await apiCall(ideaDetail, { params: { engine: 'layered', id: 'x' } });
    expect(fetchMock.mock.calls[2]![0]).toBe('/api/trade_ideas/layered/x');
  });

  it('posts the declared body as JSON, `{}` for a POST that declares none, and no token to an open endpoint', async () => {
    window.localStorage.setItem('access_token', 'token-1');
    const fetchMock = answering(200, { msg: 'ok' });
    const { apiCall } = await import('./client');
    const save = defineEndpoint({ operationId: 'save', method: 'post', path: '/api/save_things', summary: 'Save', body: z.object({ things: z.array(z.string()) }), response: z.object({ msg: z.string() }) });
    await expect(apiCall(save, { body: { things: ['a', 'b'] } })).resolves.toEqual({ msg: 'ok' });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/save_things');
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'POST', body: '{"things":["a","b"]}', headers: { 'content-type': 'application/json', authorization: 'Bearer token-1' } });
    const resume: Endpoint = { operationId: 'resume', method: 'post', path: '/api/resume', summary: 'Resume', open: true, response: z.object({ msg: z.string() }) };
    await apiCall(resume);
    expect(fetchMock.mock.calls[1]![1]).toMatchObject({ method: 'POST', body: '{}' });
    expect((fetchMock.mock.calls[1]![1]!.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('sends a multipart body as a form: its fields in order, a file with its name, nothing for a field left out', async () => {
    const fetchMock = answering(200, { msg: 'Sent.' });
    const { apiCall } = await import('./client');
    const contact = defineEndpoint({
      operationId: 'contact',
      method: 'post',
      path: '/api/contact-support',
      summary: 'Contact',
      body: z.object({ header: z.string(), body: z.string(), file: z.file().optional() }),
      bodyType: 'multipart',
      response: z.object({ msg: z.string() }),
    });
    await apiCall(contact, { body: { header: 'H', body: 'B', file: new File(['x'], 'shot.png') } });
    const form = fetchMock.mock.calls[0]![1]!.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.keys()]).toEqual(['header', 'body', 'file']);
    expect((form.get('file') as File).name).toBe('shot.png');
    expect(fetchMock.mock.calls[0]![1]!.headers).not.toHaveProperty('content-type');
    await apiCall(contact, { body: { header: 'H', body: 'B', file: undefined } });
    expect([...(fetchMock.mock.calls[1]![1]!.body as FormData).keys()]).toEqual(['header', 'body']);
  });

  it('sends a csv body as it is (a file), Content-Type text/csv, with the bearer header and the query in the URL', async () => {
    window.localStorage.setItem('access_token', 'token-1');
    const fetchMock = answering(200, { ok: true });
    const { apiCall } = await import('./client');
    const upload = defineEndpoint({
      operationId: 'upload',
      method: 'post',
      path: '/api/upload',
      summary: 'Upload',
      query: z.object({ name: z.string() }),
      body: z.string(),
      bodyType: 'csv',
      response: z.object({ ok: z.boolean() }),
    });
    const file = new File(['Date,Close\n2026-01-02,1\n'], 'AAPL.csv', { type: 'text/csv' });
    await apiCall(upload, { query: { name: 'AAPL.csv' }, body: file });
    const [input, init] = fetchMock.mock.calls[0]!;
    expect(input).toBe('/api/upload?name=AAPL.csv');
    expect(init!.body).toBe(file);
    expect(init).toMatchObject({ method: 'POST', headers: { 'content-type': 'text/csv', authorization: 'Bearer token-1' } });
    expect(input).not.toContain('token-1');
  });

  it("fails an answer of the wrong shape with UnexpectedAnswerError naming the call's path, and a refused call with ApiError", async () => {
    answering(200, { id: 7 });
    const { apiCall, ApiError, UnexpectedAnswerError } = await import('./client');
    const failure = await apiCall(ideaDetail, { params: { engine: 'swing', id: 'a/b' } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnexpectedAnswerError);
    expect((failure as InstanceType<typeof UnexpectedAnswerError>).path).toBe('trade_ideas/swing/a%2Fb');
    expect((failure as Error).message).toMatch(/\(id: /);
    answering(404, { msg: 'No such idea.', error: 'not_found' });
    const refused = await apiCall(ideaDetail, { params: { engine: 'swing', id: 'a' } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).not.toBeInstanceOf(UnexpectedAnswerError);
    expect(refused).toMatchObject({ message: 'No such idea.', status: 404, error: 'not_found' });
  });

  it('apiCallResponse: the same request with the Accept header asked for, answering the Response unread', async () => {
    const fetchMock = vi.fn(async () => new Response('a,b\n', { status: 200, headers: { 'content-type': 'text/csv' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { apiCallResponse } = await import('./client');
    const csv = defineEndpoint({ operationId: 'csv', method: 'get', path: '/api/history.csv', summary: 'CSV', query: z.object({ symbol: z.string().optional() }), response: z.string(), responseType: 'csv' });
    const response = await apiCallResponse(csv, { query: { symbol: 'AAPL' } }, 'text/csv');
    await expect(response.text()).resolves.toBe('a,b\n');
    expect(fetchMock).toHaveBeenCalledWith('/api/history.csv?symbol=AAPL', expect.objectContaining({ method: 'GET', headers: expect.objectContaining({ accept: 'text/csv' }) }));
  });
});
