/** POST/GET/DELETE api/scans/{id}/backtest (docs/custom-scans.md "Backtest jobs"): the service decides; this is its HTTP side. */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints } from '@signalboard/core';
import type { Database } from '../../db/client';
import { route } from '../../lib/endpoint';
import type { ScanBacktests } from './backtest.job';
import { createBacktestRepo } from './backtest.repo';
import { createBacktestService } from './backtest.service';

/** `deps`: the database and the jobs (CustomScansDeps gives them; importing its type here would be a cycle). */
export async function backtestRoutes(app: FastifyInstance, deps: { db: Database; backtests: Pick<ScanBacktests, 'start'> }) {
  const service = createBacktestService({ repo: createBacktestRepo(deps.db), jobs: deps.backtests });
  route(app, customScansEndpoints.startScanBacktest, async (request, _reply, { id }) => service.start(request.user.id, id));
  route(app, customScansEndpoints.getScanBacktest, async (request, _reply, { id }) => service.get(request.user.id, id));
  route(app, customScansEndpoints.cancelScanBacktest, async (request, _reply, { id }) => service.cancel(request.user.id, id));
}
