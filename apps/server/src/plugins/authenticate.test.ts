import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { MISS, type SessionUser } from '../features/auth/session-users';
import { HttpError } from '../lib/errors';
import type { VerifyResult } from '../lib/tokens';
import { AUTH_TOKEN_MISSING_MSG, createAuthenticate } from './authenticate';

const EXP = 2_000_000_000;
const tokens = {
  verify: (token: string): VerifyResult =>
    token === 'expired' ? { ok: false, reason: 'expired' } : token.startsWith('user-') ? { ok: true, claims: { sub: token.slice(5), iat: 0, exp: EXP } } : { ok: false, reason: 'invalid' },
};
const USERS = new Map<number, SessionUser>([
  [1, { id: 1, email: 'one@example.com', isActive: true }],
  [2, { id: 2, email: 'two@example.com', isActive: false }],
]);

/** Runs the hook; answers what `done` got and whether it came before the hook returned. */
async function run(authenticate: ReturnType<typeof createAuthenticate>, authorization?: string) {
  const request = { headers: authorization === undefined ? {} : { authorization } } as unknown as FastifyRequest;
  let called = false;
  let synchronous = false;
  const settled = new Promise<unknown>((resolve) => {
    authenticate(request, {} as FastifyReply, (error) => {
      called = true;
      resolve(error);
    });
    synchronous = called;
  });
  const error = await settled;
  return { error: error instanceof HttpError ? `${error.statusCode} ${error.message}` : error, user: request.user, endsAt: request.sessionEndsAtMs, synchronous };
}

describe('authenticate', () => {
  it('signs a cached user in before it returns: no database, no promise', async () => {
    const sessionUsers = { peek: vi.fn((id: number) => USERS.get(id) ?? MISS), get: vi.fn(async (id: number) => USERS.get(id)) };
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect(await run(authenticate, 'Bearer user-1')).toEqual({ error: undefined, user: { id: 1, email: 'one@example.com' }, endsAt: EXP * 1000, synchronous: true });
    expect(await run(authenticate, 'Bearer user-2')).toMatchObject({ error: '401 This account has been deactivated.', user: undefined, synchronous: true });
    expect(sessionUsers.get).not.toHaveBeenCalled();
  });

  it('waits for the user when the cache cannot say, with the same answers', async () => {
    const sessionUsers = { peek: vi.fn((): typeof MISS => MISS), get: vi.fn(async (id: number) => USERS.get(id)) };
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect(await run(authenticate, 'Bearer user-1')).toEqual({ error: undefined, user: { id: 1, email: 'one@example.com' }, endsAt: EXP * 1000, synchronous: false });
    expect(await run(authenticate, 'bearer   user-2 ')).toMatchObject({ error: '401 This account has been deactivated.', user: undefined });
    expect(await run(authenticate, 'Bearer user-3')).toMatchObject({ error: '401 Auth token invalid', user: undefined });
    expect(sessionUsers.get).toHaveBeenCalledTimes(3);
    const failing = createAuthenticate(tokens, { peek: (): typeof MISS => MISS, get: async () => Promise.reject(new Error('database down')) });
    expect((await run(failing, 'Bearer user-1')).error).toEqual(new Error('database down'));
  });

  it('refuses a missing, malformed, expired or invalid token without looking the user up', async () => {
    const sessionUsers = { peek: vi.fn((): typeof MISS => MISS), get: vi.fn(async () => undefined) };
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect((await run(authenticate)).error).toBe(`401 ${AUTH_TOKEN_MISSING_MSG}`);
    expect((await run(authenticate, 'Basic dXNlcjpwYXNz')).error).toBe(`401 ${AUTH_TOKEN_MISSING_MSG}`);
    expect((await run(authenticate, 'Bearer expired')).error).toBe('401 Auth token expired. Please sign in again.');
    expect((await run(authenticate, 'Bearer nonsense')).error).toBe('401 Auth token invalid');
    expect((await run(authenticate, 'Bearer user-abc')).error).toBe('401 Auth token invalid');
    expect(sessionUsers.peek).not.toHaveBeenCalled();
    expect(sessionUsers.get).not.toHaveBeenCalled();
  });
});
