import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconChartLine } from '@tabler/icons-react';

export function Brand({ size = 'md', compact = false }: { size?: 'md' | 'lg'; compact?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={size === 'lg' ? 36 : 28} radius="md" variant="filled" aria-hidden>
        <IconChartLine size={size === 'lg' ? 22 : 18} stroke={2.2} />
      </ThemeIcon>
      <Text fw={700} fz={size === 'lg' ? 22 : 18} lh={1} visibleFrom={compact ? 'sm' : undefined}>
        Signalboard
      </Text>
    </Group>
  );
}
