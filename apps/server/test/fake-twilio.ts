import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_ACCOUNT_SID = `AC${'a'.repeat(32)}`;
export const FAKE_AUTH_TOKEN = 'fake-auth-token';
export const FAKE_VERIFY_SID = `VA${'b'.repeat(32)}`;
export const FAKE_FROM = '+15005550006';
/** The code the fake Verify service sends to every number. */
export const FAKE_CODE = '246810';
/** Numbers the fake refuses as Twilio does (Twilio's own test numbers where it has them). */
export const FAKE_INVALID_NUMBER = '+15005550001';
export const FAKE_RATE_LIMITED_NUMBER = '+15005550077';
export const FAKE_FRAUD_NUMBER = '+15005550088';

export interface FakeTwilioRequest {
  method: string;
  path: string;
  authorization: string;
  form: Record<string, string>;
}

/**
 * A local stand-in for Twilio's Verify v2 and Messages APIs, answering with the shapes and error
 * bodies of docs/providers.md §8: a verification is pending until approved, deleted on approval
 * or after 5 checks (then 404/20404, with the 6th check 429/60202), wrong codes answer 200 pending.
 */
export async function startFakeTwilio() {
  const requests: FakeTwilioRequest[] = [];
  const pending = new Map<string, { checks: number }>();
  const error = (response: http.ServerResponse, status: number, code: number, message: string) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }));
  };
  const json = (response: http.ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(raw));
      const path = new URL(request.url ?? '/', 'http://fake').pathname;
      requests.push({ method: request.method ?? '', path, authorization: request.headers.authorization ?? '', form });
      const expected = `Basic ${Buffer.from(`${FAKE_ACCOUNT_SID}:${FAKE_AUTH_TOKEN}`).toString('base64')}`;
      if (request.headers.authorization !== expected) return error(response, 401, 20003, 'Authenticate');
      const to = form.To ?? '';
      if (path === `/v2/Services/${FAKE_VERIFY_SID}/Verifications` && request.method === 'POST') {
        if (to === FAKE_INVALID_NUMBER) return error(response, 400, 60200, 'Invalid parameter `To`: ' + to);
        if (to === FAKE_RATE_LIMITED_NUMBER) return error(response, 429, 60203, 'Max send attempts reached');
        if (to === FAKE_FRAUD_NUMBER) return error(response, 403, 60410, 'Verification delivery attempt blocked');
        pending.set(to, { checks: 0 });
        return json(response, 201, { sid: `VE${'c'.repeat(32)}`, service_sid: FAKE_VERIFY_SID, account_sid: FAKE_ACCOUNT_SID, to, channel: form.Channel, status: 'pending', valid: false });
      }
      if (path === `/v2/Services/${FAKE_VERIFY_SID}/VerificationCheck` && request.method === 'POST') {
        const verification = pending.get(to);
        if (!verification) return error(response, 404, 20404, `The requested resource /Services/${FAKE_VERIFY_SID}/VerificationCheck was not found`);
        verification.checks += 1;
        if (verification.checks > 5) {
          pending.delete(to);
          return error(response, 429, 60202, 'Max check attempts reached');
        }
        const approved = form.Code === FAKE_CODE;
        if (approved) pending.delete(to);
        return json(response, 200, { sid: `VE${'c'.repeat(32)}`, service_sid: FAKE_VERIFY_SID, account_sid: FAKE_ACCOUNT_SID, to, channel: 'sms', status: approved ? 'approved' : 'pending', valid: approved });
      }
      if (path === `/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages.json` && request.method === 'POST') {
        if (to === FAKE_INVALID_NUMBER) return error(response, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
        return json(response, 201, { sid: `SM${'d'.repeat(32)}`, account_sid: FAKE_ACCOUNT_SID, to, from: form.From, body: form.Body, status: 'queued' });
      }
      return error(response, 404, 20404, `The requested resource ${path} was not found`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The app's settings for this fake. */
    env: (url: string) => ({
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID,
      TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN,
      TWILIO_VERIFY_SERVICE_SID: FAKE_VERIFY_SID,
      TWILIO_FROM: FAKE_FROM,
      TWILIO_BASE_URL: url,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
