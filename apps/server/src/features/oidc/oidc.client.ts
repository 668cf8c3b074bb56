/**
 * The relying party of single sign-on (docs/accounts.md "Single sign-on"), on openid-client: the
 * provider's discovery document and keys, the authorization URL (code flow, PKCE S256, state, nonce),
 * and the code's exchange, which checks the state, the ID token's signature against the provider's
 * JWKS, its issuer, audience, expiry and nonce. Nothing here knows users or HTTP routes.
 */
import * as oidc from 'openid-client';
import { isLoopbackHost } from '../../lib/loopback';

/** What one verified sign-in at the provider says of its account. */
export interface VerifiedProviderAccount {
  issuer: string;
  subject: string;
  /** Lower-cased; undefined when the provider gave none. */
  email: string | undefined;
  emailVerified: boolean;
}

/** The secrets of one flow, kept by the server between the start and the callback. */
export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE only). */
  clientSecret?: string;
  redirectUri: string;
  /** An http:// issuer off this machine (OIDC_ALLOW_HTTP); loopback is always allowed. */
  allowHttp: boolean;
  /** Every request to the provider (the tests put a proxy here); default fetch. */
  fetch?: oidc.CustomFetch;
  /** Seconds a request to the provider may take. */
  timeoutSeconds?: number;
}

export const SCOPE = 'openid email profile';

export function createOidcClient(options: OidcClientOptions) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const issuerUrl = new URL(options.issuer);
  const insecure = issuerUrl.protocol === 'http:' && (options.allowHttp || isLoopbackHost(issuerUrl.hostname));

  async function discover(): Promise<oidc.Configuration> {
    const execute = [oidc.enableNonRepudiationChecks, ...(insecure ? [oidc.allowInsecureRequests] : [])];
    const auth = options.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(options.clientSecret);
    const config = await oidc.discovery(issuerUrl, options.clientId, options.clientSecret === undefined ? undefined : { client_secret: options.clientSecret }, auth, {
      execute,
      timeout: options.timeoutSeconds ?? 10,
      ...(options.fetch ? { [oidc.customFetch]: options.fetch } : {}),
    });
    config.timeout = options.timeoutSeconds ?? 10;
    return config;
  }

  /** The provider's configuration, discovered once; a failure is retried by the next sign-in. */
  function configuration_(): Promise<oidc.Configuration> {
    configuration ??= discover().catch((error: unknown) => {
      configuration = undefined;
      throw error;
    });
    return configuration;
  }

  return {
    issuer: options.issuer,

    /** New secrets for one flow. */
    async newFlow(): Promise<FlowChecks> {
      return { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
    },

    /** Where to send the browser: the provider's authorization endpoint with this flow's checks. */
    async authorizationUrl(flow: FlowChecks): Promise<string> {
      const config = await configuration_();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: SCOPE,
        response_type: 'code',
        state: flow.state,
        nonce: flow.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.codeVerifier),
        code_challenge_method: 'S256',
      });
      return url.href;
    },

    /**
     * Exchanges the callback's code (PKCE verifier, client secret) and verifies what comes back;
     * throws on anything wrong. `callbackUrl` is the URL the provider redirected to.
     */
    async exchange(callbackUrl: URL, flow: FlowChecks): Promise<VerifiedProviderAccount> {
      const config = await configuration_();
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('The provider answered no ID token');
      let email = typeof claims.email === 'string' ? claims.email : undefined;
      let emailVerified = claims.email_verified === true;
      // Some providers put the e-mail in the UserInfo answer only.
      if (email === undefined) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof info.email === 'string' ? info.email : undefined;
        emailVerified = info.email_verified === true;
      }
      return { issuer: claims.iss, subject: claims.sub, email: email?.trim().toLowerCase(), emailVerified };
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;
