/** Test helper: a loopback HTTP server replaying recorded provider responses. Not used in production. */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** A fixture file name under fixtures/, or a raw body. */
  fixture?: string;
  body?: string;
  /** Never answer (for timeouts). */
  hang?: boolean;
  /** Send the status, headers and the first part of the body, then nothing more (for timeouts mid-body). */
  stall?: boolean;
}

export interface RecordedServer {
  baseUrl: string;
  /** Every request seen: path with query, and headers. */
  requests: Array<{ url: string; headers: http.IncomingHttpHeaders }>;
  /** Sets the reply for a path (without query); a function can vary by request. */
  on(path: string, reply: Reply | ((url: URL) => Reply)): void;
  close(): Promise<void>;
}

export async function startRecordedServer(): Promise<RecordedServer> {
  const routes = new Map<string, Reply | ((url: URL) => Reply)>();
  const requests: RecordedServer['requests'] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push({ url: `${url.pathname}${url.search}`, headers: request.headers });
    const route = routes.get(url.pathname);
    const reply = typeof route === 'function' ? route(url) : route;
    if (!reply) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no fixture"}');
      return;
    }
    if (reply.hang) {
      hanging.push(response);
      return;
    }
    const body = reply.fixture ? readFileSync(new URL(`./fixtures/${reply.fixture}`, import.meta.url), 'utf8') : (reply.body ?? '');
    if (reply.stall) {
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      response.write(body.slice(0, Math.ceil(body.length / 2)));
      hanging.push(response);
      return;
    }
    response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    on: (path, reply) => routes.set(path, reply),
    close: () =>
      new Promise((resolve) => {
        hanging.forEach((response) => response.destroy());
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
