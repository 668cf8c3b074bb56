import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, groupedKey, hotp, otpauthUri, totp, totpStep, verifyTotp } from './totp';

// RFC 6238 Appendix B: the seeds are the ASCII digits repeated to the hash's block-key length.
const SEED_SHA1 = Buffer.from('12345678901234567890', 'ascii');
const SEED_SHA256 = Buffer.from('12345678901234567890123456789012', 'ascii');
const SEED_SHA512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii');

describe('hotp (RFC 4226 Appendix D)', () => {
  it('gives the published values for counters 0 to 9', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(SEED_SHA1, counter))).toEqual(expected);
  });

  it('refuses a counter that is not a whole number ≥ 0', () => {
    expect(() => hotp(SEED_SHA1, -1)).toThrow(RangeError);
    expect(() => hotp(SEED_SHA1, 1.5)).toThrow(RangeError);
  });
});

describe('totp (RFC 6238 Appendix B, 8 digits)', () => {
  const vectors: Array<[number, string, string, string]> = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(vectors)('at %i s: SHA1 %s, SHA256 %s, SHA512 %s', (seconds, sha1, sha256, sha512) => {
    const nowMs = seconds * 1000;
    expect(totp(SEED_SHA1, nowMs, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(totp(SEED_SHA256, nowMs, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totp(SEED_SHA512, nowMs, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });

  it('with the defaults (SHA-1, 6 digits, 30 s) is the last 6 digits of the SHA-1 vector', () => {
    expect(totp(SEED_SHA1, 59_000)).toBe('287082');
    expect(totp(SEED_SHA1, 1111111109_000)).toBe('081804');
  });
});

describe('verifyTotp', () => {
  const nowMs = 1_234_567_890_000;
  const step = totpStep(nowMs);
  const codeAt = (s: number) => hotp(SEED_SHA1, s);

  it('accepts the current step and one either side, answering the step it matched', () => {
    expect(verifyTotp(SEED_SHA1, codeAt(step), nowMs, null)).toBe(step);
    expect(verifyTotp(SEED_SHA1, codeAt(step - 1), nowMs, null)).toBe(step - 1);
    expect(verifyTotp(SEED_SHA1, codeAt(step + 1), nowMs, null)).toBe(step + 1);
  });

  it('refuses two steps away', () => {
    // Unless two steps happen to share a code (one in a million), which this fixed clock does not.
    expect(codeAt(step - 2)).not.toBe(codeAt(step));
    expect(verifyTotp(SEED_SHA1, codeAt(step - 2), nowMs, null)).toBeNull();
    expect(verifyTotp(SEED_SHA1, codeAt(step + 2), nowMs, null)).toBeNull();
  });

  it('refuses a step at or before the last one used (a replay), accepts a later one', () => {
    expect(verifyTotp(SEED_SHA1, codeAt(step), nowMs, step)).toBeNull();
    expect(verifyTotp(SEED_SHA1, codeAt(step - 1), nowMs, step - 1)).toBeNull();
    expect(verifyTotp(SEED_SHA1, codeAt(step - 1), nowMs, step)).toBeNull();
    expect(verifyTotp(SEED_SHA1, codeAt(step + 1), nowMs, step)).toBe(step + 1);
  });

  it('refuses anything but six digits, and another key', () => {
    for (const typed of ['', '12345', '1234567', 'abcdef', ` ${codeAt(step)}`, '٠١٢٣٤٥']) expect(verifyTotp(SEED_SHA1, typed, nowMs, null)).toBeNull();
    expect(verifyTotp(SEED_SHA256, codeAt(step), nowMs, null)).toBeNull();
  });
});

describe('base32 (RFC 4648 §10)', () => {
  const vectors: Array<[string, string]> = [
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ];
  it.each(vectors)('%j ↔ %s', (plain, encoded) => {
    expect(base32Encode(Buffer.from(plain), { padding: true })).toBe(encoded);
    expect(base32Encode(Buffer.from(plain))).toBe(encoded.replace(/=+$/, ''));
    expect(base32Decode(encoded)?.toString()).toBe(plain);
  });

  it('reads a key as people copy it (lower case, spaces, dashes), and refuses other characters', () => {
    expect(base32Decode('mzxw 6ytb-oi')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeUndefined();
    expect(base32Decode('MZXW8')).toBeUndefined();
  });

  it('round-trips 20 random-looking bytes; the grouped form reads back the same', () => {
    const key = Buffer.from(Array.from({ length: 20 }, (_, i) => (i * 37 + 11) & 0xff));
    expect(base32Decode(base32Encode(key))).toEqual(key);
    expect(groupedKey(key)).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    expect(base32Decode(groupedKey(key))).toEqual(key);
  });
});

describe('otpauthUri', () => {
  it('names the issuer and the account, URI-encoded, with the secret in base32 and the defaults', () => {
    const uri = otpauthUri(SEED_SHA1, 'ann+trade@example.com');
    expect(uri).toBe(
      'otpauth://totp/Signalboard:ann%2Btrade%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Signalboard&algorithm=SHA1&digits=6&period=30',
    );
    const parsed = new URL(uri);
    expect(parsed.searchParams.get('secret')).toBe(base32Encode(SEED_SHA1));
  });
});
