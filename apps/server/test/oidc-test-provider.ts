/**
 * A real OpenID Provider on loopback for the single sign-on tests (issue 28; docs/accounts.md
 * "Single sign-on"): oidc-provider with one confidential client, PKCE required, its signing key made
 * here (so a test can also sign ID tokens it forges), and a plain sign-in page of its own ("Sign in to
 * Test IdP": an e-mail field) that a browser fills in; headless tests set `autoSignIn` and follow
 * the redirects with `followToCallback`.
 */
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestIdpAccount {
  sub: string;
  email: string;
  email_verified: boolean;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, TestIdpAccount>;
  /** Why the token endpoint refused each refused grant (e.g. "code_verifier does not match code_challenge"). */
  grantErrors: string[];
  /** Headless: the next interaction signs in this e-mail's account at once (undefined: the page is shown). */
  autoSignIn: string | undefined;
  /** Adds (or replaces) an account. */
  addAccount(account: Omit<TestIdpAccount, 'email_verified'> & { email_verified?: boolean }): TestIdpAccount;
  /** An RS256 JWT signed with the provider's key (`foreignKey`: another key under the same kid). */
  signJwt(claims: Record<string, unknown>, options?: { foreignKey?: boolean }): string;
  /**
   * Follows the authorization URL through the provider (cookies kept) until it redirects to
   * `redirectPrefix`: answers that callback URL (code and state, or an error).
   */
  followToCallback(authorizationUrl: string, redirectPrefix: string): Promise<URL>;
  close(): Promise<void>;
}

const KID = 'test-idp-key';

export async function startTestIdp(options: { redirectUris: string[]; clientId?: string; clientSecret?: string; host?: string }): Promise<TestIdp> {
  const clientId = options.clientId ?? 'signalboard';
  const clientSecret = options.clientSecret ?? 'test-idp-client-secret-0123456789';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: KID, use: 'sig', alg: 'RS256' };
  const accounts = new Map<string, TestIdpAccount>();

  const server: Server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;

  const findBySub = (sub: string) => [...accounts.values()].find((account) => account.sub === sub);
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The e-mail in the ID token itself, as Keycloak, Authentik and PocketID put it.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_context: unknown, sub: string) => {
      const account = findBySub(sub);
      return account ? { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.email_verified }) } : undefined;
    },
  });

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    grantErrors: [],
    autoSignIn: undefined,
    addAccount(account) {
      const full = { email_verified: true, ...account };
      accounts.set(full.email, full);
      return full;
    },
    signJwt(claims, signOptions = {}) {
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const body = `${encode({ alg: 'RS256', typ: 'JWT', kid: KID })}.${encode(claims)}`;
      const key: KeyObject = signOptions.foreignKey ? foreign : createPrivateKey({ key: jwk, format: 'jwk' });
      return `${body}.${sign('sha256', Buffer.from(body), key).toString('base64url')}`;
    },
    async followToCallback(authorizationUrl, redirectPrefix) {
      const cookies = new Map<string, string>();
      let url = authorizationUrl;
      for (let hop = 0; hop < 10; hop += 1) {
        if (url.startsWith(redirectPrefix)) return new URL(url);
        const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair!.indexOf('=');
          cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`the provider stopped at ${url}: ${response.status} ${await response.text()}`);
        url = new URL(location, url).href;
      }
      throw new Error('too many redirects');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  provider.on('grant.error', (_context, error) => {
    const refusal = error as { cause?: Error; error_detail?: string; message: string };
    idp.grantErrors.push(refusal.cause?.message ?? refusal.error_detail ?? refusal.message);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(request.url?.split('?')[0] ?? '');
    if (!match) {
      provider.callback()(request, response);
      return;
    }
    const details = await provider.interactionDetails(request, response);
    let email = idp.autoSignIn;
    if (match[2] && request.method === 'POST') {
      const body = await new Promise<string>((resolve) => {
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk.toString()));
        request.on('end', () => resolve(text));
      });
      email = new URLSearchParams(body).get('email') ?? '';
    }
    if (email === undefined) {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><html lang="en"><head><title>Test IdP</title></head><body><main><h1>Sign in to Test IdP</h1>
<form method="post" action="/interaction/${details.uid}/login"><label for="email">E-mail</label> <input id="email" name="email" type="email" autocomplete="off"> <button type="submit">Sign in</button></form></main></body></html>`);
      return;
    }
    const account = accounts.get(email.trim().toLowerCase());
    if (!account) {
      await provider.interactionFinished(request, response, { error: 'access_denied', error_description: 'unknown account' });
      return;
    }
    const grant = new provider.Grant({ accountId: account.sub, clientId });
    grant.addOIDCScope('openid email profile');
    await provider.interactionFinished(request, response, { login: { accountId: account.sub }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
  }

  return idp;
}
