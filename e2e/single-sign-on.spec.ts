/**
 * Single sign-on in the browser (issue 28; docs/accounts.md "Single sign-on"): a real OpenID Provider
 * on loopback (apps/server/test/oidc-test-provider.ts: oidc-provider, PKCE required, its own
 * "Sign in to Test IdP" page) and a server of this spec's own configured for it. A user links their
 * provider account from the Account screen, signs out, and signs in with "Sign in with Test IdP"; a
 * provider account nobody linked is refused with the screen's sentence; axe clean on both screens.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { oidcErrorMessage, oidcLinkedMessage } from '@signalboard/core';
import { startTestIdp, type TestIdp } from '../apps/server/test/oidc-test-provider';
import { blocking, describeFindings, runAxe } from './support/axe';
import { launchBrowser, SCREENSHOT_DIR, screenshot, uniqueEmail } from './support/browser';
import { freePort, makeDataDir, runCli, startServer, type RunningServer } from './support/server-process';

const LABEL = 'Test IdP';
const PASSWORD = 'correct horse battery staple';

let idp: TestIdp;
let server: RunningServer;
let dataDir: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({ redirectUris: [`${baseUrl}/api/oidc/callback`] });
  dataDir = await makeDataDir('single-sign-on');
  server = await startServer(dataDir, {
    port,
    env: { PUBLIC_URL: baseUrl, OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_BUTTON_LABEL: LABEL },
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop('SIGTERM');
  await idp?.close();
  if (dataDir) await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
});
beforeEach(async () => {
  context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
});
afterEach(async () => context.close());

/** An account past its first login (the CLI makes it, the API changes its password). */
async function member(label: string): Promise<string> {
  const email = uniqueEmail(label);
  const added = runCli(dataDir, ['add', email, '--password', PASSWORD]);
  if (added.status !== 0) throw new Error(`add failed: ${added.stderr}${added.stdout}`);
  const call = async (url: string, body: unknown, token?: string) =>
    fetch(`${server.baseUrl}/api/${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const first = (await (await call('login', { email, password: PASSWORD })).json()) as { access_token: string };
  const changed = await call('update-password', { new_password: PASSWORD }, first.access_token);
  if (changed.status !== 200) throw new Error(`update-password failed: ${changed.status}`);
  return email;
}

async function signInWithPassword(email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL('**/dashboard**');
}

/** On the provider's own page: signs in as `email`. */
async function atProvider(email: string) {
  await page.getByRole('heading', { name: 'Sign in to Test IdP' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectAxeClean(what: string) {
  const fatal = blocking(await runAxe(page));
  expect(fatal, `${what}:\n${describeFindings(fatal)}`).toEqual([]);
}

describe('Single sign-on', () => {
  it('links the provider account from Account, then signs in with it', async () => {
    const email = await member('sso');
    const providerEmail = uniqueEmail('at-provider');
    idp.addAccount({ sub: `sub-${providerEmail}`, email: providerEmail });

    await signInWithPassword(email);
    await page.goto('/dashboard/account');
    const card = page.getByRole('region', { name: 'Single sign-on' });
    await card.getByText(`No ${LABEL} account is linked yet.`).waitFor();
    await card.getByRole('button', { name: `Link your ${LABEL} account` }).click();
    await atProvider(providerEmail);
    await page.waitForURL('**/dashboard/account');
    await page.getByText(oidcLinkedMessage(LABEL)).waitFor();
    await card.getByRole('listitem', { name: providerEmail }).waitFor();
    expect(page.url()).not.toContain('#');
    await screenshot(page, 'account-single-sign-on');
    await expectAxeClean('Account with a linked provider account');

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await page.waitForURL('**/login');
    const button = page.getByRole('button', { name: `Sign in with ${LABEL}` });
    await button.waitFor();
    await screenshot(page, 'login-single-sign-on');
    await expectAxeClean('Login with single sign-on');
    await button.click();
    // The provider remembers its own session from the link (as a real one does): straight back, signed in.
    await page.waitForURL('**/dashboard**');
    // Signed in as the linked account: the Account screen names it.
    await page.goto('/dashboard/account');
    await page.getByText(email, { exact: true }).first().waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('');
  });

  it('is axe clean in dark and on a phone: the login with the provider button, the Account card', async () => {
    const email = await member('sso-looks');
    const providerEmail = uniqueEmail('looks-at-provider');
    idp.addAccount({ sub: `sub-${providerEmail}`, email: providerEmail });
    for (const [name, options] of [
      ['dark', { colorScheme: 'dark' as const, viewport: { width: 1366, height: 860 } }],
      ['phone', { colorScheme: 'light' as const, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
    ] as const) {
      const looks = await browser.newContext({ baseURL: server.baseUrl, ...options });
      looks.setDefaultTimeout(15_000);
      const previous = page;
      page = await looks.newPage();
      try {
        await page.goto('/login');
        await page.getByRole('button', { name: `Sign in with ${LABEL}` }).waitFor();
        await expectAxeClean(`Login, ${name}`);
        await screenshot(page, `login-single-sign-on-${name}`);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Login' }).click();
        await page.waitForURL('**/dashboard**');
        await page.goto('/dashboard/account');
        const card = page.getByRole('region', { name: 'Single sign-on' });
        await card.getByRole('button', { name: `Link your ${LABEL} account` }).waitFor();
        await expectAxeClean(`Account, ${name}`);
        await card.screenshot({ path: path.join(SCREENSHOT_DIR, `account-single-sign-on-${name}.png`) });
      } finally {
        await looks.close();
        page = previous;
      }
    }
  });

  it('refuses a provider account that no account linked, saying what to do', async () => {
    const email = await member('unlinked');
    idp.addAccount({ sub: `sub-${email}`, email });
    await page.goto('/login');
    await page.getByRole('button', { name: `Sign in with ${LABEL}` }).click();
    await atProvider(email);
    await page.waitForURL('**/login');
    await page.getByText(oidcErrorMessage('not_linked', LABEL)).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    await screenshot(page, 'login-single-sign-on-refused');
  });
});
