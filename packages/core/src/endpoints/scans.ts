/** The favourites scans (drop and options) and the favourites' quotes. */
import { dropScanRequest, dropScanResponse, favoriteQuotesResponse, optionScanEvent } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const scansEndpoints = endpointGroup({
  scanDrops: defineEndpoint({ operationId: 'scanDrops', method: 'post', path: '/api/scan/drops', summary: 'Drop and Recovery Scanner over the favourites (failed symbols listed, never fatal)', body: dropScanRequest, response: dropScanResponse }),
  scanOptions: defineEndpoint({ operationId: 'scanOptions', method: 'post', path: '/api/scan/options', summary: 'Options Scanner over the favourites, streamed as NDJSON events: start, flag/skip + progress per symbol, end (no body)', response: optionScanEvent, responseType: 'ndjson' }),
  getFavoriteQuotes: defineEndpoint({ operationId: 'getFavoriteQuotes', method: 'get', path: '/api/favorites/quotes', summary: 'Last price and day change of each favourite', response: favoriteQuotesResponse }),
});
