/** POST/GET/DELETE api/scans/{id}/backtest (docs/custom-scans.md "Backtest jobs"): the service decides; this is its HTTP side. */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints } from '@signalboard/core';
import type { Database } from '../../db/client';
import { route } from '../../lib/endpoint';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import { universeDataVersion } from './backtest-data';
import type { ScanBacktests } from './backtest.job';
import { createBacktestRepo } from './backtest.repo';
import { createBacktestService } from './backtest.service';

/** `deps`: the database, the market and favourites (the universe's imported prices now) and the jobs (CustomScansDeps gives them; importing its type here would be a cycle). */
export async function backtestRoutes(app: FastifyInstance, deps: { db: Database; market: CachedMarket; favorites: Pick<FavoritesRepo, 'list'>; backtests: Pick<ScanBacktests, 'start'> }) {
  const service = createBacktestService({
    repo: createBacktestRepo(deps.db),
    jobs: deps.backtests,
    dataVersionNow: (scan, userId) => universeDataVersion({ market: deps.market, favorites: deps.favorites }, scan.universe, userId),
    log: app.log,
  });
  route(app, customScansEndpoints.startScanBacktest, async (request, _reply, { id }) => service.start(request.user.id, id));
  route(app, customScansEndpoints.getScanBacktest, async (request, _reply, { id }) => service.get(request.user.id, id));
  route(app, customScansEndpoints.cancelScanBacktest, async (request, _reply, { id }) => service.cancel(request.user.id, id));
}
