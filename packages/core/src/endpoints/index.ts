/** Every API endpoint's declaration (define.ts), one file per feature. */
import { alertsEndpoints } from './alerts';
import { authEndpoints } from './auth';
import { dashboardEndpoints } from './dashboard';
import type { Endpoint } from './define';
import { docsEndpoints } from './docs';
import { healthEndpoints } from './health';
import { liveEndpoints } from './live';
import { marketEndpoints } from './market';
import { newsEndpoints } from './news';
import { scansEndpoints } from './scans';
import { supportEndpoints } from './support';
import { tradesEndpoints } from './trades';
import { watchlistEndpoints } from './watchlist';

export { defineEndpoint, endpointGroup, type Endpoint, type ErrorStatus } from './define';
export { alertsEndpoints, authEndpoints, dashboardEndpoints, docsEndpoints, healthEndpoints, liveEndpoints, marketEndpoints, newsEndpoints, scansEndpoints, supportEndpoints, tradesEndpoints, watchlistEndpoints };

/** Every declared endpoint; the server registers each exactly once (apps/server/src/features/docs/openapi.test.ts checks). */
export const ALL_ENDPOINTS: readonly Endpoint[] = [
  authEndpoints,
  healthEndpoints,
  watchlistEndpoints,
  supportEndpoints,
  marketEndpoints,
  newsEndpoints,
  docsEndpoints,
  scansEndpoints,
  liveEndpoints,
  dashboardEndpoints,
  tradesEndpoints,
  alertsEndpoints,
].flatMap((group): Endpoint[] => Object.values(group));
