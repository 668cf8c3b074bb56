import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUsers } from '../features/auth/session-users';
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

/**
 * onRequest hook for every protected route: a bearer token, valid and unexpired, whose user still
 * exists and is active (so deactivation takes effect at once). Runs before the body is read.
 */
export function createAuthenticate(tokens: Pick<Tokens, 'verify'>, sessionUsers: Pick<SessionUsers, 'get'>) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw new HttpError(401, AUTH_TOKEN_MISSING_MSG);
    const verified = tokens.verify(match[1]!);
    if (!verified.ok) {
      throw new HttpError(401, verified.reason === 'expired' ? 'Auth token expired. Please sign in again.' : 'Auth token invalid');
    }
    const payload = verified.claims;
    const id = Number(payload.sub);
    const user = Number.isSafeInteger(id) ? await sessionUsers.get(id) : undefined;
    if (!user) throw new HttpError(401, 'Auth token invalid');
    if (!user.isActive) throw new HttpError(401, 'This account has been deactivated.');
    request.user = { id: user.id, email: user.email };
    request.sessionEndsAtMs = payload.exp * 1000;
  };
}
