/** Health and readiness (open). */
import { healthResponse, readyPublicResponse } from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const healthEndpoints = endpointGroup({
  getHealth: defineEndpoint({ operationId: 'getHealth', method: 'get', path: '/api/health', summary: 'Health and which sources serve data', open: true, response: healthResponse }),
  getReadiness: defineEndpoint({
    operationId: 'getReadiness',
    method: 'get',
    path: '/api/ready',
    summary:
      'Readiness: each dependency (database, redis, queues, market_data, mail, sms) with its state (up, down, not_configured, degraded). With Authorization: Bearer <METRICS_TOKEN> also how long each check took (each at most 2 s) and its details (kind, error text, job counts)',
    open: true,
    response: readyPublicResponse,
    alsoAnswers: { status: 503, description: 'Not ready: a required dependency (the database; Redis when configured) is down; the same body names it' },
  }),
});
