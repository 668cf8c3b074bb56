/**
 * The app under its own Content Security Policy, opened at http://127.0.0.1:PORT (where the server
 * listens by default): no screen trips the CSP (zod's eval probe once did), and the simulated
 * market's news images load (their URLs once named `localhost`, another origin than the page's).
 */
import { DASHBOARD_CHILD_PATHS, SCREEN_TITLES } from '@signalboard/core';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { serverBaseUrl, signedInUser, useBrowserPage } from './support/browser';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Records every CSP violation of the context's pages, from the first script on. */
async function recordCspViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations!.push(`${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile}:${event.lineNumber}`);
    });
  });
}

const violations = (target: Page) => target.evaluate(() => window.__cspViolations ?? []);

let page: Page;
/** Requests under way, by the page's own tracking; the live stream (GET /api/live) stays open for good and is left out. */
const pending = new Set<unknown>();
let lastActivityMs = 0;
const session = useBrowserPage(async (context) => {
  const track = (request: { url(): string }, add: boolean) => {
    if (new URL(request.url()).pathname === '/api/live') return;
    if (add) pending.add(request);
    else pending.delete(request);
    lastActivityMs = Date.now();
  };
  context.on('request', (request) => track(request, true));
  context.on('requestfinished', (request) => track(request, false));
  context.on('requestfailed', (request) => track(request, false));
  await recordCspViolations(context);
  await signedInUser(context, 'csp');
});
beforeEach(() => {
  page = session.page;
});

describe('the app under its Content Security Policy', () => {
  it('is opened at 127.0.0.1, where the server listens by default', () => {
    expect(new URL(serverBaseUrl()).hostname).toBe('127.0.0.1');
  });

  it('shows every screen without a CSP violation', async () => {
    for (const path of DASHBOARD_CHILD_PATHS) {
      await page.goto(`/dashboard/${path}`);
      await page.getByRole('heading', { name: SCREEN_TITLES[path], exact: true }).first().waitFor();
      // As 'networkidle' (nothing in flight for 500 ms), but for the live stream that never ends. A cold
      // track record (the swing screen's) takes 4 s on a quiet machine and far longer under CI's load.
      const idle = () => pending.size === 0 && Date.now() - lastActivityMs >= 500;
      await expect.poll(idle, { timeout: 30_000 }).toBe(true).catch(() => {
        throw new Error(`${path}: still in flight after 30 s: ${[...pending].map((request) => (request as { url(): string }).url()).join(', ')}`);
      });
      expect(await violations(page), path).toEqual([]);
    }
  }, 240_000);

  it('loads the simulated news images from our own origin', async () => {
    await page.goto('/dashboard/generalnews');
    await page.getByRole('button', { name: 'Get Geo-Political News' }).click();
    const images = page.getByRole('article').locator('img');
    await expect.poll(() => images.count()).toBeGreaterThan(0);
    const sources = await images.evaluateAll((elements) => elements.map((element) => element.getAttribute('src') ?? ''));
    for (const source of sources) expect(source).toMatch(/^\/simulated-news\/[^/]+\/image\.svg$/);
    // Every image has arrived and drawn (a blocked image stays at width 0).
    await expect
      .poll(() => images.evaluateAll((elements) => elements.filter((element) => !(element as HTMLImageElement).complete || (element as HTMLImageElement).naturalWidth === 0).length))
      .toBe(0);
    expect(await violations(page)).toEqual([]);
  });

  it('answers robots.txt as text, not the app page', async () => {
    const response = await page.request.get('/robots.txt');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('User-agent: *\nDisallow: /\n');
  });
});
