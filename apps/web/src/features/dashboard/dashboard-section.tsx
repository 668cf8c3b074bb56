import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { formatIsoMedium, formatIsoShort } from './dashboard-format';

/** One part of the dashboard: a titled region with its "as of" time on the right. */
export function DashboardSection({ title, asOf, children }: { title: string; asOf?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="lg" className="sb-part">
      <Group justify="space-between" align="baseline" gap="xs" mb="md">
        <Title order={2} size="h4" id={titleId}>
          {title}
        </Title>
        {asOf}
      </Group>
      {children}
    </Paper>
  );
}

/** "as of 9:41 AM" with the exact time on hover (docs/ui.md "Dates"). */
export function AsOf({ iso, prefix = 'as of' }: { iso: string | null; prefix?: string }) {
  if (!iso) return null;
  return (
    <Text size="xs" c="dimmed">
      {prefix}{' '}
      <time dateTime={iso} title={formatIsoMedium(iso)}>
        {formatIsoShort(iso)}
      </time>
    </Text>
  );
}

/**
 * Skeleton lines while a part loads (docs/ui.md: skeletons rather than blank space). `className` reserves
 * the height the loaded part usually takes (dashboard.css), so nothing below it moves when
 * the data arrives.
 */
export function PartLoading({ label, lines = 3, height = 18, className }: { label: string; lines?: number; height?: number; className?: string }) {
  return (
    <Stack gap="xs" role="status" aria-label={label} className={className}>
      {Array.from({ length: lines }, (_, index) => (
        <Skeleton key={index} h={height} w={index === lines - 1 ? '60%' : '100%'} radius="sm" />
      ))}
    </Stack>
  );
}

/** A part that failed: the spec's sentence, the server's message when there is one, and a Retry. */
export function PartFailure({
  message,
  detail,
  retryLabel,
  retrying,
  onRetry,
}: {
  message: string;
  detail: string | null;
  retryLabel: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={message}>
      <Stack gap="xs" align="flex-start">
        {detail && <Text size="sm">{detail}</Text>}
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconRefresh size={14} />}
          onClick={onRetry}
          loading={retrying}
          aria-label={retryLabel}
        >
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** The spec's empty sentence, centred, with a hint of what to do next (docs/ui.md "Empty"). */
export function EmptyState({ message, hint }: { message: string; hint?: string }) {
  return (
    <Stack align="center" gap={4} py="md">
      <Text ta="center" fw={500}>
        {message}
      </Text>
      {hint && (
        <Text size="sm" c="dimmed" ta="center">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
