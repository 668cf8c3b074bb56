import { getEmailResponse, healthResponse } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client';

export const currentUserQuery = () =>
  queryOptions({
    queryKey: ['current-user'],
    queryFn: ({ signal }) => apiRequest(getEmailResponse, 'getemail', { signal }),
    staleTime: 5 * 60_000,
  });
export const useCurrentUser = () => useQuery(currentUserQuery());

export const healthQuery = () =>
  queryOptions({
    queryKey: ['health'],
    queryFn: ({ signal }) => apiRequest(healthResponse, 'health', { anonymous: true, signal }),
    staleTime: 60_000,
  });
export const useHealth = () => useQuery(healthQuery());
