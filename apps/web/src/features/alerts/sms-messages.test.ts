import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/client';
import { phoneNumberProblem, sendFailure, SMS_MESSAGES, verificationProblem, verifyFailure } from './sms-messages';

describe('SMS card messages (spec §5, §8 "SMS")', () => {
  it('adds the server’s msg after the spec’s prefixes, else uses the spec’s general failures', () => {
    expect(sendFailure(new ApiError('Too many', 429))).toEqual({ text: 'Failed to send verification code: Too many', tone: 'danger' });
    expect(sendFailure('no message')).toEqual({ text: 'Failed to send verification code. Please try again later.', tone: 'danger' });
    expect(sendFailure(new Error(' '))).toBe(SMS_MESSAGES.sendFailed);
    expect(verifyFailure(new ApiError('Incorrect verification code.', 400))).toEqual({ text: 'Verification failed: Incorrect verification code.', tone: 'danger' });
    expect(verifyFailure(undefined)).toEqual({ text: 'Failed to verify code. Please check the code and try again.', tone: 'danger' });
  });

  it('gives each status message the spec’s colour', () => {
    // 'No phone number on file. Please enter one…' is info by name, though it contains 'Please enter'.
    for (const message of Object.values(SMS_MESSAGES)) {
      const tone = /successfully|loaded/.test(message.text)
        ? 'success'
        : /Sending|No phone number on file/.test(message.text)
          ? 'info'
          : /Failed|Invalid|Please enter|Could not load/.test(message.text)
            ? 'danger'
            : 'none';
      expect(message.tone, message.text).toBe(tone);
    }
  });

  it('checks the number as E.164 and the code before any call', () => {
    expect(phoneNumberProblem('')?.text).toBe('Please enter a phone number.');
    expect(phoneNumberProblem('+12223334444')).toBeNull();
    expect(phoneNumberProblem('+123456789012345')).toBeNull();
    for (const bad of ['12223334444', '+0123', '+1', '+1234567890123456', '+1-222-333-4444']) {
      expect(phoneNumberProblem(bad)?.text, bad).toBe('Invalid phone number format. Please use E.164 format (e.g., +12223334444).');
    }
    expect(verificationProblem('+12223334444', '')?.text).toBe('Please enter the verification code.');
    expect(verificationProblem(null, '123456')?.text).toBe('Phone number not available. Please send a verification code first.');
    expect(verificationProblem('+12223334444', '12a456')?.text).toBe('Invalid verification code. The code is the 6 digits from the SMS.');
    expect(verificationProblem('+12223334444', '123456')).toBeNull();
  });
});
