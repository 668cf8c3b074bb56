import { customScansEndpoints } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/scans/fields: the field catalogue the builder offers (names, labels, parameters, units). */
export const getScanFields = (signal?: AbortSignal) => apiCall(customScansEndpoints.getScanFields, { signal });

/** The catalogue does not change while the server runs: read once per session. */
export const scanFieldsQuery = () =>
  queryOptions({
    queryKey: ['scans', 'fields'],
    queryFn: ({ signal }) => getScanFields(signal),
    staleTime: Infinity,
    select: (answer) => answer.fields,
  });

export const useScanFields = () => useQuery(scanFieldsQuery());
