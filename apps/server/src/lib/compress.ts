/**
 * Compression of the answers worth compressing: a JSON or text answer (a string or a buffer) of at
 * least `threshold` bytes goes out as brotli or gzip, as the client's Accept-Encoding prefers, with
 * `Vary: Accept-Encoding` and its compressed length. Everything else leaves as it is:
 * - small answers (most API calls: compressing them saves less than it costs);
 * - streams: the web build's files come pre-compressed (@fastify/static, apps/web/precompress.ts),
 *   and the NDJSON of the Options Scanner and the live stream must leave line by line;
 * - answers already encoded, partial content (206), and bodiless statuses.
 *
 * One onSend hook for the whole app, in place of @fastify/compress: that plugin added an onRequest
 * and an onSend hook to every route, and read four headers and parsed Accept-Encoding before it
 * looked at the answer's size: about 3 µs of the authenticated read's ~55 µs
 * (`npm run bench -- getemail`, 2026-12-04), for answers it then sent as they were. Here a small
 * answer costs a type check and its length.
 */
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Encoding = 'br' | 'gzip';

/** Text types worth compressing (JSON, text, JavaScript, XML, SVG, and their `+json`/`+xml` kin). */
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|[\w.+-]*\+(?:json|xml))|image\/svg\+xml)/i;

/** Brotli at quality 4 (the plugin's choice too): most of the size win, a fraction of the default quality's time. */
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding to answer with: the one among `encodings` the client gives the highest q-value
 * (`*` stands for any not named; q=0 refuses), ties going to the first in `encodings`; undefined
 * for none (no header, `identity`, or only encodings we do not make).
 */
export function negotiateEncoding(header: string | undefined, encodings: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (!token) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=');
      if (key?.trim().toLowerCase() === 'q') {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
      }
    }
    quality.set(token, q);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const encoding of encodings) {
    const q = quality.get(encoding) ?? quality.get('*') ?? 0;
    if (q > bestQ) {
      best = encoding;
      bestQ = q;
    }
  }
  return best;
}

function compressWith(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') brotliCompress(body, BROTLI_OPTIONS, done);
    else gzip(body, done);
  });
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'accept-encoding');
    return;
  }
  const values = String(vary).split(',').map((value) => value.trim().toLowerCase());
  if (!values.includes('accept-encoding') && !values.includes('*')) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/** Adds the hook to `app` (before its routes are registered: a hook applies to the routes after it). */
export function compressAnswers(app: FastifyInstance, options: { threshold: number; encodings: readonly Encoding[] }): void {
  const { threshold, encodings } = options;
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    // The usual API answer: a short JSON string, sent as it is.
    if (typeof payload === 'string' ? payload.length < threshold && Buffer.byteLength(payload) < threshold : !Buffer.isBuffer(payload) || payload.length < threshold) {
      done(null, payload);
      return;
    }
    const status = reply.statusCode;
    if (status === 204 || status === 206 || status === 304 || request.method === 'HEAD' || reply.hasHeader('content-encoding') || reply.hasHeader('content-range')) {
      done(null, payload);
      return;
    }
    const type = reply.getHeader('content-type');
    // Whether the answer is compressed depends on Accept-Encoding: caches must know, even when this one is not.
    if (type === undefined || !COMPRESSIBLE.test(String(type))) {
      done(null, payload);
      return;
    }
    addVary(reply);
    const encoding = negotiateEncoding(request.headers['accept-encoding'], encodings);
    if (!encoding) {
      done(null, payload);
      return;
    }
    const body = typeof payload === 'string' ? Buffer.from(payload) : (payload as Buffer);
    compressWith(encoding, body).then(
      (compressed) => {
        reply.header('content-encoding', encoding).header('content-length', compressed.length);
        done(null, compressed);
      },
      (error: unknown) => {
        // Sent as it is: a compression failure costs bytes, never the answer.
        request.log.warn({ err: error }, 'compressing an answer failed; sent uncompressed');
        done(null, payload);
      },
    );
  });
}
