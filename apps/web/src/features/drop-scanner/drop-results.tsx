import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DROP_SELECTION_LABELS, type DropScanResponse, type DropSelection } from '@signalboard/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import { formatPercent, formatPrice } from '../../components/format';
import { SymbolWithMarker } from '../../components/imported-marker';
import { TONE } from '../../theme';

type DropFlag = DropScanResponse['results'][number];

/** Red 'Dropped 12.50%' or green 'Increased 10.00%' (spec §2), the word and an arrow beside the colour. */
export function ChangeBadge({ flag }: { flag: DropFlag }) {
  const drop = flag.calculationType === 'drop';
  const Arrow = drop ? IconArrowDownRight : IconArrowUpRight;
  return (
    <Badge color={drop ? TONE.loss : TONE.gain} variant="light" size="lg" radius="sm" tt="none" leftSection={<Arrow size={14} aria-hidden />}>
      {drop ? 'Dropped' : 'Increased'} {formatPercent(flag.percentageChange)}
    </Badge>
  );
}

/** The selected high for drops, the selected low for increases (spec §2). */
const reference = (flag: DropFlag) => (flag.calculationType === 'drop' ? flag.selectedHigh : flag.selectedLow);

/** The flagged stocks, in the server's order (largest change first): a dense table when wide, cards on a phone. */
export function DropResults({ results, selection }: { results: DropFlag[]; selection: DropSelection }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const referenceLabel = DROP_SELECTION_LABELS[selection];

  if (!wide) {
    return (
      <Stack gap="sm" role="list" aria-label="Flagged stocks">
        {results.map((flag) => (
          <Paper key={flag.symbol} withBorder radius="md" p="md" role="listitem" aria-label={flag.symbol}>
            <Group justify="space-between" wrap="nowrap" mb="xs">
              <Text fw={700} size="lg">
                <SymbolWithMarker symbol={flag.symbol} imported={flag.imported} />
              </Text>
              <ChangeBadge flag={flag} />
            </Group>
            <SimpleGrid cols={2} spacing="xs">
              <Stack gap={0}>
                <Text size="xs" c="dimmed">
                  Current Price
                </Text>
                <Text fw={600}>{formatPrice(flag.currentPrice)}</Text>
              </Stack>
              <Stack gap={0} align="flex-end">
                <Text size="xs" c="dimmed">
                  {referenceLabel}
                </Text>
                <Text fw={600}>{formatPrice(reference(flag))}</Text>
              </Stack>
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Paper withBorder radius="md">
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Flagged stocks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Symbol</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th ta="right">Current Price</Table.Th>
            <Table.Th ta="right">{referenceLabel}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {results.map((flag) => (
            <Table.Tr key={flag.symbol}>
              <Table.Td fw={700}>
                <SymbolWithMarker symbol={flag.symbol} imported={flag.imported} />
              </Table.Td>
              <Table.Td>
                <ChangeBadge flag={flag} />
              </Table.Td>
              <Table.Td ta="right">{formatPrice(flag.currentPrice)}</Table.Td>
              <Table.Td ta="right">{formatPrice(reference(flag))}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
