/**
 * Administration (issue 28; docs/accounts.md): shown to admins only and guarded on the server; an
 * admin deactivates a member whose open tab is sent to /login on its next call; the action is in the
 * audit log.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { newContext, screenshot, serverDataDir, signedInUser, useBrowserPage } from './support/browser';
import { runCli } from './support/server-process';

let page: Page;
let email: string;
const session = useBrowserPage(async (context) => {
  ({ email } = await signedInUser(context, 'admin'));
  const promoted = runCli(serverDataDir('app'), ['promote', email]);
  if (promoted.status !== 0) throw new Error(`promote failed: ${promoted.stderr}${promoted.stdout}`);
});
beforeEach(() => {
  page = session.page;
});

describe('Administration', () => {
  it("is refused to a member; an admin deactivates that member, whose open tab goes to the login screen; the log says so", async () => {
    const memberContext = await newContext(session.browser);
    try {
      const { email: memberEmail } = await signedInUser(memberContext, 'member');
      const member = await memberContext.newPage();
      // A member: no menu entry, and the server refuses the screen's calls.
      await member.goto('/dashboard/admin');
      await member.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
      await member.getByText('The accounts could not be loaded').waitFor();
      await member.getByText('The invitations could not be loaded').waitFor();
      await member.getByText('The audit log could not be loaded').waitFor();
      await member.getByText("The installation's state could not be loaded").waitFor();
      await member.getByText('The sign-in settings could not be loaded').waitFor();
      await member.getByText('The imported prices could not be loaded').waitFor();
      expect(await member.getByText('Only an admin of this installation can do this.').count()).toBe(6);
      expect(await member.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Administration' }).count()).toBe(0);
      await member.goto('/dashboard/symbollookup');
      await member.getByRole('heading', { name: 'Add and Remove Stocks', level: 1 }).waitFor();

      await page.goto('/dashboard/main');
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Administration' }).click();
      await page.getByRole('heading', { name: 'Administration', level: 1 }).waitFor();
      const users = page.getByRole('table', { name: 'Users' });
      await users.getByText(memberEmail, { exact: true }).waitFor();
      await users.getByText('You', { exact: true }).waitFor();
      // The installation: the database's check and the simulated market as the source.
      const checks = page.getByRole('table', { name: 'Readiness checks' });
      await checks.getByRole('row').filter({ hasText: 'Database' }).getByText('Up', { exact: true }).waitFor();
      await page.getByText('Simulated market', { exact: true }).last().waitFor();
      await screenshot(page, 'admin');

      await page.getByRole('button', { name: `Actions for ${memberEmail}` }).click();
      await page.getByRole('menuitem', { name: 'Deactivate' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByText(`${memberEmail} is deactivated; 1 session ended.`, { exact: true }).waitFor();
      await page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: memberEmail }).filter({ hasText: 'deactivate' }).waitFor();

      // The member's open tab: its live stream ends with the session, the reconnect is refused.
      await member.waitForURL('**/login', { timeout: 15_000 });
    } finally {
      await memberContext.close();
    }
  });
});
