import { describe, expect, it } from 'vitest';
import { decodeTokenPayload, isTokenExpired } from './token';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url of the UTF-8 bytes of `text`, written out so the test does not lean on the code under test. */
function base64Url(text: string): string {
  const bytes = unescape(encodeURIComponent(text)).split('').map((c) => c.charCodeAt(0));
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = bytes.slice(i, i + 3);
    const n = (a << 16) | (b << 8) | c;
    const chars = [18, 12, 6, 0].map((shift) => ALPHABET[(n >> shift) & 63]);
    out += chars.slice(0, Math.min(4, bytes.length - i + 1)).join('');
  }
  return out;
}

function tokenWith(payload: object): string {
  return `${base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64Url(JSON.stringify(payload))}.signature`;
}

describe('access token expiry (spec §4 Token)', () => {
  it('reads sub and exp from the payload', () => {
    expect(decodeTokenPayload(tokenWith({ sub: '7', exp: 1_800_000_000 }))).toEqual({
      sub: '7',
      exp: 1_800_000_000,
    });
  });

  it('is valid while exp is not earlier than now, in seconds', () => {
    const token = tokenWith({ exp: 1_000 });
    expect(isTokenExpired(token, 999)).toBe(false);
    expect(isTokenExpired(token, 1_000)).toBe(false);
    expect(isTokenExpired(token, 1_000.9)).toBe(false);
    expect(isTokenExpired(token, 1_001)).toBe(true);
  });

  it('treats unreadable tokens and tokens without exp as expired', () => {
    expect(isTokenExpired('not-a-token', 0)).toBe(true);
    expect(isTokenExpired('a.!!!.c', 0)).toBe(true);
    expect(isTokenExpired(tokenWith({ sub: '1' }), 0)).toBe(true);
    expect(isTokenExpired(tokenWith({ exp: '2000' }), 0)).toBe(true);
  });

  it('decodes non-ASCII payloads', () => {
    expect(decodeTokenPayload(`h.${base64Url('{"sub":"é","exp":5}')}.s`)).toEqual({ sub: 'é', exp: 5 });
  });
});
