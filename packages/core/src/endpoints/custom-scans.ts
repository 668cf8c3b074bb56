/** Custom scans (issue 26, docs/custom-scans.md): the field catalogue; saved scans, runs and backtests come next. */
import { scanFieldsResponse } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const customScansEndpoints = endpointGroup({
  getScanFields: defineEndpoint({ operationId: 'getScanFields', method: 'get', path: '/api/scans/fields', summary: 'The fields a custom scan can test: names, parameters (defaults and ranges), units and what each is computed from', response: scanFieldsResponse }),
});
