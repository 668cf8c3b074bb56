import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { latestOutboxMail, screenshot, signedInUser, useBrowserPage } from './support/browser';

let page: Page;
let email: string;
const session = useBrowserPage(async (context) => {
  ({ email } = await signedInUser(context, 'support'));
});
beforeEach(() => {
  page = session.page;
});

describe('Contact Support', () => {
  it('needs both the header and the body', async () => {
    await page.goto('/dashboard/support');
    await page.getByLabel('Header').fill('Only a header');
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText('Please fill out both the header and body fields.').waitFor();
  });

  it('sends the request with its attachment to support, reply-to the user, and clears the form', async () => {
    await page.goto('/dashboard/support');
    await page.getByLabel('Header').fill('Alerts did not fire');
    await page.getByLabel('Body').fill('My AAPL drop alert did not reach me yesterday.');
    // Delay the answer a moment so the busy state can be seen.
    await page.route('**/api/contact-support', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const chooser = page.waitForEvent('filechooser');
    await page.getByLabel('Attachment').click();
    await (await chooser).setFiles({ name: 'screenshot.txt', mimeType: 'text/plain', buffer: Buffer.from('attached evidence') });
    await screenshot(page, 'support-filled');
    await page.getByRole('button', { name: 'Send Email' }).click();
    const busy = page.getByRole('button', { name: 'Sending...' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await page.getByText('Support request sent successfully!').waitFor();
    await expect.poll(() => page.getByLabel('Header').inputValue()).toBe('');
    await expect.poll(() => page.getByLabel('Body').inputValue()).toBe('');

    const mail = await latestOutboxMail('support@signalboard.local');
    expect(mail).toMatch(/^Subject: \[Support\] Alerts did not fire$/m);
    expect(mail).toContain(`Reply-To: ${email}`);
    expect(mail).toContain('filename=screenshot.txt');
    expect(mail).toContain(Buffer.from('attached evidence').toString('base64'));
  });

  it('shows the failure message when the request cannot be sent', async () => {
    await page.route('**/api/contact-support', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ msg: 'mail down' }) }),
    );
    await page.goto('/dashboard/support');
    await page.getByLabel('Header').fill('Help');
    await page.getByLabel('Body').fill('Something');
    await page.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText('Failed to send support request. Please try again.').waitFor();
    expect(await page.getByLabel('Header').inputValue()).toBe('Help');
  });
});
