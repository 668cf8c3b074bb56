/**
 * VAPID (RFC 8292): the server's P-256 key pair, kept in DATA_DIR/vapid-keys.json or given as
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, and the `Authorization: vapid t=<JWT>, k=<key>` header that
 * proves to a push service (RFC 8030) that a message comes from the server the browser subscribed
 * to. The JWT is ES256 (RFC 7515/7518) with its signature as r ‖ s. Issue 27; docs/rules/alerts.md §4.8.
 */
import { createECDH, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** base64url without padding: publicKey is the 65-byte uncompressed P-256 point, privateKey the 32-byte scalar d. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export const VAPID_KEYS_FILE = 'vapid-keys.json';
/** RFC 8292 §2: a push service refuses a token whose `exp` is more than 24 hours ahead. */
export const MAX_VAPID_TTL_SECONDS = 24 * 3600;
export const P256_PUBLIC_KEY_BYTES = 65;
const P256_PRIVATE_KEY_BYTES = 32;
const UNCOMPRESSED_POINT_PREFIX = 0x04;
/** How long a load waits for another process that created the key file but has not written it yet. */
const KEY_FILE_WAIT_MS = 1_000;
const KEY_FILE_RETRY_MS = 25;

/**
 * The bytes of base64url or base64 text, with or without padding (browsers and tools give either);
 * null when the text has any other character or cannot be a whole number of bytes.
 */
export function decodeBase64Url(text: string): Buffer | null {
  const unpadded = text.trim().replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length % 4 === 1) return null;
  return Buffer.from(unpadded, 'base64url');
}

export function generateVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y || !jwk.d) throw new Error('Node did not export the generated P-256 key as a JWK.');
  const point = Buffer.concat([Buffer.from([UNCOMPRESSED_POINT_PREFIX]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d };
}

/**
 * The pair in canonical form (unpadded base64url) when it is one: a 65-byte uncompressed point, a
 * 32-byte scalar, and the scalar's own public point. `source` names where it came from in the error.
 */
function validatedKeys(publicKey: string, privateKey: string, source: string): VapidKeys {
  const point = decodeBase64Url(publicKey);
  if (!point || point.length !== P256_PUBLIC_KEY_BYTES || point[0] !== UNCOMPRESSED_POINT_PREFIX) {
    throw new Error(`${source}: the public key must be a base64url uncompressed P-256 point (65 bytes starting 0x04); got ${point ? `${point.length} bytes` : 'text that is not base64url'}.`);
  }
  const scalar = decodeBase64Url(privateKey);
  if (!scalar || scalar.length !== P256_PRIVATE_KEY_BYTES) {
    throw new Error(`${source}: the private key must be a base64url 32-byte P-256 scalar; got ${scalar ? `${scalar.length} bytes` : 'text that is not base64url'}.`);
  }
  const ecdh = createECDH('prime256v1');
  try {
    ecdh.setPrivateKey(scalar);
  } catch (error) {
    throw new Error(`${source}: the private key is not a valid P-256 scalar.`, { cause: error });
  }
  if (!ecdh.getPublicKey().equals(point)) {
    throw new Error(`${source}: the private key does not belong to the public key (they are not one key pair).`);
  }
  return { publicKey: point.toString('base64url'), privateKey: scalar.toString('base64url') };
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The keys in an existing file. An empty or half-written file is waited for briefly (another process
 * created it with `wx` and is writing it); after that, or for any other content, it is an Error naming the file.
 */
async function readKeyFile(file: string): Promise<VapidKeys> {
  const deadline = performance.now() + KEY_FILE_WAIT_MS;
  for (;;) {
    const text = await fs.readFile(file, 'utf8');
    let parsed: unknown;
    let parseError: unknown;
    try {
      parsed = text.trim() === '' ? undefined : JSON.parse(text);
    } catch (error) {
      parseError = error;
    }
    if (parsed !== undefined) {
      const { publicKey, privateKey } = parsed as Partial<Record<keyof VapidKeys, unknown>>;
      if (typeof publicKey !== 'string' || typeof privateKey !== 'string') {
        throw new Error(`${file} is corrupt: expected {"publicKey": "…", "privateKey": "…"}. Delete it to have a new pair made (subscribed browsers must then subscribe again).`);
      }
      return validatedKeys(publicKey, privateKey, `${file} is corrupt`);
    }
    if (performance.now() >= deadline) {
      const what = parseError ? 'is not JSON' : 'is empty';
      throw new Error(`${file} is corrupt: it ${what}. Delete it to have a new pair made (subscribed browsers must then subscribe again).`, { cause: parseError });
    }
    await sleep(KEY_FILE_RETRY_MS);
  }
}

/**
 * The server's VAPID key pair: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when both are set (checked to
 * be one P-256 pair), else `<dataDir>/vapid-keys.json`, made once (mode 0600) on the first start.
 * Two processes starting at once agree: the file is created with `wx`, and the one that loses reads
 * the winner's. One of the two variables without the other is an Error.
 */
export async function loadVapidKeys(options: { dataDir: string; publicKey?: string | undefined; privateKey?: string | undefined }): Promise<VapidKeys> {
  const publicKey = options.publicKey?.trim() || undefined;
  const privateKey = options.privateKey?.trim() || undefined;
  if (publicKey && privateKey) return validatedKeys(publicKey, privateKey, 'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY');
  if (publicKey || privateKey) {
    const [given, missing] = publicKey ? ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] : ['VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY'];
    throw new Error(`${given} is set but ${missing} is not: set both (one P-256 key pair, base64url) or neither (the server then keeps its own pair in DATA_DIR/${VAPID_KEYS_FILE}).`);
  }
  const file = path.join(options.dataDir, VAPID_KEYS_FILE);
  try {
    return await readKeyFile(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  await fs.mkdir(options.dataDir, { recursive: true });
  const created = generateVapidKeys();
  try {
    await fs.writeFile(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return created;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    return readKeyFile(file); // another process created it first: use its pair
  }
}

/** The signing key for a pair, through a JWK: Node takes no raw P-256 scalar otherwise. */
function signingKey(keys: VapidKeys): KeyObject {
  const point = decodeBase64Url(keys.publicKey);
  if (!point || point.length !== P256_PUBLIC_KEY_BYTES) throw new Error('The VAPID public key is not a 65-byte uncompressed P-256 point.');
  const x = point.subarray(1, 33).toString('base64url');
  const y = point.subarray(33, 65).toString('base64url');
  return createPrivateKey({ key: { kty: 'EC', crv: 'P-256', x, y, d: keys.privateKey }, format: 'jwk' });
}

function isVapidSubject(subject: string): boolean {
  if (/^mailto:[^\s@]+@[^\s@]+$/.test(subject)) return true;
  try {
    return new URL(subject).protocol === 'https:';
  } catch {
    return false;
  }
}

const base64UrlJson = (value: object) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * `vapid t=<JWT>, k=<public key>` for a push to `endpoint` (RFC 8292 §3): an ES256 JWT whose `aud`
 * is the endpoint's origin, `exp` is `nowSeconds + ttlSeconds` (at most 24 h) and `sub` is the
 * operator's contact, a `mailto:` or `https:` URL.
 */
export function vapidAuthorization(endpoint: string, subject: string, keys: VapidKeys, nowSeconds: number, ttlSeconds = 12 * 3600): string {
  if (!isVapidSubject(subject)) throw new Error(`The VAPID subject must be a mailto: or https: URL (the operator's contact), not "${subject}".`);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0 || ttlSeconds > MAX_VAPID_TTL_SECONDS) {
    throw new Error(`The VAPID token's lifetime must be 1 to ${MAX_VAPID_TTL_SECONDS} seconds (24 h), not ${ttlSeconds}.`);
  }
  const audience = new URL(endpoint).origin;
  const header = base64UrlJson({ typ: 'JWT', alg: 'ES256' });
  const claims = base64UrlJson({ aud: audience, exp: Math.floor(nowSeconds) + ttlSeconds, sub: subject });
  const signingInput = `${header}.${claims}`;
  const signature = sign('sha256', Buffer.from(signingInput, 'ascii'), { key: signingKey(keys), dsaEncoding: 'ieee-p1363' });
  return `vapid t=${signingInput}.${signature.toString('base64url')}, k=${keys.publicKey}`;
}
