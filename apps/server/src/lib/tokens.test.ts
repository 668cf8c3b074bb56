import { createSigner } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { createTokens } from './tokens';

describe('access tokens', () => {
  it('signs sub, sid and exp and verifies them, then serves the verified claims from memory', () => {
    let now = Date.now();
    // (the cached entry lasts until exp or 10 minutes, whichever is first)
    const tokens = createTokens({ secret: 's'.repeat(40), ttlSeconds: 60, nowMs: () => now });
    const token = tokens.sign(42, 'session-a');
    const first = tokens.verify(token);
    expect(first).toMatchObject({ ok: true, claims: { sub: '42', sid: 'session-a' } });
    expect(first.ok && first.claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(59);
    expect(tokens.verify(token)).toEqual(first);
    now += 1;
    expect(tokens.verify(token)).toEqual(first);
  });

  it('calls an expired token expired', () => {
    const secret = 's'.repeat(40);
    const expired = createSigner({ key: secret, expiresIn: 60_000, clockTimestamp: Date.now() - 3_600_000 })({ sub: '7', sid: 's' });
    expect(createTokens({ secret, ttlSeconds: 60 }).verify(expired)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a tampered token and one signed with another secret', () => {
    const tokens = createTokens({ secret: 's'.repeat(40), ttlSeconds: 60 });
    const other = createTokens({ secret: 'o'.repeat(40), ttlSeconds: 60 });
    const token = tokens.sign(1, 's');
    expect(tokens.verify(`${token}x`)).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.verify(other.sign(1, 's'))).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token without a session id (signed before sessions existed)', () => {
    const secret = 's'.repeat(40);
    const old = createSigner({ key: secret, expiresIn: 60_000 })({ sub: '7' });
    expect(createTokens({ secret, ttlSeconds: 60 }).verify(old)).toEqual({ ok: false, reason: 'invalid' });
  });
});
