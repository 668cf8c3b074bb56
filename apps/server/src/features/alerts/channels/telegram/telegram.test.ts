/**
 * Telegram alerts (issue 27) against a fake Bot API: the one-time link binds a chat (polled updates and
 * the webhook with its secret-token header), /stop unbinds it, alerts go out in HTML mode with every
 * text escaped, a 429's retry_after is waited out, and a blocked bot (403) disconnects the chat.
 */
import { TELEGRAM_NOT_CONFIGURED_MESSAGE } from '@signalboard/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertWebhooks } from '../../../../db/schema';
import { createSecretBox, derivedSecretBoxKey } from '../../../../lib/secret-box';
import { FAKE_BOT_TOKEN, FAKE_BOT_USERNAME, startFakeTelegram, type FakeTelegram } from '../../../../../test/fake-telegram';
import { createTestApp, createUser, FakeClock, login, TEST_JWT_SECRET, uniqueEmail, type TestApp } from '../../../../../test/helpers';
import { createTelegramBotApi } from './bot-api';
import { createTelegramService, TELEGRAM_REPLIES, type TelegramService } from './telegram.service';
import { escapeTelegramHtml } from './telegram-text';
import { endpointDeliveriesOf, firePercentDrop } from '../../../../../test/alert-channel-fixtures';

const quiet = { info: () => undefined, warn: () => undefined };
let fake: FakeTelegram;
let t: TestApp;
let poller: TelegramService;
let user: { id: number; headers: { authorization: string } };
let chat = 5000;

beforeAll(async () => {
  fake = await startFakeTelegram();
  // The app takes updates at its webhook; a second service over the same database polls (both ways bind alike).
  t = await createTestApp({ PUBLIC_URL: 'https://signalboard.example', TELEGRAM_BOT_TOKEN: FAKE_BOT_TOKEN, TELEGRAM_API_BASE: fake.apiBase, TELEGRAM_UPDATES: 'webhook' });
  poller = createTelegramService({
    db: t.db,
    box: createSecretBox(derivedSecretBoxKey(TEST_JWT_SECRET)),
    clock: t.clock,
    config: { ...t.config, TELEGRAM_UPDATES: 'polling' },
    log: quiet,
  });
  await poller.start();
});

afterAll(async () => {
  await poller.stop();
  await t.close();
  await fake.close();
});

beforeEach(async () => {
  chat += 1;
  const email = uniqueEmail('telegram');
  const id = await createUser(t.db, email, 'pw');
  user = { id, headers: await login(t.app, email, 'pw') };
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: user.headers, ...(payload !== undefined ? { payload } : {}) });
const chats = () => t.db.select().from(alertWebhooks).where(and(eq(alertWebhooks.userId, user.id), eq(alertWebhooks.kind, 'telegram')));

/** Presses Connect Telegram and Start in chat `chatId`; answers the bot's reply. */
async function connect(chatId: number, from: Parameters<FakeTelegram['say']>[2] = { username: 'jane' }) {
  const answer = (await call('POST', '/api/alert_channels/telegram/connect')).json();
  const code = new URL(answer.link).searchParams.get('start')!;
  const before = (await fake.waitForSent(chatId, 0)).length;
  fake.say(chatId, `/start ${code}`, from);
  return { code, reply: (await fake.waitForSent(chatId, before + 1)).at(-1)!.text };
}

const fire = (symbol: string, text?: string) => firePercentDrop(t, user.id, symbol, text === undefined ? {} : { text });
const deliveryOf = async (eventId: number) => (await endpointDeliveriesOf(t.db, eventId))[0]!;
const runLane = () => t.app.alertDelivery.runLane('webhook');

describe('connecting a chat', () => {
  it('gives a single-use link to the bot, valid ten minutes, that binds the chat it is pressed in', async () => {
    expect((await call('GET', '/api/alert_channels/telegram')).json()).toEqual({ available: true, bot_username: FAKE_BOT_USERNAME, link_minutes: 10 });
    const answer = (await call('POST', '/api/alert_channels/telegram/connect')).json();
    expect(answer.link).toMatch(new RegExp(`^https://t\\.me/${FAKE_BOT_USERNAME}\\?start=[A-Za-z0-9_-]{24}$`));
    expect(Date.parse(answer.expires_at) - t.clock.nowMs()).toBe(10 * 60_000);

    const code = new URL(answer.link).searchParams.get('start')!;
    fake.say(chat, `/start ${code}`, { username: 'jane' });
    expect((await fake.waitForSent(chat, 1))[0]!.text).toBe(TELEGRAM_REPLIES.connected);
    const [row] = await chats();
    expect(row).toMatchObject({ name: '@jane', topic: '@jane', enabled: true });
    // The chat id is sealed: not in the row, not in the list.
    expect(JSON.stringify(row)).not.toContain(String(chat));
    const listed = (await call('GET', '/api/alert_channels/webhooks')).json();
    expect(listed.webhooks).toEqual([expect.objectContaining({ kind: 'telegram', name: '@jane', state: 'active', also_quiet_hours: false })]);

    // Used once: the same code again binds nothing.
    fake.say(chat + 100, `/start ${code}`);
    expect((await fake.waitForSent(chat + 100, 1))[0]!.text).toBe(TELEGRAM_REPLIES.badCode);
    expect(await chats()).toHaveLength(1);
  });

  it('refuses an expired link, explains a bare /start, and /stop disconnects the chat', async () => {
    const answer = (await call('POST', '/api/alert_channels/telegram/connect')).json();
    t.clock.advance(10 * 60_000 + 1_000);
    fake.say(chat, `/start ${new URL(answer.link).searchParams.get('start')}`);
    expect((await fake.waitForSent(chat, 1))[0]!.text).toBe(TELEGRAM_REPLIES.badCode);
    fake.say(chat, '/start');
    expect((await fake.waitForSent(chat, 2))[1]!.text).toBe(TELEGRAM_REPLIES.noCode);

    expect((await connect(chat)).reply).toBe(TELEGRAM_REPLIES.connected);
    expect(await chats()).toHaveLength(1);
    fake.say(chat, '/stop');
    expect((await fake.waitForSent(chat, 4))[3]!.text).toBe(TELEGRAM_REPLIES.stopped);
    expect(await chats()).toHaveLength(0);
  });

  it('takes updates at the webhook only with the secret-token header', async () => {
    const answer = (await call('POST', '/api/alert_channels/telegram/connect')).json();
    const update = { update_id: 1, message: { message_id: 1, text: `/start ${new URL(answer.link).searchParams.get('start')}`, chat: { id: chat, type: 'group', title: 'Trading club' } } };
    const refused = await t.app.inject({ method: 'POST', url: '/api/telegram/webhook', payload: update, headers: { 'x-telegram-bot-api-secret-token': 'wrong' } });
    expect(refused.statusCode).toBe(403);
    expect(await chats()).toHaveLength(0);
    // The app set its webhook with the secret on start? (server.ts starts it; here the service is asked directly.)
    await t.app.telegram.start();
    const set = fake.calls.filter((entry) => entry.method === 'setWebhook').at(-1)!;
    expect(set.params).toMatchObject({ url: 'https://signalboard.example/api/telegram/webhook' });
    const accepted = await t.app.inject({ method: 'POST', url: '/api/telegram/webhook', payload: update, headers: { 'x-telegram-bot-api-secret-token': String(set.params.secret_token) } });
    expect([accepted.statusCode, accepted.json()]).toEqual([200, { ok: true }]);
    expect(await chats()).toEqual([expect.objectContaining({ name: 'Trading club' })]);
  });

  it('without a bot, says the admin must set TELEGRAM_BOT_TOKEN', async () => {
    const none = createTelegramService({ db: t.db, box: createSecretBox(derivedSecretBoxKey(TEST_JWT_SECRET)), clock: new FakeClock(), config: { ...t.config, TELEGRAM_BOT_TOKEN: undefined }, log: quiet });
    expect(await none.status()).toEqual({ available: false, bot_username: null, link_minutes: 10 });
    await expect(none.connect(user.id)).rejects.toMatchObject({ statusCode: 400, message: TELEGRAM_NOT_CONFIGURED_MESSAGE });
  });
});

describe('sending alerts to a chat', () => {
  it('sends HTML with every provider text escaped', async () => {
    await connect(chat);
    const eventId = await fire('T', 'AT&T <b>up</b> "a" headline & more');
    await runLane();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'delivered', attempts: 1 });
    const [, message] = await fake.waitForSent(chat, 2);
    expect(message!.parse_mode).toBe('HTML');
    expect(message!.text).toContain('<b>T dropped 5.3%</b>');
    expect(message!.text).toContain('AT&amp;T &lt;b&gt;up&lt;/b&gt; &quot;a&quot; headline &amp; more');
    expect(message!.text).toContain('<a href="https://signalboard.example/dashboard/dropscanner">Open in Signalboard</a>');
    expect(escapeTelegramHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    const history = (await call('POST', '/api/get_alert_history', {})).json().data.items[0];
    expect(history.deliveries).toEqual([expect.objectContaining({ channel: 'webhook', endpoint: '@jane', endpoint_kind: 'telegram', status: 'delivered' })]);
  });

  it("waits as a 429's retry_after says, then delivers once", async () => {
    await connect(chat);
    fake.answerNext(chat, { retryAfter: 300 });
    const eventId = await fire('MSFT');
    const before = t.clock.nowMs();
    await runLane();
    const held = await deliveryOf(eventId);
    expect(held.status).toBe('queued');
    expect(held.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 300_000);
    await runLane();
    expect((await deliveryOf(eventId)).status).toBe('queued');
    t.clock.advance(300_000);
    await runLane();
    expect(await deliveryOf(eventId)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(await fake.waitForSent(chat, 2)).toHaveLength(2);
  });

  it('disconnects the chat when the bot was blocked (403)', async () => {
    await connect(chat);
    fake.answerNext(chat, 'blocked');
    const eventId = await fire('NVDA');
    await runLane();
    const failed = await deliveryOf(eventId);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/^403 Forbidden in \d+ ms \(Forbidden: bot was blocked by the user\)$/);
    expect(await chats()).toHaveLength(0);
  });

  it('holds an alert through the quiet hours unless the chat is marked "also during quiet hours"', async () => {
    await connect(chat);
    // 15:00 UTC is 10:00 in New York: quiet hours 09:00–12:00 cover it.
    await call('POST', '/api/save_alert_delivery_settings', { time_zone: 'America/New_York', sms_quiet_hours: { enabled: true, start: '09:00', end: '12:00' }, email_quiet_hours: { enabled: false, start: '21:00', end: '08:00' }, paused: false });
    const first = await fire('AMD');
    await runLane();
    const held = await deliveryOf(first);
    expect(held).toMatchObject({ status: 'queued', reason: 'held: quiet hours until 12:00' });
    expect(held.nextAttemptAt.toISOString()).toBe('2026-11-02T17:00:00.000Z');

    const [row] = await chats();
    const saved = await call('PUT', `/api/alert_channels/webhooks/${row!.id}`, { also_quiet_hours: true });
    expect(saved.json().webhook.also_quiet_hours).toBe(true);
    const second = await fire('INTC');
    await runLane();
    expect(await deliveryOf(second)).toMatchObject({ status: 'delivered' });
    t.clock.advance(Date.parse('2026-11-02T17:00:00.000Z') - t.clock.nowMs());
    await runLane();
    expect(await deliveryOf(first)).toMatchObject({ status: 'delivered' });
  });

  it('keeps the SMS caps: the eleventh alert within an hour is not sent to the chat', async () => {
    await connect(chat);
    const events: number[] = [];
    for (let i = 0; i < 11; i += 1) events.push(await fire(`C${i}`));
    await runLane();
    const rows = await Promise.all(events.map((eventId) => deliveryOf(eventId)));
    expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(10);
    expect(rows.filter((row) => row.status === 'suppressed').map((row) => row.reason)).toEqual(['over the limit of 10 an hour and 50 a day for this chat or device']);
    expect(await fake.waitForSent(chat, 11)).toHaveLength(11);
  });

  it('answers a test with the request shown without the chat id or the token', async () => {
    await connect(chat);
    const [row] = await chats();
    const tested = (await call('POST', `/api/alert_channels/webhooks/${row!.id}/test`)).json();
    expect(tested).toMatchObject({ ok: true, request: { url: 'https://api.telegram.org/bot••••/sendMessage' } });
    expect(JSON.stringify(tested)).not.toContain(String(chat));
    expect(JSON.stringify(tested)).not.toContain(FAKE_BOT_TOKEN);
    expect((await fake.waitForSent(chat, 2))[1]!.text).toContain('Signalboard test alert');
  });
});

describe('the Bot API client', () => {
  it('never puts the token in an error', async () => {
    const api = createTelegramBotApi({ token: FAKE_BOT_TOKEN, apiBase: 'http://127.0.0.1:9' });
    const error = (await api.getMe().then(
      () => new Error('answered'),
      (caught: unknown) => caught as Error,
    ));
    expect(error.message).not.toContain(FAKE_BOT_TOKEN);
    expect(error.message).toMatch(/Telegram could not be reached/);
  });
});
