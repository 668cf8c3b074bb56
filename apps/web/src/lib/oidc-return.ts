import { useEffect, useState } from 'react';

/**
 * Where single sign-on's redirect after the provider lands (docs/accounts.md "Single sign-on"):
 * `#oidc=<value>` (a one-time code on /login, `linked` on the Account screen) or `#oidc_error=<reason>`.
 */
export type OidcReturn = { kind: 'oidc'; value: string } | { kind: 'error'; reason: string } | null;

function readOidcHash(): OidcReturn {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const reason = params.get('oidc_error');
  if (reason !== null) return { kind: 'error', reason };
  const value = params.get('oidc');
  return value ? { kind: 'oidc', value } : null;
}

/** The page's `#oidc…` as it was on arrival; the hash itself is removed at once (the path and the history entry stay). */
export function useOidcReturn(): OidcReturn {
  const [oidcReturn] = useState(readOidcHash);
  useEffect(() => {
    if (oidcReturn) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, [oidcReturn]);
  return oidcReturn;
}
