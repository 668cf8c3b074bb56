import { oidcEndpoints, type OidcIdentitiesResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/oidc/identities: whether the installation has single sign-on, its label, and the accounts linked. */
export const oidcIdentitiesQuery = () =>
  queryOptions({
    queryKey: ['account', 'oidc'],
    queryFn: ({ signal }): Promise<OidcIdentitiesResponse> => apiCall(oidcEndpoints.oidcIdentities, { signal }),
    retry: false,
    staleTime: 10_000,
  });

/** POST api/oidc/unlink {id}; the list is read again after. */
export const useOidcUnlink = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(oidcEndpoints.oidcUnlink, { body: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: oidcIdentitiesQuery().queryKey }),
  });
};

/** POST api/oidc/link: the provider's URL to send the browser to (it comes back to /dashboard/account#oidc=linked). */
export const useOidcLink = () => useMutation({ mutationFn: () => apiCall(oidcEndpoints.oidcLink) });
