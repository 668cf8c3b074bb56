import { Button, Group, NativeSelect, Paper, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import {
  ALERT_DEFAULT_TIME_ZONE,
  DELIVERY_SETTINGS_LOAD_FAILED_MESSAGE,
  DELIVERY_SETTINGS_SAVE_FAILED_MESSAGE,
  DELIVERY_SETTINGS_SAVED_MESSAGE,
  EMAIL_OPTED_OUT_MESSAGE,
  SMS_OPTED_OUT_MESSAGE,
  channelProblemMessage,
  isValidTimeZone,
  saveAlertDeliverySettingsRequest,
  testAlertFailedMessage,
  type AlertChannel,
  type AlertDeliverySettings,
  type LastDeliveries,
} from '@signalboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { deliverySettingsQuery, resumeAlertEmail, saveAlertDeliverySettings, sendTestAlert } from './api/alert-rules';
import { TONE } from '../../theme';
import { StatusLine, type StatusMessage } from './status-message';

/** The browser's time zone when the runtime names a valid one, else America/New_York (issue 14). */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isValidTimeZone(zone) ? zone : ALERT_DEFAULT_TIME_ZONE;
}

const CHANNEL_NAMES: Record<AlertChannel, string> = { sms: 'SMS', email: 'e-mail' };
const lastDeliveryText = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'none yet';

/**
 * Delivery settings (issue 14, docs/rules/alerts.md §4 "Delivery"): the time zone quiet hours are read in, quiet
 * hours for SMS and e-mail, pause all alerts, and a test send per channel that shows the provider's
 * answer and the channel's last successful delivery.
 */
export function DeliverySettingsCard() {
  const settings = useQuery(deliverySettingsQuery());
  const [status, setStatus] = useState<StatusMessage | null>(null);
  const shown = status ?? (settings.isError ? { text: DELIVERY_SETTINGS_LOAD_FAILED_MESSAGE, tone: 'danger' as const } : null);
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="delivery-settings-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="delivery-settings-title">
          Delivery Settings
        </Title>
        {settings.isPending ? (
          <Skeleton height={160} aria-label="Loading delivery settings" />
        ) : (
          <DeliveryForm key={settings.dataUpdatedAt} settings={settings.data ?? null} onStatus={setStatus} />
        )}
        <StatusLine status={shown} label="Delivery settings status" />
      </Stack>
    </Paper>
  );
}

function DeliveryForm({ settings, onStatus }: { settings: AlertDeliverySettings | null; onStatus: (status: StatusMessage) => void }) {
  const queryClient = useQueryClient();
  const [zone, setZone] = useState(settings?.saved ? settings.time_zone : browserTimeZone());
  const [sms, setSms] = useState({ enabled: true, start: '21:00', end: '08:00', ...settings?.sms_quiet_hours });
  const [email, setEmail] = useState({ enabled: false, start: '21:00', end: '08:00', ...settings?.email_quiet_hours });
  const [paused, setPaused] = useState(settings?.paused ?? false);
  const [lastDelivery, setLastDelivery] = useState<LastDeliveries>(settings?.last_delivery ?? { sms: null, email: null });
  const [busy, setBusy] = useState<'save' | 'resume' | AlertChannel | null>(null);
  const [answers, setAnswers] = useState<Partial<Record<AlertChannel, string>>>({});
  const zones = Intl.supportedValuesOf('timeZone');

  async function onSave(event: FormEvent) {
    event.preventDefault();
    const parsed = saveAlertDeliverySettingsRequest.safeParse({ time_zone: zone, sms_quiet_hours: sms, email_quiet_hours: email, paused });
    if (!parsed.success) {
      onStatus({ text: parsed.error.issues[0]?.message ?? DELIVERY_SETTINGS_SAVE_FAILED_MESSAGE, tone: 'danger' });
      return;
    }
    setBusy('save');
    try {
      const answer = await saveAlertDeliverySettings(parsed.data);
      onStatus({ text: DELIVERY_SETTINGS_SAVED_MESSAGE, tone: 'success' });
      queryClient.setQueryData(deliverySettingsQuery().queryKey, answer.data);
    } catch (error) {
      const text = error instanceof Error ? error.message.trim() : '';
      onStatus({ text: text ? `Error: ${text}` : DELIVERY_SETTINGS_SAVE_FAILED_MESSAGE, tone: 'danger' });
      setBusy(null);
    }
  }

  async function onResumeEmail() {
    setBusy('resume');
    try {
      const answer = await resumeAlertEmail();
      onStatus({ text: answer.msg, tone: 'success' });
      queryClient.setQueryData(deliverySettingsQuery().queryKey, answer.data);
    } catch (error) {
      const text = error instanceof Error ? error.message.trim() : '';
      onStatus({ text: `Error: ${text || 'please try again later.'}`, tone: 'danger' });
      setBusy(null);
    }
  }

  async function onTest(channel: AlertChannel) {
    setBusy(channel);
    try {
      const answer = await sendTestAlert(channel);
      onStatus({ text: answer.msg, tone: 'success' });
      setAnswers((current) => ({ ...current, [channel]: answer.provider_answer }));
      setLastDelivery(answer.last_delivery);
    } catch (error) {
      const text = error instanceof Error ? error.message.trim() : '';
      const prefix = testAlertFailedMessage(channel);
      // The server's msg for a provider's refusal already starts with the prefix; a limit's does not.
      onStatus({ text: text.startsWith(prefix) ? text : `${prefix}${text || 'please try again later.'}`, tone: 'danger' });
    } finally {
      setBusy(null);
    }
  }

  const hours = (channel: AlertChannel, value: typeof sms, set: (value: typeof sms) => void) => (
    <Stack gap="xs" role="group" aria-label={`${CHANNEL_NAMES[channel]} delivery`}>
      <Switch label={`${channel === 'sms' ? 'SMS' : 'E-mail'} quiet hours`} checked={value.enabled} onChange={(event) => set({ ...value, enabled: event.currentTarget.checked })} />
      <Group gap="sm" wrap="wrap">
        <TextInput type="time" label={`${channel === 'sms' ? 'SMS' : 'E-mail'} quiet from`} value={value.start} disabled={!value.enabled} onChange={(event) => set({ ...value, start: event.currentTarget.value })} w={150} />
        <TextInput type="time" label={`${channel === 'sms' ? 'SMS' : 'E-mail'} quiet until`} value={value.end} disabled={!value.enabled} onChange={(event) => set({ ...value, end: event.currentTarget.value })} w={150} />
      </Group>
      <Group gap="sm" align="center" wrap="wrap">
        <Button variant="default" size="xs" disabled={busy !== null} onClick={() => void onTest(channel)}>
          {busy === channel ? 'Sending...' : `Send test ${CHANNEL_NAMES[channel]}`}
        </Button>
        <Text size="sm" c="dimmed">
          Last successful {CHANNEL_NAMES[channel]} delivery: {lastDeliveryText(lastDelivery[channel])}
        </Text>
      </Group>
      {settings?.channels?.[channel].opted_out_at && (
        <Text size="sm" fw={500} c={TONE.failure} data-testid={`${channel}-opted-out`}>
          {channel === 'sms' ? SMS_OPTED_OUT_MESSAGE : EMAIL_OPTED_OUT_MESSAGE}
        </Text>
      )}
      {settings?.channels?.[channel].problem && (
        <Text size="sm" fw={500} c={TONE.failure} data-testid={`${channel}-problem`} style={{ overflowWrap: 'anywhere' }}>
          {channelProblemMessage(channel, settings.channels[channel].problem)}
        </Text>
      )}
      {channel === 'email' && (settings?.channels?.email.opted_out_at || settings?.channels?.email.problem) && (
        <Group>
          <Button variant="default" size="xs" disabled={busy !== null} onClick={() => void onResumeEmail()}>
            {busy === 'resume' ? 'Saving...' : 'Turn e-mail alerts on again'}
          </Button>
        </Group>
      )}
      {answers[channel] && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Provider answer: {answers[channel]}
        </Text>
      )}
    </Stack>
  );

  return (
    <form onSubmit={onSave} noValidate>
      <Stack gap="md">
        <NativeSelect label="Time zone" description="Quiet hours are read in this time zone." value={zone} onChange={(event) => setZone(event.currentTarget.value)} data={zones.includes(zone) ? zones : [zone, ...zones]} />
        {hours('sms', sms, setSms)}
        {hours('email', email, setEmail)}
        <Switch label="Pause all alerts" checked={paused} onChange={(event) => setPaused(event.currentTarget.checked)} />
        <Group justify="flex-end">
          <Button type="submit" disabled={busy !== null}>
            {busy === 'save' ? 'Saving...' : 'Save delivery settings'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
