import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addUser, api, useBrowserPage, screenshot, uniqueEmail } from './support/browser';

const session = useBrowserPage();
let page: Page;
beforeEach(() => {
  page = session.page;
});

/** A JWT-shaped token whose payload says it expired at `exp` (the guard reads exp only). */
function tokenExpiringAt(exp: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: '1', exp })}.signature`;
}

describe('routes and the guard', () => {
  it('sends the empty path and unknown paths to /login', async () => {
    await page.goto('/');
    await page.waitForURL('**/login');
    await page.goto('/no/such/page');
    await page.waitForURL('**/login');
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
  });

  it('sends /dashboard without a token to /login', async () => {
    await page.goto('/dashboard/main');
    await page.waitForURL('**/login');
  });

  it('removes an expired token and sends the user to /login', async () => {
    await page.goto('/login');
    await page.evaluate((token) => window.localStorage.setItem('access_token', token), tokenExpiringAt(1_000));
    await page.goto('/dashboard/support');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();
  });
});

describe('login screen', () => {
  it('shows the required messages only after a submit attempt', async () => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await screenshot(page, 'login');
    expect(await page.getByText('Email is required').count()).toBe(0);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await screenshot(page, 'login-validation');
  });

  it("shows the server's msg for wrong credentials", async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Invalid email or password').waitFor();
    expect(page.url()).toMatch(/\/login$/);
  });

  it('takes an account past its first login straight to the dashboard', async () => {
    const email = uniqueEmail('returning');
    addUser(email, 'pw-1');
    const first = await api<{ access_token: string }>('login', { json: { email, password: 'pw-1' } });
    await api('update-password', { token: first.body.access_token, json: { new_password: 'pw-2 at last' } });
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('pw-2 at last');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard/main');
  });
});

describe('first login of the demo account', () => {
  it('changes the password, adds the MAG 7 favourites, and signs in again', async () => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('demo@signalboard.local');
    await page.getByLabel('Password', { exact: true }).fill('demo');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/set-password');
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await screenshot(page, 'set-password');

    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('New password is required').waitFor();

    // The screen shows no rules up front (spec): the server's refusal says what is wrong.
    await page.getByLabel('New Password').fill('too short');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('New password must be at least 10 characters').waitFor();
    expect(page.url()).toMatch(/\/set-password$/);

    await page.getByLabel('New Password').fill('a much better password');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.getByText('Password updated successfully!').waitFor();
    await page.getByText('MAG 7 stocks added successfully!').waitFor();
    await page.waitForURL('**/login');

    await page.getByLabel('Email').fill('demo@signalboard.local');
    await page.getByLabel('Password', { exact: true }).fill('a much better password');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL('**/dashboard/main');
    await page.getByText('Username: demo@signalboard.local').waitFor();

    const token = await page.evaluate(() => window.localStorage.getItem('access_token'));
    const favourites = await api<Array<{ symbol: string; description: string }>>('get_favorite_stocks', { token: token! });
    expect(favourites.body.map((stock) => stock.symbol)).toEqual(['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'META', 'NVDA', 'TSLA']);
    expect(favourites.body[0]!.description).toBe('Apple Inc.');

    const old = await api<{ msg: string }>('login', { json: { email: 'demo@signalboard.local', password: 'demo' } });
    expect(old.status).toBe(401);
  });
});
