/**
 * One-time codes for two-factor sign-in (docs/accounts.md "Two-factor sign-in"): HOTP (RFC 4226),
 * TOTP (RFC 6238), base32 (RFC 4648) and the otpauth:// URI authenticator apps read from a QR code.
 * node:crypto only. Sign-in uses the defaults every authenticator app uses: SHA-1, 6 digits, 30 s.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type OtpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface OtpOptions {
  digits?: number;
  algorithm?: OtpAlgorithm;
}

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now a code is accepted from (a phone's clock a little off, a code typed as it turned). */
export const TOTP_WINDOW_STEPS = 1;
/** 160 bits, RFC 4226's recommended length for an HMAC-SHA-1 key. */
export const TOTP_SECRET_BYTES = 20;
export const TOTP_ISSUER = 'Signalboard';

/** RFC 4226 §5.3: HMAC of the 8-byte counter, dynamically truncated, modulo 10^digits, zero-padded. */
export function hotp(key: Buffer, counter: number, { digits = TOTP_DIGITS, algorithm = 'sha1' }: OtpOptions = {}): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError(`HOTP counter must be a whole number ≥ 0, not ${counter}`);
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

/** RFC 6238: the time step `nowMs` falls in (T0 = 0). */
export const totpStep = (nowMs: number, stepSeconds = TOTP_STEP_SECONDS): number => Math.floor(nowMs / 1000 / stepSeconds);

/** RFC 6238: the code of the step `nowMs` falls in. */
export function totp(key: Buffer, nowMs: number, options: OtpOptions & { stepSeconds?: number } = {}): string {
  return hotp(key, totpStep(nowMs, options.stepSeconds), options);
}

/**
 * Checks a 6-digit code typed at `nowMs` against the steps within ±TOTP_WINDOW_STEPS and answers the
 * step it matched, or null. A step at or before `lastUsedStep` (the last one this key signed in
 * with) never matches, so a code works once: a replay, even within its window, is refused. Every
 * candidate is computed and compared in constant time, whichever matches.
 */
export function verifyTotp(key: Buffer, code: string, nowMs: number, lastUsedStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const typed = Buffer.from(code);
  const now = totpStep(nowMs);
  let matched: number | null = null;
  for (let step = now - TOTP_WINDOW_STEPS; step <= now + TOTP_WINDOW_STEPS; step += 1) {
    if (step < 0) continue;
    const equal = timingSafeEqual(typed, Buffer.from(hotp(key, step)));
    if (equal && matched === null && (lastUsedStep === null || step > lastUsedStep)) matched = step;
  }
  return matched;
}

export const generateTotpSecret = (): Buffer => randomBytes(TOTP_SECRET_BYTES);

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 §6 base32; without `=` padding unless asked (authenticator apps take it either way). */
export function base32Encode(bytes: Buffer, { padding = false }: { padding?: boolean } = {}): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  if (padding) while (out.length % 8 !== 0) out += '=';
  return out;
}

/** Reads base32 as people copy it: any case, spaces, dashes and trailing `=` ignored; undefined for any other character. */
export function base32Decode(text: string): Buffer | undefined {
  const clean = text.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The key as the Account screen shows it for typing by hand: base32 in groups of four. */
export const groupedKey = (key: Buffer): string => base32Encode(key).match(/.{1,4}/g)!.join(' ');

/**
 * The Key Uri Format authenticator apps read: otpauth://totp/Signalboard:<email>?secret=…&issuer=Signalboard
 * with the defaults spelled out; the label's parts and every parameter URI-encoded.
 */
export function otpauthUri(key: Buffer, account: string, issuer = TOTP_ISSUER): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = [
    `secret=${base32Encode(key)}`,
    `issuer=${encodeURIComponent(issuer)}`,
    'algorithm=SHA1',
    `digits=${TOTP_DIGITS}`,
    `period=${TOTP_STEP_SECONDS}`,
  ].join('&');
  return `otpauth://totp/${label}?${query}`;
}
