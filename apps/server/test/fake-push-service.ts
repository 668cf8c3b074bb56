/**
 * A fake Web Push service (RFC 8030) for tests, on 127.0.0.1 at a random port. It hands out
 * browser-like subscriptions and, for each POST, checks the VAPID header (RFC 8292: an ES256 JWT
 * verified here with node:crypto) and decrypts the body with http_ece (RFC 8188/8291), so it does
 * not share a line with the server's own lib/webpush. Issue 27; docs/rules/alerts.md §4.8.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import httpEce from 'http_ece';

export interface FakePushReceipt {
  path: string;
  headers: Record<string, string>;
  status: number;
  vapidOk: boolean;
  vapidError: string | null;
  /** The decrypted message as UTF-8 text. */
  payload: string | null;
  decryptError: string | null;
}

export interface FakePushService {
  origin: string; // http://127.0.0.1:PORT
  /** A browser-like subscription: a fresh P-256 key pair and 16-byte auth secret; endpoint `${origin}/push/<random id>`. */
  subscribe(): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Every POST received, in order. */
  received: FakePushReceipt[];
  /**
   * The statuses the next valid posts to this endpoint get, one each in turn, the last one for every
   * post after (default 201): answer(endpoint, 410) for a gone subscription, answer(endpoint, 429, 201).
   * A post that fails the VAPID or decryption check gets 400 and uses none.
   */
  answer(endpoint: string, ...statuses: number[]): void;
  /** Resolves once `count` posts have been received; rejects after `timeoutMs` (default 5 s). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

interface FakeSubscription {
  receiverKeys: ECDH;
  authSecret: Buffer;
  statuses: number[];
}

/** RFC 8292 §2: a token may live at most 24 hours. */
const MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;

function flatHeaders(request: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function isContact(subject: unknown): boolean {
  if (typeof subject !== 'string') return false;
  if (/^mailto:\S+@\S+$/.test(subject)) return true;
  try {
    return new URL(subject).protocol === 'https:';
  } catch {
    return false;
  }
}

/** null when `authorization` is a valid `vapid t=…, k=…` for this service; else what is wrong with it. */
function vapidProblem(authorization: string | undefined, origin: string, expectedPublicKey: string | undefined): string | null {
  if (!authorization) return 'no Authorization header';
  const scheme = /^vapid\s+(.*)$/i.exec(authorization);
  if (!scheme) return `the Authorization scheme is not vapid: ${authorization.slice(0, 20)}`;
  const params = new Map<string, string>();
  for (const part of (scheme[1] ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const token = params.get('t');
  const publicKeyText = params.get('k');
  if (!token || !publicKeyText) return 'the vapid Authorization lacks t= or k=';
  if (expectedPublicKey !== undefined && publicKeyText !== expectedPublicKey) return 'k= is not the expected public key';
  const publicKey = Buffer.from(publicKeyText, 'base64url');
  if (publicKey.length !== 65 || publicKey[0] !== 0x04) return `k= is not a 65-byte uncompressed P-256 point (${publicKey.length} bytes)`;

  const parts = token.split('.');
  if (parts.length !== 3) return 'the token is not a JWS compact serialisation (three parts)';
  const [headerPart = '', claimsPart = '', signaturePart = ''] = parts;
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'the token header or claims are not JSON';
  }
  if (header.alg !== 'ES256') return `the token alg is ${String(header.alg)}, not ES256`;
  if (header.typ !== undefined && header.typ !== 'JWT') return `the token typ is ${String(header.typ)}, not JWT`;

  const signature = Buffer.from(signaturePart, 'base64url');
  if (signature.length !== 64) return `the signature is ${signature.length} bytes, not 64 (r ‖ s)`;
  let verified: boolean;
  try {
    const key = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: publicKey.subarray(1, 33).toString('base64url'), y: publicKey.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    verified = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`, 'ascii'), { key, dsaEncoding: 'ieee-p1363' }, signature);
  } catch (error) {
    return `k= is not a usable P-256 key: ${(error as Error).message}`;
  }
  if (!verified) return 'the signature does not verify with k=';

  if (claims.aud !== origin) return `aud is ${String(claims.aud)}, not ${origin}`;
  const nowSeconds = Date.now() / 1000;
  if (typeof claims.exp !== 'number') return 'exp is missing';
  if (claims.exp <= nowSeconds) return 'the token has expired';
  if (claims.exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS) return 'exp is more than 24 hours ahead';
  if (!isContact(claims.sub)) return `sub is not a mailto: or https: URL: ${String(claims.sub)}`;
  return null;
}

export async function startFakePushService(options: { expectedPublicKey?: string } = {}): Promise<FakePushService> {
  const subscriptions = new Map<string, FakeSubscription>();
  const received: FakePushReceipt[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  function handle(request: http.IncomingMessage, body: Buffer): { status: number; receipt: FakePushReceipt } {
    const path = new URL(request.url ?? '/', origin).pathname;
    const headers = flatHeaders(request);
    const vapidError = vapidProblem(headers.authorization, origin, options.expectedPublicKey);
    const receipt: FakePushReceipt = { path, headers, status: 0, vapidOk: vapidError === null, vapidError, payload: null, decryptError: null };
    const subscription = subscriptions.get(path);
    if (!subscription) return { status: 404, receipt };
    if (headers['content-encoding'] !== 'aes128gcm') {
      receipt.decryptError = `content-encoding is ${headers['content-encoding'] ?? 'missing'}, not aes128gcm`;
    } else {
      try {
        receipt.payload = httpEce.decrypt(body, { version: 'aes128gcm', privateKey: subscription.receiverKeys, authSecret: subscription.authSecret }).toString('utf8');
      } catch (error) {
        receipt.decryptError = error instanceof Error ? error.message : String(error);
      }
    }
    if (vapidError !== null || receipt.decryptError !== null) return { status: 400, receipt };
    const status = subscription.statuses.length > 1 ? subscription.statuses.shift() : subscription.statuses[0];
    return { status: status ?? 201, receipt };
  }

  const server = http.createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { status, receipt } = handle(request, Buffer.concat(chunks));
      receipt.status = status;
      received.push(receipt);
      for (const wake of waiters) wake();
      if (status === 201) response.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
      else response.writeHead(status, { 'content-type': 'text/plain' }).end(receipt.vapidError ?? receipt.decryptError ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    subscribe() {
      const receiverKeys = createECDH('prime256v1');
      receiverKeys.generateKeys();
      const authSecret = randomBytes(16);
      const path = `/push/${randomBytes(12).toString('base64url')}`;
      subscriptions.set(path, { receiverKeys, authSecret, statuses: [] });
      return { endpoint: `${origin}${path}`, keys: { p256dh: receiverKeys.getPublicKey().toString('base64url'), auth: authSecret.toString('base64url') } };
    },
    answer(endpoint, ...statuses) {
      const subscription = subscriptions.get(new URL(endpoint, origin).pathname);
      if (!subscription) throw new Error(`The fake push service gave out no subscription ${endpoint}.`);
      subscription.statuses = statuses;
    },
    waitFor(count, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`The fake push service received ${received.length} posts in ${timeoutMs} ms, not ${count}.`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
