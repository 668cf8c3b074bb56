/**
 * Checked against the scheme's reference library (the `standardwebhooks` package), not against a
 * second HMAC of our own: a receiver verifies with that library or one of its ports.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook, webhookHeaders } from './webhook-signature';

const nowSeconds = () => Math.floor(Date.now() / 1_000);
const BODY = JSON.stringify({ type: 'alert.triggered', data: { symbol: 'AAPL', price: 187.25, note: 'prix élevé ✓' } });

describe('webhook signatures', () => {
  it('generates whsec_ secrets of 32 random bytes, a new one each time', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs headers the reference library verifies', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders(secret, 'msg_2Yc7wq', nowSeconds(), BODY);
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe('msg_2Yc7wq');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('fails verification when the body, the timestamp, the id or the secret differs', () => {
    const secret = generateWebhookSecret();
    const now = nowSeconds();
    const headers = webhookHeaders(secret, 'msg_1', now, BODY);
    const webhook = new Webhook(secret);
    expect(() => webhook.verify(BODY.replace('187.25', '187.26'), headers)).toThrow(WebhookVerificationError);
    expect(() => webhook.verify(`${BODY} `, headers)).toThrow(WebhookVerificationError);
    expect(() => webhook.verify(BODY, { ...headers, 'webhook-timestamp': String(now + 1) })).toThrow(WebhookVerificationError);
    expect(() => webhook.verify(BODY, { ...headers, 'webhook-id': 'msg_2' })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(generateWebhookSecret()).verify(BODY, headers)).toThrow(WebhookVerificationError);
  });

  it('matches the reference library signature byte for byte, the scheme example included', () => {
    // The example of the scheme's documentation and the library's own tests.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    expect(signWebhook(secret, id, 1_614_265_330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(signWebhook(secret, id, 1_614_265_330, body)).toBe(new Webhook(secret).sign(id, new Date(1_614_265_330_000), body));
    for (let index = 0; index < 20; index += 1) {
      const each = generateWebhookSecret();
      const text = JSON.stringify({ index, symbol: 'ÄÖÜ-€', emoji: '📈' });
      expect(signWebhook(each, `msg_${index}`, 1_700_000_000 + index, text)).toBe(new Webhook(each).sign(`msg_${index}`, new Date((1_700_000_000 + index) * 1_000), text));
    }
  });

  it('refuses a timestamp that is not whole seconds and a secret without a key', () => {
    expect(() => signWebhook(generateWebhookSecret(), 'msg_1', 1_700_000_000.5, BODY)).toThrow(RangeError);
    expect(() => signWebhook('whsec_', 'msg_1', 1_700_000_000, BODY)).toThrow('A webhook secret must carry a key');
  });
});
