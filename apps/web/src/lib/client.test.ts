import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

/** The answer the tests' fetch gives. */
const okAnswer = z.object({ ok: z.boolean() });

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
    const first = client.apiRequest(okAnswer, 'getemail');
    const second = client.apiRequest(okAnswer, 'market_overview');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]!(performance.now());
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
    await client.apiRequest(okAnswer, 'health');
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(frames).toHaveLength(1);
  });

  it('sends after 250 ms when no frame comes', async () => {
    vi.useFakeTimers();
    const { client, fetchMock } = await clientInAPaintingPage({ paintedAlready: false });
    const call = client.apiRequest(okAnswer, 'getemail');
    await vi.advanceTimersByTimeAsync(249);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(call).resolves.toEqual({ ok: true });
  });

  it('does not wait on a page that has painted already', async () => {
    const { client, fetchMock, frames } = await clientInAPaintingPage({ paintedAlready: true });
    await expect(client.apiRequest(okAnswer, 'getemail')).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(frames).toHaveLength(0);
  });
});

describe('apiRequest and the answer\'s schema', () => {
  const answering = (status: number, body: string) => vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })));

  it("answers the answer as the schema gives it (its defaults and transforms applied)", async () => {
    answering(200, '{"msg":"Saved.","extra":1}');
    const { apiRequest } = await import('./client');
    const schema = z.object({ msg: z.string(), notices: z.array(z.string()).default([]) });
    await expect(apiRequest(schema, 'save_alert_preferences', { json: {} })).resolves.toEqual({ msg: 'Saved.', notices: [] });
  });

  it('rejects an answer of the wrong shape with UnexpectedAnswerError, naming the call and what is wrong (not an ApiError)', async () => {
    answering(200, '{"rows":"not a list"}');
    const { apiRequest, ApiError, UnexpectedAnswerError } = await import('./client');
    const failure = await apiRequest(z.array(z.object({ sector: z.string() })), 'sector_sentiment_scanner').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnexpectedAnswerError);
    expect(failure).not.toBeInstanceOf(ApiError);
    expect((failure as InstanceType<typeof UnexpectedAnswerError>).path).toBe('sector_sentiment_scanner');
    expect((failure as Error).message).toMatch(/^The server's answer to sector_sentiment_scanner is not in the expected form \(the answer: .+\)\. Reload the page and try again\.$/);
  });

  it('names the field of an answer that differs, and treats an empty answer as no value', async () => {
    answering(200, '{"email":42}');
    const { apiRequest } = await import('./client');
    await expect(apiRequest(z.object({ email: z.string() }), 'getemail')).rejects.toThrow(/\(email: /);
    answering(200, '');
    await expect(apiRequest(z.object({ email: z.string() }), 'getemail')).rejects.toThrow(/not in the expected form/);
  });

  it("still fails a refused call with ApiError and the server's msg, before any parsing", async () => {
    answering(403, '{"msg":"Not allowed."}');
    const { apiRequest, ApiError } = await import('./client');
    const failure = await apiRequest(z.object({ email: z.string() }), 'getemail').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as Error).message).toBe('Not allowed.');
  });
});
