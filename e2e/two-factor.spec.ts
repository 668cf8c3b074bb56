/**
 * Two-factor sign-in in the browser (issue 28; docs/accounts.md "Two-factor sign-in"): turned on from
 * the Account screen (the key read off the screen, codes computed here by e2e/support/totp.ts, an
 * implementation of its own), then signing in with a code, with a recovery code, and the same
 * recovery code refused the second time.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { codeAtStep, keyFromBase32, stepAt } from './support/totp';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';

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
});
