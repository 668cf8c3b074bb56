import { customScansEndpoints, type ListScansResponse } from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/**
 * GET api/scans: the user's saved scans (the Custom Scan alert type's choice). The key is the saved
 * scans list's own, so the Custom Scans screen's saves and deletes refresh this one too.
 */
export async function getSavedScans(signal?: AbortSignal): Promise<ListScansResponse> {
  return apiCall(customScansEndpoints.listScans, { signal });
}

export const savedScansQuery = () => queryOptions({ queryKey: ['scans', 'list'], queryFn: ({ signal }) => getSavedScans(signal), staleTime: 60_000 });
