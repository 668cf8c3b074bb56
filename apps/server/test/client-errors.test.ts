/**
 * Errors raised before a route runs, over a real socket (inject skips Node's HTTP parser): each
 * answers JSON `{ msg }` with the security headers, never Fastify's or Node's default body.
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeApiHeaders } from '../src/plugins/security-headers';
import { multipartBody } from './market-cases';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from './helpers';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let t: TestApp;
let port: number;
let authorization: string;
/** The security headers of an ordinary answer (GET /api/health over the same socket path). */
let security: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  const email = uniqueEmail('edge');
  await createUser(t.db, email, 'pw');
  ({ authorization } = await login(t.app, email, 'pw'));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  const health = await send(get('/api/health'));
  expect(health.status).toBe(200);
  const expected = computeApiHeaders();
  security = Object.fromEntries(Object.keys(expected).map((name) => [name, health.headers[name]!]));
  expect(Object.keys(security).length).toBeGreaterThan(5);
});
afterAll(async () => t.close());

/** Writes `request` as is and reads the answer until the server closes the connection (every request here asks it to). */
function send(request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      const raw = Buffer.concat(chunks).toString('latin1');
      const end = raw.indexOf('\r\n\r\n');
      if (end === -1) {
        if (closed) reject(new Error(`no complete answer: ${JSON.stringify(raw)}`));
        return;
      }
      const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const body = Buffer.from(raw.slice(end + 4), 'latin1');
      if (!closed) return;
      settled = true;
      socket.destroy();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: body.toString('utf8') });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (error) => (chunks.length > 0 ? finish(true) : reject(error)));
    socket.write(request);
  });
}

/** The answer is `status` with JSON `{ msg }` (a non-empty string), the security headers and an exact content-length. */
function expectMsgAnswer(answer: RawAnswer, status: number): string {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const body = JSON.parse(answer.body) as { msg?: unknown };
  expect(Object.keys(body)).toEqual(['msg']);
  expect(typeof body.msg).toBe('string');
  expect(String(body.msg).length).toBeGreaterThan(10);
  // The same security headers as an ordinary answer of the API (JSON, never a page).
  for (const [name, value] of Object.entries(security)) expect(answer.headers[name], name).toBe(value);
  expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  return String(body.msg);
}

const get = (target: string, extraHeaders = '') => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extraHeaders}Connection: close\r\n\r\n`;
const post = (target: string, contentType: string, body: string | Buffer, extraHeaders = '') =>
  Buffer.concat([
    Buffer.from(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extraHeaders}Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`, 'latin1'),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
  ]);

describe("Node's HTTP parser errors", () => {
  it('answers a URL longer than the header limit with 431, a msg, the security headers, and closes', async () => {
    const answer = await send(`GET /api/quote?symbol=${'A'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    expect(expectMsgAnswer(answer, 431)).toBe('The URL and headers of the request are larger than 16 KB; send a shorter URL.');
    // The request line never ended: the server, not the client's Connection header, closed the socket.
    expect(answer.headers.connection).toBe('close');
  });

  it('answers oversized headers with 431 too', async () => {
    const answer = await send(get('/api/health', `X-Padding: ${'p'.repeat(20_000)}\r\n`));
    expectMsgAnswer(answer, 431);
  });

  it('answers a request that is not HTTP, or a broken chunked body, with 400 and a msg', async () => {
    expect(expectMsgAnswer(await send('HELLO THERE\r\n\r\n'), 400)).toBe('The request is not valid HTTP.');
    expectMsgAnswer(await send('GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'), 400);
    expectMsgAnswer(await send('POST /api/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n'), 400);
    expectMsgAnswer(await send('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header Name: 1\r\n\r\n'), 400);
  });
});

describe('routing errors', () => {
  it('answers a path whose %-escape does not decode with 400 and a msg', async () => {
    for (const target of ['/api/%E0%A4%A', '/api/quote%', '/%C0%AF']) {
      expect(expectMsgAnswer(await send(get(target)), 400), target).toBe('The URL is not valid: a %-escape in its path does not decode.');
    }
  });

  it('answers a path parameter over the length limit with 414 and a msg', async () => {
    const answer = await send(get(`/simulated-news/${'a'.repeat(200)}`));
    expect(expectMsgAnswer(answer, 414)).toBe('A part of the URL path is too long.');
  });

  it('answers a query string whose %-escape does not decode like any other bad input', async () => {
    const answer = await send(get('/api/quote?symbol=%E0%A4%A', `Authorization: ${authorization}\r\n`));
    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, { msg: 'Symbol may hold only letters, digits and . - ^ = :' }]);
    expectMsgAnswer(answer, 400);
    const nul = await send(get('/api/quote?symbol=AA%00PL', `Authorization: ${authorization}\r\n`));
    expect(expectMsgAnswer(nul, 400)).toBe('Symbol must not contain line breaks or other control characters');
  });
});

describe('malformed bodies', () => {
  const auth = () => `Authorization: ${authorization}\r\n`;

  it('answers invalid JSON, an empty JSON body and JSON that is not an object with 400 and a msg', async () => {
    expect(expectMsgAnswer(await send(post('/api/login', 'application/json', '{"email":')), 400)).toBe('The request body is not valid JSON.');
    expect(expectMsgAnswer(await send(post('/api/login', 'application/json', '')), 400)).toBe('The request body is empty; send a JSON object.');
    expectMsgAnswer(await send(post('/api/login', 'application/json', '{"__proto__":{"admin":true}}')), 400);
    expectMsgAnswer(await send(post('/api/login', 'application/json', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]))), 400);
  });

  it('answers a content type no call reads with 415 and a msg', async () => {
    expect(expectMsgAnswer(await send(post('/api/batch_update_favorite_stocks', 'application/xml', '<stocks/>', auth())), 415)).toBe('Unsupported content type; send application/json.');
  });

  it('answers a broken multipart form, or a form with a bad %-escape, with 400 and a msg', async () => {
    expectMsgAnswer(await send(post('/api/contact-support', 'multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="header"\r\n\r\ntruncated', auth())), 400);
    expectMsgAnswer(await send(post('/api/contact-support', 'multipart/form-data', 'no boundary', auth())), 400);
    const form = await send(post('/api/stock-high-low', 'application/x-www-form-urlencoded', 'symbol=%E0%A4%A&days=30', auth()));
    expectMsgAnswer(form, 400);
  });

  it('answers a multipart support form with a NUL in its file name with 400 and a msg, not 502', async () => {
    const { contentType, payload } = await multipartBody({ header: 'Help', body: 'text' });
    const boundary = /boundary=(.*)$/.exec(contentType)![1]!;
    const withFile = Buffer.concat([
      payload.subarray(0, payload.length - `--${boundary}--\r\n`.length),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n--${boundary}--\r\n`, 'latin1'),
    ]);
    const answer = await send(post('/api/contact-support', contentType, withFile, auth()));
    expect(expectMsgAnswer(answer, 400)).toBe('File name must not contain line breaks or other control characters');
  });
});
