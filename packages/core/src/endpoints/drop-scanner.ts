/** The Drop and Recovery Scanner over the favourites (spec §2 "Drop and Recovery Scanner"). */
import { dropScanRequest, dropScanResponse } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const dropScannerEndpoints = endpointGroup({
  scanDrops: defineEndpoint({ operationId: 'scanDrops', method: 'post', path: '/api/scan/drops', summary: 'Drop and Recovery Scanner over the favourites (failed symbols listed, never fatal)', body: dropScanRequest, response: dropScanResponse }),
});
