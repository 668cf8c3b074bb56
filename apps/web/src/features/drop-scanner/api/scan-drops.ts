import { dropScannerEndpoints, type DropSelection } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/scan/drops: the whole Drop and Recovery scan over the favourites in one request. */
export interface DropScanParams {
  /** Percent, 0–100. */
  threshold: number;
  selection: DropSelection;
}

export const scanDrops = (body: DropScanParams) => apiCall(dropScannerEndpoints.scanDrops, { body });

/** Each Search is one scan; a failure is logged (spec §8) and shown by the screen with a retry. */
export const scanDropsMutation = () =>
  mutationOptions({
    mutationKey: ['scan', 'drops'],
    mutationFn: scanDrops,
    onError: (error: Error) => console.error('Error fetching drop scan results:', error),
  });

export const useScanDrops = () => useMutation(scanDropsMutation());
