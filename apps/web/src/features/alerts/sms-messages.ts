import {
  isE164,
  PHONE_NUMBER_FORMAT_MESSAGE,
  PHONE_NUMBER_REQUIRED_MESSAGE,
  VERIFICATION_CODE_DIGITS,
  VERIFICATION_CODE_FORMAT_MESSAGE,
  VERIFICATION_CODE_REQUIRED_MESSAGE,
  VERIFICATION_PHONE_MISSING_MESSAGE,
} from '@signalboard/core';
import type { StatusMessage } from './status-message';

/** The SMS Verification card's messages (spec §8 "SMS"), each with its status colour. */
export const SMS_MESSAGES = {
  sending: { text: 'Sending verification code...', tone: 'info' },
  sent: { text: 'Verification code sent successfully! Please check your messages.', tone: 'success' },
  sendFailed: { text: 'Failed to send verification code. Please try again later.', tone: 'danger' },
  verified: { text: 'Phone number verified successfully!', tone: 'success' },
  verifyFailed: { text: 'Failed to verify code. Please check the code and try again.', tone: 'danger' },
  loaded: { text: 'Existing phone number loaded.', tone: 'success' },
  none: { text: 'No phone number on file. Please enter one to enable SMS alerts.', tone: 'info' },
  loadFailed: { text: 'Could not load your phone number. Please try entering it manually.', tone: 'danger' },
} as const satisfies Record<string, StatusMessage>;

const errorText = (error: unknown) => (error instanceof Error ? error.message.trim() : '');

/** 'Failed to send verification code: ' plus the server's msg (or the error's message) when there is one. */
export function sendFailure(error: unknown): StatusMessage {
  const text = errorText(error);
  return text ? { text: `Failed to send verification code: ${text}`, tone: 'danger' } : SMS_MESSAGES.sendFailed;
}

/** 'Verification failed: ' plus the server's msg (or the error's message) when there is one. */
export function verifyFailure(error: unknown): StatusMessage {
  const text = errorText(error);
  return text ? { text: `Verification failed: ${text}`, tone: 'danger' } : SMS_MESSAGES.verifyFailed;
}

/** Spec §5 "Phone number": the message for a number that cannot be sent to, or null when it can. */
export function phoneNumberProblem(phoneNumber: string): StatusMessage | null {
  if (phoneNumber === '') return { text: PHONE_NUMBER_REQUIRED_MESSAGE, tone: 'danger' };
  if (!isE164(phoneNumber)) return { text: PHONE_NUMBER_FORMAT_MESSAGE, tone: 'danger' };
  return null;
}

/** Spec §5 "Verification code": the message for a code that cannot be checked, or null when it can. */
export function verificationProblem(phoneNumber: string | null, code: string): StatusMessage | null {
  if (code === '') return { text: VERIFICATION_CODE_REQUIRED_MESSAGE, tone: 'danger' };
  if (!phoneNumber) return { text: VERIFICATION_PHONE_MISSING_MESSAGE, tone: 'danger' };
  if (!new RegExp(`^\\d{${VERIFICATION_CODE_DIGITS}}$`).test(code)) return { text: VERIFICATION_CODE_FORMAT_MESSAGE, tone: 'danger' };
  return null;
}
