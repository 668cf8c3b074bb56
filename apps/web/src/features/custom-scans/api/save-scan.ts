import { customScansEndpoints, type SaveScanRequest } from '@signalboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';
import { scansListQuery } from './list-scans';

/** POST api/scans (a new scan; the 51st answers 400 with a msg) or PUT api/scans/{id} (the whole scan replaced). */
export interface SaveScanInput {
  /** The scan to replace; none for a new one. */
  id?: number;
  body: SaveScanRequest;
}

export const saveScan = ({ id, body }: SaveScanInput) =>
  id === undefined ? apiCall(customScansEndpoints.createScan, { body }) : apiCall(customScansEndpoints.updateScan, { params: { id }, body });

/** Saves (new, changes, rename, duplicate: the same two calls) and refreshes the list. */
export function useSaveScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveScan,
    onSettled: () => queryClient.invalidateQueries({ queryKey: scansListQuery().queryKey }),
  });
}
