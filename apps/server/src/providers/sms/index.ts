import path from 'node:path';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createOutboxSms } from './outbox';
import { createTwilioSms } from './twilio';
import type { Sms } from './types';

export * from './types';
export { guardSms, type GuardedSms } from './guard';

/**
 * The SMS provider SMS_PROVIDER names (loadConfig has checked Twilio's settings). `hashKey` keys the
 * outbox's code hashes (the server passes its JWT secret).
 */
export function createSms(config: Config, db: Database, clock: Clock, hashKey: string): Sms {
  if (config.SMS_PROVIDER === 'twilio') {
    return createTwilioSms({
      accountSid: config.TWILIO_ACCOUNT_SID!,
      auth:
        config.TWILIO_API_KEY_SID !== undefined
          ? { apiKeySid: config.TWILIO_API_KEY_SID, apiKeySecret: config.TWILIO_API_KEY_SECRET! }
          : { authToken: config.TWILIO_AUTH_TOKEN! },
      verifyServiceSid: config.TWILIO_VERIFY_SERVICE_SID!,
      from: config.TWILIO_FROM!,
      // Receipts need the auth token to be checked (alerts/delivery/delivery.routes.ts): ask for them only then.
      ...(config.TWILIO_AUTH_TOKEN ? { statusCallback: `${config.PUBLIC_URL}/api/twilio/status` } : {}),
      ...(config.TWILIO_BASE_URL ? { baseUrl: config.TWILIO_BASE_URL } : {}),
    });
  }
  return createOutboxSms({ db, dir: path.join(config.DATA_DIR, 'sms-outbox'), clock, hashKey });
}
