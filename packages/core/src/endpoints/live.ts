/** The live-update stream and the symbols it shows. */
import { liveStreamEvent, liveSymbolsRequest, msgBody } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const liveEndpoints = endpointGroup({
  openLiveStream: defineEndpoint({ operationId: 'openLiveStream', method: 'get', path: '/api/live', summary: 'Live updates, streamed as NDJSON until the client leaves: hello (connection_id), a heartbeat every 15 s, quotes of the symbols set with live_symbols, idea updates, this user\'s fired alerts', response: liveStreamEvent, responseType: 'ndjson', errors: [429], streamsUntilClosed: true }),
  setLiveSymbols: defineEndpoint({ operationId: 'setLiveSymbols', method: 'post', path: '/api/live_symbols', summary: 'The symbols a live-update stream shows (replaces its set; at most 100)', body: liveSymbolsRequest, response: msgBody, errors: [403, 404] }),
});
