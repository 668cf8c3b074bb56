/**
 * Fast over the wire: the web build's files go out pre-compressed (the `.br` / `.gz` the web build
 * writes beside each file, apps/web/precompress.ts) in the encoding the client accepts, JSON answers
 * are compressed on the fly from 1 KB on, and each kind of answer carries its cache policy.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../test/helpers';
import { COMPRESS_THRESHOLD_BYTES, IMMUTABLE_CACHE_CONTROL } from './app';

// A stand-in for apps/web/dist: an index.html and a hashed asset, each with its compressed siblings.
// The siblings' contents are marked, so a test can tell which file was sent.
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Signalboard</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
// A route's own page (apps/web/route-preloads.ts): index.html that also links the route's chunks.
const MAIN_HTML = INDEX_HTML.replace('</head>', '<link rel="modulepreload" crossorigin href="/assets/dashboard-screen-Zz99.js"></head>');
const ASSET_JS = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;

async function writeFiles(dir: string, name: string, content: string) {
  await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
  await fs.writeFile(path.join(dir, name), content);
  await fs.writeFile(path.join(dir, `${name}.br`), zlib.brotliCompressSync(`${content}<!-- br -->`));
  await fs.writeFile(path.join(dir, `${name}.gz`), zlib.gzipSync(`${content}<!-- gz -->`));
}

let t: TestApp;
let webDist: string;
let headers: { authorization: string };
beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-web-dist-'));
  await writeFiles(webDist, 'index.html', INDEX_HTML);
  await writeFiles(webDist, 'assets/index-Ab12Cd34.js', ASSET_JS);
  await writeFiles(webDist, 'routes/dashboard/main.html', MAIN_HTML);
  t = await createTestApp({ WEB_DIST: webDist });
  const email = uniqueEmail('compress');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => {
  await t?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...extra, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) } });

/** The body as the client reads it, decoded by its content-encoding. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload).toString('utf8');
  expect(encoding ?? 'identity').toBe('identity');
  return response.rawPayload.toString('utf8');
}

const varies = (response: LightMyRequestResponse) =>
  String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/)
    .includes('accept-encoding');

function expectSecurityHeaders(response: LightMyRequestResponse) {
  expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

/** An API answer's: nothing may load or run in it (plugins/security-headers.ts computeApiHeaders). */
function expectApiSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

describe('the web build', () => {
  it('sends a hashed asset pre-compressed as the client accepts, cached for a year as immutable', async () => {
    const cases: Array<[string | undefined, string | undefined, string]> = [
      ['gzip, deflate, br, zstd', 'br', '<!-- br -->'],
      ['br;q=0.5, gzip', 'gzip', '<!-- gz -->'],
      ['gzip, deflate', 'gzip', '<!-- gz -->'],
      ['deflate', undefined, ''],
      ['identity', undefined, ''],
      [undefined, undefined, ''],
    ];
    for (const [accept, encoding, mark] of cases) {
      const response = await get('/assets/index-Ab12Cd34.js', accept);
      expect(response.statusCode, `Accept-Encoding: ${accept}`).toBe(200);
      expect(response.headers['content-encoding'], `Accept-Encoding: ${accept}`).toBe(encoding);
      expect(decoded(response)).toBe(`${ASSET_JS}${mark}`);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['cache-control']).toBe(IMMUTABLE_CACHE_CONTROL);
      expect(varies(response), 'Vary: Accept-Encoding').toBe(true);
      expectSecurityHeaders(response);
      if (encoding) expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    }
  });

  it('sends index.html pre-compressed for every app route, checked again on each use (no-cache)', async () => {
    for (const url of ['/', '/index.html', '/login', '/dashboard/options', '/dashboard/main/extra', '/dashboard/..%2Fmain', '/routes/dashboard/x']) {
      for (const [accept, encoding, mark] of [
        ['br, gzip', 'br', '<!-- br -->'],
        ['gzip', 'gzip', '<!-- gz -->'],
        [undefined, undefined, ''],
      ] as const) {
        const response = await get(url, accept);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], `${url} with Accept-Encoding: ${accept}`).toBe(encoding);
        expect(decoded(response)).toBe(`${INDEX_HTML}${mark}`);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control'], url).toBe('no-cache');
        expect(varies(response), `${url}: Vary: Accept-Encoding`).toBe(true);
        expectSecurityHeaders(response);
      }
    }
  });

  it("sends a route's own page where the build made one (its chunks linked), pre-compressed and no-cache", async () => {
    for (const url of ['/dashboard/main', '/dashboard/main/', '/dashboard/main?x=1']) {
      for (const [accept, encoding, mark] of [
        ['br, gzip', 'br', '<!-- br -->'],
        [undefined, undefined, ''],
      ] as const) {
        const response = await get(url, accept);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-encoding'], `${url} with Accept-Encoding: ${accept}`).toBe(encoding);
        expect(decoded(response), url).toBe(`${MAIN_HTML}${mark}`);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['cache-control'], url).toBe('no-cache');
        expectSecurityHeaders(response);
      }
    }
  });
});

describe('JSON answers', () => {
  it('compresses a large JSON answer with brotli or gzip as the client accepts, never cached', async () => {
    const plain = await get('/api/docs', undefined, headers);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const document = plain.json<{ openapi: string }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
    ] as const) {
      const response = await get('/api/docs', accept, headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], `Accept-Encoding: ${accept}`).toBe(encoding);
      expect(JSON.parse(decoded(response))).toEqual(document);
      if (encoding) {
        expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(varies(response)).toBe(true);
      }
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['cache-control']).toBe('no-store');
      expectApiSecurityHeaders(response);
    }
  });

  it('sends small answers and errors as they are, never cached, with the security headers', async () => {
    for (const [url, status, auth] of [
      ['/api/health', 200, {}],
      ['/api/getemail', 200, headers],
      ['/api/getemail', 401, {}],
      ['/api/no-such-call', 404, headers],
    ] as const) {
      const response = await get(url, 'br, gzip', auth);
      expect(response.statusCode, url).toBe(status);
      expect(response.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(JSON.parse(decoded(response))).toBeTypeOf('object');
      expect(response.headers['cache-control'], url).toBe('no-store');
      expectApiSecurityHeaders(response);
    }
  });
});
