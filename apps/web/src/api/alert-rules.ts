import {
  getUserAlertRulesResponse,
  saveAlertPreferencesResponse,
  type AlertRule,
  type AlertType,
  type SaveAlertPreferencesRequest,
  type SaveAlertPreferencesResponse,
} from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './client';

/** POST api/get_user_alert_rules { alert_type } → the user's rule of that type, or null. */
export async function getUserAlertRule(type: AlertType, signal?: AbortSignal): Promise<AlertRule | null> {
  return getUserAlertRulesResponse.parse(await apiRequest<unknown>('get_user_alert_rules', { json: { alert_type: type }, signal })).data;
}

export const alertRuleQuery = (type: AlertType) =>
  queryOptions({ queryKey: ['alert-rule', type], queryFn: ({ signal }) => getUserAlertRule(type, signal), retry: false, staleTime: 60_000 });

/** POST api/save_alert_preferences: the rule of its type becomes exactly this. */
export async function saveAlertPreferences(body: SaveAlertPreferencesRequest): Promise<SaveAlertPreferencesResponse> {
  return saveAlertPreferencesResponse.parse(await apiRequest<unknown>('save_alert_preferences', { json: body }));
}
