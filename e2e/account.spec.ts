/**
 * The Account screen (issue 28; docs/accounts.md): the user's sessions, each device named, this one
 * marked; signing another device out sends that device's open tab to /login on its next call; the
 * password changes with the current one, and the old one stops working.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { api, apiLogin, newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

/** signedInUser's password. */
const PASSWORD = 'correct horse battery staple';

let page: Page;
let email: string;
const session = useBrowserPage(async (context) => {
  ({ email } = await signedInUser(context, 'account'));
});
beforeEach(() => {
  page = session.page;
});

describe('Account', () => {
  it('signs another device out: its open tab goes to the login screen on its next call', async () => {
    // The same account open on a phone.
    const phoneContext = await newContext(session.browser, { width: 390, height: 844 });
    try {
      const phone = await phoneContext.newPage();
      const { access_token } = await apiLogin(email, PASSWORD);
      await phone.goto('/login');
      await phone.evaluate((token) => window.localStorage.setItem('access_token', token), access_token);
      await phone.goto('/dashboard/account');
      await phone.getByRole('list', { name: 'Sessions' }).getByText('This device', { exact: true }).waitFor();
      await screenshot(phone, 'account-phone');

      await page.goto('/dashboard/account');
      await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
      await page.getByText(email, { exact: true }).waitFor();
      const sessions = page.getByRole('list', { name: 'Sessions' });
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
      await sessions.getByText('This device', { exact: true }).waitFor();
      await screenshot(page, 'account');

      await sessions.getByRole('button', { name: /^Sign out .+ \(.+\)$/ }).click();
      await page.getByText('Session ended.', { exact: true }).waitFor();
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
      await page.getByRole('button', { name: 'Sign out other devices' }).and(page.locator(':disabled')).waitFor();

      // The phone's live stream closes with its session; the app's next call (the stream's reconnect)
      // is refused, and the open tab goes to sign in by itself.
      await phone.waitForURL('**/login', { timeout: 15_000 });
      expect((await api('getemail', { token: access_token })).status).toBe(401);
    } finally {
      await phoneContext.close();
    }
  });

  it('changes the password with the current one; a wrong current one is refused with the reason', async () => {
    await page.goto('/dashboard/account');
    await page.getByRole('list', { name: 'Sessions' }).getByText('This device', { exact: true }).waitFor();
    await page.getByLabel('Current Password').fill('not my password');
    await page.getByLabel('New Password').fill('an even better passphrase');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Current password is incorrect', { exact: true }).waitFor();

    await page.getByLabel('Current Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Password updated successfully! Your other devices were signed out.', { exact: true }).waitFor();
    expect((await api('login', { json: { email, password: PASSWORD } })).status).toBe(401);
    expect((await api('login', { json: { email, password: 'an even better passphrase' } })).status).toBe(200);
    // This tab stays signed in.
    await page.getByRole('link', { name: 'WatchList' }).click();
    await page.getByRole('heading', { name: 'Add and Remove Stocks', level: 1 }).waitFor();
  });
});
