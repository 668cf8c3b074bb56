/** Custom scans (issue 26, docs/custom-scans.md): the field catalogue, runs and saved scans. */
import { listScansResponse, scanBacktestResponse, msgBody, runScanRequest, runScanResponse, saveScanRequest, saveScanResponse, scanChartQuery, scanChartResponse, scanFieldsResponse, scanIdParams, scanResponse } from '../contract/index';
import { defineEndpoint, endpointGroup, MARKET_DATA, SYMBOL_DATA } from './define';

export const customScansEndpoints = endpointGroup({
  getScanFields: defineEndpoint({ operationId: 'getScanFields', method: 'get', path: '/api/scans/fields', summary: 'The fields a custom scan can test: names, parameters (defaults and ranges), units and what each is computed from', response: scanFieldsResponse }),
  runScan: defineEndpoint({
    operationId: 'runScan',
    method: 'post',
    path: '/api/scans/run',
    summary: 'Runs a scan (a formula or the builder\'s conditions) over a universe, now or as of a past session, and answers the matching symbols with the value of every field it reads (limited per user: 60 runs a minute by default, SCAN_RUN_MAX_PER_USER; past it 429 with retry-after)',
    body: runScanRequest,
    response: runScanResponse,
    errors: [429, ...MARKET_DATA],
  }),
  getScanChart: defineEndpoint({ operationId: 'getScanChart', method: 'get', path: '/api/scans/chart', summary: "A result row's Details chart: the symbol's daily bars (about a year, at most 260) through as_of (default: the market's last session), nothing after it", query: scanChartQuery, response: scanChartResponse, errors: SYMBOL_DATA }),
  listScans: defineEndpoint({ operationId: 'listScans', method: 'get', path: '/api/scans', summary: "The signed-in user's saved scans (last changed first), the starter templates and the limit", response: listScansResponse }),
  createScan: defineEndpoint({ operationId: 'createScan', method: 'post', path: '/api/scans', summary: 'Saves a new scan (at most 50 per user)', body: saveScanRequest, response: saveScanResponse }),
  getScan: defineEndpoint({ operationId: 'getScan', method: 'get', path: '/api/scans/{id}', summary: 'One of the signed-in user\'s saved scans (404 for any other id)', params: scanIdParams, response: scanResponse, errors: [404] }),
  updateScan: defineEndpoint({ operationId: 'updateScan', method: 'put', path: '/api/scans/{id}', summary: 'Replaces a saved scan: name, universe and conditions (its version goes up when the universe or the conditions change)', params: scanIdParams, body: saveScanRequest, response: saveScanResponse, errors: [404] }),
  startScanBacktest: defineEndpoint({ operationId: 'startScanBacktest', method: 'post', path: '/api/scans/{id}/backtest', summary: 'Starts the backtest of a saved scan\'s current version over the last two years (further back over older imported prices), as a job (answers the stored result at once when that version has one on the imported prices as they are)', params: scanIdParams, response: scanBacktestResponse, errors: [404, 429] }),
  getScanBacktest: defineEndpoint({ operationId: 'getScanBacktest', method: 'get', path: '/api/scans/{id}/backtest', summary: 'The backtest of a saved scan: its progress while it runs, its result once done (404 when it has none); a result whose imported prices changed since is replayed on the new ones, as a start would', params: scanIdParams, response: scanBacktestResponse, errors: [404] }),
  cancelScanBacktest: defineEndpoint({ operationId: 'cancelScanBacktest', method: 'delete', path: '/api/scans/{id}/backtest', summary: 'Cancels the running backtest of a saved scan', params: scanIdParams, response: msgBody, errors: [404] }),
  deleteScan: defineEndpoint({ operationId: 'deleteScan', method: 'delete', path: '/api/scans/{id}', summary: 'Deletes a saved scan', params: scanIdParams, response: msgBody, errors: [404] }),
});
