/** POST api/scans/run (docs/custom-scans.md, "Running a scan"): the service does the run; this is its HTTP side. */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints, type RunScanResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { createScanRunService, type ScanRunDeps } from './scan-run.service';

/** `deps`: the market, its clock and the favourites (CustomScansDeps gives them; importing its type here would be a cycle). */
export async function scanRunRoutes(app: FastifyInstance, deps: ScanRunDeps) {
  const service = createScanRunService(deps);
  route(app, customScansEndpoints.runScan, async (request, _reply, input): Promise<RunScanResponse> => service.run(request.user.id, input, request.log));
}
