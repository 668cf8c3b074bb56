import { oidcEndpoints, type OidcIdentitiesResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../lib/client';

/** What a server without the single sign-on routes (a 404: one older than issue 28) amounts to. */
const NOT_CONFIGURED: OidcIdentitiesResponse = { configured: false, label: '', identities: [] };

/** GET api/oidc/identities: whether the installation has single sign-on, its label, and the accounts linked. */
export const oidcIdentitiesQuery = () =>
  queryOptions({
    queryKey: ['account', 'oidc'],
    queryFn: async ({ signal }): Promise<OidcIdentitiesResponse> => {
      try {
        return await apiCall(oidcEndpoints.oidcIdentities, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return NOT_CONFIGURED;
        throw error;
      }
    },
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
