import type { FastifyInstance } from 'fastify';
import {
  ALERT_EMAIL_RESUMED_MESSAGE,
  alertSavedMessage,
  alertsEndpoints,
  DELIVERY_SETTINGS_SAVED_MESSAGE,
  type GetAlertDeliverySettingsResponse,
  type GetUserAlertRulesResponse,
  type ResumeAlertEmailResponse,
  type SaveAlertDeliverySettingsResponse,
  type SaveAlertPreferencesResponse,
  type SendTestAlertResponse,
  type AlertType,
} from '@signalboard/core';
import { route } from '../../../lib/endpoint';
import type { AlertRulesService } from './rules.service';

/** The Alert Preferences and delivery cards' calls (spec §7; issue 14); each is the signed-in user's. */
export async function alertRulesRoutes(
  app: FastifyInstance,
  options: { service: AlertRulesService; /** Starts a saved price rule's states; answers the created-already-true notices. */ ruleSaved?: (userId: number, type: AlertType) => Promise<string[]> },
) {
  const { service } = options;

  route(app, alertsEndpoints.saveAlertPreferences, async (request, _reply, input): Promise<SaveAlertPreferencesResponse> => {
    const data = await service.savePreferences(request.user.id, input);
    let notices: string[] = [];
    try {
      notices = (await options.ruleSaved?.(request.user.id, input.alert_type)) ?? [];
    } catch (error) {
      // The rule is saved; its states start at the first evaluation instead (already true → waits).
      request.log.warn({ err: error }, 'alert rule states could not be started at save');
    }
    return { msg: alertSavedMessage(input.alert_type), data, notices };
  });

  route(app, alertsEndpoints.getUserAlertRules, async (request, _reply, { alert_type: type }): Promise<GetUserAlertRulesResponse> => {
    return { data: await service.rule(request.user.id, type) };
  });

  route(app, alertsEndpoints.getAlertDeliverySettings, async (request): Promise<GetAlertDeliverySettingsResponse> => service.deliverySettings(request.user.id));

  route(app, alertsEndpoints.saveAlertDeliverySettings, async (request, _reply, input): Promise<SaveAlertDeliverySettingsResponse> => {
    return { msg: DELIVERY_SETTINGS_SAVED_MESSAGE, data: await service.saveDeliverySettings(request.user.id, input) };
  });

  route(app, alertsEndpoints.resumeAlertEmail, async (request): Promise<ResumeAlertEmailResponse> => ({
    msg: ALERT_EMAIL_RESUMED_MESSAGE,
    data: await service.resumeEmail(request.user.id),
  }));

  route(app, alertsEndpoints.sendTestAlert, async (request, _reply, { channel }): Promise<SendTestAlertResponse> => {
    return service.sendTest(request.user.id, request.user.email, channel);
  });
}
