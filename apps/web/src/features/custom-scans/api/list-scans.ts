import { customScansEndpoints } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/scans: the user's saved scans (last changed first), the starter templates and the limit. */
export const listScans = (signal?: AbortSignal) => apiCall(customScansEndpoints.listScans, { signal });

/** The list's key: every change to a saved scan (save, rename, duplicate, delete) invalidates it. */
export const scansListQuery = () => queryOptions({ queryKey: ['scans', 'list'], queryFn: ({ signal }) => listScans(signal) });

export const useScansList = () => useQuery(scansListQuery());
