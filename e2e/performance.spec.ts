import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECONOMIC, INDEX_QUOTES } from './fixtures/market/dashboard';
import { OPTIONS_CALENDAR_FAVORITES as F } from './fixtures/market/options-calendar';
import { launchBrowser, newContext, screenshot, signedInUser } from './support/browser';

// What a browser receives over the wire (docs/design.md "Performance budgets"): the login route's
// JavaScript as transferred (encoded body sizes, with the browser's own Accept-Encoding) at most
// 150 KB, and no layout shift worth the name on the dashboard while its parts load (CLS < 0.05).

const LOGIN_JS_BUDGET_KB = 150;
const CLS_BUDGET = 0.05;

interface Transfer {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
}

/**
 * Records every response of the page with its encoded body size (what crossed the wire, without
 * headers) and answers a function that waits until no request is in flight, then the transfers.
 */
function recordTransfers(page: Page): () => Promise<Transfer[]> {
  const pending = new Set<Request>();
  const done: Array<Promise<Transfer | undefined>> = [];
  page.on('request', (request) => {
    // The live-update stream (GET /api/live) stays open as long as the page: it is never "done".
    if (new URL(request.url()).pathname !== '/api/live') pending.add(request);
  });
  page.on('requestfailed', (request) => pending.delete(request));
  page.on('requestfinished', (request) => {
    done.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        pending.delete(request);
        if (!response) return undefined;
        return { url: request.url(), type: request.resourceType(), encoding: response.headers()['content-encoding'] ?? 'identity', bytes: sizes.responseBodySize };
      })(),
    );
  });
  return async () => {
    await expect.poll(() => pending.size, { timeout: 15_000 }).toBe(0);
    return (await Promise.all(done)).filter((transfer): transfer is Transfer => transfer !== undefined);
  };
}

const kb = (bytes: number) => bytes / 1024;
const total = (transfers: Transfer[], type: string) => transfers.filter((transfer) => transfer.type === type).reduce((sum, transfer) => sum + transfer.bytes, 0);
const describeTransfers = (transfers: Transfer[], type: string) =>
  transfers
    .filter((transfer) => transfer.type === type)
    .sort((a, b) => b.bytes - a.bytes)
    .map((transfer) => `${new URL(transfer.url).pathname} ${kb(transfer.bytes).toFixed(1)} KB ${transfer.encoding}`)
    .join(', ');

/** Sums every layout shift of the page from its first paint on (not those right after input). */
async function watchLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const state = { total: 0, shifts: [] as Array<{ value: number; at: number; sources: string[] }> };
    (window as unknown as { __layoutShifts: typeof state }).__layoutShifts = state;
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        state.total += entry.value;
        state.shifts.push({
          value: entry.value,
          at: Math.round(entry.startTime),
          sources: (entry.sources ?? []).map((source) => {
            const node = source.node;
            if (!(node instanceof Element)) return node?.nodeName ?? '?';
            const label = node.getAttribute('aria-label') ?? node.textContent?.trim().slice(0, 40) ?? '';
            return `${node.tagName.toLowerCase()}${node.className ? `.${String(node.className).split(' ')[0]}` : ''} "${label}"`;
          }),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShifts = (page: Page) =>
  page.evaluate(async () => {
    // Two frames, so the last render's shifts have been reported.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return (window as unknown as { __layoutShifts: { total: number; shifts: Array<{ value: number; at: number; sources: string[] }> } }).__layoutShifts;
  });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => browser.close());

describe('Performance over the wire', () => {
  it(`the login route's JavaScript transfers at most ${LOGIN_JS_BUDGET_KB} KB, compressed`, async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const transfers = recordTransfers(page);
      await page.goto('/login');
      await page.getByRole('button', { name: 'Login' }).waitFor();
      const all = await transfers();
      const js = total(all, 'script');
      console.log(`login route: JavaScript ${kb(js).toFixed(1)} KB over the wire (${describeTransfers(all, 'script')}); CSS ${kb(total(all, 'stylesheet')).toFixed(1)} KB (${describeTransfers(all, 'stylesheet')})`);
      const scripts = all.filter((transfer) => transfer.type === 'script');
      expect(scripts.length).toBeGreaterThan(0);
      // Chromium accepts brotli: every script and stylesheet comes pre-compressed.
      expect(all.filter((transfer) => ['script', 'stylesheet', 'document'].includes(transfer.type) && transfer.encoding !== 'br').map((transfer) => transfer.url)).toEqual([]);
      expect(kb(js)).toBeLessThanOrEqual(LOGIN_JS_BUDGET_KB);
    } finally {
      await context.close();
    }
  });

  // Every part's answer is held, then let through one at a time, in page order and in reverse
  // (a part that loads above others moves them, loaded or not): each part's change from loading to
  // its data then happens in a render of its own, as on a slow network.
  const PARTS = ['market_overview', 'all_overall_sentiment', 'earnings_calendar', 'sector_sentiment_scanner', 'top_economic_indicators'] as const;
  const orders = [
    { name: 'top down', parts: [...PARTS] },
    { name: 'bottom up', parts: [...PARTS].reverse() },
  ];
  const viewports = [
    { name: 'laptop', width: 1366, height: 860 },
    { name: 'tablet', width: 1024, height: 1366 },
    { name: 'phone', width: 412, height: 823 },
  ];
  for (const viewport of viewports) {
    for (const order of orders) {
      it(`the dashboard does not shift while its parts load (CLS < ${CLS_BUDGET}, ${viewport.name}, ${order.name})`, async () => {
        const context = await newContext(browser, { server: 'market', width: viewport.width, height: viewport.height });
        try {
          await signedInUser(context, 'performance', { server: 'market', favorites: [F.TSLA, F.GOOGL] });
          await watchLayoutShifts(context);
          const page = await context.newPage();
          const transfers = recordTransfers(page);

          const section = (name: string) => page.getByRole('region', { name, exact: true });
          const poll = { timeout: 15_000 };
          const loaded: Record<(typeof PARTS)[number], () => Promise<unknown>> = {
            market_overview: async () => {
              await expect.poll(() => section('Market Overview').getByRole('list', { name: 'Indices' }).getByRole('listitem').count(), poll).toBe(INDEX_QUOTES.length);
              await section('Market Overview').getByRole('list', { name: 'Sector heatmap' }).getByRole('listitem').first().waitFor();
            },
            all_overall_sentiment: () => section('Overall Market Sentiment').getByRole('list', { name: 'Market Summary' }).getByRole('listitem').first().waitFor(),
            earnings_calendar: () => section("Today's Earnings (Favorites)").getByRole('table').waitFor(),
            sector_sentiment_scanner: () => section('Sector Sentiment & News').getByRole('button', { name: /^Health Care News tone: / }).waitFor(),
            top_economic_indicators: () => expect.poll(() => section('Key Economic Indicators').getByRole('article').count(), poll).toBe(ECONOMIC.length),
          };
          const held = new Map<string, Array<() => void>>(PARTS.map((part) => [part, []]));
          for (const part of PARTS) {
            await page.route(`**/api/${part}`, (route) => new Promise<void>((resolve) => held.get(part)!.push(resolve)).then(() => route.continue()));
          }
          await page.goto('/dashboard/main');
          await page.getByRole('heading', { name: 'Market Dashboard' }).waitFor();
          if (order.name === 'top down') {
            await expect.poll(() => page.getByRole('status', { name: /^Loading / }).count(), poll).toBe(PARTS.length);
            await screenshot(page, `dashboard-loading-${viewport.name}`);
          }
          for (const part of order.parts) {
            await expect.poll(() => held.get(part)!.length, { ...poll, message: `${part} asked for` }).toBeGreaterThan(0);
            for (const release of held.get(part)!.splice(0)) release();
            await loaded[part]();
          }
          expect(await page.getByRole('status', { name: /^Loading / }).count()).toBe(0);
          const all = await transfers();

          const { total: cls, shifts } = await layoutShifts(page);
          console.log(
            `dashboard (${viewport.name} ${viewport.width}×${viewport.height}, ${order.name}): CLS ${cls.toFixed(4)} from ${shifts.length} shifts` +
              `${shifts.length ? ` (${shifts.map((shift) => `${shift.value.toFixed(4)} at ${shift.at} ms: ${shift.sources.join('; ')}`).join(' | ')})` : ''}; ` +
              `JavaScript ${kb(total(all, 'script')).toFixed(1)} KB, CSS ${kb(total(all, 'stylesheet')).toFixed(1)} KB over the wire`,
          );
          expect(cls).toBeLessThan(CLS_BUDGET);
        } finally {
          await context.close();
        }
      });
    }
  }
});
