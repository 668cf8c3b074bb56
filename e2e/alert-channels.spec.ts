/**
 * Alert channels (issue 27) on the alerts server (support/control.ts moves its quotes): a webhook added
 * in the Channels card gets a signed test, then a Percent Drop alert, each verified by a receiver
 * with the Standard Webhooks reference library; an ntfy topic on a local server gets the alert too;
 * the history shows both receipts. LULU is this
 * spec's symbol: the dataset does not list it, so its quote comes from the control file alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';
import { setTestControl, waitForAlertPasses } from './support/control';

interface Received {
  headers: Record<string, string>;
  body: string;
}
/** A local server that records what it gets and answers 200: the webhook receiver, and an ntfy server. */
function recorder() {
  const got: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      got.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"ok"}');
    });
  });
  return { got, server };
}
const { got: received, server: receiver } = recorder();
const { got: notifications, server: ntfy } = recorder();

let page: Page;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'channels', { server: 'alerts', favorites: [{ symbol: 'LULU', description: 'Lululemon Athletica Inc.' }] });
  },
  { server: 'alerts' },
);
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => ntfy.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  page = session.page;
});
afterAll(async () => {
  await setTestControl({});
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise((resolve) => ntfy.close(resolve));
});

const PREVIOUS_CLOSE = 310;

describe('Alert System: webhooks', () => {
  it('a webhook and an ntfy topic added in Channels get the alert (the webhook signed, after a signed test), and the history shows both receipts', async () => {
    await setTestControl({ quotes: { LULU: { price: 305, previousClose: PREVIOUS_CLOSE } } });
    await page.goto('/dashboard/alert');
    const channels = page.getByRole('region', { name: 'Channels' });
    await channels.getByText('No endpoints yet.').waitFor();

    // Add the endpoint: the secret is shown once.
    await channels.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('dialog', { name: 'Add channel' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Trading bot');
    await form.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/signalboard`);
    await form.getByRole('checkbox', { name: 'Percent Drop' }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = ((await secretDialog.getByText(/^whsec_/).textContent()) ?? '').trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    await screenshot(page, 'alert-channels-secret');
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await secretDialog.waitFor({ state: 'hidden' });
    const row = channels.getByRole('list', { name: 'Endpoints' }).getByRole('listitem');
    await row.getByText('Active').waitFor();
    expect(await row.textContent()).not.toContain(secret);

    // A test: the request is signed with that secret.
    await channels.getByRole('button', { name: 'Send test to Trading bot' }).click();
    const test = page.getByRole('dialog', { name: 'Test delivery to Trading bot' });
    await test.getByText(/^Delivered: 200/).waitFor();
    expect(received).toHaveLength(1);
    expect(new Webhook(secret).verify(received[0]!.body, received[0]!.headers)).toMatchObject({ type: 'alert.test' });
    await screenshot(page, 'alert-channels-test');
    await test.getByRole('button', { name: 'Close' }).click();
    await test.waitFor({ state: 'hidden' });

    // An ntfy topic too (a local ntfy server): no secret to show, the card says it was saved.
    await channels.getByRole('button', { name: 'Add channel' }).click();
    const ntfyForm = page.getByRole('dialog', { name: 'Add channel' });
    // The kind's radios are drawn as a segmented control: a person clicks the segment's label.
    await ntfyForm.getByText('ntfy', { exact: true }).click();
    await expect.poll(() => ntfyForm.getByRole('radio', { name: 'ntfy' }).isChecked()).toBe(true);
    await ntfyForm.getByRole('textbox', { name: 'Name' }).fill('Phone');
    await ntfyForm.getByRole('textbox', { name: 'Server' }).fill(`http://127.0.0.1:${(ntfy.address() as AddressInfo).port}`);
    await ntfyForm.getByRole('textbox', { name: 'Topic' }).fill('signalboard-e2e-7f3k9q');
    await ntfyForm.getByRole('checkbox', { name: 'Percent Drop' }).check();
    await screenshot(page, 'alert-channels-ntfy-form');
    await ntfyForm.getByRole('button', { name: 'Save' }).click();
    await ntfyForm.waitFor({ state: 'hidden' });
    await channels.getByRole('listitem').filter({ hasText: 'Topic: signalboard-e2e-7f3k9q' }).getByText('Active').waitFor();

    // A Percent Drop rule on LULU with SMS and e-mail off: the webhook and the ntfy topic are its channels.
    await page.getByRole('checkbox', { name: 'LULU', exact: true }).check();
    await page.getByRole('textbox', { name: 'Drop Percentage' }).fill('5');
    await page.getByRole('switch', { name: 'Enabled' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('status', { name: 'Alert preferences status' }).textContent(), { timeout: 15_000 }).toBe('Percent Drop alert preferences saved successfully!');
    await waitForAlertPasses();
    expect(received).toHaveLength(1);

    // 310 → 290 is −6.5 %: one alert, delivered to the webhook, signed.
    await setTestControl({ quotes: { LULU: { price: 290, previousClose: PREVIOUS_CLOSE } } });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    const alert = new Webhook(secret).verify(received[1]!.body, received[1]!.headers) as { id: string; type: string; data: Record<string, unknown> };
    expect(alert.type).toBe('alert.fired');
    expect(alert.id).toBe(received[1]!.headers['webhook-id']);
    expect(alert.data).toMatchObject({ alert_type: 'PERCENT_DROP', type_name: 'Percent Drop', symbol: 'LULU' });
    expect(String(alert.data.message)).toContain('LULU −6.5% to 290.00');
    await expect.poll(() => notifications.length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(notifications[0]!.body)).toMatchObject({ topic: 'signalboard-e2e-7f3k9q', priority: 4 });

    // The history: the alert with the webhook's receipt.
    await page.goto('/dashboard/alert?tab=history');
    const item = page.getByRole('article', { name: 'Percent Drop alert for LULU' });
    await item.getByText('Webhook · Trading bot').waitFor();
    await item.getByText('ntfy · Phone').waitFor();
    await expect.poll(() => item.textContent()).toContain('Delivered');
    await screenshot(page, 'alert-channels-history');
  });
});
