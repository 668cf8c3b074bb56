import { createSigner, createVerifier, TokenError } from 'fast-jwt';

/**
 * What an access token carries: the user id as `sub`, `iat`/`exp` in seconds (spec §3), and its
 * sign-in session's id as `sid` (issue 28: the session can be ended before `exp`).
 */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
}

export type VerifyResult =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: 'expired' | 'invalid' };

/**
 * HS256 access tokens through fast-jwt (the library under @fastify/jwt). Used directly because
 * @fastify/jwt decodes every token before its verify cache is consulted. Verified tokens are kept
 * here, keyed by the whole token (no two tokens can share a key), until they expire or for
 * 10 minutes, so an authenticated read costs a map lookup instead of an HMAC (`npm run bench`).
 */
const VERIFIED_CACHE_MAX = 10_000;
const VERIFIED_CACHE_TTL_MS = 10 * 60_000;

export function createTokens(options: { secret: string; ttlSeconds: number; nowMs?: () => number }) {
  const nowMs = options.nowMs ?? Date.now;
  const verified = new Map<string, { result: VerifyResult; untilMs: number }>();
  const sign = createSigner({ key: options.secret, algorithm: 'HS256', expiresIn: options.ttlSeconds * 1000 });
  const verify = createVerifier({ key: options.secret, algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'exp'] });
  return {
    /** How long a token signed now lives: its session's `expires_at` is the same instant. */
    ttlSeconds: options.ttlSeconds,
    sign(userId: number, sessionId: string): string {
      return sign({ sub: String(userId), sid: sessionId });
    },
    verify(token: string): VerifyResult {
      const now = nowMs();
      const hit = verified.get(token);
      if (hit) {
        if (now < hit.untilMs) return hit.result;
        verified.delete(token);
      }
      try {
        const claims = verify(token) as AccessTokenClaims;
        if (verified.size >= VERIFIED_CACHE_MAX) verified.delete(verified.keys().next().value!);
        const result: VerifyResult = { ok: true, claims };
        verified.set(token, { result, untilMs: Math.min(claims.exp * 1000, now + VERIFIED_CACHE_TTL_MS) });
        return result;
      } catch (error) {
        const expired = error instanceof TokenError && error.code === TokenError.codes.expired;
        return { ok: false, reason: expired ? 'expired' : 'invalid' };
      }
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
