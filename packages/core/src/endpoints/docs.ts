/** This API's own OpenAPI document. */
import { z } from 'zod';

import { defineEndpoint, endpointGroup } from './define';

export const docsEndpoints = endpointGroup({
  getOpenApiDocument: defineEndpoint({ operationId: 'getOpenApiDocument', method: 'get', path: '/api/docs', summary: 'This document', response: z.object({}).passthrough() }),
});
