import { alertsEndpoints, type CreateWebhookRequest, type ListWebhooksResponse, type UpdateWebhookRequest, type Webhook } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/alert_channels/webhooks: the user's webhook endpoints (never their secrets) and how many are allowed. */
export const listWebhooks = (signal?: AbortSignal) => apiCall(alertsEndpoints.listWebhooks, { signal });

export const webhooksQuery = () => queryOptions({ queryKey: ['alert-channels', 'webhooks'], queryFn: ({ signal }) => listWebhooks(signal), retry: false, staleTime: 30_000 });

/** POST api/alert_channels/webhooks: answers the new endpoint and, for a webhook (the only kind with one), its signing secret (once). */
export const createWebhook = (body: CreateWebhookRequest) => apiCall(alertsEndpoints.createWebhook, { body });

/** PUT api/alert_channels/webhooks/{id}: a change of name, URL, alert types, or turning it off and on. */
export const updateWebhook = (id: number, body: UpdateWebhookRequest) => apiCall(alertsEndpoints.updateWebhook, { params: { id }, body });

/** DELETE api/alert_channels/webhooks/{id}. */
export const deleteWebhook = (id: number) => apiCall(alertsEndpoints.deleteWebhook, { params: { id } });

/** POST api/alert_channels/webhooks/{id}/rotate_secret: answers the new secret (once). */
export const rotateWebhookSecret = (id: number) => apiCall(alertsEndpoints.rotateWebhookSecret, { params: { id } });

/** POST api/alert_channels/webhooks/{id}/test: the signed test request that was sent and its answer. */
export const testWebhook = (id: number) => apiCall(alertsEndpoints.testWebhook, { params: { id } });

/** The list with one endpoint put in place of its old self (or added), so the card shows it before the list is read again. */
function putInList(queryClient: QueryClient, webhook: Webhook): void {
  queryClient.setQueryData<ListWebhooksResponse>(webhooksQuery().queryKey, (list) => {
    if (!list) return list;
    const known = list.webhooks.some((candidate) => candidate.id === webhook.id);
    return { ...list, webhooks: known ? list.webhooks.map((candidate) => (candidate.id === webhook.id ? webhook : candidate)) : [...list.webhooks, webhook] };
  });
}

function useRefreshList() {
  const queryClient = useQueryClient();
  return {
    put: (webhook: Webhook) => putInList(queryClient, webhook),
    remove: (id: number) =>
      queryClient.setQueryData<ListWebhooksResponse>(webhooksQuery().queryKey, (list) => (list ? { ...list, webhooks: list.webhooks.filter((webhook) => webhook.id !== id) } : list)),
    invalidate: () => queryClient.invalidateQueries({ queryKey: webhooksQuery().queryKey }),
  };
}

/**
 * The answers of a create and a rotation hold the signing secret: only the endpoint goes into the
 * list's cache, and the mutation itself is dropped as soon as nothing observes it (gcTime 0; the card
 * resets it once it has taken the secret), so the secret lives in the card's state alone.
 */
const FORGET_ANSWER = { gcTime: 0 } as const;

export function useCreateWebhook() {
  const list = useRefreshList();
  return useMutation({
    ...FORGET_ANSWER,
    mutationFn: createWebhook,
    onSuccess: (answer) => list.put(answer.webhook),
    onSettled: () => list.invalidate(),
  });
}

export function useRotateWebhookSecret() {
  const list = useRefreshList();
  return useMutation({
    ...FORGET_ANSWER,
    mutationFn: rotateWebhookSecret,
    onSuccess: (answer) => list.put(answer.webhook),
    onSettled: () => list.invalidate(),
  });
}

export function useUpdateWebhook() {
  const list = useRefreshList();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateWebhookRequest }) => updateWebhook(id, body),
    onSuccess: (answer) => list.put(answer.webhook),
    onSettled: () => list.invalidate(),
  });
}

export function useDeleteWebhook() {
  const list = useRefreshList();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_answer, id) => list.remove(id),
    onSettled: () => list.invalidate(),
  });
}

/** A test changes the endpoint's last answer (and may clear a failure): the list is read again. */
export function useTestWebhook() {
  const list = useRefreshList();
  return useMutation({ mutationFn: testWebhook, onSettled: () => list.invalidate() });
}
