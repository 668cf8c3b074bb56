/** The Channels card's calls (issue 27; docs/rules/alerts.md §4.8): endpoints, push devices, each the signed-in user's. */
import type { FastifyInstance } from 'fastify';
import { alertsEndpoints, webhookIdParams } from '@signalboard/core';
import { route } from '../../../lib/endpoint';
import { parseInput } from '../../../lib/errors';
import type { TelegramService } from './telegram/telegram.service';
import type { WebhooksService } from './webhooks.service';

export async function webhooksRoutes(app: FastifyInstance, options: { service: WebhooksService; telegram: TelegramService }) {
  const { service, telegram } = options;
  route(app, alertsEndpoints.listWebhooks, async (request) => service.list(request.user.id));
  route(app, alertsEndpoints.createWebhook, async (request, _reply, input) => service.create(request.user.id, input));
  route(app, alertsEndpoints.updateWebhook, { parse: 'body' }, async (request, _reply, input) => {
    const { id } = parseInput(webhookIdParams, request.params);
    return service.update(request.user.id, id, input);
  });
  route(app, alertsEndpoints.deleteWebhook, async (request, _reply, { id }) => service.remove(request.user.id, id));
  route(app, alertsEndpoints.rotateWebhookSecret, async (request, _reply, { id }) => service.rotate(request.user.id, id));
  route(app, alertsEndpoints.testWebhook, async (request, _reply, { id }) => service.test(request.user.id, id));
  route(app, alertsEndpoints.getTelegramStatus, async () => telegram.status());
  route(app, alertsEndpoints.connectTelegram, async (request) => telegram.connect(request.user.id));
  route(app, alertsEndpoints.getPushKey, async () => service.pushKey());
  route(app, alertsEndpoints.addPushDevice, async (request, _reply, input) => service.addPushDevice(request.user.id, input));
}

/** Telegram's update webhook (open: Telegram signs nothing, so its secret-token header is the check). */
export async function telegramWebhookRoutes(app: FastifyInstance, options: { telegram: TelegramService }) {
  const { telegram } = options;
  route(app, alertsEndpoints.receiveTelegramUpdate, async (request, reply, update) => {
    if (!telegram.takesWebhook()) return reply.code(404).send({ msg: 'Telegram updates are not taken at a webhook here.' });
    if (!telegram.webhookAccepts(request.headers['x-telegram-bot-api-secret-token'] as string | undefined)) return reply.code(403).send({ msg: 'Forbidden' });
    await telegram.handleUpdate(update);
    return { ok: true };
  });
}
