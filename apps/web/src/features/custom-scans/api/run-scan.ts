import { customScansEndpoints, type RunScanRequest } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/scans/run: the scan (its formula or the builder's groups) over a universe, now or as of a past session. */
export const runScan = (body: RunScanRequest) => apiCall(customScansEndpoints.runScan, { body });

/** Each Run is one call; a failure is logged and shown by the screen with the server's msg and a retry. */
export const runScanMutation = () =>
  mutationOptions({
    mutationKey: ['scans', 'run'],
    mutationFn: runScan,
    onError: (error: Error) => console.error('Error running the custom scan:', error),
  });

export const useRunScan = () => useMutation(runScanMutation());
