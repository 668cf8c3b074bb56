/**
 * Alert channels (issue 27), the kinds connected rather than typed in, on the alerts server against
 * local fakes: a Telegram chat bound through the fake Bot API (support/channel-fakes.ts, started by
 * global-setup.ts: the server polls its getUpdates), a browser push device whose Push API is stubbed in
 * the page to subscribe at a local fake push service (apps/server/test/fake-push-service.ts checks the
 * VAPID JWT and decrypts), and a Discord endpoint whose posts go to the Discord recorder
 * (DISCORD_BASE_URL). Each gets a real Percent Drop alert, and the history shows its receipt. Then the
 * Channels card with every kind listed is audited with axe in light, dark and at phone width.
 *
 * CMG is this spec's symbol: the dataset does not list it, so its quote comes from the control file
 * alone and no other spec sees it. Telegram and push keep the SMS quiet hours (21:00–08:00 New York
 * by default, on the real clock): each user turns them off first, so the spec passes at night too.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { startFakePushService, type FakePushService } from '../apps/server/test/fake-push-service';
import { blocking, describeFindings, runAxe } from './support/axe';
import { api, newContext, screenshot, serverBaseUrl, signedInUser, useBrowserPage } from './support/browser';
import { channelFakesClient, FAKE_BOT_USERNAME } from './support/channel-fakes';
import { setTestControl, waitForAlertPasses } from './support/control';

const SYMBOL = 'CMG';
const PREVIOUS_CLOSE = 310;
/** The alert 310 → 290 fires (−6.5 %): its subject, as every channel carries it. */
const SUBJECT = `Signalboard alert: ${SYMBOL} −6.5% (Percent Drop)`;

/** The accessibility spec's schemes (e2e/accessibility.spec.ts). */
const SCHEMES = {
  light: { colorScheme: 'light', width: 1366, height: 860 },
  dark: { colorScheme: 'dark', width: 1366, height: 860 },
  phone: { colorScheme: 'light', width: 390, height: 844 },
} as const;

const fakes = () => channelFakesClient(inject('channelFakesUrl'));
let pushService: FakePushService;
let page: Page;
let context: BrowserContext;
let token: string;
const session = useBrowserPage(
  async (browserContext) => {
    ({ token } = await signedInUser(browserContext, 'channels-more', { server: 'alerts', favorites: [{ symbol: SYMBOL, description: 'Chipotle Mexican Grill, Inc.' }] }));
    const quiet = { enabled: false, start: '21:00', end: '08:00' };
    const saved = await api('save_alert_delivery_settings', { token, json: { time_zone: 'America/New_York', sms_quiet_hours: quiet, email_quiet_hours: quiet, paused: false }, server: 'alerts' });
    if (saved.status !== 200) throw new Error(`save_alert_delivery_settings failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  },
  { server: 'alerts' },
);
beforeAll(async () => {
  pushService = await startFakePushService();
});
beforeEach(() => {
  ({ page, context } = session);
});
afterAll(async () => {
  await setTestControl({});
  await pushService.close();
});

const channelsCard = () => page.getByRole('region', { name: 'Channels' });

/** "Connect Telegram", then the chat `chatId` (@username) presses Start: the chat is listed. */
async function connectTelegram(chatId: number, username: string) {
  const telegram = channelsCard().getByRole('region', { name: 'Telegram' });
  await telegram.getByRole('button', { name: 'Connect Telegram' }).click();
  const href = await telegram.getByRole('status', { name: 'Telegram link' }).getByRole('link', { name: 'Open Telegram' }).getAttribute('href');
  const link = new URL(href ?? '');
  expect(`${link.origin}${link.pathname}`).toBe(`https://t.me/${FAKE_BOT_USERNAME}`);
  const code = link.searchParams.get('start') ?? '';
  expect(code).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
  await fakes().telegramSay(chatId, `/start ${code}`, { username });
  await telegram.getByRole('list', { name: 'Telegram chats' }).getByRole('listitem', { name: `@${username}` }).getByText('Active').waitFor();
  // The link is spent: its panel goes once the chat is listed.
  await telegram.getByRole('status', { name: 'Telegram link' }).waitFor({ state: 'hidden' });
}

/**
 * The Push API stubbed in the page (this Chromium has no push service): subscribe() and
 * getSubscription() answer a subscription at the fake push service, with its real keys and the
 * server's key as applicationServerKey (kept in localStorage, so it survives a reload). With
 * `subscribedWith` (the server's key) the browser has that subscription from the start.
 */
async function stubPushManager(browserContext: BrowserContext, subscription: { endpoint: string; keys: { p256dh: string; auth: string } }, subscribedWith?: string) {
  await browserContext.addInitScript(({ endpoint, keys, subscribedWith }) => {
    const STORED = 'e2e-push-application-server-key';
    if (subscribedWith && !window.localStorage.getItem(STORED)) window.localStorage.setItem(STORED, subscribedWith);
    const bytesOf = (base64url: string) => Uint8Array.from(atob(base64url.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0)).buffer;
    const base64urlOf = (buffer: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const made = (serverKey: string) => ({
      endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: bytesOf(serverKey) },
      getKey: (name: string) => bytesOf(name === 'auth' ? keys.auth : keys.p256dh),
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: () => {
        window.localStorage.removeItem(STORED);
        return Promise.resolve(true);
      },
    });
    PushManager.prototype.subscribe = function (options?: PushSubscriptionOptionsInit) {
      const key = options?.applicationServerKey;
      if (!key || typeof key === 'string') return Promise.reject(new DOMException('applicationServerKey is required as bytes', 'NotSupportedError'));
      const bytes = key instanceof ArrayBuffer ? key : key.buffer.slice(key.byteOffset, key.byteOffset + key.byteLength);
      window.localStorage.setItem(STORED, base64urlOf(bytes as ArrayBuffer));
      return Promise.resolve(made(window.localStorage.getItem(STORED)!) as unknown as PushSubscription);
    };
    PushManager.prototype.getSubscription = function () {
      const stored = window.localStorage.getItem(STORED);
      return Promise.resolve(stored ? (made(stored) as unknown as PushSubscription) : null);
    };
  }, { ...subscription, subscribedWith });
}

/**
 * "Enable notifications on this device" with the real service worker registered: the device is listed
 * as this one. Answers its name (the browser's, as the page names it).
 */
async function enablePushHere(): Promise<string> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const push = channelsCard().getByRole('region', { name: 'Browser push' });
  await push.getByRole('button', { name: 'Enable notifications on this device' }).click();
  const device = push.getByRole('list', { name: 'Devices' }).getByRole('listitem');
  await device.getByText('This device', { exact: true }).waitFor();
  return (await device.getAttribute('aria-label')) ?? '';
}

/** A Discord endpoint added in "Add channel" (its URL's id and token as Discord gives them). */
async function addDiscord(name: string, url: string) {
  await channelsCard().getByRole('button', { name: 'Add channel' }).click();
  const form = page.getByRole('dialog', { name: 'Add channel' });
  await form.getByText('Discord', { exact: true }).click();
  await expect.poll(() => form.getByRole('radio', { name: 'Discord' }).isChecked()).toBe(true);
  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Discord webhook URL' }).fill(url);
  await form.getByRole('checkbox', { name: 'Percent Drop' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'hidden' });
  await channelsCard().getByRole('list', { name: 'Endpoints' }).getByRole('listitem', { name }).getByText('Active').waitFor();
}

/** A Percent Drop rule of 5 % on the symbol (at 305, not yet true), then 310 → 290: one alert. */
async function fireDropAlert() {
  await setTestControl({ quotes: { [SYMBOL]: { price: 305, previousClose: PREVIOUS_CLOSE } } });
  await page.getByRole('checkbox', { name: SYMBOL, exact: true }).check();
  await page.getByRole('textbox', { name: 'Drop Percentage' }).fill('5');
  await page.getByRole('switch', { name: 'Enabled' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => page.getByRole('status', { name: 'Alert preferences status' }).textContent()).toBe('Percent Drop alert preferences saved successfully!');
  await waitForAlertPasses();
  await setTestControl({ quotes: { [SYMBOL]: { price: 290, previousClose: PREVIOUS_CLOSE } } });
}

/** The history's item for the alert, with `receipt` delivered (the one delivery of the user's one alert). */
async function receiptDelivered(receipt: string) {
  // The endpoint answers before the server records it: the history is opened once the record is there.
  const statuses = async () => {
    const { body } = await api<{ data: { items: Array<{ deliveries: Array<{ status: string }> }> } }>('get_alert_history', { token, json: {}, server: 'alerts' });
    return body.data.items.flatMap((item) => item.deliveries.map((delivery) => delivery.status));
  };
  await expect.poll(statuses).toEqual(['delivered']);
  await page.goto('/dashboard/alert?tab=history');
  const item = page.getByRole('article', { name: `Percent Drop alert for ${SYMBOL}` });
  await item.getByText(receipt, { exact: true }).waitFor();
  await expect.poll(() => item.textContent()).toContain('Delivered');
}

describe('Alert System: Telegram, browser push and Discord', () => {
  it('Connect Telegram binds the chat that sends /start <code>, which gets the alert in HTML; the history shows its receipt', async () => {
    const chatId = 424242001;
    await page.goto('/dashboard/alert');
    await connectTelegram(chatId, 'e2e_trader');
    // The bot's answer to /start, in plain text.
    await expect.poll(async () => (await fakes().telegramSent(chatId)).length).toBe(1);
    expect((await fakes().telegramSent(chatId))[0]).not.toHaveProperty('parse_mode');

    await fireDropAlert();
    await expect.poll(async () => (await fakes().telegramSent(chatId)).length, { timeout: 30_000 }).toBe(2);
    const alert = (await fakes().telegramSent(chatId))[1]!;
    expect(alert.parse_mode).toBe('HTML');
    expect(alert.text.startsWith(`<b>${SUBJECT}</b>\n\n`)).toBe(true);
    expect(alert.text).toContain(`${SYMBOL} fell 6.5% below the previous close, to 290.00.`);
    expect(alert.text.endsWith('<i>Percent Drop</i>')).toBe(true);
    await receiptDelivered('Telegram · @e2e_trader');
    await screenshot(page, 'alert-channels-telegram-history');
  });

  it('Enable notifications on this device subscribes at the push service, which gets the alert signed and encrypted; the service worker shows a pushed message', async () => {
    const origin = serverBaseUrl('alerts');
    const subscription = pushService.subscribe();
    await context.grantPermissions(['notifications'], { origin });
    await stubPushManager(context, subscription);
    await page.goto('/dashboard/alert');
    const device = await enablePushHere();

    const before = pushService.received.length;
    await fireDropAlert();
    await expect.poll(() => pushService.received.length - before, { timeout: 30_000 }).toBe(1);
    const receipt = pushService.received[before]!;
    expect(receipt.path).toBe(new URL(subscription.endpoint).pathname);
    expect({ status: receipt.status, vapidOk: receipt.vapidOk, vapidError: receipt.vapidError, decryptError: receipt.decryptError }).toEqual({ status: 201, vapidOk: true, vapidError: null, decryptError: null });
    const message = JSON.parse(receipt.payload ?? '') as { title: string; body: string; url: string; tag: string; type: string };
    expect(message).toMatchObject({ title: SUBJECT, type: 'PERCENT_DROP' });
    expect(message.url).toMatch(/^\/dashboard\//);
    await receiptDelivered(`Browser push · ${device}`);

    // What the push service would hand the browser, pushed to the real service worker: it shows the notification.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify(message) });
    await expect
      .poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((shown) => ({ title: shown.title, body: shown.body, tag: shown.tag }))))
      .toEqual([{ title: message.title, body: message.body, tag: message.tag }]);
    await cdp.detach();
  });

  it('a Discord endpoint added in Channels gets the alert as an embed at DISCORD_BASE_URL; the history shows its receipt', async () => {
    const webhookId = '112233445566778899';
    const webhookToken = 'e2eDiscordToken_abcdefghijklmnopqrstuvwxyz0123456789-XYZ';
    await page.goto('/dashboard/alert');
    await addDiscord('Trading desk', `https://discord.com/api/webhooks/${webhookId}/${webhookToken}`);
    // The URL is the secret: the card shows it masked.
    expect(await channelsCard().getByRole('listitem', { name: 'Trading desk' }).textContent()).not.toContain(webhookToken);

    const mine = async () => (await fakes().discordReceived()).filter((request) => request.path.startsWith(`/api/webhooks/${webhookId}/${webhookToken}`));
    await fireDropAlert();
    await expect.poll(async () => (await mine()).length, { timeout: 30_000 }).toBe(1);
    const [posted] = await mine();
    expect(posted!.path).toBe(`/api/webhooks/${webhookId}/${webhookToken}?wait=true`);
    const body = JSON.parse(posted!.body) as { username: string; embeds: Array<{ title: string; description: string; footer: { text: string } }> };
    expect(body.username).toBe('Signalboard');
    expect(body.embeds[0]).toMatchObject({ title: SUBJECT, footer: { text: 'Percent Drop · Signalboard' } });
    expect(body.embeds[0]!.description).toContain(`${SYMBOL} fell 6.5% below the previous close, to 290.00.`);
    await receiptDelivered('Discord · Trading desk');
  });

  it('the Channels card with every kind listed is clean under axe in light, dark and at phone width', async () => {
    const subscription = pushService.subscribe();
    await context.grantPermissions(['notifications'], { origin: serverBaseUrl('alerts') });
    await stubPushManager(context, subscription);
    // The typed-in kinds through the API; Telegram and push as a person connects them.
    const add = async (body: Record<string, unknown>) => {
      const { status } = await api('alert_channels/webhooks', { token, json: { alert_types: ['PERCENT_DROP'], ...body }, server: 'alerts' });
      expect(status).toBe(200);
    };
    await add({ kind: 'webhook', name: 'Trading bot', url: 'http://127.0.0.1:9/hooks/signalboard' });
    await add({ kind: 'discord', name: 'Team chat', url: 'https://discord.com/api/webhooks/998877665544332211/e2eAxeDiscordToken_abcdefghijklmnopqrstuvwxyz' });
    await add({ kind: 'ntfy', name: 'Phone', url: 'http://127.0.0.1:9', topic: 'signalboard-e2e-axe-4q8m2z' });
    await page.goto('/dashboard/alert');
    await channelsCard().getByRole('list', { name: 'Endpoints' }).getByRole('listitem').nth(2).waitFor();
    await connectTelegram(424242004, 'e2e_axe');
    await enablePushHere();

    // Light in this page; dark and phone each in a context of their own, as the accessibility spec
    // opens them (a page narrowed to phone width would keep its wide-screen menu open over the card).
    const failures: string[] = [];
    const audit = async (on: Page, scheme: keyof typeof SCHEMES) => {
      const fatal = blocking(await runAxe(on));
      if (fatal.length > 0) failures.push(`${scheme}:\n${describeFindings(fatal)}`);
      // From the top: a whole-page capture of a scrolled page draws the fixed header and menu mid-page.
      await on.evaluate(() => window.scrollTo(0, 0));
      await screenshot(on, `alert-channels-all-kinds-${scheme}`);
    };
    await audit(page, 'light');
    const { body: key } = await api<{ public_key: string }>('alert_channels/push/key', { token, server: 'alerts' });
    for (const scheme of ['dark', 'phone'] as const) {
      const other = await newContext(session.browser, { ...SCHEMES[scheme], server: 'alerts' });
      try {
        await other.addInitScript((accessToken) => window.localStorage.setItem('access_token', accessToken), token);
        await other.grantPermissions(['notifications'], { origin: serverBaseUrl('alerts') });
        await stubPushManager(other, subscription, key.public_key);
        const otherPage = await other.newPage();
        await otherPage.goto('/dashboard/alert');
        const card = otherPage.getByRole('region', { name: 'Channels' });
        await card.getByRole('list', { name: 'Telegram chats' }).getByRole('listitem', { name: '@e2e_axe' }).waitFor();
        await card.getByRole('list', { name: 'Devices' }).getByRole('listitem').getByText('This device', { exact: true }).waitFor();
        await audit(otherPage, scheme);
      } finally {
        await other.close();
      }
    }
    expect(failures.join('\n\n'), 'serious or critical axe violations').toBe('');
  });
});
