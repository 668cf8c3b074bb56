/** A plain SMS (the next issue's alert deliveries). */
export interface SmsMessage {
  /** E.164. */
  to: string;
  body: string;
}

/**
 * How a code check ended: approved; wrong (the code is not the one sent; more checks may follow);
 * expired (no live code for the number: never sent, older than 10 minutes, approved or replaced);
 * max_attempts (the code has had its 5 checks).
 */
export type VerificationCheck = 'approved' | 'wrong' | 'expired' | 'max_attempts';

/**
 * Sends SMS: verification codes (the provider makes and checks them) and plain messages. `outbox`
 * (default) keeps each SMS in the database and DATA_DIR/sms-outbox; `twilio` uses Twilio Verify for
 * codes and the Messages API for messages.
 */
export interface Sms {
  readonly kind: 'outbox' | 'twilio';
  /** Sends a new 6-digit code to `to`, valid 10 minutes; earlier codes for the number stop working. */
  sendVerification(to: string): Promise<void>;
  /** Checks `code` against the live code for `to` (each check counts, at most 5 per code). */
  checkVerification(to: string, code: string): Promise<VerificationCheck>;
  /** Sends a plain SMS; answers the provider's id for it. */
  send(message: SmsMessage): Promise<{ id: string }>;
}

/**
 * Why the provider refused or failed: invalid_number (not a number that can get SMS), rate_limited
 * (too many sends to the number, or the provider's own request limit), max_attempts (the code's
 * checks are used up), blocked (refused by the provider's fraud guard or the recipient opted out),
 * unavailable (network, credentials, outage: worth trying again later). Refused before any provider
 * is asked (guard.ts): country_not_allowed (the number is outside SMS_ALLOWED_COUNTRIES),
 * budget_spent (the installation's SMS_DAILY_LIMIT for the UTC day is used up; `retryAfterSeconds`
 * runs to the next UTC midnight).
 */
export type SmsErrorKind = 'invalid_number' | 'rate_limited' | 'max_attempts' | 'blocked' | 'unavailable' | 'country_not_allowed' | 'budget_spent';

export class SmsError extends Error {
  constructor(
    readonly kind: SmsErrorKind,
    message: string,
    /** The provider's error code (Twilio's `code`), when it gave one. */
    readonly providerCode?: number,
    /** When trying again makes sense (budget_spent: at the next UTC day). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
