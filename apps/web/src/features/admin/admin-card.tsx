import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

/**
 * One card of Administration: a section named by its heading (level 2, under the screen's), what it
 * is for, an action beside them (Refresh, Download CSV), and its content.
 */
export function AdminCard({ title, description, action, children }: { title: string; description: string; action?: ReactNode; children: ReactNode }) {
  const titleId = useId();
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} maw={620}>
            <Title order={2} size="h4" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          </Stack>
          {action}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}
