import { vi } from 'vitest';

/** A route's answer: a status, a JSON body and extra headers (or a promise of one, to hold a call open). */
export interface MockAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A streamed body (NDJSON), sent instead of `body`. */
  stream?: ReadableStream<Uint8Array>;
}
type Handler = (url: URL, init: RequestInit | undefined) => MockAnswer | Promise<MockAnswer>;

/**
 * One mock API for the web tests: routes by method and path ('GET trade_ideas/replay_status', path
 * without the /api/ prefix; a trailing '*' matches any rest), records every call, and answers an
 * unhandled request with a 599 that the test's `unhandled` list names (check it is empty).
 */
export function mockApi(routes: Record<string, Handler | MockAnswer>) {
  const calls: { method: string; path: string; url: URL }[] = [];
  const unhandled: string[] = [];
  const entries = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ') as [string, string];
    return { method, pattern, handler };
  });
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    calls.push({ method, path, url });
    const route = entries.find((entry) => entry.method === method && (entry.pattern.endsWith('*') ? path.startsWith(entry.pattern.slice(0, -1)) : entry.pattern === path));
    if (!route) {
      unhandled.push(`${method} ${path}`);
      return new Response(JSON.stringify({ msg: `unhandled ${method} ${path}` }), { status: 599 });
    }
    const answer = typeof route.handler === 'function' ? await route.handler(url, init) : route.handler;
    const status = answer.status ?? 200;
    if (answer.stream) return new Response(answer.stream, { status, headers: { 'content-type': 'application/x-ndjson', ...answer.headers } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, unhandled, callsTo: (path: string) => calls.filter((call) => call.path === path) };
}
