import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboundNetworkError, postPinned } from './post-pinned';
import type { CheckedUrl } from './url-guard';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];
const netServers: NetServer[] = [];

afterEach(async () => {
  for (const server of netServers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on 127.0.0.1 that records each request (its body read in full) before `answer` runs. */
async function localServer(answer: RequestListener): Promise<{ port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received };
}

const pinned = (url: string, address = '127.0.0.1'): CheckedUrl => ({ url: new URL(url), address, family: 4 });

describe('postPinned', () => {
  it('POSTs the body with its headers and answers the status, headers and body', async () => {
    const { port, received } = await localServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'x-request-id': 'r1' }).end('ok, got it');
    });
    const body = JSON.stringify({ symbol: 'AAPL', note: 'prix élevé' });
    const answer = await postPinned(pinned(`http://127.0.0.1:${port}/hooks/in?team=7`), body, { 'Content-Type': 'application/json', 'webhook-id': 'msg_1' });
    expect(answer).toMatchObject({ status: 200, body: 'ok, got it', headers: { 'content-type': 'text/plain', 'x-request-id': 'r1' } });
    expect(answer.durationMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks/in?team=7', body });
    expect(received[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Signalboard-Webhooks/1.0',
      host: `127.0.0.1:${port}`,
    });
  });

  it('sends the caller user agent when given one, and never the caller Host or Content-Length', async () => {
    const { port, received } = await localServer((_request, response) => response.end());
    await postPinned(pinned(`http://127.0.0.1:${port}/`), 'abc', { 'User-Agent': 'ntfy-client', Host: 'evil.test', 'Content-Length': '999' });
    expect(received[0]!.headers).toMatchObject({ 'user-agent': 'ntfy-client', host: `127.0.0.1:${port}`, 'content-length': '3' });
  });

  it('answers a redirect as it is and does not follow it', async () => {
    const elsewhere = await localServer((_request, response) => response.end('followed'));
    const { port } = await localServer((_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/stolen` }).end();
    });
    const answer = await postPinned(pinned(`http://127.0.0.1:${port}/`), '{}', {});
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(`http://127.0.0.1:${elsewhere.port}/stolen`);
    expect(elsewhere.received).toEqual([]);
  });

  it('gives up on a server that never answers after the timeout', async () => {
    const { port, received } = await localServer(() => undefined);
    const started = Date.now();
    const failure = postPinned(pinned(`http://127.0.0.1:${port}/`), '{}', {}, { timeoutMs: 200 });
    await expect(failure).rejects.toThrow(OutboundNetworkError);
    await expect(failure).rejects.toThrow('timed out after 0.2 s');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(received).toHaveLength(1);
  });

  it('counts reading the answer in the timeout (a server that sends its headers, then stalls)', async () => {
    const { port } = await localServer((_request, response) => {
      response.writeHead(200);
      response.write('partial');
    });
    await expect(postPinned(pinned(`http://127.0.0.1:${port}/`), '{}', {}, { timeoutMs: 200 })).rejects.toThrow('timed out after 0.2 s');
  });

  it('keeps the first 4 KB of a large answer and reads the rest to the end', async () => {
    const { port } = await localServer((_request, response) => {
      response.writeHead(500);
      for (let index = 0; index < 64; index += 1) response.write('x'.repeat(1_024));
      response.end();
    });
    const answer = await postPinned(pinned(`http://127.0.0.1:${port}/`), '{}', {});
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('x'.repeat(4_096));
  });

  it('connects to the pinned address while the Host header keeps the URL host (DNS rebinding)', async () => {
    const { port, received } = await localServer((_request, response) => response.end('pinned'));
    const answer = await postPinned(pinned(`http://rebind.test:${port}/hook`), '{}', {});
    expect(answer).toMatchObject({ status: 200, body: 'pinned' });
    expect(received[0]!.headers.host).toBe(`rebind.test:${port}`);
    expect(received[0]!.url).toBe('/hook');
  });

  it('says the connection was refused when nothing listens', async () => {
    const { port } = await localServer(() => undefined);
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    await expect(postPinned(pinned(`http://127.0.0.1:${port}/`), '{}', {})).rejects.toThrow(new OutboundNetworkError('connection refused (ECONNREFUSED)'));
  });

  it('names a reset connection and an answer cut short', async () => {
    const reset = await localServer((request) => request.socket.destroy());
    await expect(postPinned(pinned(`http://127.0.0.1:${reset.port}/`), '{}', {})).rejects.toThrow(OutboundNetworkError);
    const cut = await localServer((request, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part', () => request.socket.destroy());
    });
    await expect(postPinned(pinned(`http://127.0.0.1:${cut.port}/`), '{}', {})).rejects.toThrow(OutboundNetworkError);
  });

  it('fails a TLS handshake with a server that does not speak TLS, as a network error', async () => {
    const { port } = await localServer((_request, response) => response.end());
    const failure = postPinned(pinned(`https://tls.test:${port}/`), '{}', {}, { timeoutMs: 2_000 });
    await expect(failure).rejects.toThrow(OutboundNetworkError);
    // 'TLS: wrong version number (EPROTO)' on OpenSSL 3.0: the reason, not OpenSSL's long message.
    await expect(failure).rejects.toThrow(/^TLS: [a-z ]+ \(EPROTO\)$/);
  });

  it('sends the URL host as TLS SNI while connecting to the pinned address', async () => {
    const hello = new Promise<Buffer>((resolve) => {
      const server = createNetServer((socket) => socket.once('data', (chunk: Buffer) => (resolve(chunk), socket.destroy())));
      netServers.push(server);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        void postPinned(pinned(`https://hooks.rebind.test:${port}/`), '{}', {}, { timeoutMs: 2_000 }).catch(() => undefined);
      });
    });
    // The ClientHello's server_name extension carries the name in clear.
    expect((await hello).includes('hooks.rebind.test')).toBe(true);
  });
});
