import { Table, Text } from '@mantine/core';
import type { PlanLevel } from '@signalboard/core';
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react';
import { formatPrice } from '../../components/format';
import { formatInstant } from '../../components/trade-ideas/idea-format';
import { TONE } from '../../theme';

const LEVEL_NAMES: Record<string, string> = { CURRENT: 'At current price', HIGH: 'At 30-day high' };

/**
 * A layered plan's entry or exit levels (spec §5 "Entry and exit plans", from the row's derived
 * entryPlan / exitPlan): each with its price, its allocation and whether it was reached.
 */
export function PlanTable({ caption, levels }: { caption: string; levels: PlanLevel[] }) {
  return (
    <Table withTableBorder fz="sm" verticalSpacing={4} captionSide="top">
      <Table.Caption ta="left" fw={600}>
        {caption}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Level</Table.Th>
          <Table.Th scope="col" ta="right">
            Price
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Allocation
          </Table.Th>
          <Table.Th scope="col">Reached</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {levels.map((level) => (
          <Table.Tr key={level.name}>
            <Table.Td>{LEVEL_NAMES[level.name] ?? level.name}</Table.Td>
            <Table.Td ta="right">{formatPrice(level.price)}</Table.Td>
            <Table.Td ta="right">{level.allocation.toFixed(1)}%</Table.Td>
            <Table.Td>
              {level.hit ? (
                <Text span size="sm" c={TONE.success} title={level.lastReached ? `Last reached ${formatInstant(level.lastReached)}` : undefined}>
                  <IconCircleCheck size={14} aria-hidden style={{ verticalAlign: -2 }} /> Reached
                  {level.count > 1 ? ` (${level.count}×)` : ''}
                </Text>
              ) : (
                <Text span size="sm" c="dimmed">
                  <IconCircleDashed size={14} aria-hidden style={{ verticalAlign: -2 }} /> Not reached
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
