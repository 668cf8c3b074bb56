import type { FastifyInstance } from 'fastify';
import { dropScannerEndpoints, type DropScanResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import type { DropScannerService } from './drop-scanner.service';

/** The Drop and Recovery Scanner over the favourites (packages/core/src/contract/scans.ts). Behind the token; the signed-in user's favourites. */
export async function dropScannerRoutes(app: FastifyInstance, options: { dropScanner: DropScannerService }) {
  const { dropScanner } = options;

  route(app, dropScannerEndpoints.scanDrops, async (request, _reply, input): Promise<DropScanResponse> => {
    return dropScanner.dropScan(request.user.id, input);
  });
}
