import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswers, negotiateEncoding } from './compress';

describe('negotiateEncoding', () => {
  it('answers the encoding the client prefers among ours, ties to our order', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br');
    expect(negotiateEncoding('gzip', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateEncoding('GZIP;Q=1', ['br', 'gzip'])).toBe('gzip');
    expect(negotiateEncoding('*', ['br', 'gzip'])).toBe('br');
    expect(negotiateEncoding('br;q=0, *', ['br', 'gzip'])).toBe('gzip');
  });

  it('answers none for no header, identity, refused or unknown encodings', () => {
    expect(negotiateEncoding(undefined, ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('identity', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('deflate, zstd', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('br;q=0, gzip;q=0', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('*;q=0', ['br', 'gzip'])).toBeUndefined();
    expect(negotiateEncoding('gzip;q=abc', ['br', 'gzip'])).toBeUndefined();
  });
});

describe('compressAnswers', () => {
  const app = Fastify();
  const big = { rows: Array.from({ length: 200 }, (_, i) => ({ symbol: `SYM${i}`, price: i * 1.5 })) };
  beforeAll(async () => {
    compressAnswers(app, { threshold: 1024, encodings: ['br', 'gzip'] });
    app.get('/big', async () => big);
    app.get('/small', async () => ({ email: 'demo@signalboard.local' }));
    app.get('/png', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(4096, 7)));
    app.get('/varied', async (_request, reply) => reply.header('vary', 'Origin').send(big));
    app.get('/stream', async (_request, reply) => reply.type('application/json').send(Readable.from([JSON.stringify(big)])));
    app.get('/encoded', async (_request, reply) => reply.type('application/json').header('content-encoding', 'gzip').send(Buffer.alloc(2048, 1)));
    await app.ready();
  });
  afterAll(async () => app.close());

  it('compresses a large JSON answer as the client accepts, with its length and Vary', async () => {
    const json = JSON.stringify(big);
    for (const [accept, encoding, decode] of [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const response = await app.inject({ url: '/big', headers: { 'accept-encoding': accept } });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(response.rawPayload.length).toBeLessThan(json.length / 3);
      expect(decode(response.rawPayload).toString()).toBe(json);
      expect(response.headers.vary).toBe('accept-encoding');
    }
    const plain = await app.inject({ url: '/big' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(json);
    expect(plain.headers.vary).toBe('accept-encoding');
  });

  it('adds to an answer\'s own Vary', async () => {
    const response = await app.inject({ url: '/varied', headers: { 'accept-encoding': 'gzip' } });
    expect(response.headers.vary).toBe('Origin, accept-encoding');
  });

  it('sends small answers, binary types, streams and encoded answers as they are', async () => {
    for (const url of ['/small', '/png', '/stream', '/encoded']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe(url === '/encoded' ? 'gzip' : undefined);
    }
    expect((await app.inject({ url: '/stream', headers: { 'accept-encoding': 'br' } })).json()).toEqual(big);
  });
});
