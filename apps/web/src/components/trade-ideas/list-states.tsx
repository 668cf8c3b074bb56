import './mantine-styles';
import { Alert, Button, Center, Group, Loader, Paper, Progress, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { dataVersionIn, ruleVersionLabel, type ReplayStatus } from '@signalboard/core';
import { IconAlertTriangle, IconHistory, IconRefresh, IconSearch } from '@tabler/icons-react';

/** Loading: the screen's message and card-shaped skeletons (docs/ui.md "States"). */
export function ListLoading({ message }: { message: string }) {
  return (
    <Stack gap="sm">
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text size="sm">{message}</Text>
      </Group>
      {[0, 1, 2].map((key) => (
        <Skeleton key={key} height={120} radius="md" />
      ))}
    </Stack>
  );
}

/** A failed load: what happened and a Retry. */
export function ListError({ title, message, onRetry, retrying }: { title: string; message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title={title}>
      <Group justify="space-between" gap="sm">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={onRetry} loading={retrying}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}

/** The spec's empty sentence, centred, with a hint of what to do next. */
export function EmptyList({ message, hint }: { message: string; hint: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap={6} maw={520}>
        <ThemeIcon variant="light" color="gray" size={44} radius="xl">
          <IconSearch size={22} />
        </ThemeIcon>
        <Text fw={600}>{message}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {hint}
        </Text>
      </Stack>
    </Center>
  );
}

/** 'Replaying history', or 'Replaying history on the imported prices' for a version run on them (docs/data-in-and-out.md). */
export const replayingTitle = (status: ReplayStatus) => (dataVersionIn(status.ruleVersion) === '' ? 'Replaying history' : 'Replaying history on the imported prices');

/** 'Replaying history: n of m sessions' while the engine's install replay runs and nothing is listed yet. */
export function ReplayProgress({ status }: { status: ReplayStatus }) {
  const value = status.sessionsTotal > 0 ? (status.sessionsDone / status.sessionsTotal) * 100 : 0;
  const text =
    status.state === 'pending' && status.sessionsDone === 0
      ? `${replayingTitle(status)}: waiting to start`
      : `${replayingTitle(status)}: ${status.sessionsDone} of ${status.sessionsTotal} sessions`;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label="Replay progress">
      <Group gap={8} mb={8} wrap="nowrap">
        <IconHistory size={18} aria-hidden />
        <Text fw={600} size="sm" aria-live="polite">
          {text}
        </Text>
      </Group>
      <Progress value={value} size="md" radius="xl" animated striped aria-label={text} />
      <Text size="xs" c="dimmed" mt={8}>
        The rules ({ruleVersionLabel(status.ruleVersion)}) run over the stored history once; its ideas appear here, marked Replayed, as
        the replay goes.
        {dataVersionIn(status.ruleVersion) === '' ? null : ' The imported prices changed, so the rules run again with them; the ideas replayed on the earlier prices are kept apart and no longer listed.'}
      </Text>
    </Paper>
  );
}

/** A replay that failed: its error, so the empty list is not a mystery. */
export function ReplayFailed({ status }: { status: ReplayStatus }) {
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} />} title="The history replay did not finish">
      <Text size="sm">{status.error ?? 'The server stopped the replay.'} Ideas from the live daily pass still appear here.</Text>
    </Alert>
  );
}
