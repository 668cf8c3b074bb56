/**
 * Custom scans (issue 26, docs/custom-scans.md): the field catalogue (`GET api/scans/fields`), runs
 * (scan-run.routes.ts), a result row's chart (scan-chart.routes.ts), the user's saved scans
 * (saved-scans.routes.ts) and their backtests (backtest.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints, SCAN_FIELDS, type ScanFieldsResponse } from '@signalboard/core';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { route } from '../../lib/endpoint';
import type { UserLimit } from '../../lib/user-limit';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import type { ScanBacktests } from './backtest.job';
import { backtestRoutes } from './backtest.routes';
import { savedScansRoutes } from './saved-scans.routes';
import { scanChartRoutes } from './scan-chart.routes';
import { scanRunRoutes } from './scan-run.routes';

/** What the custom-scan calls read: the database (saved scans), the market, its clock, the user's favourites and the backtest jobs. */
export interface CustomScansDeps {
  db: Database;
  market: CachedMarket;
  /** The market's clock: "now" of a run without `as_of`. */
  marketClock: Clock;
  favorites: FavoritesRepo;
  /** The backtests' jobs (the container's): a start runs in the background or on a worker. */
  backtests: Pick<ScanBacktests, 'start'>;
  /** Scan runs per user (SCAN_RUN_MAX_PER_USER every SCAN_RUN_WINDOW_SECONDS; the container's userLimits.scanRun). */
  runLimit: UserLimit;
}

/** The catalogue never changes while the process runs: one answer object, built once. */
const FIELDS_ANSWER: ScanFieldsResponse = {
  fields: SCAN_FIELDS.map((spec) => ({
    ...spec,
    params: spec.params.map(({ name, default: fallback, min, max, choices }) => ({ name, default: fallback, min, max, ...(choices ? { choices: [...choices] } : {}) })),
  })),
};

export async function customScansRoutes(app: FastifyInstance, deps: CustomScansDeps) {
  route(app, customScansEndpoints.getScanFields, async (): Promise<ScanFieldsResponse> => FIELDS_ANSWER);
  await scanRunRoutes(app, deps);
  await scanChartRoutes(app, deps);
  await savedScansRoutes(app, deps);
  await backtestRoutes(app, deps);
}
