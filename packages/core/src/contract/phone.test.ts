import { describe, expect, it } from 'vitest';
import {
  isE164,
  PHONE_NUMBER_FORMAT_MESSAGE,
  PHONE_NUMBER_REQUIRED_MESSAGE,
  sendVerificationCodeRequest,
  VERIFICATION_CODE_FORMAT_MESSAGE,
  VERIFICATION_CODE_REQUIRED_MESSAGE,
  VERIFICATION_PHONE_MISSING_MESSAGE,
  verifyCodeRequest,
} from './phone';
import { formatIssues } from './common';

const msgOf = (schema: typeof sendVerificationCodeRequest | typeof verifyCodeRequest, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? undefined : formatIssues(result.error);
};

describe('phone verification contract (spec §5)', () => {
  it("E.164: '+', a first digit 1-9, then 1 to 14 more digits", () => {
    expect(['+12', '+12223334444', '+123456789012345', '+447911123456'].every(isE164)).toBe(true);
    expect(['+1', '+02223334444', '12223334444', '+1234567890123456', '+1 222', '+1-222-333', '++12', ''].some(isE164)).toBe(false);
  });

  it('answers the spec messages, and trims the number', () => {
    expect(msgOf(sendVerificationCodeRequest, {})).toBe(PHONE_NUMBER_REQUIRED_MESSAGE);
    expect(msgOf(sendVerificationCodeRequest, { phone_number: '' })).toBe(PHONE_NUMBER_REQUIRED_MESSAGE);
    expect(msgOf(sendVerificationCodeRequest, { phone_number: '2223334444' })).toBe(PHONE_NUMBER_FORMAT_MESSAGE);
    expect(sendVerificationCodeRequest.parse({ phone_number: ' +12223334444 ' })).toEqual({ phone_number: '+12223334444' });
    expect(msgOf(verifyCodeRequest, { verification_code: '123456' })).toBe(VERIFICATION_PHONE_MISSING_MESSAGE);
    expect(msgOf(verifyCodeRequest, { phone_number: '+12223334444' })).toBe(VERIFICATION_CODE_REQUIRED_MESSAGE);
    expect(msgOf(verifyCodeRequest, { phone_number: '+12223334444', verification_code: '1234567' })).toBe(VERIFICATION_CODE_FORMAT_MESSAGE);
    expect(verifyCodeRequest.parse({ phone_number: '+12223334444', verification_code: ' 123456 ' })).toEqual({ phone_number: '+12223334444', verification_code: '123456' });
  });
});
