import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SessionSummary } from '@signalboard/core';
import { IconDeviceDesktop, IconLogout } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatMediumDate } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { sessionsQuery, useEndOtherSessions, useEndSession } from './api/account';

export const SESSIONS_INTRO = 'Where your account is signed in. End a session you do not recognise: that device is signed out within seconds.';
export const END_OTHERS_QUESTION = 'Sign out every other device? They will have to sign in again.';
export const THIS_DEVICE = 'This device';

const at = (iso: string) => formatMediumDate(Date.parse(iso) / 1000);

/** The Sessions card of the Account screen (issue 28): each sign-in with its device, address and times. */
export function SessionsCard() {
  const sessions = useQuery(sessionsQuery());
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState(false);
  const others = (sessions.data ?? []).filter((session) => !session.current);

  async function run(action: () => Promise<{ msg: string }>) {
    try {
      notifySuccess((await action()).msg);
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  return (
    <Paper withBorder p="lg" radius="lg">
      <Stack gap="md">
        <Group justify="space-between" gap="sm" align="flex-start">
          <Stack gap={4} maw={560}>
            <Title order={2} size="h4">
              Sessions
            </Title>
            <Text size="sm" c="dimmed">
              {SESSIONS_INTRO}
            </Text>
          </Stack>
          <Button variant="light" color="red" leftSection={<IconLogout size={16} />} disabled={others.length === 0} loading={endOthers.isPending} onClick={() => setConfirming(true)}>
            Sign out other devices
          </Button>
        </Group>
        {sessions.isPending && <ListLoading message="Loading your sessions…" />}
        {sessions.isError && (
          <ListError title="Your sessions could not be loaded" message={messageOf(sessions.error)} onRetry={() => void sessions.refetch()} retrying={sessions.isFetching} />
        )}
        {sessions.data && (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Sessions">
            {sessions.data.map((session) => (
              <SessionRow key={session.id} session={session} ending={endOne.isPending && endOne.variables === session.id} onEnd={() => void run(() => endOne.mutateAsync(session.id))} />
            ))}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        question={END_OTHERS_QUESTION}
        confirmLabel="Sign out other devices"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(() => endOthers.mutateAsync(undefined));
        }}
      />
    </Paper>
  );
}

function SessionRow({ session, ending, onEnd }: { session: SessionSummary; ending: boolean; onEnd: () => void }) {
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={`${session.device}, ${session.address}`}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <IconDeviceDesktop size={22} stroke={1.6} aria-hidden style={{ flexShrink: 0 }} />
          <Stack gap={2} miw={0}>
            <Group gap="xs">
              <Text fw={600}>{session.device}</Text>
              {session.current && (
                <Badge variant="light" size="sm">
                  {THIS_DEVICE}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" title={session.user_agent}>
              {session.address || 'Unknown address'} · signed in {at(session.created_at)} · last active {at(session.last_seen_at)}
            </Text>
          </Stack>
        </Group>
        {!session.current && (
          <Button variant="default" size="xs" style={{ flexShrink: 0 }} onClick={onEnd} loading={ending} aria-label={`Sign out ${session.device} (${session.address})`}>
            Sign out
          </Button>
        )}
      </Group>
    </Paper>
  );
}
