/**
 * Recovery codes (docs/accounts.md "Two-factor sign-in"): ten per user, each 50 random bits written as
 * ten base32 characters, `xxxxx-xxxxx`, for signing in without the phone. Only a keyed hash of each is
 * stored; a code works once.
 */
import { randomBytes } from 'node:crypto';
import { base32Encode } from '../../lib/totp';

export const RECOVERY_CODE_COUNT = 10;
const CODE_CHARACTERS = 10;

/** A new code: the first 50 bits of 7 random bytes in base32 (every character carries 5 random bits). */
function newRecoveryCode(): string {
  const text = base32Encode(randomBytes(7)).slice(0, CODE_CHARACTERS).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(newRecoveryCode());
  return [...codes];
}

/** A code as typed, in the form its hash is taken of: case, spaces and dashes ignored; undefined when it cannot be one. */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const clean = typed.replace(/[\s-]/g, '').toUpperCase();
  return /^[A-Z2-7]{10}$/.test(clean) ? clean : undefined;
}
