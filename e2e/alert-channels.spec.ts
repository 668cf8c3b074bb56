/**
 * Alert channels (issue 27) on the alerts server (support/control.ts moves its quotes): a webhook added
 * in the Channels card gets a signed test, then a Percent Drop alert, each verified by a receiver
 * with the Standard Webhooks reference library; the history shows the webhook's receipt. LULU is this
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
const received: Received[] = [];
const receiver = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => {
    received.push({ headers: request.headers as Record<string, string>, body });
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

let page: Page;
const session = useBrowserPage(
  async (context) => {
    await signedInUser(context, 'channels', { server: 'alerts', favorites: [{ symbol: 'LULU', description: 'Lululemon Athletica Inc.' }] });
  },
  { server: 'alerts' },
);
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  page = session.page;
});
afterAll(async () => {
  await setTestControl({});
  await new Promise((resolve) => receiver.close(resolve));
});

const PREVIOUS_CLOSE = 310;

describe('Alert System: webhooks', () => {
  it('a webhook added in Channels gets a signed test, then the alert, and the history shows its receipt', async () => {
    await setTestControl({ quotes: { LULU: { price: 305, previousClose: PREVIOUS_CLOSE } } });
    await page.goto('/dashboard/alert');
    const channels = page.getByRole('region', { name: 'Channels' });
    await channels.getByText('No webhooks yet.').waitFor();

    // Add the endpoint: the secret is shown once.
    await channels.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('dialog', { name: 'Add webhook' });
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
    const row = channels.getByRole('list', { name: 'Webhooks' }).getByRole('listitem');
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

    // A Percent Drop rule on LULU with SMS and e-mail off: the webhook is its only channel.
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

    // The history: the alert with the webhook's receipt.
    await page.goto('/dashboard/alert?tab=history');
    const item = page.getByRole('article', { name: 'Percent Drop alert for LULU' });
    await item.getByText('Webhook · Trading bot').waitFor();
    await expect.poll(() => item.textContent()).toContain('Delivered');
    await screenshot(page, 'alert-channels-history');
  });
});
