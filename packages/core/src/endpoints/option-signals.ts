/** Option Signals, the spec's Options Scanner screen over the favourites, streamed (spec §2 "Options Scanner screen"). */
import { optionScanEvent } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const optionSignalsEndpoints = endpointGroup({
  scanOptions: defineEndpoint({ operationId: 'scanOptions', method: 'post', path: '/api/scan/options', summary: 'Options Scanner over the favourites, streamed as NDJSON events: start, flag/skip + progress per symbol, end (no body)', response: optionScanEvent, responseType: 'ndjson' }),
});
