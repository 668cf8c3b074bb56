import { twoFactorEndpoints, type TwoFactorStateResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/two_factor: whether two-factor sign-in is on, since when, recovery codes left, required. */
export const twoFactorQuery = () =>
  queryOptions({
    queryKey: ['account', 'two-factor'],
    queryFn: ({ signal }): Promise<TwoFactorStateResponse> => apiCall(twoFactorEndpoints.twoFactorState, { signal }),
    retry: false,
    staleTime: 10_000,
  });

/** A mutation whose end reads the two-factor state again. */
function useTwoFactorChange<V, R>(run: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => client.invalidateQueries({ queryKey: twoFactorQuery().queryKey }) });
}

/** POST api/two_factor/setup: a new key to scan or type. */
export const useTwoFactorSetup = () => useTwoFactorChange(() => apiCall(twoFactorEndpoints.twoFactorSetup));

/** POST api/two_factor/enable {code}: answers the recovery codes, once. */
export const useTwoFactorEnable = () => useTwoFactorChange((code: string) => apiCall(twoFactorEndpoints.twoFactorEnable, { body: { code } }));

/** POST api/two_factor/disable {code}. */
export const useTwoFactorDisable = () => useTwoFactorChange((code: string) => apiCall(twoFactorEndpoints.twoFactorDisable, { body: { code } }));

/** POST api/two_factor/recovery_codes {code}: new codes, the earlier ones void. */
export const useNewRecoveryCodes = () => useTwoFactorChange((code: string) => apiCall(twoFactorEndpoints.twoFactorRecoveryCodes, { body: { code } }));
