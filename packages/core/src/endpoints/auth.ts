/**
 * The account calls: sign-in, the forgotten password (open), the password, e-mail, deactivation,
 * sign-out and the sign-in sessions (behind the token; docs/accounts.md).
 */
import {
  acceptInvitationRequest,
  endSessionRequest,
  forgotPasswordRequest,
  getEmailResponse,
  invitationRequest,
  invitationResponse,
  loginRequest,
  loginResponse,
  loginTokenResponse,
  loginTwoFactorRequest,
  msgBody,
  sessionsResponse,
  signInOptionsResponse,
  signUpRequest,
  updatePasswordRequest,
} from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const authEndpoints = endpointGroup({
  login: defineEndpoint({ operationId: 'login', method: 'post', path: '/api/login', summary: 'Sign in: the access token, or (an account with two-factor) a challenge for api/login/two_factor', open: true, body: loginRequest, response: loginResponse, errors: [401, 403, 429] }),
  loginTwoFactor: defineEndpoint({ operationId: 'loginTwoFactor', method: 'post', path: '/api/login/two_factor', summary: "Complete a two-factor sign-in: the login answer's challenge with a 6-digit code or a recovery code; the fifth wrong code ends the challenge; counted as a login attempt", open: true, body: loginTwoFactorRequest, response: loginTokenResponse, errors: [401, 429] }),
  forgotPassword: defineEndpoint({ operationId: 'forgotPassword', method: 'post', path: '/api/forgot-password', summary: 'E-mail a temporary password (always answers success)', open: true, body: forgotPasswordRequest, response: msgBody, errors: [429] }),
  signInOptions: defineEndpoint({ operationId: 'signInOptions', method: 'get', path: '/api/sign_in_options', summary: 'What the login screen offers besides the password form (sign-up when SIGNUP=open)', open: true, response: signInOptionsResponse }),
  signUp: defineEndpoint({ operationId: 'signUp', method: 'post', path: '/api/sign_up', summary: 'SIGNUP=open: e-mail a link (72 hours, single use) to create an account; answers alike whether or not the e-mail has one. 403 when sign-up is closed', open: true, body: signUpRequest, response: msgBody, errors: [403, 429] }),
  invitation: defineEndpoint({ operationId: 'invitation', method: 'post', path: '/api/invitation', summary: "What an invitation link is for (its e-mail, its expiry); 404 with a msg when it has expired, been used or been revoked", open: true, body: invitationRequest, response: invitationResponse, errors: [404, 429] }),
  acceptInvitation: defineEndpoint({ operationId: 'acceptInvitation', method: 'post', path: '/api/accept_invitation', summary: 'Create the invited account with the password chosen (the password rules apply) and sign it in; the link stops working', open: true, body: acceptInvitationRequest, response: loginTokenResponse, errors: [404, 409, 429] }),
  updatePassword: defineEndpoint({ operationId: 'updatePassword', method: 'post', path: '/api/update-password', summary: 'Set a new password (at most PASSWORD_CHANGE_MAX_PER_USER per PASSWORD_CHANGE_WINDOW_SECONDS; 429 beyond)', body: updatePasswordRequest, response: msgBody, errors: [429], changesAccount: true, duringFirstLogin: true }),
  getEmail: defineEndpoint({ operationId: 'getEmail', method: 'get', path: '/api/getemail', summary: "The signed-in user's e-mail", response: getEmailResponse, duringFirstLogin: true, duringTwoFactorSetup: true }),
  logout: defineEndpoint({ operationId: 'logout', method: 'post', path: '/api/logout', summary: "Sign out: ends the token's session on the server (its token is refused from then on, by every API process)", response: msgBody, duringFirstLogin: true, duringTwoFactorSetup: true }),
  listSessions: defineEndpoint({ operationId: 'listSessions', method: 'get', path: '/api/sessions', summary: "The signed-in user's sessions still in use, most recently used first", response: sessionsResponse }),
  endSession: defineEndpoint({ operationId: 'endSession', method: 'post', path: '/api/end_session', summary: "End one of the signed-in user's sessions (its token is refused within a second, its live stream closes)", body: endSessionRequest, response: msgBody, errors: [404] }),
  endOtherSessions: defineEndpoint({ operationId: 'endOtherSessions', method: 'post', path: '/api/end_other_sessions', summary: "Sign out other devices: end every session of the signed-in user but this one", response: msgBody }),
  deactivateUser: defineEndpoint({ operationId: 'deactivateUser', method: 'post', path: '/api/deactivate_user', summary: 'Deactivate the signed-in account (its sessions end); never the last active admin (409)', response: msgBody, errors: [409], changesAccount: true }),
});
