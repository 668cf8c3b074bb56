import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { OptionFlagBody } from '@signalboard/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatPercent, formatPrice } from '../../components/format';
import { TONE } from '../../theme';
import { SymbolWithMarker } from '../../components/imported-marker';

/** Badges keep their whole text: table cells and narrow cards would otherwise cut it short. */
const FULL_WIDTH = { minWidth: 'max-content' } as const;

/** Red 'Dropped 13.76%' or green 'Increased 19.35%' (spec §2): the word and an arrow beside the colour. */
function ChangeBadge({ flag }: { flag: OptionFlagBody }) {
  const drop = flag.calculationType === 'drop';
  const Arrow = drop ? IconArrowDownRight : IconArrowUpRight;
  return (
    <Badge color={drop ? TONE.loss : TONE.gain} variant="light" size="lg" radius="sm" tt="none" style={FULL_WIDTH} leftSection={<Arrow size={14} aria-hidden />}>
      {drop ? 'Dropped' : 'Increased'} {formatPercent(flag.percentageChange)}
    </Badge>
  );
}

/** CALL on a green badge, PUT on a red one (spec §2); the theme's filled tokens carry white text at 4.5:1. */
const ACTION_BADGE_COLOR = { CALL: TONE.gain, PUT: TONE.loss } as const;

function ActionBadge({ action }: { action: OptionFlagBody['action'] }) {
  return (
    <Badge color={ACTION_BADGE_COLOR[action]} variant="filled" size="lg" radius="sm" style={FULL_WIDTH}>
      {action}
    </Badge>
  );
}

function LevelBadge({ supportTag }: { supportTag: OptionFlagBody['supportTag'] }) {
  return (
    <Badge color={supportTag === 'Near Support' ? 'teal' : 'grape'} variant="outline" radius="sm" tt="none" style={FULL_WIDTH}>
      {supportTag}
    </Badge>
  );
}

const rowKey = (flag: OptionFlagBody) => `${flag.symbol}:${flag.tag}`;

/** The flagged stocks, largest change first: a dense table when wide, cards on a phone. */
export function OptionResults({ flags }: { flags: OptionFlagBody[] }) {
  const wide = useMediaQuery('(min-width: 62em)', true, { getInitialValueInEffect: false });

  if (!wide) {
    return (
      <Stack gap="sm" role="list" aria-label="Flagged stocks">
        {flags.map((flag) => (
          <Paper key={rowKey(flag)} withBorder radius="md" p="md" role="listitem" aria-label={`${flag.symbol} ${flag.action}`}>
            <Group justify="space-between" wrap="nowrap" mb={6}>
              <Text fw={700} size="lg">
                <SymbolWithMarker symbol={flag.symbol} imported={flag.imported} />
              </Text>
              <ActionBadge action={flag.action} />
            </Group>
            <Group gap="xs" mb="sm">
              <ChangeBadge flag={flag} />
              <LevelBadge supportTag={flag.supportTag} />
            </Group>
            <SimpleGrid cols={3} spacing="xs" verticalSpacing="xs">
              <Stat label="Current Price">{formatPrice(flag.currentPrice)}</Stat>
              <Stat label="High">{formatPrice(flag.high)}</Stat>
              <Stat label="Low">{formatPrice(flag.low)}</Stat>
              <Stat label="Time Frame">{flag.timeFrame}</Stat>
              <Stat label="Tag">{flag.tag}</Stat>
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={900} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="sm" highlightOnHover aria-label="Flagged stocks" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Symbol</Table.Th>
              <Table.Th>Change</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Time Frame</Table.Th>
              <Table.Th>Tag</Table.Th>
              <Table.Th ta="right">Current Price</Table.Th>
              <Table.Th ta="right">High</Table.Th>
              <Table.Th ta="right">Low</Table.Th>
              <Table.Th>Level</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {flags.map((flag) => (
              <Table.Tr key={rowKey(flag)}>
                <Table.Td fw={700}>
                  <SymbolWithMarker symbol={flag.symbol} imported={flag.imported} />
                </Table.Td>
                <Table.Td>
                  <ChangeBadge flag={flag} />
                </Table.Td>
                <Table.Td>
                  <ActionBadge action={flag.action} />
                </Table.Td>
                <Table.Td>{flag.timeFrame}</Table.Td>
                <Table.Td>{flag.tag}</Table.Td>
                <Table.Td ta="right">{formatPrice(flag.currentPrice)}</Table.Td>
                <Table.Td ta="right">{formatPrice(flag.high)}</Table.Td>
                <Table.Td ta="right">{formatPrice(flag.low)}</Table.Td>
                <Table.Td>
                  <LevelBadge supportTag={flag.supportTag} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="div" fw={600} size="sm">
        {children}
      </Text>
    </Stack>
  );
}
