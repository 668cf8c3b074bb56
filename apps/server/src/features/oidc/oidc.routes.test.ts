/**
 * Single sign-on against a real OpenID Provider on loopback (test/oidc-test-provider.ts; issue 28,
 * docs/accounts.md "Single sign-on"): the code flow with PKCE, state and nonce; a provider account
 * signs in only the user it is linked to; the ID token's signature, issuer, audience, expiry and nonce
 * are checked (forged answers through a proxy in front of the provider); OIDC_AUTO_CREATE, OIDC_ONLY.
 */
import { desc, eq } from 'drizzle-orm';
import type { CustomFetch } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FAVORITE_STOCKS, oidcErrorMessage } from '@signalboard/core';
import { auditLog, users } from '../../db/schema';
import { createTestApp, createUser, invitationTokenOf, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { startTestIdp, type TestIdp } from '../../../test/oidc-test-provider';
import { TWO_FACTOR_SETUP_REQUIRED_MSG } from '../../plugins/authenticate';
import { DEACTIVATED_MSG } from '../auth/auth.service';
import { OIDC_NOT_CONFIGURED_MSG } from './oidc.service';

const PUBLIC_URL = 'http://127.0.0.1:3999';
const CALLBACK = `${PUBLIC_URL}/api/oidc/callback`;
const PASSWORD = 'a long enough password';

let idp: TestIdp;
/** Rewrites the ID token of the provider's token answer (null: passes it through). */
let forge: ((claims: Record<string, unknown>) => { claims: Record<string, unknown>; foreignKey?: boolean }) | null = null;
/** The token endpoint's answers, as the provider sent them. */
const tokenAnswers: Array<{ status: number; body: Record<string, unknown> }> = [];
const proxy: CustomFetch = async (url, options) => {
  const response = await fetch(url, options as RequestInit);
  if (!url.endsWith('/token')) return response;
  const body = (await response.json()) as Record<string, unknown>;
  tokenAnswers.push({ status: response.status, body });
  if (forge && typeof body.id_token === 'string') {
    const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const forged = forge(claims);
    body.id_token = idp.signJwt(forged.claims, { foreignKey: forged.foreignKey ?? false });
  }
  return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json' } });
};

let t: TestApp;
beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: [CALLBACK] });
  t = await createTestApp(
    { PUBLIC_URL, OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_BUTTON_LABEL: 'Test IdP', LOGIN_MAX_PER_ADDRESS: '1000' },
    { oidcFetch: proxy },
  );
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

type Auth = { authorization: string };
const post = (app: TestApp, url: string, payload: Record<string, unknown> = {}, headers: Partial<Auth> = {}) =>
  app.app.inject({ method: 'POST', url, payload, headers: { ...headers, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' } });
const get = (app: TestApp, url: string, headers: Partial<Auth> = {}) => app.app.inject({ method: 'GET', url, headers });

/** Through the provider as `email`: the callback's redirect location. */
async function throughProvider(app: TestApp, url: string, email: string): Promise<string> {
  idp.autoSignIn = email;
  const callback = await idp.followToCallback(url, CALLBACK);
  const answer = await get(app, `/api/oidc/callback${callback.search}`);
  expect(answer.statusCode).toBe(302);
  expect(answer.headers['cache-control']).toBe('no-store');
  return String(answer.headers.location);
}
async function signInWithProvider(app: TestApp, email: string, invitation?: string): Promise<string> {
  const started = await post(app, '/api/oidc/start', invitation ? { invitation } : {});
  expect(started.statusCode, started.body).toBe(200);
  return throughProvider(app, started.json<{ url: string }>().url, email);
}
async function complete(app: TestApp, location: string) {
  const code = /^\/login#oidc=([\w-]+)$/.exec(location)?.[1];
  expect(code, location).toBeDefined();
  return post(app, '/api/oidc/complete', { code: code! });
}
async function linked(app: TestApp, email: string, providerEmail = email) {
  const id = await createUser(app.db, email, PASSWORD, { firstLogin: false });
  const headers = await login(app.app, email, PASSWORD);
  const account = idp.addAccount({ sub: `sub-${providerEmail}`, email: providerEmail });
  const started = await post(app, '/api/oidc/link', {}, headers);
  expect(started.statusCode, started.body).toBe(200);
  expect(await throughProvider(app, started.json<{ url: string }>().url, providerEmail)).toBe('/dashboard/account#oidc=linked');
  return { id, headers, account };
}

describe('signing in with the provider', () => {
  it('says what the login screen offers', async () => {
    expect((await get(t, '/api/sign_in_options')).json()).toEqual({ sign_up: false, single_sign_on: { label: 'Test IdP' }, password_form: 'everyone' });
  });

  it('starts the code flow with PKCE (S256), state and nonce, to the registered redirect', async () => {
    const { url } = (await post(t, '/api/oidc/start')).json<{ url: string }>();
    const params = new URL(url).searchParams;
    expect(url.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect(Object.fromEntries(['response_type', 'client_id', 'redirect_uri', 'scope', 'code_challenge_method'].map((name) => [name, params.get(name)]))).toEqual({
      response_type: 'code',
      client_id: idp.clientId,
      redirect_uri: CALLBACK,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{40,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{40,}$/);
  });

  it('links from the Account screen, then signs that user in; the one-time code works once', async () => {
    const email = uniqueEmail('sso');
    const { id } = await linked(t, email, uniqueEmail('provider'));
    const identities = (await get(t, '/api/oidc/identities', await login(t.app, email, PASSWORD))).json<{ configured: boolean; label: string; identities: Array<{ email: string; last_used_at: string | null }> }>();
    expect(identities).toMatchObject({ configured: true, label: 'Test IdP', identities: [{ last_used_at: null }] });

    const location = await signInWithProvider(t, [...idp.accounts.values()].find((account) => account.sub.includes('provider'))!.email);
    const first = await complete(t, location);
    expect(first.statusCode, first.body).toBe(200);
    const { access_token, first_login } = first.json<{ access_token: string; first_login: boolean }>();
    expect(first_login).toBe(false);
    expect((await get(t, '/api/getemail', { authorization: `Bearer ${access_token}` })).json()).toMatchObject({ email });
    const again = await complete(t, location);
    expect([again.statusCode, again.json()]).toEqual([401, { msg: oidcErrorMessage('expired', 'Test IdP') }]);

    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.targetUserId, id)).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ action: 'oidc-link', target: email });
  });

  it('refuses a provider account no user linked, even with the e-mail of an account', async () => {
    const email = uniqueEmail('unlinked');
    await createUser(t.db, email, PASSWORD, { firstLogin: false });
    idp.addAccount({ sub: `sub-${email}`, email });
    expect(await signInWithProvider(t, email)).toBe('/login#oidc_error=not_linked');
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('refuses an e-mail the provider has not verified, a deactivated user, and a provider account linked to someone else', async () => {
    const unverified = uniqueEmail('unverified');
    idp.addAccount({ sub: `sub-${unverified}`, email: unverified, email_verified: false });
    expect(await signInWithProvider(t, unverified)).toBe('/login#oidc_error=no_verified_email');

    const gone = uniqueEmail('gone');
    const { id, account } = await linked(t, gone);
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    expect(await signInWithProvider(t, account.email)).toBe('/login#oidc_error=deactivated');

    const other = uniqueEmail('other');
    await createUser(t.db, other, PASSWORD, { firstLogin: false });
    const started = await post(t, '/api/oidc/link', {}, await login(t.app, other, PASSWORD));
    expect(await throughProvider(t, started.json<{ url: string }>().url, account.email)).toBe('/dashboard/account#oidc_error=already_linked');
  });

  it('refuses an unknown or replayed state, and a cancelled sign-in', async () => {
    const { account } = await linked(t, uniqueEmail('replay'));
    const { url } = (await post(t, '/api/oidc/start')).json<{ url: string }>();
    idp.autoSignIn = account.email;
    const callback = await idp.followToCallback(url, CALLBACK);
    const tampered = new URLSearchParams(callback.search);
    tampered.set('state', 'not-the-state-we-sent');
    expect((await get(t, `/api/oidc/callback?${tampered}`)).headers.location).toBe('/login#oidc_error=expired');
    expect((await get(t, `/api/oidc/callback${callback.search}`)).headers.location).toMatch(/^\/login#oidc=/);
    expect((await get(t, `/api/oidc/callback${callback.search}`)).headers.location).toBe('/login#oidc_error=expired');

    const cancelled = (await post(t, '/api/oidc/start')).json<{ url: string }>();
    idp.autoSignIn = 'nobody-at-the-provider@example.com';
    const back = await idp.followToCallback(cancelled.url, CALLBACK);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect((await get(t, `/api/oidc/callback${back.search}`)).headers.location).toBe('/login#oidc_error=cancelled');
  });

  it('verifies the ID token: a wrong audience, issuer, nonce, an expired token or a foreign signature is refused', async () => {
    const { account } = await linked(t, uniqueEmail('forged'));
    const now = Math.floor(Date.now() / 1000);
    const cases: Array<[string, (claims: Record<string, unknown>) => { claims: Record<string, unknown>; foreignKey?: boolean }]> = [
      ['audience', (claims) => ({ claims: { ...claims, aud: 'some-other-client' } })],
      ['issuer', (claims) => ({ claims: { ...claims, iss: 'https://idp.example.com' } })],
      ['nonce', (claims) => ({ claims: { ...claims, nonce: 'a-nonce-of-another-flow' } })],
      ['expired', (claims) => ({ claims: { ...claims, iat: now - 7200, exp: now - 3600 } })],
      ['signature', (claims) => ({ claims, foreignKey: true })],
    ];
    try {
      for (const [what, rewrite] of cases) {
        forge = rewrite;
        expect(await signInWithProvider(t, account.email), what).toBe('/login#oidc_error=failed');
      }
      // The same forge, passing the claims through unchanged and signed with the provider's key: accepted.
      forge = (claims) => ({ claims });
      expect(await signInWithProvider(t, account.email)).toMatch(/^\/login#oidc=/);
    } finally {
      forge = null;
    }
  });

  it("sends the PKCE verifier: a code redeemed with another flow's verifier is refused by the provider", async () => {
    const { account } = await linked(t, uniqueEmail('pkce'));
    const first = (await post(t, '/api/oidc/start')).json<{ url: string }>();
    const second = (await post(t, '/api/oidc/start')).json<{ url: string }>();
    idp.autoSignIn = account.email;
    const callback = await idp.followToCallback(first.url, CALLBACK);
    // The first flow's code with the second flow's state: its verifier goes to the token endpoint.
    const swapped = new URLSearchParams(callback.search);
    swapped.set('state', new URL(second.url).searchParams.get('state')!);
    tokenAnswers.length = 0;
    idp.grantErrors.length = 0;
    expect((await get(t, `/api/oidc/callback?${swapped}`)).headers.location).toBe('/login#oidc_error=failed');
    expect(tokenAnswers).toEqual([{ status: 400, body: expect.objectContaining({ error: 'invalid_grant' }) }]);
    expect(idp.grantErrors).toEqual(['code_verifier does not match code_challenge']);
  });

  it('still asks an account with two-factor required to turn it on', async () => {
    const boss = uniqueEmail('boss');
    const bossId = await createUser(t.db, boss, PASSWORD, { firstLogin: false });
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, bossId));
    const bossHeaders = await login(t.app, boss, PASSWORD);
    const { account } = await linked(t, uniqueEmail('needs-2fa'));
    expect((await post(t, '/api/admin/require_two_factor', { required: true }, bossHeaders)).statusCode).toBe(200);
    try {
      const signedIn = await complete(t, await signInWithProvider(t, account.email));
      const token = { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` };
      const refused = await get(t, '/api/get_favorite_stocks', token);
      expect([refused.statusCode, refused.json<{ msg: string }>().msg]).toEqual([403, TWO_FACTOR_SETUP_REQUIRED_MSG]);
    } finally {
      await post(t, '/api/admin/require_two_factor', { required: false }, bossHeaders);
    }
  });

  it('unlinks: the provider account no longer signs in; the admin list shows the sign-in methods', async () => {
    const email = uniqueEmail('unlink');
    const { id, headers, account } = await linked(t, email);
    const boss = uniqueEmail('lister');
    const bossId = await createUser(t.db, boss, PASSWORD, { firstLogin: false });
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, bossId));
    const list = (await get(t, '/api/admin/users', await login(t.app, boss, PASSWORD))).json<{ users: Array<{ id: number; sign_in_methods: string[] }> }>();
    expect(list.users.find((user) => user.id === id)?.sign_in_methods).toEqual(['password', 'oidc']);

    const [identity] = (await get(t, '/api/oidc/identities', headers)).json<{ identities: Array<{ id: string }> }>().identities;
    expect((await post(t, '/api/oidc/unlink', { id: '999999' }, headers)).statusCode).toBe(404);
    const unlinked = await post(t, '/api/oidc/unlink', { id: identity!.id }, headers);
    expect([unlinked.statusCode, unlinked.json()]).toEqual([200, { msg: `Your Test IdP account ${account.email} is unlinked: it can no longer sign in here.` }]);
    expect(await signInWithProvider(t, account.email)).toBe('/login#oidc_error=not_linked');
  });
});

describe('OIDC_AUTO_CREATE and OIDC_ONLY', () => {
  let only: TestApp;
  beforeAll(async () => {
    only = await createTestApp({ PUBLIC_URL, OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: idp.clientId, OIDC_CLIENT_SECRET: idp.clientSecret, OIDC_AUTO_CREATE: 'true', OIDC_ONLY: 'true', LOGIN_MAX_PER_ADDRESS: '1000' });
  });
  afterAll(async () => only?.close());

  it('a new verified e-mail becomes a member; an existing account is still never signed in by e-mail', async () => {
    const fresh = uniqueEmail('fresh');
    idp.addAccount({ sub: `sub-${fresh}`, email: fresh });
    const signedIn = await complete(only, await signInWithProvider(only, fresh));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const [row] = await only.db.select().from(users).where(eq(users.email, fresh));
    expect(row).toMatchObject({ role: 'member', firstLogin: false, isActive: true });
    // The MAG 7, as a first login's password change saves them.
    const favorites = (await get(only, '/api/get_favorite_stocks', { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` })).json<Array<{ symbol: string }>>();
    expect(favorites.map((stock) => stock.symbol)).toEqual(DEFAULT_FAVORITE_STOCKS.map((stock) => stock.symbol));

    const existing = uniqueEmail('existing');
    await createUser(only.db, existing, PASSWORD, { firstLogin: false });
    idp.addAccount({ sub: `sub-${existing}`, email: existing });
    expect(await signInWithProvider(only, existing)).toBe('/login#oidc_error=not_linked');
  });

  it('OIDC_ONLY: the password form is for admins; a member keeps their last link', async () => {
    expect((await get(only, '/api/sign_in_options')).json()).toEqual({ sign_up: false, single_sign_on: { label: 'SSO' }, password_form: 'admins' });
    const member = uniqueEmail('member');
    await createUser(only.db, member, PASSWORD, { firstLogin: false });
    const refused = await post(only, '/api/login', { email: member, password: PASSWORD });
    expect([refused.statusCode, refused.json()]).toEqual([403, { msg: 'Members of this installation sign in with SSO: use "Sign in with SSO".' }]);

    const admin = uniqueEmail('admin');
    const adminId = await createUser(only.db, admin, PASSWORD, { firstLogin: false });
    await only.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
    expect((await post(only, '/api/login', { email: admin, password: PASSWORD })).statusCode).toBe(200);

    const fresh = uniqueEmail('only-link');
    idp.addAccount({ sub: `sub-${fresh}`, email: fresh });
    const token = { authorization: `Bearer ${(await complete(only, await signInWithProvider(only, fresh))).json<{ access_token: string }>().access_token}` };
    const [identity] = (await get(only, '/api/oidc/identities', token)).json<{ identities: Array<{ id: string }> }>().identities;
    const kept = await post(only, '/api/oidc/unlink', { id: identity!.id }, token);
    expect([kept.statusCode, kept.json<{ msg: string }>().msg]).toEqual([409, 'Members sign in with SSO only on this installation: this is your last linked SSO account, so it stays.']);
  });

  it('OIDC_ONLY: an invited member creates the account with the provider, not a password', async () => {
    const admin = uniqueEmail('inviter');
    const adminId = await createUser(only.db, admin, PASSWORD, { firstLogin: false });
    await only.db.update(users).set({ role: 'admin' }).where(eq(users.id, adminId));
    const invitee = uniqueEmail('invitee');
    expect((await post(only, '/api/admin/invite', { email: invitee, role: 'member' }, await login(only.app, admin, PASSWORD))).statusCode).toBe(200);
    const token = await invitationTokenOf(only, invitee);
    const withPassword = await post(only, '/api/accept_invitation', { token, password: PASSWORD });
    expect([withPassword.statusCode, withPassword.json()]).toEqual([403, { msg: 'Members of this installation sign in with SSO: use "Create account with SSO".' }]);

    // The provider's e-mail may differ from the invited one: the link proves the mailbox, the provider the person.
    const providerEmail = uniqueEmail('at-provider');
    idp.addAccount({ sub: `sub-${providerEmail}`, email: providerEmail });
    const signedIn = await complete(only, await signInWithProvider(only, providerEmail, token));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const me = (await get(only, '/api/getemail', { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` })).json<{ email: string }>();
    expect(me.email).toBe(invitee);
    expect(await signInWithProvider(only, providerEmail, token)).toBe('/login#oidc_error=invitation');
    // The same provider account for another invitation: it is linked to the first invitee already.
    const second = uniqueEmail('invitee-2');
    expect((await post(only, '/api/admin/invite', { email: second, role: 'member' }, await login(only.app, admin, PASSWORD))).statusCode).toBe(200);
    expect(await signInWithProvider(only, providerEmail, await invitationTokenOf(only, second))).toBe('/login#oidc_error=already_linked');
  });
});

describe('without a provider', () => {
  it('offers no single sign-on and answers 404 with a msg', async () => {
    const plain = await createTestApp();
    try {
      expect((await get(plain, '/api/sign_in_options')).json()).toEqual({ sign_up: false, single_sign_on: null, password_form: 'everyone' });
      const started = await post(plain, '/api/oidc/start');
      expect([started.statusCode, started.json()]).toEqual([404, { msg: OIDC_NOT_CONFIGURED_MSG }]);
      const email = uniqueEmail('plain');
      await createUser(plain.db, email, PASSWORD, { firstLogin: false });
      expect((await get(plain, '/api/oidc/identities', await login(plain.app, email, PASSWORD))).json()).toEqual({ configured: false, label: 'SSO', identities: [] });
      expect((await get(plain, '/api/oidc/callback?state=x&code=y')).headers.location).toBe('/login#oidc_error=not_configured');
    } finally {
      await plain.close();
    }
  });
});

it('a deactivated account cannot redeem a code it got before', async () => {
  const { id, account } = await linked(t, uniqueEmail('late'));
  const location = await signInWithProvider(t, account.email);
  await t.db.update(users).set({ isActive: false }).where(eq(users.id, id));
  const refused = await complete(t, location);
  expect([refused.statusCode, refused.json()]).toEqual([403, { msg: DEACTIVATED_MSG }]);
});
