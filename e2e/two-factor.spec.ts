/**
 * Two-factor sign-in in the browser (issue 28; docs/accounts.md "Two-factor sign-in"): turned on from
 * the Account screen (the key read off the screen, codes computed here by e2e/support/totp.ts, an
 * implementation of its own), then signing in with a code, with a recovery code, and the same
 * recovery code refused the second time.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { SCREEN_TITLES } from '@signalboard/core';
import { codeAtStep, keyFromBase32, stepAt } from './support/totp';
import { addUser, api, apiLogin, newContext, screenshot, serverDataDir, signedInUser, uniqueEmail, useBrowserPage } from './support/browser';
import { runCli } from './support/server-process';

/** signedInUser's password. */
const PASSWORD = 'correct horse battery staple';

let page: Page;
let email: string;
const session = useBrowserPage(async (context) => {
  ({ email } = await signedInUser(context, 'two-factor'));
});
beforeEach(() => {
  page = session.page;
});

async function signOut() {
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await page.waitForURL('**/login');
}
async function passwordStep() {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('textbox', { name: 'Two-factor code' }).waitFor();
}

describe('Two-factor sign-in', () => {
  it('is turned on from Account, then signs in with a code and with a recovery code, each recovery code once', async () => {
    await page.goto('/dashboard/account');
    const card = page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByRole('button', { name: 'Turn on' }).click();
    await card.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
    const key = keyFromBase32(await card.getByTestId('two-factor-key').innerText());
    expect(key).toHaveLength(20);
    await screenshot(page, 'two-factor-setup');

    // The step the key is confirmed with is used: the sign-in below takes a later one.
    const confirmedStep = stepAt(Date.now());
    await card.getByLabel(/Code from your app/).fill(codeAtStep(key, confirmedStep));
    await card.getByRole('button', { name: 'Confirm' }).click();
    const list = card.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const recoveryCodes = await list.getByRole('listitem').allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    await screenshot(page, 'two-factor-recovery-codes');
    const done = card.getByRole('button', { name: 'Done' });
    expect(await done.isDisabled()).toBe(true);
    await card.getByRole('checkbox', { name: 'I have saved these recovery codes' }).check();
    await done.click();
    await card.getByText('10 of 10 recovery codes left.', { exact: true }).waitFor();
    await card.getByText('On', { exact: true }).waitFor();
    await screenshot(page, 'two-factor-on');

    // Password, then the code of the step after the one used (within the ±1 window until it ends).
    await signOut();
    await passwordStep();
    await screenshot(page, 'login-two-factor');
    await page.getByRole('textbox', { name: 'Two-factor code' }).fill(codeAtStep(key, Math.max(confirmedStep, stepAt(Date.now())) + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard/main');

    // Password, then a recovery code.
    await signOut();
    await passwordStep();
    await page.getByRole('switch', { name: 'Use a recovery code' }).check();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard/main');
    await page.goto('/dashboard/account');
    await page.getByRole('region', { name: 'Two-factor sign-in' }).getByText('9 of 10 recovery codes left.', { exact: true }).waitFor();

    // The same recovery code again: refused, with the tries left, and still signed out.
    await signOut();
    await passwordStep();
    await page.getByRole('switch', { name: 'Use a recovery code' }).check();
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCodes[0]!.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('That code is not right: 4 tries left.', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
  });

  it('required by an admin: a member without it is led to turn it on at sign-in, then goes on to the dashboard', async () => {
    // This test's user is the admin; the switch is on Administration.
    const promoted = runCli(serverDataDir('app'), ['promote', email]);
    expect(promoted.status, `${promoted.stderr}${promoted.stdout}`).toBe(0);
    const admin = await apiLogin(email, PASSWORD);
    const member = uniqueEmail('two-factor-member');
    addUser(member, 'first password');
    const first = await apiLogin(member, 'first password');
    expect((await api('update-password', { token: first.access_token, json: { new_password: PASSWORD } })).status).toBe(200);

    await page.goto('/dashboard/admin');
    const requireSwitch = page.getByRole('switch', { name: 'Require two-factor sign-in for everyone' });
    await requireSwitch.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Require it' }).click();
    try {
      await page.getByText('Two-factor sign-in is required: accounts without it are led to turn it on at their next sign-in.', { exact: true }).waitFor();
      await page.getByRole('switch', { name: 'Require two-factor sign-in for everyone', checked: true }).waitFor();
      await screenshot(page, 'admin-two-factor-required');

      const phoneContext = await newContext(session.browser, { width: 390, height: 844 });
      try {
        const phone = await phoneContext.newPage();
        await phone.goto('/login');
        await phone.getByLabel('Email').fill(member);
        await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await phone.getByRole('button', { name: 'Login' }).click();
        await phone.waitForURL('**/set-two-factor');
        await phone.getByText('Your installation requires it: turn it on to go on using Signalboard.', { exact: true }).waitFor();
        await phone.getByRole('button', { name: 'Turn on' }).click();
        await phone.getByRole('img', { name: 'QR code of your two-factor key' }).waitFor();
        await screenshot(phone, 'set-two-factor-phone');
        const key = keyFromBase32(await phone.getByTestId('two-factor-key').innerText());
        await phone.getByLabel(/Code from your app/).fill(codeAtStep(key, stepAt(Date.now())));
        await phone.getByRole('button', { name: 'Confirm' }).click();
        await phone.getByRole('list', { name: 'Recovery codes' }).waitFor();
        await screenshot(phone, 'two-factor-recovery-codes-phone');
        await phone.getByRole('checkbox', { name: 'I have saved these recovery codes' }).check();
        await phone.getByRole('button', { name: 'Done' }).click();
        await phone.getByRole('heading', { name: SCREEN_TITLES.main, level: 1 }).waitFor();
        expect(new URL(phone.url()).pathname).toBe('/dashboard/main');
      } finally {
        await phoneContext.close();
      }
    } finally {
      // The app server is shared by the spec files that follow: they sign in with passwords alone.
      const stopped = await api('admin/require_two_factor', { token: admin.access_token, json: { required: false } });
      expect(stopped.status).toBe(200);
    }
  });
});
