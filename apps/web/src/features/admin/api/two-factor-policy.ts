import { twoFactorEndpoints, type AdminSettingsResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/admin/settings: whether two-factor sign-in is required of everyone. */
export const adminSettingsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'settings'],
    queryFn: ({ signal }): Promise<AdminSettingsResponse> => apiCall(twoFactorEndpoints.adminSettings, { signal }),
    retry: false,
    staleTime: 5_000,
  });

/** POST api/admin/require_two_factor {required}; the settings and the audit log are read again after it. */
export function useRequireTwoFactor() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) => apiCall(twoFactorEndpoints.adminRequireTwoFactor, { body: { required } }),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}
