/**
 * Alerts that really fire (issue 15) and the expiry of a verification code (issue 14), on the
 * alerts server: embedded database, SMS and mail outboxes, the pinned dataset with MARKET_NOW inside
 * a session, and a TEST_CONTROL_FILE (support/control.ts) that moves a quote, the wall clock and the
 * market clock; the alert evaluation polls every second there (ALERT_POLL_SECONDS=1). No other spec
 * uses that server, and every test puts the control back when it ends. SBUX is this spec's symbol: the dataset does
 * not list it, so its quote comes from the control file alone and no other spec sees it; every change
 * is put back when the spec ends.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { api, latestOutboxMail, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { setTestControl, waitForAlertPasses } from './support/control';
import { NEXT_SESSION } from './fixtures/market';
import { latestVerificationCode, outboxSmsTo, uniquePhoneNumber } from './support/sms';

const PREVIOUS_CLOSE = 62;
let page: Page;
let email: string;
let token: string;
const session = useBrowserPage(
  async (context) => {
    ({ email, token } = await signedInUser(context, 'alertfire', { server: 'alerts', favorites: [{ symbol: 'SBUX', description: 'Starbucks Corporation' }] }));
  },
  { server: 'alerts' },
);
beforeEach(() => {
  page = session.page;
});
afterAll(async () => {
  await setTestControl({});
});

const smsStatus = () => page.getByRole('status', { name: 'SMS verification status' });
const phoneField = () => page.getByRole('textbox', { name: /^Phone number/ });
const codeField = () => page.getByRole('textbox', { name: /^Verification code/ });

async function smsStatusIs(text: string) {
  await expect.poll(() => smsStatus().textContent(), { timeout: 15_000 }).toBe(text);
}

async function sendCode(number: string) {
  await phoneField().fill(number);
  await page.getByRole('button', { name: 'Send code' }).click();
  await smsStatusIs('Verification code sent successfully! Please check your messages.');
}

/** The alert SMS to `number` (not the verification codes). */
const alertSms = async (number: string) => (await outboxSmsTo(number, 'alerts')).filter((text) => !/code is \d{6}\./.test(text));

describe('Alert System: alerts that fire', () => {
  it('refuses a code older than 10 minutes with the server’s message', async () => {
    const number = uniquePhoneNumber();
    await page.goto('/dashboard/alert');
    await smsStatusIs('No phone number on file. Please enter one to enable SMS alerts.');
    await sendCode(number);
    const code = await latestVerificationCode(number, 'alerts');
    try {
      // Eleven minutes later on the server's clock: the code has expired.
      await setTestControl({ clockOffsetMs: 11 * 60_000 });
      await codeField().fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await smsStatusIs('Verification failed: This code has expired or was replaced by a newer one. Please send a new code.');
      expect(await smsStatus().getAttribute('data-tone')).toBe('danger');
    } finally {
      await setTestControl({});
    }
  });

  it('a Percent Drop rule on a favourite fires once, by SMS and e-mail, while the price keeps moving around the level', async () => {
    const number = uniquePhoneNumber();
    await setTestControl({ quotes: { SBUX: { price: 61.5, previousClose: PREVIOUS_CLOSE } } });
    await page.goto('/dashboard/alert');
    await smsStatusIs('No phone number on file. Please enter one to enable SMS alerts.');

    // A verified phone: the code read from the SMS outbox.
    await sendCode(number);
    await codeField().fill(await latestVerificationCode(number, 'alerts'));
    await page.getByRole('button', { name: 'Verify' }).click();
    await smsStatusIs('Phone number verified successfully!');

    // SMS quiet hours off: the server's clock may be at night in the user's zone when this runs.
    await page.getByRole('switch', { name: 'SMS quiet hours' }).uncheck();
    await page.getByRole('button', { name: 'Save delivery settings' }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Delivery settings status' }).textContent(), { timeout: 15_000 }).toBe('Delivery settings saved successfully!');

    // The rule: SBUX, 5 % below the previous close, SMS and e-mail.
    await page.getByRole('checkbox', { name: 'SBUX', exact: true }).check();
    await page.getByRole('textbox', { name: 'Drop Percentage' }).fill('5');
    await page.getByRole('switch', { name: 'SMS alerts' }).check();
    await page.getByRole('switch', { name: 'E-mail alerts' }).check();
    await page.getByRole('switch', { name: 'Enabled' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Alert preferences status' }).textContent(), { timeout: 15_000 }).toBe('Percent Drop alert preferences saved successfully!');
    await waitForAlertPasses();
    expect(await alertSms(number)).toEqual([]);

    // The market crosses the threshold: 62 → 58.50 is −5.6 %.
    await setTestControl({ quotes: { SBUX: { price: 58.5, previousClose: PREVIOUS_CLOSE } } });
    await expect.poll(async () => (await alertSms(number)).length, { timeout: 30_000 }).toBe(1);
    const [sms] = await alertSms(number);
    expect(sms).toContain('SBUX −5.6% to 58.50 (prev close 62.00)');
    expect(sms).toContain('Reply STOP to opt out');
    const mail = await latestOutboxMail(email, 'alerts');
    expect(mail).toMatch(/^Subject: .*SBUX/m);
    expect(mail).toMatch(/^List-Unsubscribe:\s+<http:\/\/127\.0\.0\.1:\d+\/api\/alerts\/unsubscribe\?token=/m);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    // Around the level, and back below it without re-arming: nothing more.
    for (const price of [59.0, 58.8, 59.1, 58.7, 58.9]) {
      await setTestControl({ quotes: { SBUX: { price, previousClose: PREVIOUS_CLOSE } } });
      await waitForAlertPasses();
    }
    expect(await alertSms(number)).toHaveLength(1);
    const mails = await latestOutboxMail(email, 'alerts');
    expect(mails).toBe(mail);

    // The history tab shows it: the rule, the data, each channel's status.
    await page.goto('/dashboard/alert?tab=history');
    const item = page.getByRole('article', { name: 'Percent Drop alert for SBUX' });
    await item.waitFor();
    expect(await page.getByRole('article').count()).toBe(1);
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('58.50');
    expect(text).toContain('Sent');
    await screenshot(page, 'alert-history-fired');
  });

  it('a saved option trade alerts by e-mail when a live pass finds its target hit', async () => {
    // The install replay of the option engine on the pinned dataset: the SPY call is an open trade.
    const deadline = Date.now() + 150_000;
    for (;;) {
      const { body } = await api<Array<{ engine: string; state: string }>>('trade_ideas/replay_status', { token, server: 'alerts' });
      if (body.some((entry) => entry.engine === 'options' && entry.state === 'done')) break;
      if (Date.now() > deadline) throw new Error(`the options replay was not done within 150 s: ${JSON.stringify(body)}`);
      // Polls the server's state, not a fixed pause before a check.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    await page.goto('/dashboard/options2');
    const alert = page.getByRole('list', { name: 'Option trades' }).getByRole('checkbox', { name: 'Alert for SPY SPY261224C00680000' });
    await alert.check();
    await page.getByRole('button', { name: 'Save Alerts' }).click();
    await page.getByText('✅ Alerts saved successfully!').waitFor();

    try {
      // Monday's close: the dataset's held-back SPY session (+8 %) is served, and the scheduler runs
      // Friday's and Monday's passes live; the call reaches its target on Monday.
      await setTestControl({ marketNow: `${NEXT_SESSION}T21:45:00Z` });
      const mail = async () => {
        try {
          const text = await latestOutboxMail(email, 'alerts');
          return /^Subject: .*SPY/m.test(text) ? text : '';
        } catch {
          return '';
        }
      };
      await expect.poll(mail, { timeout: 150_000, interval: 1_000 }).toMatch(/target hit/);
      const text = await mail();
      expect(text).toContain('SPY261224C00680000');
      expect(text).toMatch(/^List-Unsubscribe:\s+<http/m);

      await page.goto('/dashboard/alert?tab=history');
      const item = page.getByRole('article', { name: 'Saved option trade alert for SPY' });
      await item.waitFor();
      expect(await item.textContent()).toContain('target hit');
      await screenshot(page, 'alert-history-saved-trade');
    } finally {
      await setTestControl({});
    }
  }, 240_000);
});
