/**
 * The installable app's files (issue 27, browser push): the service worker, the web app manifest and
 * the icons go out from the web build like index.html, checked again on each use (`no-cache`, never the
 * hashed assets' year), so a new worker or manifest reaches every device on its next visit, with the
 * content types browsers require (a worker must be JavaScript; the manifest application/manifest+json),
 * under a CSP that lets the page register its own worker and read its own manifest.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';

// The real files, from the web app's public/ (what `vite build` copies into dist as they are).
const WEB_PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/public');
const INDEX_HTML = '<!doctype html><html lang="en"><head><link rel="manifest" href="/manifest.webmanifest" /><title>Signalboard</title></head><body><div id="root"></div></body></html>';

let t: TestApp;
let webDist: string;
let swSource: string;
let manifestSource: string;
beforeAll(async () => {
  // A stand-in for apps/web/dist, each text file with the `.br` / `.gz` the build writes beside it.
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-web-dist-pwa-'));
  swSource = await fs.readFile(path.join(WEB_PUBLIC, 'sw.js'), 'utf8');
  manifestSource = await fs.readFile(path.join(WEB_PUBLIC, 'manifest.webmanifest'), 'utf8');
  for (const [name, content] of [
    ['index.html', INDEX_HTML],
    ['sw.js', swSource],
    ['manifest.webmanifest', manifestSource],
  ] as const) {
    await fs.writeFile(path.join(webDist, name), content);
    await fs.writeFile(path.join(webDist, `${name}.br`), zlib.brotliCompressSync(content));
    await fs.writeFile(path.join(webDist, `${name}.gz`), zlib.gzipSync(content));
  }
  await fs.cp(path.join(WEB_PUBLIC, 'icons'), path.join(webDist, 'icons'), { recursive: true });
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) => t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

function body(response: LightMyRequestResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.rawPayload);
  if (encoding === 'gzip') return zlib.gunzipSync(response.rawPayload);
  return response.rawPayload;
}

const directive = (response: LightMyRequestResponse, name: string) => new RegExp(`(?:^|;)${name} ([^;]*)`).exec(String(response.headers['content-security-policy']))?.[1];

describe('the service worker, /sw.js', () => {
  it('is JavaScript, checked again on each use, pre-compressed as the browser accepts', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const response = await get('/sw.js', accept);
      expect(response.statusCode, `Accept-Encoding: ${accept}`).toBe(200);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript\b/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(body(response).toString('utf8')).toBe(swSource);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('caches nothing and intercepts no request (the no-cache rule in its header)', () => {
    expect(swSource).not.toMatch(/addEventListener\(\s*['"]fetch['"]/);
    expect(swSource).not.toMatch(/\bonfetch\b|\bcaches\./);
    for (const event of ['install', 'activate', 'push', 'notificationclick']) expect(swSource).toContain(`addEventListener('${event}'`);
  });
});

describe('the web app manifest, /manifest.webmanifest', () => {
  it('is application/manifest+json, checked again on each use, pre-compressed as the browser accepts', async () => {
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      [undefined, undefined],
    ] as const) {
      const response = await get('/manifest.webmanifest', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/manifest\+json\b/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(JSON.parse(body(response).toString('utf8'))).toEqual(JSON.parse(manifestSource));
    }
  });

  it('names an installable app whose icons are all served', async () => {
    const manifest = JSON.parse(manifestSource) as { name: string; start_url: string; scope: string; display: string; id: string; icons: Array<{ src: string; sizes: string; type: string; purpose: string }> };
    expect(manifest).toMatchObject({ name: 'Signalboard', short_name: 'Signalboard', start_url: '/dashboard', scope: '/', display: 'standalone', id: '/dashboard' });
    expect(manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const response = await get(icon.src, 'br, gzip');
      expect(response.statusCode, icon.src).toBe(200);
      expect(response.headers['content-type'], icon.src).toBe('image/png');
      const [width, height] = icon.sizes.split('x').map(Number);
      // A PNG's IHDR: width and height at bytes 16 and 20.
      expect([response.rawPayload.readUInt32BE(16), response.rawPayload.readUInt32BE(20)], icon.src).toEqual([width, height]);
    }
  });
});

describe('the icons', () => {
  it('are PNG, sent as they are (no compression a PNG would not gain from), checked again on each use', async () => {
    for (const url of ['/icons/icon-192.png', '/icons/icon-512.png', '/icons/maskable-512.png', '/icons/apple-touch-icon.png']) {
      const response = await get(url, 'gzip, deflate, br');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('image/png');
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.rawPayload.subarray(0, 8).toString('hex'), url).toBe('89504e470d0a1a0a');
    }
  });
});

describe("the app's CSP", () => {
  it("allows the app's own service worker and manifest, and no other origin's", async () => {
    for (const url of ['/', '/dashboard', '/sw.js', '/manifest.webmanifest']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(directive(response, 'worker-src'), url).toBe("'self'");
      expect(directive(response, 'manifest-src'), url).toBe("'self'");
    }
  });
});
