/** Single sign-on as the configuration sets it up (OIDC_*; docs/accounts.md "Single sign-on"): the client, when there is a provider, and the service. */
import type { CustomFetch } from 'openid-client';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import { createOidcClient } from './oidc.client';
import { createOidcRepo } from './oidc.repo';
import { createOidcService, type OidcServiceDeps } from './oidc.service';

export function createSingleSignOn(
  config: Pick<Config, 'PUBLIC_URL' | 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'OIDC_BUTTON_LABEL' | 'OIDC_AUTO_CREATE' | 'OIDC_ONLY' | 'OIDC_ALLOW_HTTP'>,
  deps: Pick<OidcServiceDeps, 'users' | 'invitations' | 'favorites' | 'audit' | 'store' | 'clock' | 'log'> & { db: Database; fetch?: CustomFetch },
) {
  const redirectUri = `${config.PUBLIC_URL}/api/oidc/callback`;
  const client =
    config.OIDC_ISSUER !== undefined && config.OIDC_CLIENT_ID !== undefined
      ? createOidcClient({
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          ...(config.OIDC_CLIENT_SECRET !== undefined ? { clientSecret: config.OIDC_CLIENT_SECRET } : {}),
          redirectUri,
          allowHttp: config.OIDC_ALLOW_HTTP,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : undefined;
  const { db, fetch: _fetch, ...rest } = deps;
  return createOidcService({
    ...rest,
    client,
    repo: createOidcRepo(db),
    label: config.OIDC_BUTTON_LABEL,
    autoCreate: config.OIDC_AUTO_CREATE,
    only: config.OIDC_ONLY,
    redirectUri,
  });
}
