import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Endpoint } from '@signalboard/core';
import { MISS, type SessionAuth, type SessionUsers } from '../features/auth/session-users';
import { HttpError } from '../lib/errors';
import type { Tokens } from '../lib/tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user; set by `authenticate` on every protected route. */
    user: { id: number; email: string; role: 'admin' | 'member' };
    /** The sign-in session the request's token belongs to (the token's `sid`). */
    sessionId: string;
    /** When the request's access token expires (ms since the epoch): its session ends then. */
    sessionEndsAtMs: number;
  }
}

export const AUTH_TOKEN_MISSING_MSG = 'Auth token missing';
export const SESSION_ENDED_MSG = 'This session has ended. Please sign in again.';
/** A session signed in with a temporary or initial password, on any call but the few it may make (docs/accounts.md). */
export const PASSWORD_CHANGE_REQUIRED_MSG = 'Please change your password before using Signalboard.';
/** Sent with PASSWORD_CHANGE_REQUIRED_MSG so the web app can lead to Change Password. */
export const PASSWORD_CHANGE_REQUIRED_CODE = 'password_change_required';
/** A session signed in without two-factor while the installation requires it, on any call but turning it on (docs/accounts.md). */
export const TWO_FACTOR_SETUP_REQUIRED_MSG = 'Your installation requires two-factor sign-in: please turn it on to continue.';
export const TWO_FACTOR_SETUP_REQUIRED_CODE = 'two_factor_setup_required';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Signs the request in with `session`, or answers why not. */
function admit(request: FastifyRequest, session: SessionAuth | undefined, userId: number, sessionId: string, expSeconds: number): HttpError | undefined {
  if (!session || session.userId !== userId) return new HttpError(401, 'Auth token invalid');
  if (!session.isActive) return new HttpError(401, 'This account has been deactivated.');
  if (session.ended) return new HttpError(401, SESSION_ENDED_MSG);
  if (session.restricted || session.needsTwoFactor) {
    const endpoint = (request.routeOptions.config as { endpoint?: Endpoint } | undefined)?.endpoint;
    // The password first: a session at its first login is led to Change Password, then (signed in again) to two-factor.
    if (session.restricted) {
      if (!endpoint?.duringFirstLogin) return new HttpError(403, PASSWORD_CHANGE_REQUIRED_MSG, { code: PASSWORD_CHANGE_REQUIRED_CODE });
    } else if (!endpoint?.duringTwoFactorSetup) {
      return new HttpError(403, TWO_FACTOR_SETUP_REQUIRED_MSG, { code: TWO_FACTOR_SETUP_REQUIRED_CODE });
    }
  }
  request.user = { id: userId, email: session.email, role: session.role };
  request.sessionId = sessionId;
  request.sessionEndsAtMs = expSeconds * 1000;
  return undefined;
}

/**
 * onRequest hook for every protected route: a bearer token, valid and unexpired, whose session has
 * not been ended and whose user still exists and is active (so ending a session or deactivating an
 * account takes effect at once, on every process: session-users.ts). A session signed in with a
 * temporary or initial password may only make the calls declared `duringFirstLogin`; one that must
 * turn two-factor on, those declared `duringTwoFactorSetup`. Runs before
 * the body is read. A callback hook, not an async one: when the token was verified before and its
 * session is in the cache (the usual request), it signs the request in without a promise or a
 * microtask; otherwise it waits for the session's row.
 */
export function createAuthenticate(tokens: Pick<Tokens, 'verify'>, sessionUsers: Pick<SessionUsers, 'get' | 'peek' | 'seen'>) {
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
    const { exp, sid } = verified.claims;
    const userId = Number(verified.claims.sub);
    if (!Number.isSafeInteger(userId) || typeof sid !== 'string') {
      done(new HttpError(401, 'Auth token invalid'));
      return;
    }
    const finish = (session: SessionAuth | undefined) => {
      const refused = admit(request, session, userId, sid, exp);
      if (!refused) sessionUsers.seen(sid);
      done(refused);
    };
    const cached = sessionUsers.peek(sid);
    if (cached !== MISS) {
      finish(cached);
      return;
    }
    sessionUsers.get(sid).then(finish, done);
  };
}
