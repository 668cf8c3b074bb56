import { alertsEndpoints, type SendVerificationCodeResponse, type VerifyCodeResponse } from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** The number on file for SMS alerts (spec §3 "Phone settings"): null when there is none. */
export interface PhoneOnFile {
  phoneNumber: string;
  smsEnabled: boolean;
}

/** GET api/get_user_phone_number → the verified number on file, or null for `{}`. */
export async function getUserPhoneNumber(signal?: AbortSignal): Promise<PhoneOnFile | null> {
  const answer = await apiCall(alertsEndpoints.getUserPhoneNumber, { signal });
  const { phoneNumber, smsEnabled } = answer as Partial<PhoneOnFile>;
  return phoneNumber !== undefined && smsEnabled !== undefined ? { phoneNumber, smsEnabled } : null;
}

export const phoneOnFileQuery = () =>
  queryOptions({ queryKey: ['phone-on-file'], queryFn: ({ signal }) => getUserPhoneNumber(signal), retry: false, staleTime: 60_000 });

/** POST api/send_verification_code { phone_number }. */
export async function sendVerificationCode(phoneNumber: string): Promise<SendVerificationCodeResponse> {
  return apiCall(alertsEndpoints.sendVerificationCode, { body: { phone_number: phoneNumber } });
}

/** POST api/verify_code { phone_number, verification_code }: the number is on file once this succeeds. */
export async function verifyCode(phoneNumber: string, code: string): Promise<VerifyCodeResponse> {
  return apiCall(alertsEndpoints.verifyCode, { body: { phone_number: phoneNumber, verification_code: code } });
}
