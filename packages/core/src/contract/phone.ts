import { z } from 'zod';
import { singleLineText } from '../validation/text';

/**
 * Phone verification for SMS alerts (issue 14; spec §2 "Alert System Settings", §5 "Phone number"
 * and "Verification code", §7, §8 "SMS"; docs/rules/alerts.md §4.7 "Verification"). A number is saved to
 * the user only once a code sent to it has been entered.
 */

/** E.164 (spec §5): a plus sign, a first digit 1 to 9, then 1 to 14 more digits. */
export const E164_PATTERN = /^\+[1-9]\d{1,14}$/;
export const PHONE_NUMBER_REQUIRED_MESSAGE = 'Please enter a phone number.';
export const PHONE_NUMBER_FORMAT_MESSAGE = 'Invalid phone number format. Please use E.164 format (e.g., +12223334444).';
export const VERIFICATION_CODE_REQUIRED_MESSAGE = 'Please enter the verification code.';
export const VERIFICATION_PHONE_MISSING_MESSAGE = 'Phone number not available. Please send a verification code first.';
export const VERIFICATION_CODE_FORMAT_MESSAGE = 'Invalid verification code. The code is the 6 digits from the SMS.';

/** The limits of docs/rules/alerts.md §4.7 "Verification". */
export const VERIFICATION_CODE_DIGITS = 6;
export const VERIFICATION_CODE_TTL_SECONDS = 10 * 60;
export const VERIFICATION_MAX_CHECKS_PER_CODE = 5;
export const VERIFICATION_MAX_CODES_PER_NUMBER = 3;
export const VERIFICATION_NUMBER_WINDOW_SECONDS = 10 * 60;
export const VERIFICATION_MAX_CODES_PER_USER_PER_DAY = 10;

/** True when `value` is an E.164 phone number. */
export const isE164 = (value: string) => E164_PATTERN.test(value);

const phoneNumber = (requiredMessage: string) =>
  singleLineText('phone_number', {
    max: 32,
    typeError: (input) => (input === undefined || input === null ? requiredMessage : PHONE_NUMBER_FORMAT_MESSAGE),
    maxMessage: PHONE_NUMBER_FORMAT_MESSAGE,
    required: requiredMessage,
    examples: ['+12223334444'],
  }).refine((value) => value.trim() === '' || isE164(value), { message: PHONE_NUMBER_FORMAT_MESSAGE });

/** POST api/send_verification_code. */
export const sendVerificationCodeRequest = z.object({ phone_number: phoneNumber(PHONE_NUMBER_REQUIRED_MESSAGE) });
export type SendVerificationCodeRequest = z.input<typeof sendVerificationCodeRequest>;

/** The answer of a send: the code is valid for `expires_in_seconds`. */
export const sendVerificationCodeResponse = z.object({ msg: z.string(), expires_in_seconds: z.number().int().positive() });
export type SendVerificationCodeResponse = z.infer<typeof sendVerificationCodeResponse>;

/** POST api/verify_code (spec §7: verification_code, phone_number). */
export const verifyCodeRequest = z.object({
  phone_number: phoneNumber(VERIFICATION_PHONE_MISSING_MESSAGE),
  verification_code: singleLineText('verification_code', {
    max: 32,
    typeError: (input) => (input === undefined || input === null ? VERIFICATION_CODE_REQUIRED_MESSAGE : VERIFICATION_CODE_FORMAT_MESSAGE),
    maxMessage: VERIFICATION_CODE_FORMAT_MESSAGE,
    required: VERIFICATION_CODE_REQUIRED_MESSAGE,
    examples: ['123456'],
  }).refine((value) => value.trim() === '' || new RegExp(`^\\d{${VERIFICATION_CODE_DIGITS}}$`).test(value), {
    message: VERIFICATION_CODE_FORMAT_MESSAGE,
  }),
});
export type VerifyCodeRequest = z.input<typeof verifyCodeRequest>;

/** The answer of a successful verification: the number now on file. */
export const verifyCodeResponse = z.object({ msg: z.string(), phoneNumber: z.string(), smsEnabled: z.boolean() });
export type VerifyCodeResponse = z.infer<typeof verifyCodeResponse>;

/** GET api/get_user_phone_number: the verified number on file, or `{}` when there is none. */
export const getUserPhoneNumberResponse = z.union([z.object({ phoneNumber: z.string(), smsEnabled: z.boolean() }), z.object({}).strict()]);
export type GetUserPhoneNumberResponse = z.infer<typeof getUserPhoneNumberResponse>;
