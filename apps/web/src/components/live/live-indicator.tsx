import { Box, Group, Text, Tooltip } from '@mantine/core';
import { useLiveStatus } from './use-live';

const LABELS = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…' } as const;
const HINTS = {
  connecting: 'Opening the live-update stream; prices are re-read every so often meanwhile.',
  live: 'Prices update as they change.',
  reconnecting: 'The live-update stream dropped; prices are re-read every so often until it is back.',
} as const;

/**
 * The live-update stream's state, small and beside the prices it concerns: a dot for the eye, the
 * word for the meaning (role=status, so a screen reader hears the change). A fixed width, so the
 * line does not shift as the word changes. Nothing without a stream (outside the signed-in app).
 */
export function LiveIndicator() {
  const status = useLiveStatus();
  if (status === 'off') return null;
  const live = status === 'live';
  return (
    <Tooltip label={HINTS[status]}>
      <Group gap={5} wrap="nowrap" miw={100} role="status" aria-live="polite" data-live-status={status}>
        <Box
          aria-hidden
          w={8}
          h={8}
          style={{ borderRadius: '50%', flexShrink: 0, background: live ? 'var(--mantine-color-green-filled)' : 'var(--mantine-color-yellow-filled)' }}
        />
        <Text size="xs" c="dimmed">
          {LABELS[status]}
        </Text>
      </Group>
    </Tooltip>
  );
}
