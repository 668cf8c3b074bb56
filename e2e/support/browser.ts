/** Debian's Chromium driven by playwright-core; never a downloaded browser. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { REPO_ROOT, runCli } from './server-process';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(REPO_ROOT, '.e2e-artifacts/screenshots');
export const REPORT_DIR = path.join(REPO_ROOT, '.e2e-artifacts/reports');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * The servers the browser tests run against: `app`, the embedded defaults (simulated market), and
 * `market`, the file-backed market of e2e/fixtures/market with MARKET_NOW pinned, whose scans and
 * calendars the screen specs assert exactly.
 */
/** The embedded defaults; the pinned dataset; the pinned dataset whose quotes and clocks the alert tests move. */
export type TestServer = 'app' | 'market' | 'alerts';

export const serverBaseUrl = (server: TestServer = 'app') => inject(server === 'app' ? 'baseUrl' : server === 'market' ? 'marketBaseUrl' : 'alertsBaseUrl');
export const serverDataDir = (server: TestServer = 'app') => inject(server === 'app' ? 'dataDir' : server === 'market' ? 'marketDataDir' : 'alertsDataDir');

export async function newContext(
  browser: Browser,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; server?: TestServer; timezoneId?: string } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: serverBaseUrl(options.server),
    viewport: { width: options.width ?? 1366, height: options.height ?? 860 },
    colorScheme: options.colorScheme ?? 'light',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  context.setDefaultTimeout(15_000);
  // The market server's "now" is pinned; the browser's clock says the same (timers keep running).
  if (options.server === 'market' || options.server === 'alerts') await context.clock.setFixedTime(new Date(inject('marketNow')));
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

let counter = 0;
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** Creates an account with the admin CLI (first-login, as the CLI makes them). */
export function addUser(email: string, password: string, server: TestServer = 'app'): void {
  const result = runCli(serverDataDir(server), ['add', email, '--password', password]);
  if (result.status !== 0) throw new Error(`npm run user -- add failed: ${result.stderr}${result.stdout}`);
}

export async function api<T>(path: string, options: { token?: string; json?: unknown; server?: TestServer } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${serverBaseUrl(options.server)}/api/${path}`, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Signs in through the API; answers the token. */
export async function apiLogin(email: string, password: string, server: TestServer = 'app'): Promise<{ access_token: string; first_login: boolean }> {
  const { status, body } = await api<{ access_token: string; first_login: boolean }>('login', { json: { email, password }, server });
  if (status !== 200) throw new Error(`login failed: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * An account past its first login whose token the context's pages start with; on the given server
 * (the context's), with the given favourites saved.
 */
export async function signedInUser(
  context: BrowserContext,
  label: string,
  options: { server?: TestServer; favorites?: ReadonlyArray<{ symbol: string; description: string }> } = {},
): Promise<{ email: string; token: string }> {
  const server = options.server ?? 'app';
  const email = uniqueEmail(label);
  const password = 'correct horse battery staple';
  addUser(email, password, server);
  const first = await apiLogin(email, password, server);
  const update = await api('update-password', { token: first.access_token, json: { new_password: password }, server });
  if (update.status !== 200) throw new Error(`update-password failed: ${update.status}`);
  // As the Change Password screen does: that session ends, and the user signs in again.
  await api('logout', { token: first.access_token, json: {}, server });
  const { access_token } = await apiLogin(email, password, server);
  if (options.favorites?.length) {
    const saved = await api('batch_update_favorite_stocks', { token: access_token, json: { stocks: options.favorites }, server });
    if (saved.status !== 200) throw new Error(`batch_update_favorite_stocks failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  }
  // Only the first page load of the context gets the token, so signing out stays signed out.
  await context.addInitScript((token) => {
    if (!window.sessionStorage.getItem('sb-test-token-set')) {
      window.localStorage.setItem('access_token', token);
      window.sessionStorage.setItem('sb-test-token-set', '1');
    }
  }, access_token);
  return { email, token: access_token };
}

/** The newest outbox e-mail to `to`, as the .eml text the outbox wrote. */
export async function latestOutboxMail(to: string, server: TestServer = 'app'): Promise<string> {
  const dir = path.join(serverDataDir(server), 'outbox');
  const deadline = Date.now() + 10_000;
  const pattern = new RegExp(`^To: ${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi');
  while (Date.now() < deadline) {
    const files = (await fs.readdir(dir).catch(() => [] as string[])).sort().reverse();
    for (const file of files) {
      const text = await fs.readFile(path.join(dir, file), 'utf8');
      if (pattern.test(text)) return text;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no outbox mail to ${to}`);
}

/** The `/invite#…` path of the link in an invitation's mail (its quoted-printable undone). */
export function invitationPath(eml: string): string {
  const text = eml.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const match = /https?:\/\/[^/\s]+(\/invite#[\w-]+)/.exec(text);
  if (!match) throw new Error(`no invitation link in:\n${text}`);
  return match[1]!;
}

/**
 * One browser per spec file and a fresh context and page per test; `prepare` runs on each new
 * context before its page opens (e.g. to sign a user in).
 */
export function useBrowserPage(prepare?: (context: BrowserContext) => Promise<void>, options: { server?: TestServer; timezoneId?: string } = {}) {
  const state = {} as { browser: Browser; context: BrowserContext; page: Page };
  beforeAll(async () => {
    state.browser = await launchBrowser();
  });
  afterAll(async () => state.browser.close());
  beforeEach(async () => {
    state.context = await newContext(state.browser, { server: options.server, timezoneId: options.timezoneId });
    if (prepare) await prepare(state.context);
    state.page = await state.context.newPage();
  });
  afterEach(async () => state.context.close());
  return state;
}
