/**
 * Signed webhooks in the Standard Webhooks scheme (standardwebhooks.com), so a receiver can check an
 * alert came from this server with any of that scheme's libraries: the secret is 'whsec_' + base64
 * of the key; the signature 'v1,' + base64 of HMAC-SHA256 over `${id}.${timestamp}.${body}`.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret for a webhook channel: 'whsec_' + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The key a secret carries (base64 after 'whsec_'; a secret without the prefix is read as base64 too, as the libraries do). */
function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('A webhook secret must carry a key: whsec_ followed by base64.');
  return key;
}

/**
 * The `webhook-signature` value for one message: 'v1,' + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)).
 * The timestamp is whole seconds, as the header carries it; the body is signed exactly as it is sent.
 */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  if (!Number.isSafeInteger(timestampSeconds)) throw new RangeError(`A webhook timestamp is whole seconds, not ${timestampSeconds}.`);
  const signature = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${signature}`;
}

/** The headers a signed webhook carries: its id, its timestamp, its signature, and the JSON content type. */
export function webhookHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string; 'content-type': 'application/json' } {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(secret, id, timestampSeconds, body),
    'content-type': 'application/json',
  };
}
