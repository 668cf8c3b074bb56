/** Every API endpoint's declaration (define.ts), one file per feature. */
import { adminEndpoints } from './admin';
import { alertsEndpoints } from './alerts';
import { authEndpoints } from './auth';
import { customScansEndpoints } from './custom-scans';
import { dashboardEndpoints } from './dashboard';
import type { Endpoint } from './define';
import { docsEndpoints } from './docs';
import { dropScannerEndpoints } from './drop-scanner';
import { healthEndpoints } from './health';
import { liveEndpoints } from './live';
import { marketEndpoints } from './market';
import { newsEndpoints } from './news';
import { oidcEndpoints } from './oidc';
import { optionSignalsEndpoints } from './option-signals';
import { savedAlertsEndpoints } from './saved-alerts';
import { supportEndpoints } from './support';
import { tradesEndpoints } from './trades';
import { twoFactorEndpoints } from './two-factor';
import { watchlistEndpoints } from './watchlist';

export { defineEndpoint, endpointGroup, type Endpoint, type ErrorStatus } from './define';
export { adminEndpoints, alertsEndpoints, authEndpoints, customScansEndpoints, dashboardEndpoints, docsEndpoints, healthEndpoints, liveEndpoints, marketEndpoints, newsEndpoints, oidcEndpoints, optionSignalsEndpoints, dropScannerEndpoints, savedAlertsEndpoints, supportEndpoints, tradesEndpoints, twoFactorEndpoints, watchlistEndpoints };

/** Every declared endpoint; the server registers each exactly once (apps/server/src/features/docs/openapi.test.ts checks). */
export const ALL_ENDPOINTS: readonly Endpoint[] = [
  authEndpoints,
  twoFactorEndpoints,
  oidcEndpoints,
  healthEndpoints,
  watchlistEndpoints,
  supportEndpoints,
  marketEndpoints,
  newsEndpoints,
  docsEndpoints,
  dropScannerEndpoints,
  optionSignalsEndpoints,
  liveEndpoints,
  dashboardEndpoints,
  tradesEndpoints,
  savedAlertsEndpoints,
  alertsEndpoints,
  customScansEndpoints,
  adminEndpoints,
].flatMap((group): Endpoint[] => Object.values(group));
