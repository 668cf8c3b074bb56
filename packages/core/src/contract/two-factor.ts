/** Two-factor sign-in (issue 28; docs/accounts.md "Two-factor sign-in"): TOTP with single-use recovery codes. */
import { z } from 'zod';
import { singleLineText } from '../validation/text';

/** A 6-digit code from the authenticator app, or a recovery code (xxxxx-xxxxx); spaces and dashes allowed. */
const code = singleLineText('Code', { required: true, max: 32 });

/** POST api/login/two_factor (no token): the login answer's challenge and a code. Answers loginTokenResponse. */
export const loginTwoFactorRequest = z.object({
  challenge: singleLineText('Challenge', { required: true, max: 64 }),
  code,
});
export type LoginTwoFactorRequest = z.input<typeof loginTwoFactorRequest>;

/** GET api/two_factor: the signed-in user's two-factor state. */
export const twoFactorStateResponse = z.object({
  enabled: z.boolean(),
  /** When it was turned on (ISO 8601 UTC), null when off. */
  since: z.string().nullable(),
  /** Unused recovery codes. */
  recovery_codes_left: z.number(),
  /** The installation requires two-factor of everyone (then it cannot be turned off). */
  required: z.boolean(),
});
export type TwoFactorStateResponse = z.infer<typeof twoFactorStateResponse>;

/** POST api/two_factor/setup: a new key waiting for its first code (the app draws the URI as a QR code). */
export const twoFactorSetupResponse = z.object({
  /** The key in base32, in groups of four, for typing into the app by hand. */
  manual_key: z.string(),
  /** otpauth://totp/Signalboard:<email>?secret=…&issuer=Signalboard… */
  otpauth_uri: z.string(),
});
export type TwoFactorSetupResponse = z.infer<typeof twoFactorSetupResponse>;

/** POST api/two_factor/enable, disable, recovery_codes: a code proving the user holds the key. */
export const twoFactorCodeRequest = z.object({ code });
export type TwoFactorCodeRequest = z.input<typeof twoFactorCodeRequest>;

/** POST api/two_factor/enable and recovery_codes: the 10 recovery codes, shown this once (only their hashes are kept). */
export const twoFactorRecoveryCodesResponse = z.object({
  msg: z.string(),
  recovery_codes: z.array(z.string()),
});
export type TwoFactorRecoveryCodesResponse = z.infer<typeof twoFactorRecoveryCodesResponse>;

/** GET api/admin/settings: the installation's settings an admin changes. */
export const adminSettingsResponse = z.object({ two_factor_required: z.boolean() });
export type AdminSettingsResponse = z.infer<typeof adminSettingsResponse>;

/** POST api/admin/require_two_factor */
export const adminRequireTwoFactorRequest = z.object({ required: z.boolean({ error: 'Required must be true or false' }) });
export type AdminRequireTwoFactorRequest = z.input<typeof adminRequireTwoFactorRequest>;
