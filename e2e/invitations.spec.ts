/**
 * Invitations (issue 28; docs/accounts.md): an admin invites an e-mail; the invitee opens the mailed
 * link in a browser that has never signed in, chooses a password and lands on the dashboard; signs
 * out and in again with it; the link then no longer works; the admin's screen shows it accepted.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { invitationPath, latestOutboxMail, newContext, screenshot, serverDataDir, signedInUser, uniqueEmail, useBrowserPage } from './support/browser';
import { runCli } from './support/server-process';

let page: Page;
const session = useBrowserPage(async (context) => {
  const { email } = await signedInUser(context, 'inviter');
  const promoted = runCli(serverDataDir('app'), ['promote', email]);
  if (promoted.status !== 0) throw new Error(`promote failed: ${promoted.stderr}${promoted.stdout}`);
});
beforeEach(() => {
  page = session.page;
});

describe('Invitations', () => {
  it('invite → accept with a chosen password → signed in; sign out and in again; the link works once', async () => {
    const invitee = uniqueEmail('invitee');
    const password = 'a long walk on the beach';
    await page.goto('/dashboard/admin');
    await page.getByRole('heading', { name: 'Invitations', level: 2 }).waitFor();
    await page.getByLabel('E-mail to invite').fill(invitee);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${invitee} (valid 72 hours).`, { exact: true }).waitFor();
    await page.getByRole('table', { name: 'Pending invitations' }).getByText(invitee, { exact: true }).waitFor();
    await screenshot(page, 'admin-invitations');

    const link = invitationPath(await latestOutboxMail(invitee));
    const guest = await newContext(session.browser);
    try {
      const tab = await guest.newPage();
      await tab.goto(link);
      const email = tab.getByLabel('Email');
      await email.waitFor();
      expect(await email.inputValue()).toBe(invitee);
      await screenshot(tab, 'invitation');
      await tab.getByLabel('Password', { exact: true }).fill('short');
      await tab.getByLabel('Confirm Password').fill('short');
      await tab.getByRole('button', { name: 'Create account' }).click();
      await tab.getByText('Password must be at least 10 characters', { exact: true }).waitFor();
      await tab.getByLabel('Password', { exact: true }).fill(password);
      await tab.getByLabel('Confirm Password').fill(password);
      await tab.getByRole('button', { name: 'Create account' }).click();
      await tab.waitForURL('**/dashboard/main');
      await tab.getByRole('heading', { name: 'Market Dashboard', level: 1 }).waitFor();

      await tab.getByRole('button', { name: 'Sign Out' }).click();
      await tab.waitForURL('**/login');
      await tab.getByLabel('Email').fill(invitee);
      await tab.getByLabel('Password', { exact: true }).fill(password);
      await tab.getByRole('button', { name: 'Login' }).click();
      await tab.waitForURL('**/dashboard/main');

      // The same link again: used.
      await tab.goto(link);
      await tab.getByRole('alert').filter({ hasText: 'This link no longer works' }).waitFor();
      await tab.getByRole('link', { name: 'Go to sign in' }).waitFor();
    } finally {
      await guest.close();
    }

    await page.reload();
    await page.getByText('No invitation is pending.', { exact: true }).waitFor();
    const audit = page.getByRole('table', { name: 'Audit log' });
    const entry = (action: string) => audit.getByRole('row').filter({ hasText: invitee }).filter({ has: page.getByRole('cell', { name: action, exact: true }) });
    await entry('accept-invitation').waitFor();
    await entry('invite').waitFor();
    await page.getByRole('table', { name: 'Users' }).getByText(invitee, { exact: true }).waitFor();
  });
});
