/**
 * Client-side reading of the access token (spec §3, §4 "Token"). The signature is checked by the
 * server; the client only reads `exp` to decide whether to send the user to /login.
 */

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64UrlToBytes(input: string): Uint8Array | null {
  const normalized = input.replace(/-/g, '+').replace(/_/g, '/');
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of normalized) {
    if (char === '=') break;
    const value = BASE64_ALPHABET.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** UTF-8 bytes to text using only ECMAScript built-ins (core runs in Node and in browsers). */
function utf8Decode(bytes: Uint8Array): string {
  let percentEncoded = '';
  for (const byte of bytes) percentEncoded += `%${byte.toString(16).padStart(2, '0')}`;
  return decodeURIComponent(percentEncoded);
}

export interface AccessTokenPayload {
  readonly sub?: string;
  /** Expiry in seconds since the epoch. */
  readonly exp?: number;
}

/** Decodes a JWT's payload without verifying it; null when the token is not a readable JWT. */
export function decodeTokenPayload(token: string): AccessTokenPayload | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  const bytes = base64UrlToBytes(parts[1]);
  if (!bytes) return null;
  try {
    const json: unknown = JSON.parse(utf8Decode(bytes));
    return typeof json === 'object' && json !== null ? (json as AccessTokenPayload) : null;
  } catch {
    return null;
  }
}

/**
 * A token is valid when its `exp` is not earlier than now, compared in whole seconds (spec §4).
 * A token that cannot be read, or has no numeric `exp`, counts as expired.
 */
export function isTokenExpired(token: string, nowSeconds: number): boolean {
  const payload = decodeTokenPayload(token);
  if (!payload || typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return true;
  return payload.exp < Math.floor(nowSeconds);
}
