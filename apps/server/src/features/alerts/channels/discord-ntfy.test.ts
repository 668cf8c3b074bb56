/**
 * Discord and ntfy endpoints (issue 27) against local fakes: a Discord channel webhook (DISCORD_BASE_URL
 * sends Discord's requests to it) and an ntfy server, both reached through the URL rules like any
 * endpoint. The Discord URL's token and the ntfy access token are sealed and never shown.
 */
import { DISCORD_URL_MESSAGE, NTFY_TOPIC_MESSAGE, WEBHOOK_NO_SECRET_MESSAGE } from '@signalboard/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertWebhooks } from '../../../db/schema';
import { createSecretBox, derivedSecretBoxKey } from '../../../lib/secret-box';
import { receiver } from '../../../../test/http-receiver';
import { createTestApp, createUser, login, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { createWebhookLane, type WebhookLane } from './webhook-lane';
import { endpointDeliveriesOf, firePercentDrop } from '../../../../test/alert-channel-fixtures';

const discord = receiver();
const ntfy = receiver();
const resolver = async (hostname: string) => (hostname === 'discord.test' || hostname === 'ntfy.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []);
const DISCORD_TOKEN = 'Zq3-abcdefghijklmnopqrstuvwxyz_0123456789ABCDEFGHIJ';
const DISCORD_URL = `https://discord.com/api/webhooks/112233445566778899/${DISCORD_TOKEN}`;

let t: TestApp;
let lane: WebhookLane;
let user: { id: number; headers: { authorization: string } };

beforeAll(async () => {
  await discord.listen();
  await ntfy.listen();
  t = await createTestApp(
    { PUBLIC_URL: 'https://signalboard.example', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_HOSTS: 'discord.test,ntfy.test', DISCORD_BASE_URL: `http://discord.test:${discord.port()}` },
    { outboundResolver: resolver },
  );
  const box = createSecretBox(derivedSecretBoxKey(TEST_JWT_SECRET));
  lane = createWebhookLane({ db: t.db, box, mailer: t.mailer, clock: t.clock, config: t.config, log: { info: () => undefined, warn: () => undefined }, random: () => 0.5, resolve: resolver });
});

afterAll(async () => {
  await t.close();
  await discord.close();
  await ntfy.close();
});

beforeEach(async () => {
  discord.received.length = 0;
  ntfy.received.length = 0;
  discord.answer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}' }));
  ntfy.answer(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"n1"}' }));
  const email = uniqueEmail('endpoint-kinds');
  const id = await createUser(t.db, email, 'pw');
  user = { id, headers: await login(t.app, email, 'pw') };
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload !== undefined ? { payload } : {}) });
const create = (body: Record<string, unknown>) => call('POST', '/api/alert_channels/webhooks', { name: 'Team', alert_types: ['PERCENT_DROP'], ...body });

const fire = (symbol: string) => firePercentDrop(t, user.id, symbol);
const deliveryOf = async (eventId: number) => (await endpointDeliveriesOf(t.db, eventId))[0]!;

describe('Discord endpoints', () => {
  it('take only a Discord channel webhook URL, keep its token sealed and masked, and have no secret to rotate', async () => {
    const wrong = await create({ kind: 'discord', url: 'https://example.com/api/webhooks/1/2' });
    expect([wrong.statusCode, wrong.json().msg]).toEqual([400, DISCORD_URL_MESSAGE]);
    const created = await create({ kind: 'discord', url: DISCORD_URL });
    expect(created.statusCode).toBe(200);
    expect(created.json().secret).toBeUndefined();
    expect(created.json().webhook).toMatchObject({ kind: 'discord', url: 'https://discord.com/api/webhooks/112233445566778899/••••', topic: null, has_token: false });
    const listed = await call('GET', '/api/alert_channels/webhooks');
    expect(listed.body).not.toContain(DISCORD_TOKEN);
    const [row] = await t.db.select().from(alertWebhooks).where(eq(alertWebhooks.userId, user.id));
    expect(JSON.stringify(row)).not.toContain(DISCORD_TOKEN);
    const rotated = await call('POST', `/api/alert_channels/webhooks/${row!.id}/rotate_secret`);
    expect([rotated.statusCode, rotated.json().msg]).toEqual([400, WEBHOOK_NO_SECRET_MESSAGE]);
  });

  it('posts one embed per alert to the channel webhook (wait=true), and its test shows the URL masked', async () => {
    const { webhook } = (await create({ kind: 'discord', name: 'Team chat', url: DISCORD_URL })).json();
    const eventId = await fire('AAPL');
    await lane.runOnce();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'delivered', attempts: 1 });
    const [request] = discord.received;
    expect(request!.url).toBe(`/api/webhooks/112233445566778899/${DISCORD_TOKEN}?wait=true`);
    const body = JSON.parse(request!.body);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toEqual([
      expect.objectContaining({ title: 'AAPL dropped 5.3%', description: 'AAPL −5.3% to 212.40 (prev close 224.30).', url: 'https://signalboard.example/dashboard/dropscanner', footer: { text: 'Percent Drop · Signalboard' } }),
    ]);
    const tested = (await call('POST', `/api/alert_channels/webhooks/${webhook.id}/test`)).json();
    expect(tested).toMatchObject({ ok: true, request: { url: 'https://discord.com/api/webhooks/112233445566778899/••••' } });
    expect(JSON.stringify(tested)).not.toContain(DISCORD_TOKEN);
  });

  it("waits as Discord's 429 says before trying again", async () => {
    await create({ kind: 'discord', url: DISCORD_URL });
    discord.answer(() => ({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '120' }, body: '{"message":"You are being rate limited.","retry_after":120.0,"global":false}' }));
    const eventId = await fire('MSFT');
    const before = t.clock.nowMs();
    await lane.runOnce();
    const row = await deliveryOf(eventId);
    expect(row.status).toBe('queued');
    expect(row.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 120_000);
  });
});

describe('ntfy endpoints', () => {
  it('need a topic, keep the access token sealed, and publish a notification per alert with its title, priority and link', async () => {
    const noTopic = await create({ kind: 'ntfy', url: `http://ntfy.test:${ntfy.port()}` });
    expect([noTopic.statusCode, noTopic.json().msg]).toEqual([400, NTFY_TOPIC_MESSAGE]);
    const created = await create({ kind: 'ntfy', name: 'Phone', url: `http://ntfy.test:${ntfy.port()}/`, topic: 'signalboard-7f3k9q2m', token: 'tk_secret_token_value' });
    expect(created.json().webhook).toMatchObject({ kind: 'ntfy', url: `http://ntfy.test:${ntfy.port()}`, topic: 'signalboard-7f3k9q2m', has_token: true });
    expect(created.json().secret).toBeUndefined();
    expect((await call('GET', '/api/alert_channels/webhooks')).body).not.toContain('tk_secret_token_value');

    const eventId = await fire('NVDA');
    await lane.runOnce();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'delivered' });
    const [request] = ntfy.received;
    expect([request!.method, request!.url, request!.headers.authorization]).toEqual(['POST', '/', 'Bearer tk_secret_token_value']);
    expect(JSON.parse(request!.body)).toMatchObject({ topic: 'signalboard-7f3k9q2m', title: 'NVDA dropped 5.3%', message: 'NVDA −5.3% to 212.40 (prev close 224.30).', priority: 4, click: 'https://signalboard.example/dashboard/dropscanner' });

    const tested = (await call('POST', `/api/alert_channels/webhooks/${created.json().webhook.id}/test`)).json();
    expect(tested).toMatchObject({ ok: true, request: { headers: { authorization: 'Bearer ••••' } } });
    expect(JSON.stringify(tested)).not.toContain('tk_secret_token_value');

    // The token can be removed: then no Authorization header is sent.
    const saved = await call('PUT', `/api/alert_channels/webhooks/${created.json().webhook.id}`, { token: '' });
    expect(saved.json().webhook.has_token).toBe(false);
    await call('POST', `/api/alert_channels/webhooks/${created.json().webhook.id}/test`);
    expect(ntfy.received.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('refuses an ntfy server on a private address like any URL', async () => {
    const refused = await create({ kind: 'ntfy', url: 'http://192.168.1.5', topic: 'alerts' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toContain('on a private address');
  });
});
