import { afterEach, describe, expect, it, vi } from 'vitest';

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
    const first = client.apiRequest('getemail');
    const second = client.apiRequest('market_overview');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]!(performance.now());
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
    await client.apiRequest('health');
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(frames).toHaveLength(1);
  });

  it('sends after 250 ms when no frame comes', async () => {
    vi.useFakeTimers();
    const { client, fetchMock } = await clientInAPaintingPage({ paintedAlready: false });
    const call = client.apiRequest('getemail');
    await vi.advanceTimersByTimeAsync(249);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(call).resolves.toEqual({ ok: true });
  });

  it('does not wait on a page that has painted already', async () => {
    const { client, fetchMock, frames } = await clientInAPaintingPage({ paintedAlready: true });
    await expect(client.apiRequest('getemail')).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(frames).toHaveLength(0);
  });
});
