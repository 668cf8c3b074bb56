import { createSigner, createVerifier, TokenError } from 'fast-jwt';

/** What an access token carries: the user id as `sub`, and `iat`/`exp` in seconds (spec §3). */
export interface AccessTokenClaims {
  sub: string;
  iat: number;
  exp: number;
}

export type VerifyResult =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: 'expired' | 'invalid' };

/**
 * HS256 access tokens through fast-jwt (the library under @fastify/jwt). Used directly because
 * @fastify/jwt decodes every token before its verify cache is consulted; with the cache hit first,
 * an authenticated read costs a hash lookup instead of an HMAC (`npm run bench`).
 */
export function createTokens(options: { secret: string; ttlSeconds: number }) {
  const sign = createSigner({ key: options.secret, algorithm: 'HS256', expiresIn: options.ttlSeconds * 1000 });
  // The cache is keyed by the token itself: it lives only in this process's memory, next to the
  // tokens the requests carry anyway, and skips hashing each token (fast-jwt's default key).
  const verify = createVerifier({
    key: options.secret,
    algorithms: ['HS256'],
    cache: 10_000,
    cacheKeyBuilder: (token: string) => token,
    requiredClaims: ['sub', 'exp'],
  });
  return {
    sign(userId: number): string {
      return sign({ sub: String(userId) });
    },
    verify(token: string): VerifyResult {
      try {
        return { ok: true, claims: verify(token) as AccessTokenClaims };
      } catch (error) {
        const expired = error instanceof TokenError && error.code === TokenError.codes.expired;
        return { ok: false, reason: expired ? 'expired' : 'invalid' };
      }
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;
