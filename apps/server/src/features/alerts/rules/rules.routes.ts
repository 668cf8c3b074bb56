import type { FastifyInstance } from 'fastify';
import {
  ALERT_EMAIL_RESUMED_MESSAGE,
  alertSavedMessage,
  DELIVERY_SETTINGS_SAVED_MESSAGE,
  getUserAlertRulesRequest,
  saveAlertDeliverySettingsRequest,
  saveAlertPreferencesRequest,
  sendTestAlertRequest,
  type GetAlertDeliverySettingsResponse,
  type GetUserAlertRulesResponse,
  type ResumeAlertEmailResponse,
  type SaveAlertDeliverySettingsResponse,
  type SaveAlertPreferencesResponse,
  type SendTestAlertResponse,
  type AlertType,
} from '@signalboard/core';
import { parseInput } from '../../../lib/errors';
import type { AlertRulesService } from './rules.service';

/** The Alert Preferences and delivery cards' calls (spec §7; issue 14); each is the signed-in user's. */
export async function alertRulesRoutes(
  app: FastifyInstance,
  options: { service: AlertRulesService; /** Starts a saved price rule's states; answers the created-already-true notices. */ ruleSaved?: (userId: number, type: AlertType) => Promise<string[]> },
) {
  const { service } = options;

  app.post('/save_alert_preferences', async (request): Promise<SaveAlertPreferencesResponse> => {
    const input = parseInput(saveAlertPreferencesRequest, request.body);
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

  app.post('/get_user_alert_rules', async (request): Promise<GetUserAlertRulesResponse> => {
    const { alert_type: type } = parseInput(getUserAlertRulesRequest, request.body);
    return { data: await service.rule(request.user.id, type) };
  });

  app.get('/get_alert_delivery_settings', async (request): Promise<GetAlertDeliverySettingsResponse> => service.deliverySettings(request.user.id));

  app.post('/save_alert_delivery_settings', async (request): Promise<SaveAlertDeliverySettingsResponse> => {
    const input = parseInput(saveAlertDeliverySettingsRequest, request.body);
    return { msg: DELIVERY_SETTINGS_SAVED_MESSAGE, data: await service.saveDeliverySettings(request.user.id, input) };
  });

  app.post('/resume_alert_email', async (request): Promise<ResumeAlertEmailResponse> => ({
    msg: ALERT_EMAIL_RESUMED_MESSAGE,
    data: await service.resumeEmail(request.user.id),
  }));

  app.post('/send_test_alert', async (request): Promise<SendTestAlertResponse> => {
    const { channel } = parseInput(sendTestAlertRequest, request.body);
    return service.sendTest(request.user.id, request.user.email, channel);
  });
}
