import './mantine-styles';
import { Box, Button, Group, Paper, SimpleGrid, Stack, Text, Title, type MantineColor } from '@mantine/core';
import { IconChartCandle } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { formatInstant } from './idea-format';

/**
 * The trade screens' one card frame: the symbol (a heading) with its badges, a grid of labelled
 * figures, the created and updated times, a Details button and anything the screen adds below (a
 * plan). Cards stack on a phone; the list is a `<ul>` of them.
 */
export function IdeaCard({
  symbol,
  badges,
  children,
  createdAt,
  updatedAt,
  onDetails,
  footer,
}: {
  symbol: string;
  badges: ReactNode;
  children: ReactNode;
  createdAt: string;
  updatedAt: string;
  onDetails: () => void;
  footer?: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="article" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Group gap={8} wrap="wrap" align="center">
            <Title order={3} size="h4" id={headingId}>
              {symbol}
            </Title>
            {badges}
          </Group>
          <Button variant="subtle" size="compact-sm" leftSection={<IconChartCandle size={16} aria-hidden />} onClick={onDetails} aria-label={`Details of ${symbol}`}>
            Details
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="sm" verticalSpacing="xs">
          {children}
        </SimpleGrid>
        <Group gap="lg" wrap="wrap">
          <Text size="xs" c="dimmed">
            Created {formatInstant(createdAt)}
          </Text>
          <Text size="xs" c="dimmed">
            Updated {formatInstant(updatedAt)}
          </Text>
        </Group>
        {footer}
      </Stack>
    </Paper>
  );
}

/**
 * One labelled figure of a card. A long unbroken value (a contract name: 19 characters) wraps inside
 * its cell instead of running into the next one on a phone's two columns.
 */
export function IdeaField({ label, children, color }: { label: string; children: ReactNode; color?: MantineColor | 'dimmed' }) {
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} c={color} style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}

/** A closed idea's field: why and when it closed ('target · Nov 2, 2026, 5:30 AM'); nothing while it is open. */
export function ClosedField({ row }: { row: { IsActive: boolean; CloseReason: string | null; ClosedAt: string | null } }) {
  if (row.IsActive) return null;
  return (
    <IdeaField label="Closed">
      {row.CloseReason ? `${row.CloseReason.replace(/_/g, ' ')} · ` : ''}
      {formatInstant(row.ClosedAt)}
    </IdeaField>
  );
}

/** The list of cards, newest first as the server answers. */
export function IdeaCardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack component="ul" gap="sm" aria-label={label} p={0} m={0} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}
