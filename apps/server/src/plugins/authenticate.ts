import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UsersRepo } from '../features/auth/users.repo';
import { HttpError } from '../lib/errors';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string };
    user: { id: number; email: string };
  }
}

export const AUTH_TOKEN_MISSING_MSG = 'Auth token missing';

/**
 * onRequest hook for every protected route: a bearer token, valid and unexpired, whose user still
 * exists and is active (so deactivation takes effect at once). Runs before the body is read.
 */
export function createAuthenticate(users: Pick<UsersRepo, 'findSessionUser'>) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    if (!header || !/^Bearer\s+\S+/i.test(header)) throw new HttpError(401, AUTH_TOKEN_MISSING_MSG);
    let payload: { sub: string };
    try {
      payload = await request.jwtVerify<{ sub: string }>();
    } catch (error) {
      const expired = (error as { code?: string }).code === 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED';
      throw new HttpError(401, expired ? 'Auth token expired. Please sign in again.' : 'Auth token invalid');
    }
    const id = Number(payload.sub);
    const user = Number.isSafeInteger(id) ? await users.findSessionUser(id) : undefined;
    if (!user) throw new HttpError(401, 'Auth token invalid');
    if (!user.isActive) throw new HttpError(401, 'This account has been deactivated.');
    request.user = { id: user.id, email: user.email };
  };
}
