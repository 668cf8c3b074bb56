/**
 * Web Push message encryption (RFC 8291) in the "aes128gcm" content coding (RFC 8188), and the
 * whole request a push service (RFC 8030) takes for one message, VAPID (RFC 8292) included. The
 * body is one record: header salt ‖ rs ‖ idlen ‖ the server's one-time public key, then
 * AES-128-GCM of the plaintext ‖ 0x02. Issue 27; docs/rules/alerts.md §4.8.
 */
import { createCipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { decodeBase64Url, P256_PUBLIC_KEY_BYTES, vapidAuthorization, type VapidKeys } from './vapid';

/** A subscription's keys as the browser gives them (`subscription.toJSON().keys`): base64url, padded or not. */
export interface PushSubscriptionKeys {
  p256dh: string;
  auth: string;
}

export interface PushSubscriptionJson {
  endpoint: string;
  keys: PushSubscriptionKeys;
}

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

const AUTH_SECRET_BYTES = 16;
const SALT_BYTES = 16;
/** RFC 8188 record size; RFC 8291 §4: a push service must take a 4096-byte body, which is one such record. */
const RECORD_SIZE = 4096;
const TAG_BYTES = 16;
const HEADER_BYTES = SALT_BYTES + 4 + 1 + P256_PUBLIC_KEY_BYTES;
/** 4096 - 86 (header) - 16 (tag) - 1 (padding delimiter) = 3993 (RFC 8291 §4). */
export const MAX_PUSH_PLAINTEXT_BYTES = RECORD_SIZE - HEADER_BYTES - TAG_BYTES - 1;
const LAST_RECORD_DELIMITER = 0x02;
export const DEFAULT_PUSH_TTL_SECONDS = 86_400;
const MAX_TOPIC_LENGTH = 32;

function hkdf(ikm: Buffer, salt: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** The user agent's public point and auth secret, or an Error saying which of them is wrong. */
function subscriptionKeyBytes(keys: PushSubscriptionKeys): { uaPublic: Buffer; authSecret: Buffer } {
  const uaPublic = decodeBase64Url(keys.p256dh);
  if (!uaPublic || uaPublic.length !== P256_PUBLIC_KEY_BYTES || uaPublic[0] !== 0x04) {
    throw new Error(`The subscription's p256dh key must be a base64url uncompressed P-256 point (65 bytes starting 0x04); got ${uaPublic ? `${uaPublic.length} bytes` : 'text that is not base64url'}.`);
  }
  const authSecret = decodeBase64Url(keys.auth);
  if (!authSecret || authSecret.length !== AUTH_SECRET_BYTES) {
    throw new Error(`The subscription's auth secret must be ${AUTH_SECRET_BYTES} bytes of base64url; got ${authSecret ? `${authSecret.length} bytes` : 'text that is not base64url'}.`);
  }
  return { uaPublic, authSecret };
}

/**
 * The message body for one subscription (RFC 8291 §3–4): a fresh server key pair and salt each
 * call unless `options` fixes them (the RFC's worked example does). At most 3993 bytes of plaintext.
 */
export function encryptPushPayload(plaintext: Buffer | string, keys: PushSubscriptionKeys, options: { salt?: Buffer; serverKeys?: ECDH } = {}): Buffer {
  const message = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
  if (message.length > MAX_PUSH_PLAINTEXT_BYTES) {
    throw new Error(`A push message can carry at most ${MAX_PUSH_PLAINTEXT_BYTES} bytes, not ${message.length}: send less (a link to fetch the rest).`);
  }
  const { uaPublic, authSecret } = subscriptionKeyBytes(keys);
  const salt = options.salt ?? randomBytes(SALT_BYTES);
  if (salt.length !== SALT_BYTES) throw new Error(`The salt must be ${SALT_BYTES} bytes, not ${salt.length}.`);
  const serverKeys = options.serverKeys ?? createECDH('prime256v1');
  if (!options.serverKeys) serverKeys.generateKeys();
  const asPublic = serverKeys.getPublicKey();

  let ecdhSecret: Buffer;
  try {
    ecdhSecret = serverKeys.computeSecret(uaPublic);
  } catch (error) {
    throw new Error("The subscription's p256dh key is not a point on the P-256 curve.", { cause: error });
  }
  // RFC 8291 §3.3: the auth secret and both public keys bind the key to this subscription.
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0', 'ascii'), uaPublic, asPublic]);
  const ikm = hkdf(ecdhSecret, authSecret, keyInfo, 32);
  // RFC 8291 §3.4 / RFC 8188 §2.2–2.3.
  const contentKey = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0', 'ascii'), 16);
  const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0', 'ascii'), 12);

  const header = Buffer.alloc(HEADER_BYTES);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, SALT_BYTES);
  header.writeUInt8(asPublic.length, SALT_BYTES + 4);
  asPublic.copy(header, SALT_BYTES + 5);

  const cipher = createCipheriv('aes-128-gcm', contentKey, nonce);
  const ciphertext = Buffer.concat([cipher.update(message), cipher.update(Buffer.from([LAST_RECORD_DELIMITER])), cipher.final()]);
  return Buffer.concat([header, ciphertext, cipher.getAuthTag()]);
}

/**
 * The POST that delivers `payload` to one subscription: its URL, headers (RFC 8030 §5: TTL,
 * Urgency, Topic; RFC 8292 authorization) and encrypted body. The sender adds Content-Length.
 * `ttlSeconds` (default 24 h) is how long the push service keeps a message for an offline browser;
 * a message with the same `topic` (≤ 32 base64url characters) replaces an undelivered one.
 */
export function pushRequest(
  subscription: PushSubscriptionJson,
  payload: string,
  vapid: VapidKeys,
  subject: string,
  now: Date,
  options: { ttlSeconds?: number; urgency?: PushUrgency; topic?: string } = {},
): { url: string; headers: Record<string, string>; body: Buffer } {
  const url = new URL(subscription.endpoint);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`A push endpoint is an https: (or, in tests, http:) URL, not ${url.protocol}.`);
  const ttlSeconds = options.ttlSeconds ?? DEFAULT_PUSH_TTL_SECONDS;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 0) throw new Error(`The push TTL must be a whole number of seconds, not ${ttlSeconds}.`);
  const headers: Record<string, string> = {
    'content-encoding': 'aes128gcm',
    'content-type': 'application/octet-stream',
    ttl: String(ttlSeconds),
    urgency: options.urgency ?? 'normal',
    authorization: vapidAuthorization(subscription.endpoint, subject, vapid, Math.floor(now.getTime() / 1000)),
  };
  if (options.topic !== undefined) {
    if (!new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TOPIC_LENGTH}}$`).test(options.topic)) {
      throw new Error(`A push topic is 1 to ${MAX_TOPIC_LENGTH} base64url characters (A-Z a-z 0-9 - _), not "${options.topic}".`);
    }
    headers.topic = options.topic;
  }
  return { url: subscription.endpoint, headers, body: encryptPushPayload(payload, subscription.keys) };
}
