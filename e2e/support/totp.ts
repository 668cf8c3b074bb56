/**
 * One-time codes for the browser tests, written here on node:crypto from RFC 4226 / RFC 6238 and
 * RFC 4648 alone: independent of the server's apps/server/src/lib/totp.ts, so a test that signs in
 * with them checks the server against a second implementation.
 */
import { createHmac } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The key as the Account screen shows it (base32 in groups, maybe lower case) → its bytes. */
export function keyFromBase32(shown: string): Buffer {
  let bits = '';
  for (const char of shown.replace(/[\s=]/g, '').toUpperCase()) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The 30-second step `atMs` falls in. */
export const stepAt = (atMs: number) => Math.floor(atMs / 30_000);

/** The 6-digit code of a step: HMAC-SHA1 over the 8-byte big-endian counter, dynamically truncated. */
export function codeAtStep(key: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeUInt32BE(Math.floor(step / 2 ** 32), 0);
  counter.writeUInt32BE(step % 2 ** 32, 4);
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 0xf;
  const value = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(value % 1_000_000).padStart(6, '0');
}
