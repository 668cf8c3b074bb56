import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { MISS, type SessionAuth } from '../features/auth/session-users';
import { HttpError } from '../lib/errors';
import type { VerifyResult } from '../lib/tokens';
import { AUTH_TOKEN_MISSING_MSG, createAuthenticate, PASSWORD_CHANGE_REQUIRED_MSG, SESSION_ENDED_MSG, TWO_FACTOR_SETUP_REQUIRED_MSG } from './authenticate';

const EXP = 2_000_000_000;
/** `user-<id>-<sid>` verifies as that user and session. */
const tokens = {
  verify: (token: string): VerifyResult => {
    if (token === 'expired') return { ok: false, reason: 'expired' };
    const match = /^user-(\w+)-(\w+)$/.exec(token);
    return match ? { ok: true, claims: { sub: match[1]!, sid: match[2]!, iat: 0, exp: EXP } } : { ok: false, reason: 'invalid' };
  },
};
const session = (sessionId: string, userId: number, rest: Partial<SessionAuth> = {}): SessionAuth => ({
  sessionId,
  userId,
  email: `${userId}@example.com`,
  role: 'member',
  isActive: true,
  ended: false,
  restricted: false,
  needsTwoFactor: false,
  ...rest,
});
const SESSIONS = new Map<string, SessionAuth>([
  ['a', session('a', 1)],
  ['b', session('b', 2, { isActive: false })],
  ['c', session('c', 1, { ended: true })],
  ['d', session('d', 3, { restricted: true })],
  ['e', session('e', 4, { needsTwoFactor: true })],
  ['f', session('f', 5, { restricted: true, needsTwoFactor: true })],
]);

/** Runs the hook; answers what `done` got and whether it came before the hook returned. */
async function run(authenticate: ReturnType<typeof createAuthenticate>, authorization?: string, endpoint?: object) {
  const request = { headers: authorization === undefined ? {} : { authorization }, routeOptions: { config: { endpoint } } } as unknown as FastifyRequest;
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
  return {
    error: error instanceof HttpError ? `${error.statusCode} ${error.message}${error.extra.code ? ` (${error.extra.code})` : ''}` : error,
    user: request.user,
    sessionId: request.sessionId,
    endsAt: request.sessionEndsAtMs,
    synchronous,
  };
}

const cacheOf = (peekHits: boolean) => ({
  peek: vi.fn((id: string) => (peekHits ? (SESSIONS.get(id) ?? MISS) : MISS)),
  get: vi.fn(async (id: string) => SESSIONS.get(id)),
  seen: vi.fn(),
});

describe('authenticate', () => {
  it('signs a cached session in before it returns: no database, no promise; notes its use', async () => {
    const sessionUsers = cacheOf(true);
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect(await run(authenticate, 'Bearer user-1-a')).toEqual({ error: undefined, user: { id: 1, email: '1@example.com', role: 'member' }, sessionId: 'a', endsAt: EXP * 1000, synchronous: true });
    expect(await run(authenticate, 'Bearer user-2-b')).toMatchObject({ error: '401 This account has been deactivated.', user: undefined, synchronous: true });
    expect(sessionUsers.get).not.toHaveBeenCalled();
    expect(sessionUsers.seen.mock.calls).toEqual([['a']]);
  });

  it('waits for the session when the cache cannot say, with the same answers', async () => {
    const sessionUsers = cacheOf(false);
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect(await run(authenticate, 'Bearer user-1-a')).toEqual({ error: undefined, user: { id: 1, email: '1@example.com', role: 'member' }, sessionId: 'a', endsAt: EXP * 1000, synchronous: false });
    expect(await run(authenticate, 'bearer   user-2-b ')).toMatchObject({ error: '401 This account has been deactivated.', user: undefined });
    expect(await run(authenticate, 'Bearer user-1-zzz')).toMatchObject({ error: '401 Auth token invalid', user: undefined });
    expect(sessionUsers.get).toHaveBeenCalledTimes(3);
    const failing = createAuthenticate(tokens, { peek: (): typeof MISS => MISS, get: async () => Promise.reject(new Error('database down')), seen: () => undefined });
    expect((await run(failing, 'Bearer user-1-a')).error).toEqual(new Error('database down'));
  });

  it("refuses an ended session, and a session presented with another user's id", async () => {
    const authenticate = createAuthenticate(tokens, cacheOf(true));
    expect(await run(authenticate, 'Bearer user-1-c')).toMatchObject({ error: `401 ${SESSION_ENDED_MSG}`, user: undefined });
    expect(await run(authenticate, 'Bearer user-2-a')).toMatchObject({ error: '401 Auth token invalid', user: undefined });
  });

  it('lets a first-login session make only the calls declared duringFirstLogin', async () => {
    const authenticate = createAuthenticate(tokens, cacheOf(true));
    expect(await run(authenticate, 'Bearer user-3-d', { operationId: 'getFavoriteStocks' })).toMatchObject({
      error: `403 ${PASSWORD_CHANGE_REQUIRED_MSG} (password_change_required)`,
      user: undefined,
    });
    expect(await run(authenticate, 'Bearer user-3-d')).toMatchObject({ error: `403 ${PASSWORD_CHANGE_REQUIRED_MSG} (password_change_required)` });
    expect(await run(authenticate, 'Bearer user-3-d', { operationId: 'updatePassword', duringFirstLogin: true })).toMatchObject({ error: undefined, user: { id: 3 } });
  });

  it('lets a session that must turn two-factor on make only the calls declared duringTwoFactorSetup', async () => {
    const authenticate = createAuthenticate(tokens, cacheOf(true));
    const refused = { error: `403 ${TWO_FACTOR_SETUP_REQUIRED_MSG} (two_factor_setup_required)`, user: undefined };
    expect(await run(authenticate, 'Bearer user-4-e', { operationId: 'getFavoriteStocks' })).toMatchObject(refused);
    expect(await run(authenticate, 'Bearer user-4-e', { operationId: 'updatePassword', duringFirstLogin: true })).toMatchObject(refused);
    expect(await run(authenticate, 'Bearer user-4-e', { operationId: 'twoFactorEnable', duringTwoFactorSetup: true })).toMatchObject({ error: undefined, user: { id: 4 } });
  });

  it('asks a session at its first login for the password first, even when two-factor is waiting too', async () => {
    const authenticate = createAuthenticate(tokens, cacheOf(true));
    expect(await run(authenticate, 'Bearer user-5-f', { operationId: 'updatePassword', duringFirstLogin: true })).toMatchObject({ error: undefined, user: { id: 5 } });
    expect(await run(authenticate, 'Bearer user-5-f', { operationId: 'twoFactorEnable', duringTwoFactorSetup: true })).toMatchObject({
      error: `403 ${PASSWORD_CHANGE_REQUIRED_MSG} (password_change_required)`,
    });
  });

  it('refuses a missing, malformed, expired or invalid token without looking the session up', async () => {
    const sessionUsers = cacheOf(false);
    const authenticate = createAuthenticate(tokens, sessionUsers);
    expect((await run(authenticate)).error).toBe(`401 ${AUTH_TOKEN_MISSING_MSG}`);
    expect((await run(authenticate, 'Basic dXNlcjpwYXNz')).error).toBe(`401 ${AUTH_TOKEN_MISSING_MSG}`);
    expect((await run(authenticate, 'Bearer expired')).error).toBe('401 Auth token expired. Please sign in again.');
    expect((await run(authenticate, 'Bearer nonsense')).error).toBe('401 Auth token invalid');
    expect((await run(authenticate, 'Bearer user-abc-a')).error).toBe('401 Auth token invalid');
    expect(sessionUsers.peek).not.toHaveBeenCalled();
    expect(sessionUsers.get).not.toHaveBeenCalled();
  });
});
