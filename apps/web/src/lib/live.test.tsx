import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../auth/token-storage';
import { LiveProvider } from '../components/live/live-provider';
import { useLiveEngine, useLiveQuotes, usePollingWhileDown } from '../components/live/use-live';
import { mockApi } from '../test/mock-api';
import { backoffDelayMs, createLiveClient, LIVE_BACKOFF_MAX_MS, parseLiveLine, type LiveEvent, type LiveStatus } from './live';

const encoder = new TextEncoder();
const ID_1 = '11111111-1111-4111-8111-111111111111';
const ID_2 = '22222222-2222-4222-8222-222222222222';
const hello = (id: string) => `{"type":"hello","connection_id":"${id}","heartbeat_ms":15000}\n`;
const quoteLine = (symbol: string, price: number) =>
  `${JSON.stringify({ type: 'quote', symbol, price, previousClose: 100, change: price - 100, percentChange: price - 100, timestamp: 1_700_000_000 })}\n`;

/** A stream the test writes to, chunk by chunk, and ends. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

/** One animation frame (fake timers). */
const FRAME_MS = 16;

/** Lets the fetch promises and stream reads queued so far run. */
const settle = () => act(async () => vi.advanceTimersByTimeAsync(0));

/** Fake timers and a stored token for each test of a block; real timers and globals back after it. */
function withFakeTimersAndToken() {
  beforeEach(() => {
    vi.useFakeTimers();
    tokenStorage.set('token-1');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
}

describe('live lines and backoff', () => {
  it('parses known lines and skips unknown or broken ones', () => {
    expect(parseLiveLine('{"type":"ideas","engine":"swing","at":1}')).toEqual({ type: 'ideas', engine: 'swing', at: 1 });
    expect(parseLiveLine('{"type":"future-thing"}')).toBeNull();
    expect(parseLiveLine('{"type":"quote","symbol":"AAPL"')).toBeNull();
  });

  it('doubles from 1 s to at most 30 s, jittered into the upper half', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(500);
    expect(backoffDelayMs(0, () => 1)).toBe(1_000);
    expect(backoffDelayMs(3, () => 1)).toBe(8_000);
    expect(backoffDelayMs(5, () => 0)).toBe(15_000);
    expect(backoffDelayMs(5, () => 1)).toBe(LIVE_BACKOFF_MAX_MS);
    expect(backoffDelayMs(40, () => 0.5)).toBe(22_500);
  });
});

describe('live client', () => {
  withFakeTimersAndToken();

  it('reads lines split across chunks, sends the bearer header (no token in the URL) and the symbols after hello', async () => {
    const body = controlledStream();
    const api = mockApi({ 'GET live': { stream: body.stream }, 'POST live_symbols': { body: { msg: 'ok' } } });
    const events: LiveEvent[] = [];
    const statuses: LiveStatus[] = [];
    const client = createLiveClient({ onStatus: (status) => statuses.push(status), onEvent: (event) => events.push(event) });
    client.setSymbols(['msft', 'AAPL']);
    client.start();
    await settle();
    const [url, init] = api.fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/live');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer token-1');
    const line = hello(ID_1) + quoteLine('AAPL', 101);
    body.push(line.slice(0, 20));
    await settle();
    expect(statuses).toEqual(['connecting']);
    body.push(line.slice(20, hello(ID_1).length + 7));
    await settle();
    expect(statuses).toEqual(['connecting', 'live']);
    body.push(`${line.slice(hello(ID_1).length + 7)}{"type":"heartbeat","at":5}\n`);
    await settle();
    expect(events).toEqual([{ type: 'quote', symbol: 'AAPL', price: 101, previousClose: 100, change: 1, percentChange: 1, timestamp: 1_700_000_000 }]);
    expect(api.callsTo('live_symbols')).toHaveLength(1);
    expect(JSON.parse(String(api.fetchMock.mock.calls[1]![1]!.body))).toEqual({ connection_id: ID_1, symbols: ['AAPL', 'MSFT'] });
    expect(api.unhandled).toEqual([]);
    client.stop();
  });

  it('reconnects with backoff after a drop and re-sends the symbols to the new stream', async () => {
    const streams = [controlledStream(), controlledStream()];
    let opened = 0;
    const api = mockApi({
      'GET live': () => {
        opened += 1;
        if (opened === 2) throw new TypeError('Failed to fetch');
        return { stream: streams[opened === 1 ? 0 : 1]!.stream };
      },
      'POST live_symbols': { body: { msg: 'ok' } },
    });
    const statuses: LiveStatus[] = [];
    const client = createLiveClient({ onStatus: (status) => statuses.push(status), onEvent: () => undefined, random: () => 1 });
    client.setSymbols(['SPY']);
    client.start();
    await settle();
    streams[0]!.push(hello(ID_1));
    await settle();
    streams[0]!.end();
    await settle();
    expect(statuses.at(-1)).toBe('reconnecting');
    // 1st retry after 1 s: the network fails; 2nd after 2 s more.
    await act(async () => vi.advanceTimersByTimeAsync(999));
    expect(opened).toBe(1);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(opened).toBe(2);
    await act(async () => vi.advanceTimersByTimeAsync(1_999));
    expect(opened).toBe(2);
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(opened).toBe(3);
    streams[1]!.push(hello(ID_2));
    await settle();
    expect(statuses.at(-1)).toBe('live');
    const sent = api.fetchMock.mock.calls.filter(([url]) => url === '/api/live_symbols').map(([, init]) => JSON.parse(String(init!.body)) as unknown);
    expect(sent).toEqual([
      { connection_id: ID_1, symbols: ['SPY'] },
      { connection_id: ID_2, symbols: ['SPY'] },
    ]);
    // Up again: the next drop starts from 1 s.
    streams[1]!.end();
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    expect(opened).toBe(4);
    client.stop();
  });

  it('takes a silent stream (no heartbeat for 2.5 heartbeats) for dead', async () => {
    const body = controlledStream();
    let opened = 0;
    mockApi({ 'GET live': () => ((opened += 1), { stream: opened === 1 ? body.stream : controlledStream().stream }) });
    const statuses: LiveStatus[] = [];
    const client = createLiveClient({ onStatus: (status) => statuses.push(status), onEvent: () => undefined, random: () => 0 });
    client.start();
    await settle();
    body.push(hello(ID_1));
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(37_499));
    expect(statuses.at(-1)).toBe('live');
    await act(async () => vi.advanceTimersByTimeAsync(1));
    expect(statuses.at(-1)).toBe('reconnecting');
    await act(async () => vi.advanceTimersByTimeAsync(500));
    expect(opened).toBe(2);
    client.stop();
  });

  it('stops on a 401 (the app goes to the login screen) instead of retrying', async () => {
    const api = mockApi({ 'GET live': { status: 401, body: { msg: 'Auth token invalid' } } });
    const statuses: LiveStatus[] = [];
    const client = createLiveClient({ onStatus: (status) => statuses.push(status), onEvent: () => undefined });
    client.start();
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(60_000));
    expect(statuses).toEqual(['connecting', 'off']);
    expect(api.callsTo('live')).toHaveLength(1);
  });
});

describe('fallback to polling', () => {
  withFakeTimersAndToken();

  it('polls only while the stream is down, and hands the screen its quotes', async () => {
    const streams = [controlledStream(), controlledStream()];
    let opened = 0;
    mockApi({ 'GET live': () => ({ stream: streams[opened++]!.stream }), 'POST live_symbols': { body: { msg: 'ok' } } });
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <LiveProvider>{children}</LiveProvider>
      </QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => ({ polling: usePollingWhileDown(30_000), quotes: useLiveQuotes(['aapl']) }), { wrapper });
    expect(result.current.polling).toBe(30_000);
    await settle();
    streams[0]!.push(hello(ID_1) + quoteLine('AAPL', 120) + quoteLine('MSFT', 300));
    await settle();
    expect(result.current.polling).toBe(false);
    expect(result.current.quotes.live).toBe(true);
    // Quotes are drawn at the next frame.
    await act(async () => vi.advanceTimersByTimeAsync(FRAME_MS));
    expect([...result.current.quotes.quotes.keys()]).toEqual(['AAPL']);
    expect(result.current.quotes.quotes.get('AAPL')?.price).toBe(120);
    // An engine's idea update makes that engine's trade queries stale (the screens re-read them), no other's.
    queryClient.setQueryData(['trade-ideas', 'swing', 'list', {}], { pages: [] });
    queryClient.setQueryData(['trade-ideas', 'layered', 'list', {}], { pages: [] });
    streams[0]!.push('{"type":"ideas","engine":"swing","at":1}\n');
    await settle();
    expect(queryClient.getQueryState(['trade-ideas', 'swing', 'list', {}])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['trade-ideas', 'layered', 'list', {}])?.isInvalidated).toBe(false);
    streams[0]!.end();
    await settle();
    expect(result.current.polling).toBe(30_000);
    await act(async () => vi.advanceTimersByTimeAsync(1_000));
    streams[1]!.push(hello(ID_2));
    await settle();
    expect(result.current.polling).toBe(false);
    unmount();
  });
});

describe('engines registered by their screens', () => {
  withFakeTimersAndToken();

  const CRYPTO = { id: 'crypto', liveQueryKeys: [['crypto'], ['trade-ideas', 'crypto']] } as const;
  function CryptoScreenStub() {
    useLiveEngine(CRYPTO);
    return null;
  }

  it("makes a registered engine's own query keys stale on its idea updates, after its screen closed too", async () => {
    const stream = controlledStream();
    mockApi({ 'GET live': () => ({ stream: stream.stream }), 'POST live_symbols': { body: { msg: 'ok' } } });
    const queryClient = new QueryClient();
    const app = (screen: boolean) => (
      <QueryClientProvider client={queryClient}>
        <LiveProvider>{screen ? <CryptoScreenStub /> : null}</LiveProvider>
      </QueryClientProvider>
    );
    const { rerender, unmount } = render(app(true));
    await settle();
    stream.push(hello(ID_1));
    await settle();
    rerender(app(false));
    queryClient.setQueryData(['crypto', 'list'], []);
    queryClient.setQueryData(['trade-ideas', 'crypto', 'detail', 'c1'], {});
    queryClient.setQueryData(['trade-ideas', 'swing', 'list', {}], { pages: [] });
    stream.push('{"type":"ideas","engine":"crypto","at":1}\n');
    await settle();
    expect(queryClient.getQueryState(['crypto', 'list'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['trade-ideas', 'crypto', 'detail', 'c1'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['trade-ideas', 'swing', 'list', {}])?.isInvalidated).toBe(false);
    unmount();
  });
});

describe('live quotes on a screen', () => {
  withFakeTimersAndToken();

  it('draws the quotes that arrive line by line before a frame in one render at that frame', async () => {
    const stream = controlledStream();
    mockApi({ 'GET live': () => ({ stream: stream.stream }), 'POST live_symbols': { body: { msg: 'ok' } } });
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <LiveProvider>{children}</LiveProvider>
      </QueryClientProvider>
    );
    let renders = 0;
    const { result, unmount } = renderHook(
      () => {
        renders += 1;
        return useLiveQuotes(['aapl', 'msft', 'spy']);
      },
      { wrapper },
    );
    await settle();
    stream.push(hello(ID_1));
    await settle();
    const before = renders;
    for (const [symbol, price] of [['AAPL', 120], ['MSFT', 300], ['SPY', 500]] as const) {
      stream.push(quoteLine(symbol, price));
      await settle();
    }
    expect(renders).toBe(before);
    await act(async () => vi.advanceTimersByTimeAsync(FRAME_MS));
    expect(renders).toBe(before + 1);
    expect(Object.fromEntries([...result.current.quotes].map(([symbol, quote]) => [symbol, quote.price]))).toEqual({ AAPL: 120, MSFT: 300, SPY: 500 });
    unmount();
  });
});
