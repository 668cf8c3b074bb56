/** A local HTTP receiver for the outbound-call tests (webhooks, Discord, ntfy): records each request, answers what it is told. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string };

export function receiver() {
  const received: Received[] = [];
  let answer: (index: number, request: Received) => Answer = () => ({ status: 200 });
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const entry = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body };
      received.push(entry);
      const { status, headers, body: text } = answer(received.length - 1, entry);
      response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text ?? (status < 300 ? 'thanks' : 'nope'));
    });
  });
  return {
    received,
    server,
    answer: (next: typeof answer) => {
      answer = next;
    },
    listen: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    port: () => (server.address() as AddressInfo).port,
  };
}
