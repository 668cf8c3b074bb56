/** The account calls: sign-in, the forgotten password (open), the password, e-mail and deactivation (behind the token). */
import { forgotPasswordRequest, getEmailResponse, loginRequest, loginResponse, msgBody, updatePasswordRequest } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const authEndpoints = endpointGroup({
  login: defineEndpoint({ operationId: 'login', method: 'post', path: '/api/login', summary: 'Sign in', open: true, body: loginRequest, response: loginResponse, errors: [401, 403, 429] }),
  forgotPassword: defineEndpoint({ operationId: 'forgotPassword', method: 'post', path: '/api/forgot-password', summary: 'E-mail a temporary password (always answers success)', open: true, body: forgotPasswordRequest, response: msgBody, errors: [429] }),
  updatePassword: defineEndpoint({ operationId: 'updatePassword', method: 'post', path: '/api/update-password', summary: 'Set a new password (at most PASSWORD_CHANGE_MAX_PER_USER per PASSWORD_CHANGE_WINDOW_SECONDS; 429 beyond)', body: updatePasswordRequest, response: msgBody, errors: [429], changesAccount: true }),
  getEmail: defineEndpoint({ operationId: 'getEmail', method: 'get', path: '/api/getemail', summary: "The signed-in user's e-mail", response: getEmailResponse }),
  deactivateUser: defineEndpoint({ operationId: 'deactivateUser', method: 'post', path: '/api/deactivate_user', summary: 'Deactivate the signed-in account', response: msgBody, changesAccount: true }),
});
