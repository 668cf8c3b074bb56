import { useEffect, useState } from 'react';

/**
 * Where single sign-on's redirect after the provider lands (docs/accounts.md "Single sign-on"):
 * `#oidc=<value>` (a one-time code on /login, `linked` on the Account screen) or `#oidc_error=<reason>`.
 */
export type OidcReturn = { kind: 'oidc'; value: string } | { kind: 'error'; reason: string } | null;

/** `name=value` of the hash, percent-decoded (not as a form: a `+` stays a `+`); null when absent or malformed. */
function hashParam(name: string): string | null {
  for (const part of window.location.hash.slice(1).split('&')) {
    const equals = part.indexOf('=');
    if (equals < 0 || part.slice(0, equals) !== name) continue;
    const value = part.slice(equals + 1);
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
}

function readOidcHash(): OidcReturn {
  const reason = hashParam('oidc_error');
  if (reason !== null) return { kind: 'error', reason };
  const value = hashParam('oidc');
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
