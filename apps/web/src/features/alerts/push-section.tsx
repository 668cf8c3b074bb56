import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { PUSH_MAX_DEVICES, pushLimitMessage } from '@signalboard/core';
import { IconBellRinging } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { currentPushEndpoint, deviceName, enablePush, pushSupport, PUSH_SUPPORT_MESSAGES } from '../../lib/push/subscribe';
import { getPushKey, useAddPushDevice } from './api/channels';
import { PUSH_EMPTY_MESSAGE, PUSH_INTRO, PUSH_IOS_NOTE } from './webhook-texts';
import { messageOf, StatusLine, type StatusMessage } from './status-message';

/**
 * The browser-push part of the Channels card (issue 27): the devices that get notifications (`rows`,
 * rendered by the card, this one marked "This device") and "Enable notifications on this device",
 * which asks the browser's permission, subscribes with the installation's VAPID key and stores the
 * subscription. Where push cannot work (plain http, an iPhone outside a Home Screen app, blocked
 * notifications) it says why instead.
 */
export function PushSection({ rows, count }: { rows: ReactNode; count: number }) {
  const add = useAddPushDevice();
  const [status, setStatus] = useState<StatusMessage | null>(null);
  const [working, setWorking] = useState(false);
  const support = pushSupport();
  const full = count >= PUSH_MAX_DEVICES;

  async function enable() {
    setStatus(null);
    setWorking(true);
    try {
      const { public_key } = await getPushKey();
      const subscription = await enablePush(public_key);
      const answer = await add.mutateAsync({ ...subscription, name: deviceName() });
      setStatus({ text: answer.msg, tone: 'success' });
    } catch (error) {
      setStatus({ text: `Error: ${messageOf(error)}`, tone: 'danger' });
    } finally {
      setWorking(false);
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="push-title">
      <Title order={3} size="h5" id="push-title">
        Browser push
      </Title>
      <Text size="sm" c="dimmed">
        {PUSH_INTRO}
      </Text>
      {count === 0 ? <Text size="sm">{PUSH_EMPTY_MESSAGE}</Text> : rows}
      <Group gap="sm" wrap="wrap">
        {/* Its label wraps on a phone rather than being cut. */}
        <Button h="auto" mih={36} py={6} styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }} leftSection={<IconBellRinging size={16} aria-hidden />} disabled={!support.supported || full || working} onClick={() => void enable()}>
          {working ? 'Enabling...' : 'Enable notifications on this device'}
        </Button>
        {full ? <Text size="sm">{pushLimitMessage(PUSH_MAX_DEVICES)}</Text> : null}
      </Group>
      {support.reason !== 'ok' ? <Text size="sm">{PUSH_SUPPORT_MESSAGES[support.reason]}</Text> : null}
      {support.reason !== 'ios-needs-home-screen' ? (
        <Text size="sm" c="dimmed">
          {PUSH_IOS_NOTE}
        </Text>
      ) : null}
      <StatusLine status={status} label="Browser push status" />
    </Stack>
  );
}

/** This browser's device key (the SHA-256 of its push endpoint, base64url, as the server gives it), null when it has no subscription. */
export async function thisDeviceKey(): Promise<string | null> {
  const endpoint = await currentPushEndpoint();
  if (!endpoint || !globalThis.crypto?.subtle) return null;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
