/**
 * Browser push (issue 27) against a fake push service that checks the VAPID JWT and decrypts the
 * aes128gcm body with the subscription's keys (an implementation of its own, test/fake-push-service.ts):
 * a device is added once per subscription, every alert reaches it encrypted and signed, and a 410
 * from the push service removes the device.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertWebhooks } from '../../../db/schema';
import { startFakePushService, type FakePushService } from '../../../../test/fake-push-service';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { endpointDeliveriesOf, firePercentDrop } from '../../../../test/alert-channel-fixtures';

let pushService: FakePushService;
let t: TestApp;
let user: { id: number; headers: { authorization: string } };

beforeAll(async () => {
  pushService = await startFakePushService();
  t = await createTestApp({ PUBLIC_URL: 'https://signalboard.example', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', VAPID_SUBJECT: 'mailto:admin@signalboard.example' });
});

afterAll(async () => {
  await t.close();
  await pushService.close();
});

beforeEach(async () => {
  const email = uniqueEmail('push');
  const id = await createUser(t.db, email, 'pw');
  user = { id, headers: await login(t.app, email, 'pw') };
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload !== undefined ? { payload } : {}) });
const devices = () => t.db.select().from(alertWebhooks).where(and(eq(alertWebhooks.userId, user.id), eq(alertWebhooks.kind, 'push')));

const fire = (symbol: string) => firePercentDrop(t, user.id, symbol);
const deliveryOf = async (eventId: number) => (await endpointDeliveriesOf(t.db, eventId))[0]!;

describe('browser push devices', () => {
  it('are added once per subscription, with the endpoint sealed and a key the browser can find itself by', async () => {
    const key = (await call('GET', '/api/alert_channels/push/key')).json().public_key as string;
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const subscription = pushService.subscribe();
    const added = await call('POST', '/api/alert_channels/push', { ...subscription, name: 'Chrome on Linux' });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ msg: 'Notifications are on for Chrome on Linux.', webhook: { kind: 'push', name: 'Chrome on Linux', url: pushService.origin, device_key: createHash('sha256').update(subscription.endpoint).digest('base64url') } });
    const listed = await call('GET', '/api/alert_channels/webhooks');
    expect(listed.body).not.toContain(subscription.endpoint);
    expect(listed.body).not.toContain(subscription.keys.auth);
    // The same subscription again (the browser re-enabled) updates the one device.
    const again = await call('POST', '/api/alert_channels/push', { ...subscription, name: 'Chrome on Linux (work)' });
    expect(again.json().webhook.id).toBe(added.json().webhook.id);
    expect(await devices()).toEqual([expect.objectContaining({ name: 'Chrome on Linux (work)' })]);
  });

  it('refuse keys that are not a browser’s and an endpoint on a private address', async () => {
    const subscription = pushService.subscribe();
    const badKey = await call('POST', '/api/alert_channels/push', { ...subscription, keys: { p256dh: 'abc', auth: subscription.keys.auth } });
    expect([badKey.statusCode, badKey.json().msg]).toEqual([400, 'keys.p256dh: must be 65 bytes of base64url, as the browser gives it']);
    const privateAddress = await call('POST', '/api/alert_channels/push', { ...subscription, endpoint: 'http://10.0.0.8/push/abc' });
    expect(privateAddress.statusCode).toBe(400);
    expect(privateAddress.json().msg).toContain('private address');
  });

  it('get every alert encrypted for the device and signed with the installation’s VAPID key', async () => {
    const key = (await call('GET', '/api/alert_channels/push/key')).json().public_key as string;
    const subscription = pushService.subscribe();
    await call('POST', '/api/alert_channels/push', { ...subscription, name: 'Firefox on Windows' });
    const before = pushService.received.length;
    const eventId = await fire('AAPL');
    await t.app.alertDelivery.runLane('webhook');
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'delivered', attempts: 1 });
    const receipt = pushService.received[before]!;
    expect(receipt).toMatchObject({ status: 201, vapidOk: true, decryptError: null });
    expect(receipt.headers.authorization).toContain(`k=${key}`);
    expect(receipt.headers.urgency).toBe('high');
    expect(JSON.parse(receipt.payload!)).toEqual({ title: 'AAPL dropped 5.3%', body: 'AAPL −5.3% to 212.40 (prev close 224.30).', url: '/dashboard/dropscanner', tag: expect.stringMatching(/^alert_\d+_\d+$/), type: 'PERCENT_DROP' });
  });

  it('are removed when the push service answers 410 Gone', async () => {
    const subscription = pushService.subscribe();
    const { webhook } = (await call('POST', '/api/alert_channels/push', { ...subscription, name: 'Safari on iPhone' })).json();
    const tested = (await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`)).json();
    expect(tested).toMatchObject({ ok: true, request: { url: `${pushService.origin}/••••` } });
    pushService.answer(subscription.endpoint, 410);
    const eventId = await fire('TSLA');
    await t.app.alertDelivery.runLane('webhook');
    expect((await deliveryOf(eventId)).status).toBe('failed');
    expect(await devices()).toHaveLength(0);
  });
});
