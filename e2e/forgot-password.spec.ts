import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addUser, api, apiLogin, latestOutboxMail, useBrowserPage, screenshot, uniqueEmail } from './support/browser';

const session = useBrowserPage();
let page: Page;
beforeEach(() => {
  page = session.page;
});

describe('forgot password', () => {
  it('asks for the e-mail first', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByText('Please enter your email to reset the password.').waitFor();
  });

  it('cancelling the confirmation sends nothing', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByText('Are you sure you want to reset your password?').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Are you sure you want to reset your password?').waitFor({ state: 'hidden' });
    expect(await page.getByText('Email sent!').count()).toBe(0);
  });

  it('e-mails a temporary password that leads to Change Password', async () => {
    const email = uniqueEmail('forgetful');
    addUser(email, 'original password');
    // Past the first login, so the temporary password is what brings first_login back.
    const first = await apiLogin(email, 'original password');
    expect(first.first_login).toBe(true);
    const changed = await api('update-password', { token: first.access_token, json: { new_password: 'settled password' } });
    expect(changed.status).toBe(200);
    expect((await apiLogin(email, 'settled password')).first_login).toBe(false);

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByText('Are you sure you want to reset your password?').waitFor();
    await screenshot(page, 'forgot-password-confirm');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Email sent! Please check your inbox for further instructions.').waitFor();

    const mail = await latestOutboxMail(email);
    const temporary = /Temporary password: (\S+)/.exec(mail)?.[1];
    expect(temporary).toMatch(/^[A-Za-z0-9]{14}$/);

    // The old password still works until the temporary one is used.
    expect((await apiLogin(email, 'settled password')).first_login).toBe(false);

    await page.getByLabel('Password', { exact: true }).fill(temporary!);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/set-password');
  });

  it('answers the same for an unknown e-mail', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(uniqueEmail('nobody'));
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Email sent! Please check your inbox for further instructions.').waitFor();
  });

  it("shows the server's error for a malformed e-mail", async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Email must be an e-mail address').waitFor();
  });
});
