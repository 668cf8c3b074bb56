import { DEFAULT_FAVORITE_STOCKS } from '@signalboard/core';
import type {
  AcceptInvitationRequest,
  BatchUpdateFavoriteStocksRequest,
  ForgotPasswordRequest,
  InvitationRequest,
  InvitationResponse,
  LoginRequest,
  LoginResponse,
  LoginTokenResponse,
  LoginTwoFactorRequest,
  MsgBody,
  OidcCompleteRequest,
  OidcRedirectResponse,
  OidcStartRequest,
  SignInOptionsResponse,
  SignUpRequest,
  UpdatePasswordRequest,
} from '@signalboard/core';
import { apiRequestUnchecked } from '../client';

/*
 * The calls of the signed-out pages (/login, /set-password, /invite, /sign-up): their answers are not parsed with the
 * contract's schemas (loginResponse, msgBody), because that would put zod's parsers in the chunk
 * every signed-out visitor loads (+22 KB gzip, docs/design.md "Performance budgets"). See
 * apiRequestUnchecked in lib/client.ts.
 */

export const login = (body: LoginRequest) => apiRequestUnchecked<LoginResponse>('login', { json: body, anonymous: true });

/** The second step of a two-factor sign-in: the login answer's challenge and a code (docs/accounts.md). */
export const loginTwoFactor = (body: LoginTwoFactorRequest) => apiRequestUnchecked<LoginTokenResponse>('login/two_factor', { json: body, anonymous: true });

export const forgotPassword = (body: ForgotPasswordRequest) => apiRequestUnchecked<MsgBody>('forgot-password', { json: body, anonymous: true });

export const updatePassword = (body: UpdatePasswordRequest) => apiRequestUnchecked<MsgBody>('update-password', { json: body });

/** Sign Out: ends this token's session on the server (docs/accounts.md). */
export const logout = () => apiRequestUnchecked<MsgBody>('logout', { json: {} });

/** What the login screen offers besides the password form (SIGNUP=open: "Create an account"; single sign-on; OIDC_ONLY). */
export const signInOptions = () => apiRequestUnchecked<SignInOptionsResponse>('sign_in_options', { anonymous: true });

/** Single sign-on (docs/accounts.md): the provider's URL to send the browser to; with an invitation's token, accepts it with the provider. */
export const oidcStart = (body: OidcStartRequest) => apiRequestUnchecked<OidcRedirectResponse>('oidc/start', { json: body, anonymous: true });

/** The one-time code of `/login#oidc=…` for what a password sign-in answers (a token, or a two-factor challenge). */
export const oidcComplete = (body: OidcCompleteRequest) => apiRequestUnchecked<LoginResponse>('oidc/complete', { json: body, anonymous: true });

export const signUp = (body: SignUpRequest) => apiRequestUnchecked<MsgBody>('sign_up', { json: body, anonymous: true });

/** What an invitation link is for (docs/accounts.md); 404 with a msg when it no longer works. */
export const describeInvitation = (body: InvitationRequest) => apiRequestUnchecked<InvitationResponse>('invitation', { json: body, anonymous: true });

/** Creates the invited account with the password chosen; answers a token as login does. */
export const acceptInvitation = (body: AcceptInvitationRequest) => apiRequestUnchecked<LoginTokenResponse>('accept_invitation', { json: body, anonymous: true });

/**
 * POST api/batch_update_favorite_stocks with the default favourites, after a first password is set
 * (Change Password, an accepted invitation): the same call as lib/api/favorites.ts's
 * batchUpdateFavoriteStocks, unchecked, as every call of the signed-out pages here.
 */
export const saveDefaultFavorites = () => {
  const body: BatchUpdateFavoriteStocksRequest = { stocks: DEFAULT_FAVORITE_STOCKS.map((stock) => ({ ...stock })) };
  return apiRequestUnchecked<{ msg: string; saved: number }>('batch_update_favorite_stocks', { json: body });
};

/**
 * When the installation requires two-factor sign-in, a first login's session may change its password
 * but not save favourites until two-factor is on (403): the MAG 7 wait, under the account's e-mail,
 * for /set-two-factor to save them (docs/accounts.md "Two-factor sign-in").
 */
const PENDING_DEFAULT_FAVORITES = 'sb-pending-default-favorites';
const signedInEmail = async () => (await apiRequestUnchecked<{ email: string }>('getemail')).email;

export async function saveDefaultFavoritesLater(): Promise<void> {
  window.localStorage.setItem(PENDING_DEFAULT_FAVORITES, await signedInEmail());
}

/** Saves the MAG 7 that wait for this account, if any: answers whether it did. */
export async function savePendingDefaultFavorites(): Promise<boolean> {
  const pending = window.localStorage.getItem(PENDING_DEFAULT_FAVORITES);
  if (pending === null) return false;
  if ((await signedInEmail()) !== pending) return false; // another account's, on this browser
  await saveDefaultFavorites();
  window.localStorage.removeItem(PENDING_DEFAULT_FAVORITES);
  return true;
}
