/**
 * Alert System Settings, SMS Verification card (issue 14), on the embedded defaults: codes go to the
 * SMS outbox (DATA_DIR/sms-outbox), where the test reads them as a user reads their phone. Each test
 * uses its own number: the limit of 3 codes per number in 10 minutes counts every user's sends.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { latestOutboxMail, screenshot, signedInUser, useBrowserPage } from './support/browser';
import { latestVerificationCode, outboxSmsTo, uniquePhoneNumber } from './support/sms';

let page: Page;
let email: string;
const session = useBrowserPage(async (context) => {
  ({ email } = await signedInUser(context, 'alert', { favorites: [{ symbol: 'AAPL', description: 'Apple Inc.' }, { symbol: 'MSFT', description: 'Microsoft Corporation' }] }));
});
beforeEach(() => {
  page = session.page;
});

const status = () => page.getByRole('status', { name: 'SMS verification status' });
const phoneField = () => page.getByRole('textbox', { name: /^Phone number/ });
const codeField = () => page.getByRole('textbox', { name: /^Verification code/ });

/** Waits until the card's message is exactly `text`, and checks its status colour. */
async function statusIs(text: string, tone: 'success' | 'danger' | 'info') {
  await expect.poll(() => status().textContent(), { timeout: 15_000 }).toBe(text);
  expect(await status().getAttribute('data-tone')).toBe(tone);
}

async function sendCode(number: string) {
  await phoneField().fill(number);
  await page.getByRole('button', { name: 'Send code' }).click();
}

describe('Alert System Settings: SMS Verification', () => {
  it('verifies a number with the code from the SMS outbox, hides the code entry, and loads the number next time', async () => {
    const number = uniquePhoneNumber();
    await page.goto('/dashboard/alert');
    await page.getByRole('heading', { level: 1, name: 'Alert System Settings' }).waitFor();
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    expect(await codeField().count()).toBe(0);

    await sendCode(number);
    await statusIs('Verification code sent successfully! Please check your messages.', 'success');
    await codeField().waitFor();
    const sms = await outboxSmsTo(number);
    expect(sms).toHaveLength(1);
    expect(sms[0]).toMatch(/^To: \+1555\d{7}\n/);
    await codeField().fill(await latestVerificationCode(number));
    await screenshot(page, 'alert-code-entered');
    await page.getByRole('button', { name: 'Verify' }).click();
    await statusIs('Phone number verified successfully!', 'success');
    await codeField().waitFor({ state: 'detached' });
    await page.getByText(`Verified: ${number}`).waitFor();

    await page.reload();
    await statusIs('Existing phone number loaded.', 'success');
    expect(await phoneField().inputValue()).toBe(number);
  });

  it('refuses a number that is not E.164 before sending anything', async () => {
    await page.goto('/dashboard/alert');
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('Please enter a phone number.', { exact: true }).waitFor();
    await sendCode('5551234567');
    await page.getByText('Invalid phone number format. Please use E.164 format (e.g., +12223334444).', { exact: true }).waitFor();
    expect(await phoneField().getAttribute('aria-invalid')).toBe('true');
    expect(await codeField().count()).toBe(0);
  });

  it('answers a wrong code with the server’s message, keeps the entry, and then accepts the right one', async () => {
    const number = uniquePhoneNumber();
    await page.goto('/dashboard/alert');
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    await sendCode(number);
    await statusIs('Verification code sent successfully! Please check your messages.', 'success');
    const code = await latestVerificationCode(number);
    const wrong = code === '000000' ? '111111' : '000000';
    await codeField().fill(wrong);
    await page.getByRole('button', { name: 'Verify' }).click();
    await statusIs('Verification failed: Incorrect verification code. Please check the code and try again.', 'danger');
    await screenshot(page, 'alert-wrong-code');
    expect(await codeField().inputValue()).toBe(wrong);

    await codeField().fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await statusIs('Phone number verified successfully!', 'success');
  });

  it('stops the fourth code to one number within 10 minutes with the server’s 429 message', async () => {
    const number = uniquePhoneNumber();
    await page.goto('/dashboard/alert');
    await statusIs('No phone number on file. Please enter one to enable SMS alerts.', 'info');
    for (let sent = 1; sent <= 3; sent += 1) {
      await page.getByRole('button', { name: 'Send code' }).waitFor();
      await sendCode(number);
      await expect.poll(async () => (await outboxSmsTo(number)).length, { timeout: 15_000 }).toBe(sent);
      await statusIs('Verification code sent successfully! Please check your messages.', 'success');
    }
    await page.getByRole('button', { name: 'Send code' }).click();
    await statusIs(
      'Failed to send verification code: Too many verification codes were sent to this number (at most 3 in 10 minutes). Please wait 10 minutes and try again.',
      'danger',
    );
    expect((await outboxSmsTo(number)).length).toBe(3);
  });
});

const prefsStatus = () => page.getByRole('status', { name: 'Alert preferences status' });
async function prefsStatusIs(text: string, tone: 'success' | 'danger' | 'info') {
  await expect.poll(() => prefsStatus().textContent(), { timeout: 15_000 }).toBe(text);
  expect(await prefsStatus().getAttribute('data-tone')).toBe(tone);
}
const alertType = () => page.getByRole('combobox', { name: 'Alert type' });
const saveButton = () => page.getByRole('button', { name: 'Save', exact: true });

describe('Alert System Settings: Alert Preferences', () => {
  it('checks a Percent Drop rule, saves it, and loads it again after a reload', async () => {
    await page.goto('/dashboard/alert');
    await page.getByRole('checkbox', { name: 'AAPL', exact: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(false);
    await saveButton().click();
    await prefsStatusIs('Please select at least one symbol for alerts.', 'danger');
    await page.getByRole('checkbox', { name: 'MSFT', exact: true }).check();
    await page.getByRole('textbox', { name: 'Drop Percentage' }).fill('0');
    await saveButton().click();
    await prefsStatusIs('Please enter a valid Drop Percentage (1-100).', 'danger');
    await page.getByRole('textbox', { name: 'Drop Percentage' }).fill('12');
    await page.getByRole('switch', { name: 'E-mail alerts' }).check();
    await page.getByRole('switch', { name: 'Enabled' }).check();
    await saveButton().click();
    await prefsStatusIs('Percent Drop alert preferences saved successfully!', 'success');

    await page.reload();
    await expect.poll(() => page.getByRole('checkbox', { name: 'MSFT', exact: true }).isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'AAPL', exact: true }).isChecked()).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Drop Percentage' }).inputValue()).toBe('12%');
    expect(await page.getByRole('switch', { name: 'E-mail alerts' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'SMS alerts' }).isChecked()).toBe(false);
    expect(await page.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);
  });

  it('saves a Cryptocurrency rule with a target per coin, and SMS only with a verified number', async () => {
    await page.goto('/dashboard/alert');
    await page.getByRole('checkbox', { name: 'AAPL', exact: true }).waitFor();
    await alertType().selectOption('Cryptocurrency');
    await page.getByRole('checkbox', { name: 'ETH', exact: true }).check();
    await saveButton().click();
    await prefsStatusIs('Please enter a target price for ETH.', 'danger');
    await page.getByRole('textbox', { name: 'Target price for ETH' }).fill('4200.5');
    await page.getByRole('combobox', { name: 'Direction for ETH' }).selectOption('Falls below');
    await page.getByRole('switch', { name: 'SMS alerts' }).check();
    await saveButton().click();
    await prefsStatusIs('Please verify a phone number to receive SMS alerts.', 'danger');
    await page.getByRole('switch', { name: 'SMS alerts' }).uncheck();
    await saveButton().click();
    await prefsStatusIs('Cryptocurrency alert preferences saved successfully!', 'success');
    await screenshot(page, 'alert-preferences-saved');

    await page.reload();
    await page.getByRole('checkbox', { name: 'AAPL', exact: true }).waitFor();
    await alertType().selectOption('Cryptocurrency');
    await expect.poll(() => page.getByRole('checkbox', { name: 'ETH', exact: true }).isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Target price for ETH' }).inputValue()).toBe('4,200.5');
    expect(await page.getByRole('combobox', { name: 'Direction for ETH' }).inputValue()).toBe('below');
    // Another type has its own rule: none saved yet, so its enabled flag is off.
    await alertType().selectOption('General Market News');
    await page.getByRole('checkbox', { name: 'Economy Macro', exact: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(false);
  });

  it('saves a rule of each of the other eight types and loads every one again after a reload', async () => {
    // Spec §9's names; each type's own list (favourites, option tickers, news categories, keywords)
    // or none (the two drop types). Percent Drop and Cryptocurrency have their own tests above.
    const rules: Array<{ name: string; symbol?: string; target?: string }> = [
      { name: 'Current Price', symbol: 'AAPL', target: '250' },
      { name: 'Alert New Options', symbol: 'NVDA' },
      { name: 'General Market News', symbol: 'Financial Markets' },
      { name: 'TRUMP & MAGNIFICENT 7 BY ALPHA NEWS', symbol: 'TRUMP' },
      { name: 'TRUMP & MAGNIFICENT 7 BY GNEWS', symbol: 'TSLA' },
      { name: 'Level System', symbol: 'MSFT' },
      { name: 'Stock Drop Best of S&P 500' },
      { name: 'Stock Drop Alerts Swing Trade Scanner' },
    ];
    const showType = async (rule: (typeof rules)[number]) => {
      await alertType().selectOption(rule.name);
      if (rule.symbol) await page.getByRole('checkbox', { name: rule.symbol, exact: true }).waitFor();
      else await page.getByText(`${rule.name} alerts follow the scanner's own list: there are no symbols to choose.`).waitFor();
    };
    await page.goto('/dashboard/alert');
    await page.getByRole('checkbox', { name: 'AAPL', exact: true }).waitFor();
    for (const rule of rules) {
      await showType(rule);
      if (rule.symbol) await page.getByRole('checkbox', { name: rule.symbol, exact: true }).check();
      if (rule.target) await page.getByRole('textbox', { name: `Target price for ${rule.symbol}` }).fill(rule.target);
      await page.getByRole('switch', { name: 'E-mail alerts' }).check();
      await page.getByRole('switch', { name: 'Enabled' }).check();
      await saveButton().click();
      await prefsStatusIs(`${rule.name} alert preferences saved successfully!`, 'success');
    }

    await page.reload();
    await page.getByRole('checkbox', { name: 'AAPL', exact: true }).waitFor();
    for (const rule of rules) {
      await showType(rule);
      // The saved rule is loaded: its enabled flag is on (off only where no rule exists).
      await expect.poll(() => page.getByRole('switch', { name: 'Enabled' }).isChecked(), { timeout: 15_000 }).toBe(true);
      expect(await page.getByRole('switch', { name: 'E-mail alerts' }).isChecked()).toBe(true);
      if (rule.symbol) expect(await page.getByRole('checkbox', { name: rule.symbol, exact: true }).isChecked()).toBe(true);
      if (rule.target) expect(await page.getByRole('textbox', { name: `Target price for ${rule.symbol}` }).inputValue()).toBe(rule.target);
    }
  });
});

describe('Alert System Settings: Delivery Settings', () => {
  const deliveryStatus = () => page.getByRole('status', { name: 'Delivery settings status' });
  const deliveryStatusIs = async (text: string, tone: 'success' | 'danger') => {
    await expect.poll(() => deliveryStatus().textContent(), { timeout: 15_000 }).toBe(text);
    expect(await deliveryStatus().getAttribute('data-tone')).toBe(tone);
  };

  it('saves the time zone, quiet hours and pause, and shows them after a reload', async () => {
    await page.goto('/dashboard/alert');
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.waitFor();
    await page.getByLabel('SMS quiet until').fill('21:00');
    await page.getByRole('button', { name: 'Save delivery settings' }).click();
    await deliveryStatusIs('Quiet hours must start and end at different times.', 'danger');
    await page.getByLabel('SMS quiet until').fill('07:30');
    await zone.selectOption('Europe/Berlin');
    await page.getByRole('switch', { name: 'E-mail quiet hours' }).check();
    await page.getByRole('switch', { name: 'Pause all alerts' }).check();
    await page.getByRole('button', { name: 'Save delivery settings' }).click();
    await deliveryStatusIs('Delivery settings saved successfully!', 'success');

    await page.reload();
    await expect.poll(() => page.getByRole('combobox', { name: 'Time zone' }).inputValue(), { timeout: 15_000 }).toBe('Europe/Berlin');
    expect(await page.getByLabel('SMS quiet until').inputValue()).toBe('07:30');
    expect(await page.getByRole('switch', { name: 'E-mail quiet hours' }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Pause all alerts' }).isChecked()).toBe(true);
  });

  it('sends a test e-mail and, once a number is verified, a test SMS, each landing in its outbox', async () => {
    await page.goto('/dashboard/alert');
    await page.getByRole('button', { name: 'Send test SMS' }).click();
    await expect.poll(() => deliveryStatus().textContent(), { timeout: 15_000 }).toMatch(/^Failed to send test SMS: ./);
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    await deliveryStatusIs(`Test e-mail sent successfully to ${email}.`, 'success');
    await page.getByText(/^Provider answer: ./).waitFor();
    expect(await page.getByText(/^Last successful e-mail delivery: /).textContent()).not.toContain('none yet');
    expect(await latestOutboxMail(email)).toMatch(/^Subject: Signalboard test alert$/m);

    const number = uniquePhoneNumber();
    await sendCode(number);
    await statusIs('Verification code sent successfully! Please check your messages.', 'success');
    await codeField().fill(await latestVerificationCode(number));
    await page.getByRole('button', { name: 'Verify' }).click();
    await statusIs('Phone number verified successfully!', 'success');
    await page.getByRole('button', { name: 'Send test SMS' }).click();
    await deliveryStatusIs(`Test SMS sent successfully to ${number}.`, 'success');
    expect(await page.getByText('Last successful SMS delivery: none yet').count()).toBe(0);
    await expect.poll(async () => (await outboxSmsTo(number)).length).toBe(2);
    expect((await outboxSmsTo(number))[1]).toContain('Signalboard test alert: SMS alerts reach this phone.');
    await screenshot(page, 'alert-delivery-tested');
  });
});
