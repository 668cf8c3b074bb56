/**
 * Single sign-on with an OpenID Connect provider (issue 28; docs/accounts.md "Single sign-on"): the
 * authorization code flow with PKCE, state and nonce. The browser leaves for the provider with the URL
 * of api/oidc/start or api/oidc/link and comes back through api/oidc/callback, which redirects to
 * `/login#oidc=<one-time code>` (exchanged by api/oidc/complete: a token never travels in a URL) or
 * to `/login#oidc_error=<code>` / `/dashboard/account#oidc=linked` / `/dashboard/account#oidc_error=<code>`.
 */
import { z } from 'zod';
import { singleLineText } from '../validation/text';

/** POST api/oidc/start (no token): sign in with the provider, or accept an invitation with it (the link's token). */
export const oidcStartRequest = z.object({
  /** The invitation link's token (the part after `#` in `/invite#…`): the new account is created and linked to the provider's. */
  invitation: singleLineText('Invitation', { max: 100 }).optional(),
});
export type OidcStartRequest = z.input<typeof oidcStartRequest>;

/** POST api/oidc/start and api/oidc/link: where to send the browser (the provider's authorization URL). */
export const oidcRedirectResponse = z.object({ url: z.string() });
export type OidcRedirectResponse = z.infer<typeof oidcRedirectResponse>;

/** GET api/oidc/callback: what the provider sends back (code and state, or an error). */
export const oidcCallbackQuery = z.object({
  code: singleLineText('Code', { max: 2048 }).optional(),
  state: singleLineText('State', { max: 256 }).optional(),
  error: singleLineText('Error', { max: 256 }).optional(),
  error_description: singleLineText('Error description', { max: 2048 }).optional(),
  iss: singleLineText('Issuer', { max: 2048 }).optional(),
  session_state: singleLineText('Session state', { max: 2048 }).optional(),
});

/** POST api/oidc/complete (no token): the one-time code from `/login#oidc=…`. Answers loginResponse. */
export const oidcCompleteRequest = z.object({ code: singleLineText('Code', { required: true, max: 100 }) });
export type OidcCompleteRequest = z.input<typeof oidcCompleteRequest>;

/** One provider account linked to the signed-in user. */
export const oidcIdentity = z.object({
  id: z.string(),
  /** The provider's e-mail for it when it was last used (verified by the provider). */
  email: z.string(),
  linked_at: z.string(),
  /** The last sign-in with it (ISO 8601 UTC), null when never used to sign in. */
  last_used_at: z.string().nullable(),
});
export type OidcIdentity = z.infer<typeof oidcIdentity>;

/** GET api/oidc/identities: single sign-on on the Account screen. */
export const oidcIdentitiesResponse = z.object({
  /** The installation has a provider (OIDC_ISSUER…); false: the card is not shown. */
  configured: z.boolean(),
  /** The button's words after "Sign in with" (OIDC_BUTTON_LABEL). */
  label: z.string(),
  identities: z.array(oidcIdentity),
});
export type OidcIdentitiesResponse = z.infer<typeof oidcIdentitiesResponse>;

/** POST api/oidc/unlink */
export const oidcUnlinkRequest = z.object({ id: singleLineText('Link', { required: true, max: 64 }) });
export type OidcUnlinkRequest = z.input<typeof oidcUnlinkRequest>;

// The messages are in a module of their own, without zod: the login screen names them, and its
// chunk must not carry the schema library (docs/design.md "Performance budgets").
export { OIDC_ERRORS, oidcErrorMessage, oidcLinkedMessage, type OidcError } from './oidc-messages';
