import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authEndpoints,
  forgotPasswordRequest,
  type GetEmailResponse,
  type LoginResponse,
  type LoginTokenResponse,
  type MsgBody,
  type SessionsResponse,
} from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError, parseInput } from '../../lib/errors';
import { enforce, type RateLimiter } from '../../lib/rate-limiter';
import type { Tokens } from '../../lib/tokens';
import type { UserLimit } from '../../lib/user-limit';
import type { OidcService } from '../oidc/oidc.service';
import type { TwoFactorService } from '../two-factor/two-factor.service';
import type { AuthService } from './auth.service';
import type { SessionUsers } from './session-users';

export interface AuthLimiters {
  loginByEmail: RateLimiter;
  loginByAddress: RateLimiter;
  forgotByEmail: RateLimiter;
  forgotByAddress: RateLimiter;
}

export interface PublicAuthRoutesOptions {
  auth: AuthService;
  tokens: Pick<Tokens, 'sign' | 'ttlSeconds'>;
  limiters: AuthLimiters;
  /** The second step of an account with two-factor (docs/accounts.md "Two-factor sign-in"). */
  twoFactor: Pick<TwoFactorService, 'loginStep' | 'startChallenge' | 'openChallenge' | 'completeChallenge'>;
  /** Work that runs after the answer (the reset e-mail), so its timing reveals nothing. */
  runInBackground: (task: () => Promise<void>) => void;
  /** OIDC_ONLY (features/oidc): members sign in with the provider; the password form is for admins. */
  oidc?: Pick<OidcService, 'label' | 'passwordForm'>;
}

/** OIDC_ONLY: a member's correct password does not sign in. */
export const membersUseSingleSignOnMsg = (label: string) => `Members of this installation sign in with ${label}: use "Sign in with ${label}".`;

/** Routes that need no token: api/login, api/login/two_factor, api/forgot-password. */
export async function publicAuthRoutes(app: FastifyInstance, options: PublicAuthRoutesOptions) {
  const { auth, tokens, limiters, twoFactor, runInBackground, oidc } = options;

  route(app, authEndpoints.login, async (request, _reply, { email, password }): Promise<LoginResponse> => {
    await enforce([limiters.loginByAddress, limiters.loginByEmail], [request.ip, email], 'login');
    const { userId, firstLogin, role } = await auth.authenticate(email, password);
    if (oidc?.passwordForm === 'admins' && role !== 'admin') throw new HttpError(403, membersUseSingleSignOnMsg(oidc.label));
    const userAgent = request.headers['user-agent'] ?? '';
    const step = await twoFactor.loginStep(userId);
    // The password alone does not sign in: the e-mail's count is reset only when the code is right too.
    if (step === 'challenge') {
      const challenge = await twoFactor.startChallenge({ userId, firstLogin, userAgent, address: request.ip });
      return { two_factor_required: true, challenge, first_login: firstLogin };
    }
    await limiters.loginByEmail.reset(email);
    const sessionId = await auth.startSession({ userId, firstLogin, needsTwoFactor: step === 'setup', ttlSeconds: tokens.ttlSeconds, userAgent, address: request.ip });
    return { access_token: tokens.sign(userId, sessionId), first_login: firstLogin };
  });

  // Each code counts as a login attempt against the address and the account's e-mail, as a password does.
  route(app, authEndpoints.loginTwoFactor, async (request, _reply, { challenge, code }): Promise<LoginTokenResponse> => {
    await enforce([limiters.loginByAddress], [request.ip], 'login');
    const { email } = await twoFactor.openChallenge(challenge);
    await enforce([limiters.loginByEmail], [email], 'login');
    const signedIn = await twoFactor.completeChallenge(challenge, code);
    await limiters.loginByEmail.reset(email);
    const sessionId = await auth.startSession({ ...signedIn, ttlSeconds: tokens.ttlSeconds });
    return { access_token: tokens.sign(signedIn.userId, sessionId), first_login: signedIn.firstLogin };
  });

  // Parsed here: its 400 carries `error` too.
  route(app, authEndpoints.forgotPassword, { parse: 'none' }, async (request: FastifyRequest): Promise<MsgBody> => {
    let email: string;
    try {
      ({ email } = parseInput(forgotPasswordRequest, request.body));
    } catch (error) {
      // The forgot-password screen reads `error` (spec §8).
      if (error instanceof HttpError) throw new HttpError(error.statusCode, error.message, { error: error.message });
      throw error;
    }
    await enforce([limiters.forgotByAddress, limiters.forgotByEmail], [request.ip, email], 'password reset');
    runInBackground(() => auth.sendTemporaryPassword(email));
    return { msg: 'If an account exists for that e-mail, a temporary password is on its way.' };
  });
}

/** Routes behind the token: api/update-password, api/getemail, api/logout, the sessions, api/deactivate_user. */
export async function protectedAuthRoutes(
  app: FastifyInstance,
  options: { auth: AuthService; sessionUsers: Pick<SessionUsers, 'invalidate'>; passwordChangeLimit: UserLimit },
) {
  const { auth, sessionUsers, passwordChangeLimit } = options;

  route(app, authEndpoints.updatePassword, async (request, _reply, { new_password, current_password }): Promise<MsgBody> => {
    // Every well-formed attempt counts (each costs a password hash, and a wrong current password is
    // a guess), before anything is changed.
    await passwordChangeLimit.hit(request.user.id);
    await auth.updatePassword(request.user.id, request.sessionId, new_password, current_password);
    sessionUsers.invalidate({ userId: request.user.id });
    return { msg: 'Password updated successfully!' };
  });

  route(app, authEndpoints.getEmail, async (request): Promise<GetEmailResponse> => ({ email: request.user.email, role: request.user.role }));

  route(app, authEndpoints.logout, async (request): Promise<MsgBody> => {
    await auth.signOut(request.user.id, request.sessionId);
    sessionUsers.invalidate({ sessionId: request.sessionId });
    return { msg: 'Signed out.' };
  });

  route(app, authEndpoints.listSessions, async (request): Promise<SessionsResponse> => ({ sessions: await auth.listSessions(request.user.id, request.sessionId) }));

  route(app, authEndpoints.endSession, async (request, _reply, { id }): Promise<MsgBody> => {
    await auth.endSession(request.user.id, id);
    sessionUsers.invalidate({ sessionId: id });
    return { msg: id === request.sessionId ? 'Signed out.' : 'Session ended.' };
  });

  route(app, authEndpoints.endOtherSessions, async (request): Promise<MsgBody> => {
    const ended = await auth.endOtherSessions(request.user.id, request.sessionId);
    sessionUsers.invalidate({ userId: request.user.id });
    return { msg: ended === 0 ? 'No other session was signed in.' : `Signed out ${ended} other ${ended === 1 ? 'session' : 'sessions'}.` };
  });

  route(app, authEndpoints.deactivateUser, async (request): Promise<MsgBody> => {
    await auth.deactivate(request.user.id);
    sessionUsers.invalidate({ userId: request.user.id });
    return { msg: 'Your account has been deactivated.' };
  });
}
