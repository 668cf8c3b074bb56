import type { ForgotPasswordRequest, LoginRequest, LoginResponse, LoginTokenResponse, LoginTwoFactorRequest, MsgBody, UpdatePasswordRequest } from '@signalboard/core';
import { apiRequestUnchecked } from '../client';

/*
 * The calls of the signed-out pages (/login, /set-password): their answers are not parsed with the
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
