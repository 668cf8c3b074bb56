import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { ADDED_WEBHOOK_KINDS, webhookLimitMessage, type Webhook } from '@signalboard/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useId, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ListError } from '../../components/trade-ideas/list-states';
import { useCreateWebhook, useDeleteWebhook, useRotateWebhookSecret, useTestWebhook, useUpdateWebhook, webhooksQuery } from './api/webhooks';
import { PushSection, thisDeviceKey } from './push-section';
import { messageOf, StatusLine, type StatusMessage } from './status-message';
import { TelegramSection } from './telegram-section';
import { WebhookFormModal, type WebhookFormSave } from './webhook-form-modal';
import { WebhookRow, type WebhookAction } from './webhook-row';
import { WebhookSecretModal, type ShownSecret } from './webhook-secret-modal';
import { WebhookTestModal, type TestShown } from './webhook-test-modal';
import { WEBHOOKS_EMPTY_HINT, WEBHOOKS_EMPTY_MESSAGE, WEBHOOKS_INTRO, WEBHOOKS_LOAD_FAILED_TITLE, WEBHOOKS_LOADING_MESSAGE } from './webhook-texts';

type Confirming = { action: 'delete' | 'rotate'; webhook: Webhook };
const QUESTIONS: Record<Confirming['action'], (name: string) => string> = {
  delete: (name) => `Delete "${name}"? Alerts still queued for it will not be sent.`,
  rotate: (name) => `Make a new signing secret for "${name}"? The old one stops signing at once: give your receiver the new one.`,
};

/**
 * The Channels card (issue 27): the user's endpoints — signed webhooks, Discord channels and ntfy
 * topics — listed with kind, state, last success and last answer; add, edit, turn off and on, rotate
 * a webhook's secret, delete, and send a test that shows the request and the answer. A new secret
 * (a webhook's only) is shown once, from this card's state only.
 */
export function WebhooksCard() {
  const [linkOut, setLinkOut] = useState(false);
  // While a Telegram link is out, the list is read again every 3 s: the chat shows once Start is pressed.
  const list = useQuery({ ...webhooksQuery(), refetchInterval: linkOut ? 3_000 : false });
  const device = useQuery({ queryKey: ['alert-channels', 'this-device'], queryFn: thisDeviceKey, staleTime: Infinity, retry: false });
  const onLinkOut = useCallback((out: boolean) => setLinkOut(out), []);
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const test = useTestWebhook();
  const [status, setStatus] = useState<StatusMessage | null>(null);
  const [editing, setEditing] = useState<{ webhook: Webhook | null } | null>(null);
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  const [tested, setTested] = useState<TestShown | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [busy, setBusy] = useState<{ id: number; action: WebhookAction } | null>(null);
  const limitId = useId();

  /** The form's Save: null when saved, else the server's msg (shown under the form, which stays open). */
  async function save(saved: WebhookFormSave): Promise<string | null> {
    const target = editing?.webhook ?? null;
    try {
      if (saved.mode === 'update') {
        if (!target) return null;
        const answer = await update.mutateAsync({ id: target.id, body: saved.body });
        setStatus({ text: answer.msg, tone: 'success' });
      } else {
        const answer = await create.mutateAsync(saved.body);
        create.reset();
        // A webhook's secret is shown once (its msg with it); the other kinds have none.
        if (answer.secret) {
          setStatus(null);
          setSecret({ name: answer.webhook.name, secret: answer.secret, msg: answer.msg });
        } else setStatus({ text: answer.msg, tone: 'success' });
      }
      setEditing(null);
      return null;
    } catch (error) {
      return messageOf(error);
    }
  }

  async function run(webhook: Webhook, action: WebhookAction, call: () => Promise<void>) {
    setBusy({ id: webhook.id, action });
    try {
      await call();
    } catch (error) {
      if (action === 'test') setTested({ name: webhook.name, refusal: messageOf(error) });
      else setStatus({ text: `Error: ${messageOf(error)}`, tone: 'danger' });
    } finally {
      setBusy(null);
    }
  }

  function onAction(webhook: Webhook, action: WebhookAction) {
    if (action === 'edit') setEditing({ webhook });
    else if (action === 'delete' || action === 'rotate') setConfirming({ action, webhook });
    else if (action === 'toggle')
      void run(webhook, action, async () => {
        const answer = await update.mutateAsync({ id: webhook.id, body: { enabled: !webhook.enabled } });
        setStatus({ text: answer.msg, tone: 'success' });
      });
    else
      void run(webhook, action, async () => {
        setTested({ name: webhook.name, result: await test.mutateAsync(webhook.id) });
      });
  }

  function onConfirm() {
    if (!confirming) return;
    const { action, webhook } = confirming;
    setConfirming(null);
    if (action === 'delete')
      void run(webhook, action, async () => {
        const answer = await remove.mutateAsync(webhook.id);
        setStatus({ text: answer.msg, tone: 'success' });
      });
    else
      void run(webhook, action, async () => {
        const answer = await rotate.mutateAsync(webhook.id);
        rotate.reset();
        if (answer.secret) setSecret({ name: answer.webhook.name, secret: answer.secret, msg: answer.msg });
      });
  }

  const data = list.data;
  const added = data ? data.webhooks.filter((webhook) => (ADDED_WEBHOOK_KINDS as readonly string[]).includes(webhook.kind)) : [];
  const chats = data ? data.webhooks.filter((webhook) => webhook.kind === 'telegram') : [];
  const devices = data ? data.webhooks.filter((webhook) => webhook.kind === 'push') : [];
  const full = data ? added.length >= data.max : false;
  const rowsOf = (webhooks: Webhook[], label: string) => (
    <Stack component="ul" gap="sm" aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
      {webhooks.map((webhook) => (
        <WebhookRow
          key={webhook.id}
          webhook={webhook}
          thisDevice={webhook.kind === 'push' && typeof device.data === 'string' && webhook.device_key === device.data}
          busy={busy?.id === webhook.id ? busy.action : null}
          locked={busy !== null}
          onAction={(action) => onAction(webhook, action)}
        />
      ))}
    </Stack>
  );

  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="channels-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="channels-title">
          Channels
        </Title>
        <Stack gap="sm" component="section" aria-labelledby="endpoints-title">
          <Title order={3} size="h5" id="endpoints-title">
            Endpoints
          </Title>
          <Text size="sm" c="dimmed">
            {WEBHOOKS_INTRO}
          </Text>
          {list.isPending ? (
            <Group gap="sm" role="status">
              <Loader size="sm" />
              <Text size="sm">{WEBHOOKS_LOADING_MESSAGE}</Text>
            </Group>
          ) : list.isError ? (
            <ListError title={WEBHOOKS_LOAD_FAILED_TITLE} message={messageOf(list.error)} onRetry={() => void list.refetch()} retrying={list.isFetching} />
          ) : (
            <>
              {added.length === 0 ? (
                <Stack gap={2} py="sm">
                  <Text fw={600}>{WEBHOOKS_EMPTY_MESSAGE}</Text>
                  <Text size="sm" c="dimmed">
                    {WEBHOOKS_EMPTY_HINT}
                  </Text>
                </Stack>
              ) : (
                rowsOf(added, 'Endpoints')
              )}
              <Group gap="sm" wrap="wrap">
                <Button
                  leftSection={<IconPlus size={16} aria-hidden />}
                  disabled={full || busy !== null}
                  aria-describedby={full ? limitId : undefined}
                  onClick={() => {
                    setStatus(null);
                    setEditing({ webhook: null });
                  }}
                >
                  Add channel
                </Button>
                {full ? (
                  <Text size="sm" id={limitId}>
                    {webhookLimitMessage(data!.max)}
                  </Text>
                ) : null}
              </Group>
            </>
          )}
          <StatusLine status={status} label="Endpoints status" />
        </Stack>
        {data ? (
          <>
            <TelegramSection rows={rowsOf(chats, 'Telegram chats')} count={chats.length} onLinkOut={onLinkOut} />
            <PushSection rows={rowsOf(devices, 'Devices')} count={devices.length} />
          </>
        ) : null}
      </Stack>
      {editing ? <WebhookFormModal webhook={editing.webhook} onSave={save} onClose={() => setEditing(null)} /> : null}
      {secret ? <WebhookSecretModal shown={secret} onDone={() => setSecret(null)} /> : null}
      {tested ? <WebhookTestModal shown={tested} onClose={() => setTested(null)} /> : null}
      <ConfirmDialog
        opened={confirming !== null}
        question={confirming ? QUESTIONS[confirming.action](confirming.webhook.name) : ''}
        confirmLabel={confirming?.action === 'rotate' ? 'Rotate secret' : 'Delete'}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
      />
    </Paper>
  );
}
