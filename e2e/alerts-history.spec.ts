/**
 * Alert System, Alert History tab (issue 15), on the embedded defaults: a new user has no alert yet.
 * The tab opens from its link (?tab=history) and from the tab bar, shows the empty sentence, answers a
 * filter, exports CSV through the bearer header, and passes axe. (Firing an alert and seeing it here
 * comes with the evaluator's path.)
 */
import fs from 'node:fs/promises';
import { CSV_BOM } from '@signalboard/core';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { blocking, describeFindings, runAxe } from './support/axe';
import { screenshot, signedInUser, useBrowserPage } from './support/browser';

let page: Page;
const session = useBrowserPage(async (context) => {
  await signedInUser(context, 'alert-history');
});
beforeEach(() => {
  page = session.page;
});

describe('Alert System: Alert History', () => {
  it('opens from the tab bar into ?tab=history, shows the empty state, filters, exports CSV and passes axe', async () => {
    await page.goto('/dashboard/alert');
    await page.getByRole('heading', { level: 1, name: 'Alert System Settings' }).waitFor();
    await page.getByRole('tab', { name: 'Alert History' }).click();
    await page.getByText('No alerts have fired yet.', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('history');
    expect(await page.getByRole('tab', { name: 'Alert History' }).getAttribute('aria-selected')).toBe('true');

    const filtered = page.waitForResponse((response) => response.url().endsWith('/api/get_alert_history') && (response.request().postData() ?? '').includes('"alert_type":"PERCENT_DROP"'));
    await page.getByRole('combobox', { name: 'Alert type' }).selectOption({ label: 'Percent Drop' });
    expect((await filtered).status()).toBe(200);
    await page.getByText('No alerts match these filters.', { exact: true }).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^alert-history-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await fs.readFile((await download.path())!, 'utf8');
    expect(csv).toBe(CSV_BOM + 'fired_at,alert_type,type_name,symbol,message,price,source,as_of,channel,status,status_text,reason,reason_text,attempts,possibly_duplicate,steps\r\n');

    const fatal = blocking(await runAxe(page));
    expect(fatal, describeFindings(fatal)).toEqual([]);
    await screenshot(page, 'alert-history-empty');

    // The link opens the tab directly.
    await page.goto('/dashboard/alert?tab=history');
    await page.getByText('No alerts have fired yet.', { exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: 'Alert History' }).getAttribute('aria-selected')).toBe('true');
  });
});
