import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertChannelStatus, alertDeliveries, alertRules } from '../../../db/schema';
import { twilioSignatureOf } from '../../../providers/sms/twilio';
import { metrics } from '../../../lib/metrics';
import { FAKE_AUTH_TOKEN, startFakeTwilio } from '../../../../test/fake-twilio';
import { createTestApp, login, TEST_JWT_SECRET, type TestApp } from '../../../../test/helpers';
import { deliveryOf, deliveryUser, insertAlert, stepsOf } from '../../../../test/alert-delivery-fixtures';
import { ONE_CLICK_BODY_MESSAGE, UNSUBSCRIBE_TOKEN_MESSAGE } from '@signalboard/core';
import { START_REPLY, STOP_REPLY, TWILIO_NOT_CONFIGURED_MESSAGE, TWILIO_SIGNATURE_MESSAGE, helpReply } from './delivery.routes';
import { UNSUBSCRIBE_EXPIRED_MESSAGE, UNSUBSCRIBE_INVALID_MESSAGE, UNSUBSCRIBE_TOKEN_TTL_SECONDS, signUnsubscribeToken, unsubscribeKeyOf } from './unsubscribe-token';

const PUBLIC_URL = 'https://alerts.example.org';
const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

let fake: Awaited<ReturnType<typeof startFakeTwilio>>;
let t: TestApp;
const now = () => new Date(t.clock.nowMs());

/** A webhook request as Twilio makes it: signed over PUBLIC_URL + path with the auth token. */
const twilioPost = (path: string, params: Record<string, string>, signature = twilioSignatureOf(FAKE_AUTH_TOKEN, `${PUBLIC_URL}${path}`, params)) =>
  t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, payload: form(params) });

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await createTestApp({ ...fake.env(fake.url), PUBLIC_URL });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** An SMS delivery already accepted by Twilio as `sid`. */
async function sentSms(sid: string) {
  const user = await deliveryUser(t.db, now());
  const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
  const id = alert.deliveries.sms!;
  await t.db.update(alertDeliveries).set({ status: 'sent', providerId: sid, attempts: 1 }).where(eq(alertDeliveries.id, id));
  return { user, id };
}

const channelStatus = async (userId: number, channel: 'sms' | 'email') =>
  (await t.db.select().from(alertChannelStatus).where(and(eq(alertChannelStatus.userId, userId), eq(alertChannelStatus.channel, channel))))[0];

describe('Twilio status callbacks', () => {
  it('moves sent → delivered on a signed callback; the same receipt again changes nothing', async () => {
    const { id } = await sentSms('SM0001');
    const receipt = { MessageSid: 'SM0001', MessageStatus: 'delivered', AccountSid: 'AC1' };
    const deliveredCount = async () => (await metrics.alertDeliveries.get()).values.find((v) => v.labels.channel === 'sms' && v.labels.status === 'delivered')?.value ?? 0;
    const before = await deliveredCount();
    expect((await twilioPost('/api/twilio/status', receipt)).statusCode).toBe(200);
    expect((await deliveryOf(t.db, id)).status).toBe('delivered');
    expect(await deliveredCount()).toBe(before + 1); // signalboard_alert_deliveries_total{channel="sms",status="delivered"}
    expect((await twilioPost('/api/twilio/status', receipt)).statusCode).toBe(200);
    expect(await deliveredCount()).toBe(before + 1);
    expect(await stepsOf(t.db, id)).toEqual(['queued', 'delivered']);
    // A late 'failed' after 'delivered' changes nothing either.
    await twilioPost('/api/twilio/status', { MessageSid: 'SM0001', MessageStatus: 'failed', ErrorCode: '30008' });
    expect((await deliveryOf(t.db, id)).status).toBe('delivered');
  });

  it('records an undelivered message as failed with the error, and flags the channel for a permanent one', async () => {
    const { id, user } = await sentSms('SM0002');
    await twilioPost('/api/twilio/status', { MessageSid: 'SM0002', MessageStatus: 'undelivered', ErrorCode: '30006' });
    expect(await deliveryOf(t.db, id)).toMatchObject({ status: 'failed', reason: 'Twilio: undelivered (error 30006)' });
    expect((await channelStatus(user.userId, 'sms'))?.problem).toBe('Twilio: undelivered (error 30006)');
    // Intermediate statuses move nothing.
    const other = await sentSms('SM0003');
    await twilioPost('/api/twilio/status', { MessageSid: 'SM0003', MessageStatus: 'sent' });
    expect((await deliveryOf(t.db, other.id)).status).toBe('sent');
  });

  it('refuses a missing or wrong signature with 403, and a signature over another URL', async () => {
    const { id } = await sentSms('SM0004');
    const receipt = { MessageSid: 'SM0004', MessageStatus: 'delivered' };
    const bad = await twilioPost('/api/twilio/status', receipt, 'bm90IGEgc2lnbmF0dXJl');
    expect([bad.statusCode, bad.json()]).toEqual([403, { msg: TWILIO_SIGNATURE_MESSAGE }]);
    const otherUrl = await twilioPost('/api/twilio/status', receipt, twilioSignatureOf(FAKE_AUTH_TOKEN, 'https://evil.example/api/twilio/status', receipt));
    expect(otherUrl.statusCode).toBe(403);
    const tampered = await twilioPost('/api/twilio/status', { ...receipt, MessageStatus: 'failed' }, twilioSignatureOf(FAKE_AUTH_TOKEN, `${PUBLIC_URL}/api/twilio/status`, receipt));
    expect(tampered.statusCode).toBe(403);
    const none = await t.app.inject({ method: 'POST', url: '/api/twilio/status', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(receipt) });
    expect(none.statusCode).toBe(403);
    expect((await deliveryOf(t.db, id)).status).toBe('sent');
  });
});

describe('Twilio inbound messages', () => {
  it('STOP opts the number out of SMS alerts, START back in, HELP answers how; each answers TwiML', async () => {
    const user = await deliveryUser(t.db, now());
    const stop = await twilioPost('/api/twilio/inbound', { From: user.phone, Body: ' stop ', To: '+15005550006' });
    expect(stop.statusCode).toBe(200);
    expect(stop.headers['content-type']).toMatch(/^text\/xml/);
    expect(stop.body).toBe(`<?xml version="1.0" encoding="UTF-8"?><Response><Message>${STOP_REPLY}</Message></Response>`);
    expect((await channelStatus(user.userId, 'sms'))?.optedOutAt?.getTime()).toBe(t.clock.nowMs());

    // A queued SMS is now suppressed.
    const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await t.app.alertDelivery.runOnce();
    expect(await deliveryOf(t.db, alert.deliveries.sms!)).toMatchObject({ status: 'suppressed', reason: 'unsubscribed' });

    const start = await twilioPost('/api/twilio/inbound', { From: user.phone, Body: 'Start' });
    expect(start.body).toContain(START_REPLY);
    expect((await channelStatus(user.userId, 'sms'))?.optedOutAt).toBeNull();

    const help = await twilioPost('/api/twilio/inbound', { From: user.phone, Body: 'HELP' });
    expect(help.body).toContain(helpReply(PUBLIC_URL));
    const other = await twilioPost('/api/twilio/inbound', { From: user.phone, Body: 'thanks' });
    expect(other.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
  });

  it('refuses an unsigned STOP', async () => {
    const user = await deliveryUser(t.db, now());
    const forged = await twilioPost('/api/twilio/inbound', { From: user.phone, Body: 'STOP' }, 'Zm9yZ2Vk');
    expect(forged.statusCode).toBe(403);
    expect(await channelStatus(user.userId, 'sms')).toBeUndefined();
  });
});

describe('e-mail unsubscribe links', () => {
  const key = unsubscribeKeyOf(TEST_JWT_SECRET);
  const url = (token: string) => `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
  const oneClick = (token: string, body = 'List-Unsubscribe=One-Click') =>
    t.app.inject({ method: 'POST', url: url(token), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body });

  it('shows a confirm page without sign-in, and one click turns that rule\'s e-mails off', async () => {
    const user = await deliveryUser(t.db, now());
    const token = signUnsubscribeToken(key, user.userId, 'PERCENT_DROP', t.clock.nowMs());
    const page = await t.app.inject({ method: 'GET', url: url(token) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Stop Percent Drop alert e-mails?');
    expect(page.body).toContain('<form method="post" action="/api/alerts/unsubscribe?token=');
    expect(page.body).toContain('name="List-Unsubscribe" value="One-Click"');
    // The page's own CSP: its inline style and its form posting back here, nothing else.
    expect(page.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
    const done = await oneClick(token);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You will no longer get Percent Drop alert e-mails.');
    const [rule] = await t.db.select().from(alertRules).where(eq(alertRules.userId, user.userId));
    expect([rule!.enableEmail, rule!.enableSms, rule!.isActive]).toEqual([false, true, true]);
    expect(await channelStatus(user.userId, 'email')).toBeUndefined();
    // Twice is the same.
    expect((await oneClick(token)).statusCode).toBe(200);
  });

  it('unsubscribes from all alert e-mails', async () => {
    const user = await deliveryUser(t.db, now());
    const token = signUnsubscribeToken(key, user.userId, 'all', t.clock.nowMs());
    expect((await oneClick(token)).statusCode).toBe(200);
    expect((await channelStatus(user.userId, 'email'))?.optedOutAt?.getTime()).toBe(t.clock.nowMs());
    const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['email'] });
    await t.app.alertDelivery.runOnce();
    expect(await deliveryOf(t.db, alert.deliveries.email!)).toMatchObject({ status: 'suppressed', reason: 'unsubscribed' });
  });

  // RFC 8058 §3.1's own example: the one-click body as multipart/form-data.
  it('takes the one-click body as multipart/form-data too, as the RFC shows it', async () => {
    const user = await deliveryUser(t.db, now());
    const token = signUnsubscribeToken(key, user.userId, 'all', t.clock.nowMs());
    const multipart = (value: string) =>
      t.app.inject({
        method: 'POST',
        url: url(token),
        headers: { 'content-type': 'multipart/form-data; boundary=---FormBoundaryjWmhtjORrn' },
        payload: `-----FormBoundaryjWmhtjORrn\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n${value}\r\n-----FormBoundaryjWmhtjORrn--\r\n`,
      });
    const wrong = await multipart('Yes');
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { msg: ONE_CLICK_BODY_MESSAGE }]);
    expect(await channelStatus(user.userId, 'email')).toBeUndefined();
    const done = await multipart('One-Click');
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You will no longer get all Signalboard alert e-mails.');
    expect((await channelStatus(user.userId, 'email'))?.optedOutAt?.getTime()).toBe(t.clock.nowMs());
  });

  it('refuses an expired, a forged or a missing token, and a POST without the one-click body', async () => {
    const user = await deliveryUser(t.db, now());
    const expired = signUnsubscribeToken(key, user.userId, 'all', t.clock.nowMs() - (UNSUBSCRIBE_TOKEN_TTL_SECONDS + 1) * 1000);
    const forgedKey = signUnsubscribeToken(unsubscribeKeyOf('another-secret-another-secret-another-secret'), user.userId, 'all', t.clock.nowMs());
    const [payload, signature] = signUnsubscribeToken(key, user.userId, 'PERCENT_DROP', t.clock.nowMs()).split('.');
    const otherUser = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), u: user.userId + 1 })).toString('base64url');
    const swapped = `${otherUser}.${signature}`;
    const expiredAnswer = await oneClick(expired);
    expect([expiredAnswer.statusCode, expiredAnswer.json()]).toEqual([400, { msg: UNSUBSCRIBE_EXPIRED_MESSAGE }]);
    for (const token of [forgedKey, swapped, 'garbage', 'a.b.c']) {
      const answer = await oneClick(token);
      expect([answer.statusCode, answer.json()]).toEqual([400, { msg: UNSUBSCRIBE_INVALID_MESSAGE }]);
    }
    const page = await t.app.inject({ method: 'GET', url: url(expired) });
    expect([page.statusCode, page.json()]).toEqual([400, { msg: UNSUBSCRIBE_EXPIRED_MESSAGE }]);
    const noToken = await t.app.inject({ method: 'GET', url: '/api/alerts/unsubscribe' });
    expect([noToken.statusCode, noToken.json()]).toEqual([400, { msg: UNSUBSCRIBE_TOKEN_MESSAGE }]);
    const valid = signUnsubscribeToken(key, user.userId, 'all', t.clock.nowMs());
    const noBody = await oneClick(valid, 'something=else');
    expect([noBody.statusCode, noBody.json()]).toEqual([400, { msg: ONE_CLICK_BODY_MESSAGE }]);
    expect(await channelStatus(user.userId, 'email')).toBeUndefined();
  });
});

describe('what the settings screen shows', () => {
  it("answers each channel's opt-out and problem in the delivery settings, and an auto-paused rule's time", async () => {
    const user = await deliveryUser(t.db, now());
    const headers = await login(t.app, user.email, 'pw');
    await twilioPost('/api/twilio/inbound', { From: user.phone, Body: 'STOP' });
    const alert = await insertAlert(t.db, { userId: user.userId, now: now(), channels: ['sms'] });
    await t.db.update(alertDeliveries).set({ status: 'sent', providerId: 'SM0009' }).where(eq(alertDeliveries.id, alert.deliveries.sms!));
    await twilioPost('/api/twilio/status', { MessageSid: 'SM0009', MessageStatus: 'failed', ErrorCode: '21610' });
    await t.db.update(alertRules).set({ isActive: false, autoPausedAt: now() }).where(eq(alertRules.userId, user.userId));
    const settings = await t.app.inject({ method: 'GET', url: '/api/get_alert_delivery_settings', headers });
    expect(settings.json().channels).toEqual({
      sms: { opted_out_at: now().toISOString(), problem: 'Twilio: failed (error 21610)', problem_at: now().toISOString() },
      email: { opted_out_at: null, problem: null, problem_at: null },
    });
    const token = signUnsubscribeToken(unsubscribeKeyOf(TEST_JWT_SECRET), user.userId, 'all', t.clock.nowMs());
    await t.app.inject({ method: 'POST', url: `/api/alerts/unsubscribe?token=${encodeURIComponent(token)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    const after = await t.app.inject({ method: 'GET', url: '/api/get_alert_delivery_settings', headers });
    expect(after.json().channels.email.opted_out_at).toBe(now().toISOString());
    const resumed = await t.app.inject({ method: 'POST', url: '/api/resume_alert_email', headers });
    expect(resumed.json()).toMatchObject({ msg: 'E-mail alerts are on again.', data: { channels: { email: { opted_out_at: null, problem: null } } } });
    expect((await t.app.inject({ method: 'POST', url: '/api/resume_alert_email' })).statusCode).toBe(401);
    const rule = await t.app.inject({ method: 'POST', url: '/api/get_user_alert_rules', headers, payload: { alert_type: 'PERCENT_DROP' } });
    expect(rule.json().data).toMatchObject({ is_active: false, auto_paused_at: now().toISOString() });
  });
});

describe('without a Twilio auth token', () => {
  it('answers the Twilio webhooks 404', async () => {
    const plain = await createTestApp({ PUBLIC_URL });
    try {
      const answer = await plain.app.inject({ method: 'POST', url: '/api/twilio/status', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'MessageSid=SM1' });
      expect([answer.statusCode, answer.json()]).toEqual([404, { msg: TWILIO_NOT_CONFIGURED_MESSAGE }]);
    } finally {
      await plain.close();
    }
  });
});
