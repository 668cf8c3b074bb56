import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { MISS, type SessionUser, type SessionUsers } from '../features/auth/session-users';
import { HttpError } from '../lib/errors';
import type { Tokens } from '../lib/tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by `authenticate` on every protected route. */
    user: { id: number; email: string };
    /** When the request's access token expires (ms since the epoch): its session ends then. */
    sessionEndsAtMs: number;
  }
}

export const AUTH_TOKEN_MISSING_MSG = 'Auth token missing';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Signs the request in as `user`, or answers why not. */
function admit(request: FastifyRequest, user: SessionUser | undefined, expSeconds: number): HttpError | undefined {
  if (!user) return new HttpError(401, 'Auth token invalid');
  if (!user.isActive) return new HttpError(401, 'This account has been deactivated.');
  request.user = { id: user.id, email: user.email };
  request.sessionEndsAtMs = expSeconds * 1000;
  return undefined;
}

/**
 * onRequest hook for every protected route: a bearer token, valid and unexpired, whose user still
 * exists and is active (so deactivation takes effect at once). Runs before the body is read.
 * A callback hook, not an async one: when the token was verified before and its user is in the
 * session cache (the usual request), it signs the request in without a promise or a microtask;
 * otherwise it waits for the user's row (features/auth/session-users.ts keeps the cache correct).
 */
export function createAuthenticate(tokens: Pick<Tokens, 'verify'>, sessionUsers: Pick<SessionUsers, 'get' | 'peek'>) {
  return function authenticate(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const header = request.headers.authorization;
    const match = header ? BEARER.exec(header) : null;
    if (!match) {
      done(new HttpError(401, AUTH_TOKEN_MISSING_MSG));
      return;
    }
    const verified = tokens.verify(match[1]!);
    if (!verified.ok) {
      done(new HttpError(401, verified.reason === 'expired' ? 'Auth token expired. Please sign in again.' : 'Auth token invalid'));
      return;
    }
    const { exp } = verified.claims;
    const id = Number(verified.claims.sub);
    if (!Number.isSafeInteger(id)) {
      done(new HttpError(401, 'Auth token invalid'));
      return;
    }
    const cached = sessionUsers.peek(id);
    if (cached !== MISS) {
      done(admit(request, cached, exp));
      return;
    }
    sessionUsers.get(id).then((user) => done(admit(request, user, exp)), done);
  };
}
