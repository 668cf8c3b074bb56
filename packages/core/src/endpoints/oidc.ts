/**
 * Single sign-on with an OpenID Connect provider (issue 28; docs/accounts.md "Single sign-on"):
 * starting and completing a sign-in (no token), and the signed-in user's links to the provider.
 */
import { z } from 'zod';
import {
  loginResponse,
  msgBody,
  oidcCallbackQuery,
  oidcCompleteRequest,
  oidcIdentitiesResponse,
  oidcRedirectResponse,
  oidcStartRequest,
  oidcUnlinkRequest,
} from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const oidcEndpoints = endpointGroup({
  oidcStart: defineEndpoint({ operationId: 'oidcStart', method: 'post', path: '/api/oidc/start', summary: "Sign in with the installation's OpenID Connect provider (or accept an invitation with it): the provider's authorization URL to send the browser to (code flow, PKCE S256, state and nonce; 10 minutes). 404 without OIDC_ISSUER", open: true, body: oidcStartRequest, response: oidcRedirectResponse, errors: [404, 429, 502] }),
  oidcCallback: defineEndpoint({ operationId: 'oidcCallback', method: 'get', path: '/api/oidc/callback', summary: "The provider's redirect back (the OIDC_REDIRECT: PUBLIC_URL/api/oidc/callback): checks state, PKCE, the ID token's signature, issuer, audience, expiry and nonce, then redirects (302) to /login#oidc=<one-time code>, /login#oidc_error=<reason>, /dashboard/account#oidc=linked or /dashboard/account#oidc_error=<reason>", open: true, query: oidcCallbackQuery, response: z.string(), responseType: 'redirect' }),
  oidcComplete: defineEndpoint({ operationId: 'oidcComplete', method: 'post', path: '/api/oidc/complete', summary: "Exchange the callback's one-time code (60 seconds, once) for the access token, or for a two-factor challenge as api/login answers", open: true, body: oidcCompleteRequest, response: loginResponse, errors: [401, 403, 429] }),
  oidcLink: defineEndpoint({ operationId: 'oidcLink', method: 'post', path: '/api/oidc/link', summary: "Link a provider account to the signed-in user: the authorization URL to send the browser to; the callback links it and redirects to /dashboard/account#oidc=linked. 404 without OIDC_ISSUER", response: oidcRedirectResponse, errors: [404, 429, 502] }),
  oidcIdentities: defineEndpoint({ operationId: 'oidcIdentities', method: 'get', path: '/api/oidc/identities', summary: "The provider accounts linked to the signed-in user, and whether the installation has a provider", response: oidcIdentitiesResponse }),
  oidcUnlink: defineEndpoint({ operationId: 'oidcUnlink', method: 'post', path: '/api/oidc/unlink', summary: "Unlink a provider account from the signed-in user (it can no longer sign in here); 409 when it is the account's only way to sign in", body: oidcUnlinkRequest, response: msgBody, errors: [404, 409] }),
});
