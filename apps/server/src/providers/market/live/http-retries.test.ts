/**
 * The HTTP client's waiting, measured instead of slept: every wait goes through an injected sleep
 * that records it and moves a fake clock (so the token bucket sees the time pass), and the jitter
 * comes from an injected random. Timeouts use real (short) time and end in seconds, never hang.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, ProviderError } from '../types';
import { createHttpClient, LocalRateLimitError, ProviderTimeoutError, type FetchImpl, type HttpClientOptions } from './http';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

/** A clock at a whole second, a sleep that records and advances it, and a scripted random. */
function harness(randoms: number[] = [0.5]) {
  const clock = new FakeClock(Date.parse('2025-01-06T15:00:00Z'));
  const waits: number[] = [];
  let draws = 0;
  return {
    clock,
    waits,
    sleep: async (ms: number) => {
      waits.push(ms);
      clock.advance(ms);
    },
    random: () => randoms[Math.min(draws++, randoms.length - 1)]!,
  };
}

type Harness = ReturnType<typeof harness>;
const client = (h: Harness, overrides: Partial<HttpClientOptions> = {}) =>
  createHttpClient({ provider: 'Test', ratePerMinute: 6000, burst: 100, timeoutMs: 1000, clock: h.clock, sleep: h.sleep, random: h.random, ...overrides });
const count = (path: string) => server.requests.filter((request) => request.url.startsWith(path)).length;
const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('retry backoff', () => {
  it('waits 250 ms × 2^retry × (0.5 + random) between attempts, with a fresh draw per retry', async () => {
    server.on('/busy', { status: 503, body: '' });
    // random 0 → the bottom of each range: 125 then 250 ms.
    const low = harness([0]);
    await failure(client(low).getJson(`${server.baseUrl}/busy`));
    expect(low.waits).toEqual([125, 250]);
    // random 0.5 → the middle: 250 then 500 ms.
    const mid = harness([0.5]);
    await failure(client(mid).getJson(`${server.baseUrl}/busy`));
    expect(mid.waits).toEqual([250, 500]);
    // One draw per retry: 0.1 then 0.9 → 125 + 25 and 250 + 450.
    const mixed = harness([0.1, 0.9]);
    await failure(client(mixed).getJson(`${server.baseUrl}/busy`));
    expect(mixed.waits).toEqual([150, 700]);
    // Just under 1 → just under the top of each range (375 and 750 ms).
    const high = harness([0.999]);
    await failure(client(high).getJson(`${server.baseUrl}/busy`));
    expect(high.waits).toEqual([374.75, 749.5]);
  });

  it('retries at most twice: three attempts in all, then the last failure', async () => {
    server.on('/down', { status: 500, body: '<html>Internal Server Error</html>' });
    const h = harness();
    const error = await failure(client(h).getJson(`${server.baseUrl}/down`));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('Test: server error (HTTP 500)');
    expect(count('/down')).toBe(3);
    expect(h.waits).toHaveLength(2);
  });

  it('retries network errors the same way', async () => {
    let calls = 0;
    const refused: FetchImpl = async () => {
      calls += 1;
      throw new TypeError('fetch failed');
    };
    const h = harness([0]);
    const error = await failure(client(h, { fetchImpl: refused }).getJson('http://127.0.0.1:9/never'));
    expect((error as ProviderError).message).toBe('Test: network error (fetch failed)');
    expect(calls).toBe(3);
    expect(h.waits).toEqual([125, 250]);
  });

  it.each([
    [400, '{"code":-1121,"msg":"Invalid symbol."}', ProviderError],
    [401, '{"error":"Invalid API key."}', ProviderError],
    [403, '{"error":"You don\'t have access to this resource."}', CapabilityUnavailableError],
    [404, '{"error":"Not found"}', ProviderError],
    [451, '{"code":0,"msg":"Service unavailable from a restricted location"}', CapabilityUnavailableError],
  ])('never retries HTTP %i', async (status, body, type) => {
    server.on(`/status-${status}`, { status, body });
    const h = harness();
    const error = await failure(client(h).getJson(`${server.baseUrl}/status-${status}`));
    expect(error).toBeInstanceOf(type);
    if (error instanceof ProviderError) expect(error.options).toMatchObject({ status, retryable: false });
    expect(count(`/status-${status}`)).toBe(1);
    expect(h.waits).toEqual([]);
  });

  it('never retries malformed JSON', async () => {
    server.on('/garbled', { body: '{"c": 227.48,' });
    const h = harness();
    await expect(client(h).getJson(`${server.baseUrl}/garbled`)).rejects.toThrow('Test: the answer was not valid JSON');
    expect(count('/garbled')).toBe(1);
    expect(h.waits).toEqual([]);
  });
});

describe('Retry-After', () => {
  it('is honoured when longer than the backoff (delta-seconds)', async () => {
    server.on('/limited', { status: 429, headers: { 'retry-after': '2' }, body: '{"error":"API limit reached. Please try again later. Remaining Limit: 0"}' });
    const h = harness([0.999]);
    const error = await failure(client(h).getJson(`${server.baseUrl}/limited`));
    expect((error as ProviderError).options).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 2 });
    expect(h.waits).toEqual([2000, 2000]);
    expect(count('/limited')).toBe(3);
  });

  it('is honoured on a 503 too', async () => {
    server.on('/maintenance', { status: 503, headers: { 'retry-after': '1' }, body: '' });
    const h = harness([0.999]);
    const error = await failure(client(h).getJson(`${server.baseUrl}/maintenance`));
    expect((error as ProviderError).options).toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect(h.waits).toEqual([1000, 1000]);
  });

  it('is honoured as an HTTP date, relative to the clock', async () => {
    const h = harness([0]);
    server.on('/limited-until', () => ({ status: 429, headers: { 'retry-after': new Date(h.clock.nowMs() + 3000).toUTCString() }, body: '' }));
    await failure(client(h).getJson(`${server.baseUrl}/limited-until`));
    expect(h.waits).toEqual([3000, 3000]);
  });

  it('never shortens the backoff: a 0 or a past date leaves the jittered wait', async () => {
    server.on('/limited-zero', { status: 429, headers: { 'retry-after': '0' }, body: '' });
    const h = harness([0.5]);
    const error = await failure(client(h).getJson(`${server.baseUrl}/limited-zero`));
    expect((error as ProviderError).options.retryAfterSeconds).toBeUndefined();
    expect(h.waits).toEqual([250, 500]);
  });

  it('is honoured up to the 5 s cap', async () => {
    server.on('/limited-5', { status: 429, headers: { 'retry-after': '5' }, body: '' });
    const h = harness();
    await failure(client(h).getJson(`${server.baseUrl}/limited-5`));
    expect(h.waits).toEqual([5000, 5000]);
    expect(count('/limited-5')).toBe(3);
  });

  it('beyond the cap, fails at once with the hint (no early retry that would only spend quota)', async () => {
    server.on('/limited-long', { status: 429, headers: { 'retry-after': '120' }, body: '' });
    const h = harness();
    const error = await failure(client(h).getJson(`${server.baseUrl}/limited-long`));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).options).toMatchObject({ status: 429, retryable: true, retryAfterSeconds: 120 });
    expect(count('/limited-long')).toBe(1);
    expect(h.waits).toEqual([]);
  });

  it('has a configurable cap', async () => {
    server.on('/limited-2', { status: 429, headers: { 'retry-after': '2' }, body: '' });
    const h = harness();
    await failure(client(h, { maxRetryAfterMs: 1000 }).getJson(`${server.baseUrl}/limited-2`));
    expect(count('/limited-2')).toBe(1);
    expect(h.waits).toEqual([]);
  });
});

describe('rate-limit waits', () => {
  it('waits for a token on the clock, then fails fast past the queue limit', async () => {
    server.on('/ok', { body: '{"ok":true}' });
    const h = harness();
    const http = client(h, { ratePerMinute: 60, burst: 1, maxQueueMs: 1500 });
    await http.getJson(`${server.baseUrl}/ok`);
    await http.getJson(`${server.baseUrl}/ok`); // waits one token: 1 s at 60 a minute
    expect(h.waits).toEqual([1000]);
    const slow = client(harness(), { ratePerMinute: 6, burst: 1, maxQueueMs: 1500 });
    await slow.getJson(`${server.baseUrl}/ok`);
    const refused = await failure(slow.getJson(`${server.baseUrl}/ok`));
    expect(refused).toBeInstanceOf(LocalRateLimitError);
    expect((refused as ProviderError).options).toMatchObject({ status: 429, retryable: false, retryAfterSeconds: 10 });
  });

  it('gives up after one wait when the clock does not move (a pinned clock never refills the bucket)', async () => {
    server.on('/ok', { body: '{"ok":true}' });
    const waits: number[] = [];
    const frozen = new FakeClock(Date.parse('2026-11-20T16:00:00Z'));
    const http = createHttpClient({ provider: 'Test', ratePerMinute: 60, burst: 1, clock: frozen, sleep: async (ms) => void waits.push(ms) });
    await http.getJson(`${server.baseUrl}/ok`);
    await expect(http.getJson(`${server.baseUrl}/ok`)).rejects.toThrow('Test: rate limit reached (the rate-limit clock is not advancing)');
    expect(waits).toEqual([1000]);
  });

  it('reports the failure that caused a retry when our own limiter refuses the retry', async () => {
    server.on('/flaky', { status: 502, body: '' });
    const h = harness();
    const error = await failure(client(h, { ratePerMinute: 1, burst: 1 }).getJson(`${server.baseUrl}/flaky`));
    expect(error).not.toBeInstanceOf(LocalRateLimitError);
    expect((error as ProviderError).message).toBe('Test: server error (HTTP 502)');
    expect(count('/flaky')).toBe(1);
  });
});

describe('timeouts', () => {
  it('answers a hung upstream with a provider timeout error, retried twice, instead of hanging', async () => {
    server.on('/hang', { hang: true });
    const h = harness();
    const started = performance.now();
    const error = await failure(client(h, { timeoutMs: 100 }).getJson(`${server.baseUrl}/hang`));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).message).toBe('Test: timed out: no answer within 100 ms');
    expect((error as ProviderTimeoutError).options.retryable).toBe(true);
    expect(count('/hang')).toBe(3);
    expect(elapsed).toBeGreaterThanOrEqual(250); // three real 100 ms deadlines
    // Not a speed check: without the deadline the request would hang until the test's own timeout.
    // The bound is loose because a loaded CI machine (2 cores, the whole suite) delays timers.
    expect(elapsed).toBeLessThan(5000);
  });

  it('times out a body that stops halfway, instead of calling it malformed JSON', async () => {
    server.on('/stall', { stall: true, fixture: 'finnhub-quote-aapl.json' });
    const h = harness();
    const started = performance.now();
    const error = await failure(client(h, { timeoutMs: 100, retries: 0 }).getJson(`${server.baseUrl}/stall`));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as Error).message).toBe('Test: timed out: no answer within 100 ms');
    expect(performance.now() - started).toBeLessThan(5000); // loose, as above: it must not hang
  });
});
