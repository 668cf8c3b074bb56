/**
 * Invitations and sign-up over HTTP (issue 28; docs/accounts.md): the open calls an invitee or a
 * visitor makes, and the admin's (behind admin.routes.ts requireAdmin, on the server).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminEndpoints, authEndpoints, type AdminInvitationsResponse, type InvitationResponse, type LoginResponse, type MsgBody, type SignInOptionsResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import type { Tokens } from '../../lib/tokens';
import type { UserLimit } from '../../lib/user-limit';
import { requireAdmin } from '../admin/admin.routes';
import { enforce } from '../../lib/rate-limiter';
import { membersUseSingleSignOnMsg, type AuthLimiters } from './auth.routes';
import type { AuthService } from './auth.service';
import type { TwoFactorService } from '../two-factor/two-factor.service';
import type { OidcService } from '../oidc/oidc.service';
import { SIGN_UP_CLOSED_MSG, SIGN_UP_SENT_MSG, type InvitationsService } from './invitations.service';

export interface PublicInvitationRoutesOptions {
  invitations: InvitationsService;
  auth: Pick<AuthService, 'startSession'>;
  /** Whether the installation requires two-factor sign-in: the new account's session is then led to turn it on. */
  twoFactor: Pick<TwoFactorService, 'loginStep'>;
  tokens: Pick<Tokens, 'sign' | 'ttlSeconds'>;
  limiters: AuthLimiters;
  signUp: 'open' | 'closed';
  /** Single sign-on (features/oidc): the button's label, and whether members may use the password form. */
  oidc: Pick<OidcService, 'isConfigured' | 'label' | 'passwordForm'>;
  /** Work that runs after the answer (the sign-up e-mail), so its timing says nothing about the address. */
  runInBackground: (task: () => Promise<void>) => void;
}

/** api/sign_in_options, api/sign_up, api/invitation, api/accept_invitation: no token. */
export async function publicInvitationRoutes(app: FastifyInstance, options: PublicInvitationRoutesOptions) {
  const { invitations, auth, twoFactor, tokens, limiters, signUp, oidc, runInBackground } = options;

  route(app, authEndpoints.signInOptions, async (): Promise<SignInOptionsResponse> => ({
    sign_up: signUp === 'open',
    single_sign_on: oidc.isConfigured ? { label: oidc.label } : null,
    password_form: oidc.passwordForm,
  }));

  route(app, authEndpoints.signUp, async (request, _reply, { email }): Promise<MsgBody> => {
    if (signUp !== 'open') throw new HttpError(403, SIGN_UP_CLOSED_MSG);
    // As Forgot Password: each mail it sends is one a stranger could make someone receive.
    await enforce([limiters.forgotByAddress, limiters.forgotByEmail], [request.ip, email], 'sign-up');
    runInBackground(() => invitations.signUp(email));
    return { msg: SIGN_UP_SENT_MSG };
  });

  // A link's token is 256 random bits: the address limit only keeps a client from trying many.
  route(app, authEndpoints.invitation, async (request, _reply, { token }): Promise<InvitationResponse> => {
    await enforce([limiters.loginByAddress], [request.ip], 'invitation');
    return invitations.describe(token);
  });

  route(app, authEndpoints.acceptInvitation, async (request: FastifyRequest, _reply, { token, password }): Promise<LoginResponse> => {
    await enforce([limiters.loginByAddress], [request.ip], 'invitation');
    const membersRefused = oidc.passwordForm === 'admins' ? membersUseSingleSignOnMsg(oidc.label).replace('Sign in with', 'Create account with') : undefined;
    const { userId } = await invitations.accept(token, password, request.ip, membersRefused === undefined ? {} : { membersRefused });
    const userAgent = request.headers['user-agent'] ?? '';
    const needsTwoFactor = (await twoFactor.loginStep(userId)) === 'setup';
    const sessionId = await auth.startSession({ userId, firstLogin: false, needsTwoFactor, ttlSeconds: tokens.ttlSeconds, userAgent, address: request.ip });
    return { access_token: tokens.sign(userId, sessionId), first_login: false };
  });
}

/** api/admin/invitations, invite, resend_invitation, revoke_invitation: admins only (checked before the body is read). */
export async function adminInvitationRoutes(app: FastifyInstance, options: { invitations: InvitationsService; limit: UserLimit }) {
  const { invitations, limit } = options;
  app.addHook('onRequest', requireAdmin);
  const admin = (request: FastifyRequest) => ({ id: request.user.id, email: request.user.email, address: request.ip });

  route(app, adminEndpoints.adminListInvitations, async (): Promise<AdminInvitationsResponse> => ({ invitations: await invitations.listOpen() }));
  route(app, adminEndpoints.adminInvite, async (request, _reply, { email, role }): Promise<MsgBody> => {
    await limit.hit(request.user.id);
    return { msg: await invitations.invite(admin(request), email, role ?? 'member') };
  });
  route(app, adminEndpoints.adminResendInvitation, async (request, _reply, { invitation_id }): Promise<MsgBody> => {
    await limit.hit(request.user.id);
    return { msg: await invitations.resend(admin(request), invitation_id) };
  });
  route(app, adminEndpoints.adminRevokeInvitation, async (request, _reply, { invitation_id }): Promise<MsgBody> => ({ msg: await invitations.revoke(admin(request), invitation_id) }));
}
