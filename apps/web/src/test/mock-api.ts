import { vi } from 'vitest';

/** A route's answer: a status, a JSON body and extra headers (or a promise of one, to hold a call open). */
export interface MockAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A streamed body (NDJSON), sent instead of `body`. */
  stream?: ReadableStream<Uint8Array>;
  /** The server cannot be reached: fetch rejects (a TypeError, as a browser's) instead of answering. */
  networkError?: true;
  /** Answered as a call no route handles (a 599, named in `unhandled`): what `inTurn` gives after its last answer. */
  unhandled?: true;
}
type Handler = (url: URL, init: RequestInit | undefined) => MockAnswer | Promise<MockAnswer>;

/** A recorded call: `input` is the URL as given to fetch ('/api/scan/drops?…'), `body` the JSON body sent (parsed; undefined without one, the raw value when not JSON text). */
export interface MockCall {
  method: string;
  path: string;
  url: URL;
  input: string;
  init: RequestInit | undefined;
  body: unknown;
}

function bodyOf(init: RequestInit | undefined): unknown {
  if (init?.body === undefined || init.body === null) return undefined;
  if (typeof init.body !== 'string') return init.body;
  try {
    return JSON.parse(init.body);
  } catch {
    return init.body;
  }
}

/** A route that answers its calls in turn (each an answer or a handler); a call after the last is unhandled. */
export function inTurn(...answers: Array<MockAnswer | Handler>): Handler {
  return (url, init) => {
    const next = answers.shift();
    if (!next) return { unhandled: true };
    return typeof next === 'function' ? next(url, init) : next;
  };
}

/**
 * One mock API for the web tests: routes by method and path ('GET trade_ideas/replay_status', path
 * without the /api/ prefix; a trailing '*' matches any rest), records every call, and answers an
 * unhandled request with a 599 that the test's `unhandled` list names (check it is empty).
 */
export function mockApi(routes: Record<string, Handler | MockAnswer>) {
  const calls: MockCall[] = [];
  const unhandled: string[] = [];
  const entries = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ') as [string, string];
    return { method, pattern, handler };
  });
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\//, '');
    calls.push({ method, path, url, input: String(input), init, body: bodyOf(init) });
    const route = entries.find((entry) => entry.method === method && (entry.pattern.endsWith('*') ? path.startsWith(entry.pattern.slice(0, -1)) : entry.pattern === path));
    const answer = !route ? undefined : typeof route.handler === 'function' ? await route.handler(url, init) : route.handler;
    if (!answer || answer.unhandled) {
      unhandled.push(`${method} ${path}`);
      return new Response(JSON.stringify({ msg: `unhandled ${method} ${path}` }), { status: 599 });
    }
    if (answer.networkError) throw new TypeError('Failed to fetch');
    const status = answer.status ?? 200;
    if (answer.stream) return new Response(answer.stream, { status, headers: { 'content-type': 'application/x-ndjson', ...answer.headers } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status, headers: { 'content-type': 'application/json', ...answer.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls, unhandled, callsTo: (path: string) => calls.filter((call) => call.path === path) };
}
