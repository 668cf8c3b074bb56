import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { OPTIONS_CALENDAR_FAVORITES as F } from './fixtures/market/options-calendar';
import { newContext, screenshot, signedInUser, useBrowserPage } from './support/browser';

// The pinned market (e2e/fixtures/market/options-calendar.ts): of these four favourites META flags a
// long-term PUT, GOOGL a short-term CALL, TSLA nothing, and ORCL has no prices so the scan skips it.
const FAVORITES = [F.GOOGL, F.META, F.TSLA, F.ORCL];

// Spec §2: sorted by percentage change, largest first; Dropped/Increased to 2 decimals; CALL/PUT;
// time frame; tag; current price, high, low; support/resistance tag.
const HEADER = 'Symbol Change Action Time Frame Tag Current Price High Low Level';
const META_ROW = 'META Increased 19.35% PUT long term 6MonthLow 104.50 105.02 87.56 Near Support';
const GOOGL_ROW = 'GOOGL Dropped 13.76% CALL short term 1MonthHigh 104.00 120.60 103.48 Near Resistance';

type ScanLine = { type: string; done?: number; total?: number; flag?: { symbol: string; percentageChange: number } };

/**
 * Holds the streamed scan's lines in the browser until the test releases them, one line per chunk,
 * so each intermediate state can be checked (the real server's answer, only paced).
 */
function paceTheScanStream(context: BrowserContext) {
  return context.addInitScript(() => {
    const w = window as unknown as { __scanGate: { release(count?: number): void; delivered: string[] } };
    const waiting: Array<() => void> = [];
    let credits = 0;
    const gate = {
      delivered: [] as string[],
      release(count = 1) {
        credits += count;
        while (credits > 0 && waiting.length > 0) {
          credits -= 1;
          waiting.shift()!();
        }
      },
    };
    w.__scanGate = gate;
    const turn = () =>
      new Promise<void>((resolve) => {
        if (credits > 0) {
          credits -= 1;
          resolve();
        } else waiting.push(resolve);
      });
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await original(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!url.endsWith('/api/scan/options') || !response.ok || !response.body) return response;
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      const encoder = new TextEncoder();
      const lines: string[] = [];
      let buffer = '';
      let finished = false;
      const paced = new ReadableStream<Uint8Array>({
        async pull(controller) {
          while (lines.length === 0 && !finished) {
            const { done, value } = await reader.read();
            if (done) {
              finished = true;
              if (buffer) lines.push(buffer);
              break;
            }
            buffer += decoder.decode(value, { stream: true });
            const parts = buffer.split('\n');
            buffer = parts.pop()!;
            lines.push(...parts.filter((line) => line.trim() !== ''));
          }
          if (lines.length === 0) return controller.close();
          await turn();
          const line = lines.shift()!;
          gate.delivered.push(line);
          controller.enqueue(encoder.encode(`${line}\n`));
        },
        cancel: () => reader.cancel(),
      });
      return new Response(paced, { status: response.status, headers: response.headers });
    };
  });
}

let page: Page;
const session = useBrowserPage(async (context) => {
  await signedInUser(context, 'options', { server: 'market', favorites: FAVORITES });
  await paceTheScanStream(context);
}, { server: 'market' });
beforeEach(() => {
  page = session.page;
});

const release = (count = 1) => page.evaluate((n) => (window as unknown as { __scanGate: { release(n: number): void } }).__scanGate.release(n), count);
const delivered = async (): Promise<ScanLine[]> =>
  (await page.evaluate(() => (window as unknown as { __scanGate: { delivered: string[] } }).__scanGate.delivered)).map((line) => JSON.parse(line));
const progress = () => page.getByRole('region', { name: 'Scan progress' });
const table = () => page.getByRole('table', { name: 'Flagged stocks' });
const rows = async (target: Locator = table()) => (await target.getByRole('row').allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
const startButton = () => page.getByRole('button', { name: 'Start Scanning' });

/** The background colour a Mantine colour variable resolves to on this page. */
const resolved = (variable: string) =>
  page.evaluate((name) => {
    const probe = document.createElement('div');
    probe.style.backgroundColor = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  }, variable);

describe('Options Scanner', () => {
  it('streams the scan: progress n of N, rows as they arrive, sorted, with the spec’s badges', async () => {
    await page.goto('/dashboard/options');
    await page.getByRole('heading', { name: 'Option Signals', level: 1 }).waitFor();
    await page.getByText('Press Start Scanning to check your favorites.').waitFor();
    await startButton().click();

    await release(1);
    await progress().getByText('Scanning metrics...').waitFor();
    await progress().getByText('0 of 4').waitFor();
    expect(await startButton().isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Stop' }).waitFor();

    // Line by line: the count follows the progress events and the rows the flags received so far,
    // always largest change first. Symbols complete in whatever order their reads finish.
    let lines = await delivered();
    while (lines.at(-1)?.type !== 'end') {
      await release(1);
      await expect.poll(async () => (await delivered()).length).toBe(lines.length + 1);
      lines = await delivered();
      const last = lines.at(-1)!;
      const flags = lines.filter((line) => line.type === 'flag').map((line) => line.flag!);
      const expected = [...flags].sort((a, b) => b.percentageChange - a.percentageChange).map((flag) => (flag.symbol === 'META' ? META_ROW : GOOGL_ROW));
      if (last.type === 'progress') await progress().getByText(`${last.done} of 4`).waitFor();
      if (last.type !== 'end') {
        await progress().getByText('Scanning metrics...').waitFor();
        if (flags.length === 0) expect(await table().count()).toBe(0);
        else await expect.poll(() => rows()).toEqual([HEADER, ...expected]);
      }
      if (last.type === 'flag' && last.flag!.symbol === 'GOOGL' && flags.length === 1) await screenshot(page, 'options-scanner-streaming');
    }
    expect(lines.map((line) => line.type).sort()).toEqual(['end', 'flag', 'flag', 'progress', 'progress', 'progress', 'progress', 'skip', 'start']);

    await progress().getByText('Scan complete').waitFor();
    await progress().getByText('4 of 4').waitFor();
    expect(await progress().getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(await rows()).toEqual([HEADER, META_ROW, GOOGL_ROW]);
    await page.getByText('1 symbol could not be scanned').waitFor();
    await page.getByText('ORCL: No price history for ORCL').waitFor();
    expect(await page.getByText('No stocks meet the criteria at the moment.').count()).toBe(0);
    expect(await startButton().isDisabled()).toBe(false);
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);

    // CALL on green, PUT on red; Dropped in red, Increased in green.
    const badgeColour = (name: string) =>
      table()
        .getByText(name, { exact: true })
        .evaluate((el) => getComputedStyle(el.closest('.mantine-Badge-root')!).backgroundColor);
    expect(await badgeColour('CALL')).toBe(await resolved('--mantine-color-green-filled'));
    expect(await badgeColour('PUT')).toBe(await resolved('--mantine-color-red-filled'));
    expect(await resolved('--mantine-color-green-filled')).not.toBe(await resolved('--mantine-color-red-filled'));
    expect(await table().getByText('Dropped 13.76%').evaluate((el) => getComputedStyle(el).color)).toBe(
      await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.color = 'var(--mantine-color-red-light-color)';
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      }),
    );
    await screenshot(page, 'options-scanner');
  });

  it('says no stock meets the criteria when the favourites flag nothing', async () => {
    const context = await newContext(session.browser, { server: 'market' });
    await signedInUser(context, 'options-empty', { server: 'market', favorites: [F.TSLA] });
    const other = await context.newPage();
    await other.goto('/dashboard/options');
    await other.getByRole('button', { name: 'Start Scanning' }).click();
    await other.getByText('No stocks meet the criteria at the moment.').waitFor();
    await other.getByRole('region', { name: 'Scan progress' }).getByText('1 of 1').waitFor();
    await other.getByRole('region', { name: 'Scan progress' }).getByText('Scan complete').waitFor();
    expect(await other.getByRole('table', { name: 'Flagged stocks' }).count()).toBe(0);
    expect(await other.getByText(/could not be scanned/).count()).toBe(0);
    await screenshot(other, 'options-scanner-empty');
    await context.close();
  });

  it('stops on request, keeping the rows so far; a new scan replaces the list', async () => {
    await page.goto('/dashboard/options');
    await startButton().click();
    let lines: ScanLine[] = [];
    // Release until the first flag has arrived.
    while (!lines.some((line) => line.type === 'flag')) {
      await release(1);
      await expect.poll(async () => (await delivered()).length).toBe(lines.length + 1);
      lines = await delivered();
    }
    const first = lines.find((line) => line.type === 'flag')!.flag!.symbol;
    await expect.poll(() => rows()).toEqual([HEADER, first === 'META' ? META_ROW : GOOGL_ROW]);
    await page.getByRole('button', { name: 'Stop' }).click();
    await progress().getByText('Scan stopped').waitFor();
    await page.getByText('Stopped before the end: the rows found so far are shown.', { exact: false }).waitFor();
    expect(await rows()).toEqual([HEADER, first === 'META' ? META_ROW : GOOGL_ROW]);
    expect(await startButton().isDisabled()).toBe(false);
    await screenshot(page, 'options-scanner-stopped');

    // A second scan starts from an empty list and ends with each pair once.
    await startButton().click();
    await release(50);
    await progress().getByText('Scan complete').waitFor();
    expect(await rows()).toEqual([HEADER, META_ROW, GOOGL_ROW]);
  });

  it('shows a failed scan with a retry', async () => {
    await page.route('**/api/scan/options', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ msg: 'Market data is unavailable right now.' }) }),
    );
    await page.goto('/dashboard/options');
    await startButton().click();
    await page.getByText('The scan could not finish').waitFor();
    await page.getByText('Market data is unavailable right now.').waitFor();
    // Nothing was scanned: no progress to show.
    expect(await progress().count()).toBe(0);
    await screenshot(page, 'options-scanner-error');
    await page.unroute('**/api/scan/options');
    await page.getByRole('button', { name: 'Retry' }).click();
    await release(50);
    await progress().getByText('Scan complete').waitFor();
    expect(await rows()).toEqual([HEADER, META_ROW, GOOGL_ROW]);
    expect(await page.getByText('The scan could not finish').count()).toBe(0);
  });

  it('sends an expired session to the login screen', async () => {
    await page.route('**/api/scan/options', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ msg: 'Token expired' }) }),
    );
    await page.goto('/dashboard/options');
    await startButton().click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
  });

  it('reads well on a phone and in dark mode', async () => {
    for (const [name, options] of [
      ['options-scanner-phone', { width: 390, height: 844 }],
      ['options-scanner-dark', { colorScheme: 'dark' as const }],
    ] as const) {
      const context = await newContext(session.browser, { ...options, server: 'market' });
      await signedInUser(context, name, { server: 'market', favorites: FAVORITES });
      const other = await context.newPage();
      await other.goto('/dashboard/options');
      await other.getByRole('button', { name: 'Start Scanning' }).click();
      await other.getByRole('region', { name: 'Scan progress' }).getByText('Scan complete').waitFor();
      if (name === 'options-scanner-phone') {
        // Cards on a phone, in the same order.
        const cards = other.getByRole('list', { name: 'Flagged stocks' }).getByRole('listitem');
        expect((await cards.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
          'META PUT Increased 19.35% Near Support Current Price 104.50 High 105.02 Low 87.56 Time Frame long term Tag 6MonthLow',
          'GOOGL CALL Dropped 13.76% Near Resistance Current Price 104.00 High 120.60 Low 103.48 Time Frame short term Tag 1MonthHigh',
        ]);
      } else {
        expect(await rows(other.getByRole('table', { name: 'Flagged stocks' }))).toEqual([HEADER, META_ROW, GOOGL_ROW]);
      }
      await screenshot(other, name);
      await context.close();
    }
  });
});
