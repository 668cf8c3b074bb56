/**
 * Alerts that really fire (issue 15) and the expiry of a verification code (issue 14), on the
 * market server (embedded database, SMS and mail outboxes, the pinned dataset with MARKET_NOW inside
 * a session). Its TEST_CONTROL_FILE (support/control.ts) moves a quote and the wall clock; the alert
 * evaluation polls every second there (ALERT_POLL_SECONDS=1). SBUX is this spec's symbol: the dataset does
 * not list it, so its quote comes from the control file alone and no other spec sees it; every change
 * is put back when the spec ends.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { api, latestOutboxMail, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { setTestControl, waitForAlertPasses } from './support/control';
import { latestVerificationCode, outboxSmsTo, uniquePhoneNumber } from './support/sms';

const PREVIOUS_CLOSE = 62;
let page: Page;
let email: string;
let token: string;
const session = useBrowserPage(
  async (context) => {
    ({ email, token } = await signedInUser(context, 'alertfire', { server: 'market', favorites: [{ symbol: 'SBUX', description: 'Starbucks Corporation' }] }));
  },
  { server: 'market' },
);
beforeEach(() => {
  page = session.page;
});
afterAll(async () => {
  await setTestControl({});
  // The rule stops watching SBUX (no quote once the control file is empty) for the specs after this one.
  await api('save_alert_preferences', { token, server: 'market', json: { alert_type: 'PERCENT_DROP', stock_symbols: ['SBUX'], threshold_value: 5, enable_sms: false, enable_email: false, is_active: false } });
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
const alertSms = async (number: string) => (await outboxSmsTo(number, 'market')).filter((text) => !/code is \d{6}\./.test(text));

describe('Alert System: alerts that fire', () => {
  it('refuses a code older than 10 minutes with the server’s message', async () => {
    const number = uniquePhoneNumber();
    await page.goto('/dashboard/alert');
    await smsStatusIs('No phone number on file. Please enter one to enable SMS alerts.');
    await sendCode(number);
    const code = await latestVerificationCode(number, 'market');
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
    await codeField().fill(await latestVerificationCode(number, 'market'));
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
    const mail = await latestOutboxMail(email, 'market');
    expect(mail).toMatch(/^Subject: .*SBUX/m);
    expect(mail).toMatch(/^List-Unsubscribe:\s+<http:\/\/127\.0\.0\.1:\d+\/api\/alerts\/unsubscribe\?token=/m);
    expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    // Around the level, and back below it without re-arming: nothing more.
    for (const price of [59.0, 58.8, 59.1, 58.7, 58.9]) {
      await setTestControl({ quotes: { SBUX: { price, previousClose: PREVIOUS_CLOSE } } });
      await waitForAlertPasses();
    }
    expect(await alertSms(number)).toHaveLength(1);
    const mails = await latestOutboxMail(email, 'market');
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
});
