/** POST api/scans/run (docs/custom-scans.md, "Running a scan"): the service does the run; this is its HTTP side. */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints, type RunScanResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import type { UserLimit } from '../../lib/user-limit';
import { createScanRunService, type ScanRunDeps } from './scan-run.service';

/**
 * `deps`: the market, its clock and the favourites (CustomScansDeps gives them; importing its type here would be a cycle),
 * and the per-user limit: each well-formed call counts (429 past it, before anything is read); the Custom Scan
 * alerts run the service itself, not this call, and are not counted.
 */
export async function scanRunRoutes(app: FastifyInstance, deps: ScanRunDeps & { runLimit: UserLimit }) {
  const service = createScanRunService(deps);
  route(app, customScansEndpoints.runScan, async (request, _reply, input): Promise<RunScanResponse> => {
    await deps.runLimit.hit(request.user.id);
    return service.run(request.user.id, input, request.log);
  });
}
