/** The Channels card's webhook calls (issue 27; docs/rules/alerts.md §4.9 "Webhooks"), each the signed-in user's. */
import type { FastifyInstance } from 'fastify';
import { alertsEndpoints, webhookIdParams } from '@signalboard/core';
import { route } from '../../../lib/endpoint';
import { parseInput } from '../../../lib/errors';
import type { WebhooksService } from './webhooks.service';

export async function webhooksRoutes(app: FastifyInstance, options: { service: WebhooksService }) {
  const { service } = options;
  route(app, alertsEndpoints.listWebhooks, async (request) => service.list(request.user.id));
  route(app, alertsEndpoints.createWebhook, async (request, _reply, input) => service.create(request.user.id, input));
  route(app, alertsEndpoints.updateWebhook, { parse: 'body' }, async (request, _reply, input) => {
    const { id } = parseInput(webhookIdParams, request.params);
    return service.update(request.user.id, id, input);
  });
  route(app, alertsEndpoints.deleteWebhook, async (request, _reply, { id }) => service.remove(request.user.id, id));
  route(app, alertsEndpoints.rotateWebhookSecret, async (request, _reply, { id }) => service.rotate(request.user.id, id));
  route(app, alertsEndpoints.testWebhook, async (request, _reply, { id }) => service.test(request.user.id, id));
}
