/**
 * Two-factor sign-in behind the token (issue 28; docs/accounts.md "Two-factor sign-in"): the user's
 * own calls, and the admin's (registered behind the admin check, as api/admin/* are).
 */
import {
  adminRequireTwoFactorRequest,
  adminSettingsResponse,
  adminUserRequest,
  msgBody,
  twoFactorCodeRequest,
  twoFactorRecoveryCodesResponse,
  twoFactorSetupResponse,
  twoFactorStateResponse,
} from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const twoFactorEndpoints = endpointGroup({
  twoFactorState: defineEndpoint({ operationId: 'twoFactorState', method: 'get', path: '/api/two_factor', summary: "The signed-in user's two-factor sign-in: on or off, since when, recovery codes left, required by the installation", response: twoFactorStateResponse, duringTwoFactorSetup: true }),
  twoFactorSetup: defineEndpoint({ operationId: 'twoFactorSetup', method: 'post', path: '/api/two_factor/setup', summary: 'A new TOTP key waiting for its first code (replaces one not yet confirmed): the key to type in and the otpauth URI to scan; 409 when two-factor is on', response: twoFactorSetupResponse, errors: [409], duringTwoFactorSetup: true }),
  twoFactorEnable: defineEndpoint({ operationId: 'twoFactorEnable', method: 'post', path: '/api/two_factor/enable', summary: "Turn two-factor on with a code of the key from setup: answers the 10 recovery codes, this once", body: twoFactorCodeRequest, response: twoFactorRecoveryCodesResponse, errors: [409, 429], duringTwoFactorSetup: true }),
  twoFactorDisable: defineEndpoint({ operationId: 'twoFactorDisable', method: 'post', path: '/api/two_factor/disable', summary: 'Turn two-factor off with a code or a recovery code; refused (400) while the installation requires it', body: twoFactorCodeRequest, response: msgBody, errors: [429] }),
  twoFactorRecoveryCodes: defineEndpoint({ operationId: 'twoFactorRecoveryCodes', method: 'post', path: '/api/two_factor/recovery_codes', summary: 'New recovery codes (the earlier ones stop working), with a code or a recovery code: answers them this once', body: twoFactorCodeRequest, response: twoFactorRecoveryCodesResponse, errors: [429] }),
  adminSettings: defineEndpoint({ operationId: 'adminSettings', method: 'get', path: '/api/admin/settings', summary: "The installation's settings an admin changes: whether two-factor sign-in is required of everyone (admins only)", response: adminSettingsResponse }),
  adminRequireTwoFactor: defineEndpoint({ operationId: 'adminRequireTwoFactor', method: 'post', path: '/api/admin/require_two_factor', summary: 'Require two-factor sign-in of everyone (an account without it is led to turn it on at its next sign-in) or stop requiring it; logged', body: adminRequireTwoFactorRequest, response: msgBody }),
  adminResetTwoFactor: defineEndpoint({ operationId: 'adminResetTwoFactor', method: 'post', path: '/api/admin/reset_two_factor', summary: "Turn an account's two-factor off (a lost phone) and end its sessions; logged", body: adminUserRequest, response: msgBody, errors: [404] }),
});
