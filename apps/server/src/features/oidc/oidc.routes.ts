/**
 * Single sign-on over HTTP (issue 28; docs/accounts.md "Single sign-on"): starting, the provider's
 * callback (a browser navigation: it always redirects, never answers JSON) and the one-time code's
 * exchange (no token); the signed-in user's links (behind the token).
 */
import type { FastifyInstance } from 'fastify';
import { oidcEndpoints, type LoginResponse, type MsgBody, type OidcIdentitiesResponse, type OidcRedirectResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { enforce } from '../../lib/rate-limiter';
import type { Tokens } from '../../lib/tokens';
import type { AuthLimiters } from '../auth/auth.routes';
import type { AuthService } from '../auth/auth.service';
import type { TwoFactorService } from '../two-factor/two-factor.service';
import type { OidcService } from './oidc.service';

export interface PublicOidcRoutesOptions {
  oidc: OidcService;
  auth: Pick<AuthService, 'startSession'>;
  twoFactor: Pick<TwoFactorService, 'loginStep' | 'startChallenge'>;
  tokens: Pick<Tokens, 'sign' | 'ttlSeconds'>;
  limiters: AuthLimiters;
}

/** api/oidc/start, api/oidc/callback, api/oidc/complete: no token. */
export async function publicOidcRoutes(app: FastifyInstance, options: PublicOidcRoutesOptions) {
  const { oidc, auth, twoFactor, tokens, limiters } = options;

  route(app, oidcEndpoints.oidcStart, async (request, _reply, { invitation }): Promise<OidcRedirectResponse> => {
    await enforce([limiters.loginByAddress], [request.ip], 'login');
    return { url: await oidc.start(invitation) };
  });

  // Checked as any query (control characters answer 400), then passed on as sent: the exchange
  // checks its state (and iss) against the flow's.
  route(app, oidcEndpoints.oidcCallback, async (request, reply) => {
    const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
    const location = await oidc.callback(query, request.ip);
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(location, 302);
  });

  // As api/login after a correct password: the two-factor step still applies.
  route(app, oidcEndpoints.oidcComplete, async (request, _reply, { code }): Promise<LoginResponse> => {
    await enforce([limiters.loginByAddress], [request.ip], 'login');
    const { userId } = await oidc.complete(code);
    const userAgent = request.headers['user-agent'] ?? '';
    const step = await twoFactor.loginStep(userId);
    if (step === 'challenge') {
      const challenge = await twoFactor.startChallenge({ userId, firstLogin: false, userAgent, address: request.ip });
      return { two_factor_required: true, challenge, first_login: false };
    }
    const sessionId = await auth.startSession({ userId, firstLogin: false, needsTwoFactor: step === 'setup', ttlSeconds: tokens.ttlSeconds, userAgent, address: request.ip });
    return { access_token: tokens.sign(userId, sessionId), first_login: false };
  });
}

/** api/oidc/link, api/oidc/identities, api/oidc/unlink: the signed-in user's own links. */
export async function oidcRoutes(app: FastifyInstance, options: { oidc: OidcService }) {
  const { oidc } = options;
  route(app, oidcEndpoints.oidcLink, async (request): Promise<OidcRedirectResponse> => ({ url: await oidc.link(request.user.id) }));
  route(app, oidcEndpoints.oidcIdentities, async (request): Promise<OidcIdentitiesResponse> => oidc.identities(request.user.id));
  route(app, oidcEndpoints.oidcUnlink, async (request, _reply, { id }): Promise<MsgBody> => ({ msg: await oidc.unlink(request.user, id, request.ip) }));
}
