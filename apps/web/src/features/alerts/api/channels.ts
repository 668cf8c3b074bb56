import { alertsEndpoints, type CreatePushSubscriptionRequest } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';
import { webhooksQuery } from './webhooks';

/** GET api/alert_channels/telegram: whether the installation has a bot, and its @username. */
export const telegramStatusQuery = () =>
  queryOptions({ queryKey: ['alert-channels', 'telegram'], queryFn: ({ signal }) => apiCall(alertsEndpoints.getTelegramStatus, { signal }), retry: false, staleTime: 5 * 60_000 });

/** POST api/alert_channels/telegram/connect: a single-use link to the bot (10 minutes). */
export const useConnectTelegram = () => useMutation({ mutationFn: () => apiCall(alertsEndpoints.connectTelegram, {}) });

/** GET api/alert_channels/push/key: the VAPID public key this browser subscribes with. */
export const getPushKey = () => apiCall(alertsEndpoints.getPushKey, {});

/** POST api/alert_channels/push: this browser's subscription; the list and which device is this one are read again. */
export function useAddPushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePushSubscriptionRequest) => apiCall(alertsEndpoints.addPushDevice, { body }),
    onSettled: () => Promise.all([webhooksQuery().queryKey, ['alert-channels', 'this-device']].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
