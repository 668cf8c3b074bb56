import {
  alertsEndpoints,
  type ResumeAlertEmailResponse,
  type AlertChannel,
  type AlertDeliverySettings,
  type SaveAlertDeliverySettingsRequest,
  type SaveAlertDeliverySettingsResponse,
  type SendTestAlertResponse,
  type AlertRule,
  type AlertType,
  type SaveAlertPreferencesRequest,
  type SaveAlertPreferencesResponse,
} from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/get_user_alert_rules { alert_type } → the user's rule of that type, or null. */
export async function getUserAlertRule(type: AlertType, signal?: AbortSignal): Promise<AlertRule | null> {
  return (await apiCall(alertsEndpoints.getUserAlertRules, { body: { alert_type: type }, signal })).data;
}

export const alertRuleQuery = (type: AlertType) =>
  queryOptions({ queryKey: ['alert-rule', type], queryFn: ({ signal }) => getUserAlertRule(type, signal), retry: false, staleTime: 60_000 });

/** POST api/save_alert_preferences: the rule of its type becomes exactly this. */
export async function saveAlertPreferences(body: SaveAlertPreferencesRequest): Promise<SaveAlertPreferencesResponse> {
  return apiCall(alertsEndpoints.saveAlertPreferences, { body });
}

/** GET api/get_alert_delivery_settings: time zone, quiet hours, pause, each channel's last delivery. */
export async function getAlertDeliverySettings(signal?: AbortSignal): Promise<AlertDeliverySettings> {
  return apiCall(alertsEndpoints.getAlertDeliverySettings, { signal });
}

export const deliverySettingsQuery = () =>
  queryOptions({ queryKey: ['alert-delivery-settings'], queryFn: ({ signal }) => getAlertDeliverySettings(signal), retry: false, staleTime: 60_000 });

/** POST api/save_alert_delivery_settings. */
export async function saveAlertDeliverySettings(body: SaveAlertDeliverySettingsRequest): Promise<SaveAlertDeliverySettingsResponse> {
  return apiCall(alertsEndpoints.saveAlertDeliverySettings, { body });
}

/** POST api/resume_alert_email: alert e-mails on again; answers the delivery settings. */
export async function resumeAlertEmail(): Promise<ResumeAlertEmailResponse> {
  return apiCall(alertsEndpoints.resumeAlertEmail);
}

/** POST api/send_test_alert { channel }: one test message through the channel's provider. */
export async function sendTestAlert(channel: AlertChannel): Promise<SendTestAlertResponse> {
  return apiCall(alertsEndpoints.sendTestAlert, { body: { channel } });
}
