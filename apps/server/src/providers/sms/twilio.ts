import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { SmsError, type Sms, type SmsMessage, type VerificationCheck } from './types';

export interface TwilioSmsOptions {
  accountSid: string;
  /** The account's auth token, or an API key (SK…) with its secret. */
  auth: { authToken: string } | { apiKeySid: string; apiKeySecret: string };
  /** The Verify service (VA…) that makes and checks the codes. */
  verifyServiceSid: string;
  /** The sender of plain messages: an E.164 number of the account or a Messaging Service (MG…). */
  from: string;
  /**
   * Where requests go instead of Twilio's hosts (the path is kept: /v2/Services/… for Verify,
   * /2010-04-01/Accounts/… for messages). Tests point it at a local fake server; unset in production.
   */
  baseUrl?: string;
  /** Where Twilio posts each message's status changes (PUBLIC_URL/api/twilio/status), when set. */
  statusCallback?: string;
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
}

/** The SDK's HTTP client, sending every request to `baseUrl` with its path and query kept. */
class RedirectedRequestClient extends twilio.RequestClient {
  constructor(
    private readonly baseUrl: string,
    timeoutMs: number,
  ) {
    super({ timeout: timeoutMs });
  }
  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const target = new URL(opts.uri);
    return super.request<TData>({ ...opts, uri: `${this.baseUrl.replace(/\/+$/, '')}${target.pathname}${target.search}` });
  }
}

/** Twilio's error codes (https://www.twilio.com/docs/api/errors) in our kinds and words. */
export function smsErrorFromTwilio(error: unknown): SmsError {
  if (error instanceof SmsError) return error;
  if (error instanceof twilio.RestException) {
    const code = error.code;
    switch (code) {
      case 60200: // invalid parameter (the To number)
      case 21211: // invalid 'To' phone number
      case 21614: // 'To' is not a mobile number
      case 60205: // SMS is not supported by landline phone number
      case 21408: // permission to send to this region not enabled
        return new SmsError('invalid_number', 'This phone number cannot receive SMS. Please check the number.', code);
      case 60203: // max send attempts reached
        return new SmsError('rate_limited', 'Too many verification codes were sent to this number. Please wait 10 minutes and try again.', code);
      case 20429: // too many requests
        return new SmsError('rate_limited', 'The SMS service is busy. Please try again in a minute.', code);
      case 60202: // max check attempts reached
        return new SmsError('max_attempts', 'Too many attempts for this code. Please send a new code.', code);
      case 60410: // fraud guard
      case 21610: // the recipient replied STOP
        return new SmsError('blocked', 'SMS to this number is blocked. If you replied STOP, reply START and try again.', code);
      default:
        return new SmsError('unavailable', `The SMS service refused the request (Twilio ${code ?? error.status}: ${error.message})`, code);
    }
  }
  return new SmsError('unavailable', `The SMS service could not be reached (${(error as Error).message})`);
}

/**
 * SMS through Twilio with the official SDK: Verify (verifications.create / verificationChecks.create)
 * for codes, which Twilio makes, keeps and expires itself; the Messages API for plain messages.
 * A check of a code Twilio no longer holds (approved, expired or out of checks) answers 404/20404:
 * that is `expired`.
 */
export function createTwilioSms(options: TwilioSmsOptions): Sms {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const [username, password] = 'authToken' in options.auth ? [options.accountSid, options.auth.authToken] : [options.auth.apiKeySid, options.auth.apiKeySecret];
  const client = twilio(username, password, {
    accountSid: options.accountSid,
    timeout: timeoutMs,
    autoRetry: false,
    ...(options.baseUrl ? { httpClient: new RedirectedRequestClient(options.baseUrl, timeoutMs) } : {}),
  });
  const verify = () => client.verify.v2.services(options.verifyServiceSid);
  return {
    kind: 'twilio',

    async sendVerification(to: string) {
      try {
        await verify().verifications.create({ to, channel: 'sms' });
      } catch (error) {
        throw smsErrorFromTwilio(error);
      }
    },

    async checkVerification(to: string, code: string): Promise<VerificationCheck> {
      try {
        const check = await verify().verificationChecks.create({ to, code });
        switch (check.status) {
          case 'approved':
            return 'approved';
          case 'pending':
            return 'wrong';
          case 'max_attempts_reached':
            return 'max_attempts';
          default:
            return 'expired';
        }
      } catch (error) {
        if (error instanceof twilio.RestException && (error.status === 404 || error.code === 20404)) return 'expired';
        throw smsErrorFromTwilio(error);
      }
    },

    async send(message: SmsMessage) {
      const sender = options.from.startsWith('MG') ? { messagingServiceSid: options.from } : { from: options.from };
      try {
        const sent = await client.messages.create({ to: message.to, body: message.body, ...sender, ...(options.statusCallback ? { statusCallback: options.statusCallback } : {}) });
        return { id: sent.sid };
      } catch (error) {
        throw smsErrorFromTwilio(error);
      }
    },
  };
}

/**
 * Whether `signature` (the X-Twilio-Signature header) is Twilio's signature of a webhook request to
 * `url` (the public address Twilio called, query included) with the form `params`, keyed by the
 * account's auth token.
 */
export function validTwilioSignature(authToken: string, signature: string, url: string, params: Record<string, string>): boolean {
  return twilio.validateRequest(authToken, signature, url, params);
}

/** The signature Twilio would send for a webhook request (tests sign their requests with it). */
export function twilioSignatureOf(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}
