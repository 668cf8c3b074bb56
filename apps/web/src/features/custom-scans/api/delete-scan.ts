import { customScansEndpoints } from '@signalboard/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';
import { scansListQuery } from './list-scans';

/** DELETE api/scans/{id}. */
export const deleteScan = (id: number) => apiCall(customScansEndpoints.deleteScan, { params: { id } });

export function useDeleteScan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScan,
    onSettled: () => queryClient.invalidateQueries({ queryKey: scansListQuery().queryKey }),
  });
}
