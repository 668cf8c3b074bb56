import { authEndpoints, healthEndpoints } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './client';

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['current-user'],
    queryFn: ({ signal }) => apiCall(authEndpoints.getEmail, { signal }),
    staleTime: 5 * 60_000,
  });
export const useCurrentUser = () => useQuery(currentUserQuery());

export const healthQuery = () =>
  queryOptions({
    queryKey: ['health'],
    queryFn: ({ signal }) => apiCall(healthEndpoints.getHealth, { signal }),
    staleTime: 60_000,
  });
export const useHealth = () => useQuery(healthQuery());
