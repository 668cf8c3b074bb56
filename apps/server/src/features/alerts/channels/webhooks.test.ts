/**
 * Webhook endpoints end to end on the API and the delivery lane (issue 27): the URL rules at save and
 * at send, the secret shown once and sealed at rest, "Send test", and deliveries that a receiver
 * verifies with the Standard Webhooks reference library, retried on 5xx with one event id.
 */
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertDeliveries, alertWebhooks, outboxEmails } from '../../../db/schema';
import { createSecretBox, derivedSecretBoxKey } from '../../../lib/secret-box';
import { receiver, type Received } from '../../../../test/http-receiver';
import { createTestApp, createUser, login, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { createWebhookLane, webhookDisabledReason, type WebhookLane } from './webhook-lane';
import { endpointDeliveriesOf, firePercentDrop } from '../../../../test/alert-channel-fixtures';

type Headers = { authorization: string };
/**
 * Verifies as a receiver would, with the reference library, at the time the request was signed (the
 * library compares the timestamp with its own clock; the app runs on the test's clock).
 */
function verify(secret: string, request: Received): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Number(request.headers['webhook-timestamp']) * 1000);
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

const hook = receiver();
const other = receiver();
let t: TestApp;
let lane: WebhookLane;
let user: { id: number; email: string; headers: Headers };

// receiver.test is allow-listed and resolves to loopback; loopback.test resolves there too but is not listed.
// While `dnsDown`, nothing resolves.
let dnsDown = false;
const resolver = async (hostname: string) => (!dnsDown && (hostname === 'receiver.test' || hostname === 'loopback.test') ? [{ address: '127.0.0.1', family: 4 as const }] : []);
const receiverUrl = (path = '/hook') => `http://receiver.test:${hook.port()}${path}`;

beforeAll(async () => {
  await hook.listen();
  await other.listen();
  t = await createTestApp({ PUBLIC_URL: 'https://signalboard.example', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_HOSTS: 'receiver.test' }, { outboundResolver: resolver });
  // The container's key when none is given (container.ts): the lane must open what the API sealed.
  const box = createSecretBox(derivedSecretBoxKey(TEST_JWT_SECRET));
  lane = createWebhookLane({ db: t.db, box, mailer: t.mailer, clock: t.clock, config: t.config, log: { info: () => undefined, warn: () => undefined }, random: () => 0.5, resolve: resolver });
});

afterAll(async () => {
  await t.close();
  await hook.close();
  await other.close();
});

beforeEach(async () => {
  hook.received.length = 0;
  other.received.length = 0;
  hook.answer(() => ({ status: 200 }));
  const email = uniqueEmail('webhooks');
  const id = await createUser(t.db, email, 'pw');
  user = { id, email, headers: await login(t.app, email, 'pw') };
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload !== undefined ? { payload } : {}) });
const create = (body: Record<string, unknown>) => call('POST', '/api/alert_channels/webhooks', { name: 'Home', alert_types: ['PERCENT_DROP'], ...body });

describe('webhook endpoints on the API', () => {
  it('answers the secret once at creation, never in a read, and keeps it sealed at rest', async () => {
    const created = await create({ url: receiverUrl() });
    expect(created.statusCode).toBe(200);
    const { secret, webhook, msg } = created.json();
    expect(secret).toMatch(/^whsec_/);
    expect(msg).toBe('Webhook "Home" added. Copy its signing secret now: it is shown only once.');
    expect(webhook).toMatchObject({ name: 'Home', url: receiverUrl(), alert_types: ['PERCENT_DROP'], enabled: true, state: 'active', last_success_at: null });
    const listed = await call('GET', '/api/alert_channels/webhooks');
    expect(listed.json()).toEqual({ webhooks: [webhook], max: 5 });
    expect(listed.body).not.toContain(secret.slice(6));
    const [row] = await t.db.select().from(alertWebhooks).where(eq(alertWebhooks.id, webhook.id));
    expect(row!.secretSealed).not.toContain(secret.slice(6));
    const rotated = await call('POST', `/api/alert_channels/webhooks/${webhook.id}/rotate_secret`);
    expect(rotated.json().secret).toMatch(/^whsec_/);
    expect(rotated.json().secret).not.toBe(secret);
  });

  it.each([
    ['http://127.0.0.1:9/hook', 'loopback'],
    ['http://[::1]:9/hook', 'loopback'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://172.16.0.1/hook', 'private'],
    ['http://192.168.1.20/hook', 'private'],
    ['http://loopback.test/hook', 'loopback'],
  ])('refuses %s at save with a msg naming the %s range', async (url, range) => {
    const answer = await create({ url });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().msg).toContain(`on a ${range} address`);
    expect(answer.json().msg).toContain('WEBHOOK_ALLOW_HOSTS');
    expect(await t.db.select().from(alertWebhooks).where(eq(alertWebhooks.userId, user.id))).toEqual([]);
  });

  it('checks the URL of a change too, and answers 404 for another user\'s endpoint', async () => {
    const { webhook } = (await create({ url: receiverUrl() })).json();
    const changed = await call('PUT', `/api/alert_channels/webhooks/${webhook.id}`, { url: 'http://10.0.0.8/x' });
    expect([changed.statusCode, changed.json().msg]).toEqual([400, expect.stringContaining('private address')]);
    const email = uniqueEmail('webhooks-other');
    await createUser(t.db, email, 'pw');
    const stranger = await login(t.app, email, 'pw');
    const theirs = await t.app.inject({ method: 'DELETE', url: `/api/alert_channels/webhooks/${webhook.id}`, headers: stranger });
    expect([theirs.statusCode, theirs.json().msg]).toEqual([404, 'Webhook not found.']);
  });

  it('takes at most five endpoints and explains the sixth', async () => {
    for (let index = 0; index < 5; index += 1) expect((await create({ name: `Hook ${index}`, url: receiverUrl() })).statusCode).toBe(200);
    const sixth = await create({ name: 'Hook 6', url: receiverUrl() });
    expect([sixth.statusCode, sixth.json().msg]).toEqual([400, 'You can add at most 5 webhooks. Delete one to add another.']);
  });

  it('sends a signed test and shows the request and the answer; the 4th test in an hour is 429', async () => {
    const { webhook, secret } = (await create({ url: receiverUrl() })).json();
    const tested = await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`);
    expect(tested.statusCode).toBe(200);
    const result = tested.json();
    expect(result).toMatchObject({ ok: true, error: null, response: { status: 200, body: 'thanks' } });
    expect(result.request.headers['webhook-signature']).toMatch(/^v1,/);
    expect(verify(secret, hook.received[0]!)).toMatchObject({ type: 'alert.test' });
    expect(() => verify(secret, { ...hook.received[0]!, body: hook.received[0]!.body.replace('TEST', 'TSLA') })).toThrow();
    expect(hook.received[0]!.headers.host).toBe(`receiver.test:${hook.port()}`);
    await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`);
    await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`);
    const fourth = await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().msg).toMatch(/^You have sent 3 tests to "Home" in the last hour, the most allowed\. Please try again in /);
    expect(hook.received).toHaveLength(3);
  });

  it('does not follow a redirect to loopback', async () => {
    hook.answer(() => ({ status: 302, headers: { location: `http://127.0.0.1:${other.port()}/stolen` } }));
    const { webhook } = (await create({ url: receiverUrl() })).json();
    const result = (await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`)).json();
    expect(result).toMatchObject({ ok: false, response: { status: 302 } });
    expect(result.error).toContain('redirects are not followed');
    expect(other.received).toHaveLength(0);
  });
});

const fire = (symbol = 'AAPL') => firePercentDrop(t, user.id, symbol);
const deliveriesOf = (eventId: number) => endpointDeliveriesOf(t.db, eventId);
/** Lane passes, the clock moved to each retry's time, until nothing is due within a day. */
async function drain(eventId: number) {
  for (let i = 0; i < 30; i += 1) {
    await lane.runOnce();
    const queued = (await deliveriesOf(eventId)).filter((row) => row.status === 'queued');
    if (queued.length === 0) return;
    t.clock.advance(Math.max(0, Math.max(...queued.map((row) => row.nextAttemptAt.getTime())) - t.clock.nowMs()));
  }
}

describe('webhook deliveries', () => {
  it('a receiver that answers 500 twice then 200 gets one delivery in three attempts, each with the same id and a valid signature', async () => {
    const { webhook, secret } = (await create({ url: receiverUrl() })).json();
    hook.answer((index) => ({ status: index < 2 ? 500 : 200 }));
    const eventId = await fire();
    await drain(eventId);
    const [delivery] = await deliveriesOf(eventId);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, endpointId: webhook.id });
    expect(hook.received).toHaveLength(3);
    const ids = new Set(hook.received.map((request) => request.headers['webhook-id']));
    expect(ids).toEqual(new Set([`alert_${eventId}_${webhook.id}`]));
    for (const request of hook.received) {
      const payload = verify(secret, request) as { type: string; data: Record<string, unknown> };
      expect(payload.type).toBe('alert.fired');
      expect(payload.data).toMatchObject({ alert_type: 'PERCENT_DROP', symbol: 'AAPL', message: 'AAPL −5.3% to 212.40', data: { price: 212.4 } });
    }
    const listed = (await call('GET', '/api/alert_channels/webhooks')).json().webhooks[0];
    expect(listed).toMatchObject({ state: 'active', failing_since: null, last_answer: expect.stringMatching(/^200 OK in \d+ ms$/) });
    const history = (await call('POST', '/api/get_alert_history', {})).json().data.items[0];
    expect(history.deliveries).toEqual([expect.objectContaining({ channel: 'webhook', endpoint: 'Home', status: 'delivered', attempts: 3 })]);
  });

  it('fails at once on a 4xx other than 408 and 429, and honours Retry-After on a 429', async () => {
    const { webhook } = (await create({ url: receiverUrl() })).json();
    hook.answer(() => ({ status: 404 }));
    const gone = await fire('MSFT');
    await lane.runOnce();
    expect((await deliveriesOf(gone))[0]).toMatchObject({ status: 'failed', attempts: 1, reason: expect.stringMatching(/^404 Not Found in \d+ ms$/) });
    hook.answer(() => ({ status: 429, headers: { 'retry-after': '600' } }));
    const busy = await fire('NVDA');
    const before = t.clock.nowMs();
    await lane.runOnce();
    const [row] = await deliveriesOf(busy);
    expect(row!.status).toBe('queued');
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 600_000);
    const listed = (await call('GET', '/api/alert_channels/webhooks')).json().webhooks.find((item: { id: number }) => item.id === webhook.id);
    expect(listed.state).toBe('failing');
  });

  it('sends nothing to a deleted or turned-off endpoint, and nothing of a type it does not take', async () => {
    const first = (await create({ name: 'Off', url: receiverUrl() })).json().webhook;
    const second = (await create({ name: 'Gone', url: receiverUrl() })).json().webhook;
    const third = (await create({ name: 'News only', url: receiverUrl(), alert_types: ['PERCENT_DROP', 'GENERAL_NEWS'] })).json().webhook;
    const eventId = await fire();
    await call('PUT', `/api/alert_channels/webhooks/${first.id}`, { enabled: false });
    await call('DELETE', `/api/alert_channels/webhooks/${second.id}`);
    await call('PUT', `/api/alert_channels/webhooks/${third.id}`, { alert_types: ['GENERAL_NEWS'] });
    await lane.runOnce();
    const reasons = (await deliveriesOf(eventId)).map((row) => [row.status, row.reason]).sort();
    expect(reasons).toEqual([
      ['suppressed', 'Turned off by you.'],
      ['suppressed', 'alert type not sent to this webhook'],
      ['suppressed', 'webhook deleted'],
    ]);
    expect(hook.received).toHaveLength(0);
  });

  it('retries while the host does not resolve, and delivers once it does', async () => {
    await create({ url: receiverUrl() });
    const eventId = await fire('INTC');
    dnsDown = true;
    try {
      await lane.runOnce();
    } finally {
      dnsDown = false;
    }
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'queued', reason: 'attempt 1 failed: The host receiver.test could not be resolved.' });
    await drain(eventId);
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(hook.received).toHaveLength(1);
  });

  it('a delivery whose worker died mid-send is sent again once, marked possibly sent twice, with the same id', async () => {
    const { webhook } = (await create({ url: receiverUrl() })).json();
    const eventId = await fire('ORCL');
    // A worker claimed it and committed 'sending', then died before recording the answer.
    const [row] = await deliveriesOf(eventId);
    await t.db.update(alertDeliveries).set({ status: 'sending', attempts: 1, claimedUntil: new Date(t.clock.nowMs() + 60_000) }).where(eq(alertDeliveries.id, row!.id));
    await lane.runOnce();
    expect(hook.received).toHaveLength(0); // the lease still holds it
    t.clock.advance(61_000);
    await lane.runOnce();
    await lane.runOnce();
    expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'delivered', attempts: 2, possiblyDuplicate: true });
    expect(hook.received.map((request) => request.headers['webhook-id'])).toEqual([`alert_${eventId}_${webhook.id}`]);
  });

  it('a receiver that was down for a while gets every alert once it is back', async () => {
    const down = receiver();
    await down.listen();
    const port = down.port();
    await create({ url: `http://receiver.test:${port}/hook` });
    await down.close();
    const events = [await fire('CSCO'), await fire('QCOM'), await fire('TXN')];
    await lane.runOnce();
    for (const eventId of events) expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'queued', reason: expect.stringMatching(/^attempt 1 failed: connection refused/) });
    // Back on the same port an hour later.
    t.clock.advance(3_600_000);
    await new Promise<void>((resolve) => down.server.listen(port, '127.0.0.1', resolve));
    try {
      for (const eventId of events) await drain(eventId);
      for (const eventId of events) expect((await deliveriesOf(eventId))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
      expect(down.received).toHaveLength(3);
    } finally {
      await down.close();
    }
  });

  it('turns off an endpoint that failed for three days and tells its user once by e-mail', async () => {
    const { webhook } = (await create({ name: 'Flaky', url: receiverUrl() })).json();
    hook.answer(() => ({ status: 503 }));
    await t.db.update(alertWebhooks).set({ failingSince: new Date(t.clock.nowMs() - 3 * 86_400_000) }).where(eq(alertWebhooks.id, webhook.id));
    await fire('AMD');
    await lane.runOnce();
    const listed = (await call('GET', '/api/alert_channels/webhooks')).json().webhooks[0];
    expect(listed).toMatchObject({ enabled: false, state: 'disabled', disabled_reason: webhookDisabledReason(3) });
    const mails = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, user.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Signalboard turned off your webhook "Flaky"']);
    const again = await call('PUT', `/api/alert_channels/webhooks/${webhook.id}`, { enabled: true });
    expect(again.json().webhook).toMatchObject({ state: 'active', failing_since: null, disabled_reason: null });
  });
});
