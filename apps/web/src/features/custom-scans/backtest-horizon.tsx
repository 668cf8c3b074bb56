import { Badge, Box, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { BacktestStats } from '@signalboard/core';
import { IconArrowDownRight, IconArrowUpRight, IconEqual, IconHourglass } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { changeColor } from '../../components/format';
import { formatFraction } from '../../components/trade-ideas/idea-format';
import { TONE } from '../../theme';
import { immatureText, intervalText, positiveIntervalText, positiveText, VERDICT_TEXT, verdictOf, verdictReason, type BacktestHorizon, type Verdict } from './backtest-model';

const NUMBERS = { fontVariantNumeric: 'tabular-nums' } as const;

const VERDICT_LOOK: Record<Verdict, { color: string; Icon: typeof IconEqual }> = {
  beats: { color: TONE.gain, Icon: IconArrowUpRight },
  worse: { color: TONE.loss, Icon: IconArrowDownRight },
  indistinguishable: { color: TONE.neutral, Icon: IconEqual },
  'no-data': { color: TONE.neutral, Icon: IconHourglass },
};

/** The verdict's badge wraps on a narrow screen rather than cutting its words off. */
const VERDICT_BADGE = { root: { height: 'auto', minHeight: 'var(--badge-height)', paddingBlock: 4 }, label: { whiteSpace: 'normal', overflow: 'visible' } } as const;

/** One row of the table: its label and its figures ('—' where there are none, as for the benchmark's). */
interface Row {
  label: string;
  note?: string;
  n: string;
  mean: number | null;
  interval: string;
  median: number | null;
  positive: string;
  positiveInterval: string;
}

const statsRow = (label: string, stats: BacktestStats, note?: string): Row => ({
  label,
  note,
  n: String(stats.n),
  mean: stats.mean,
  interval: intervalText(stats),
  median: stats.median,
  positive: positiveText(stats),
  positiveInterval: positiveIntervalText(stats),
});

/** A return with its sign, in the gain or loss colour (never colour alone: the sign is in the text). */
function Signed({ value, size = 'sm', fw }: { value: number | null; size?: string; fw?: number }) {
  return (
    <Text span size={size} fw={fw} c={changeColor(value)} style={NUMBERS}>
      {formatFraction(value)}
    </Text>
  );
}

/** A figure and, under it, its 95 % interval. */
function WithInterval({ main, interval }: { main: ReactNode; interval: string }) {
  return (
    <Stack gap={0} align="flex-end">
      {main}
      {interval !== '—' && (
        <Text span size="xs" c="dimmed" style={{ ...NUMBERS, whiteSpace: 'nowrap' }}>
          {interval}
        </Text>
      )}
    </Stack>
  );
}

function HorizonTable({ rows, horizon }: { rows: Row[]; horizon: number }) {
  return (
    <Table verticalSpacing={6} horizontalSpacing="sm" aria-label={`Returns after ${horizon} sessions`} style={NUMBERS}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Entries</Table.Th>
          <Table.Th scope="col" ta="right">
            N
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Mean (95% interval)
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Median
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Share positive (95% interval)
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Th scope="row" fw={500}>
              {row.label}
              {row.note && (
                <Text size="xs" c="dimmed" fw={400}>
                  {row.note}
                </Text>
              )}
            </Table.Th>
            <Table.Td ta="right">{row.n}</Table.Td>
            <Table.Td ta="right">
              <WithInterval main={<Signed value={row.mean} fw={600} />} interval={row.interval} />
            </Table.Td>
            <Table.Td ta="right">
              <Signed value={row.median} />
            </Table.Td>
            <Table.Td ta="right">
              <WithInterval main={<Text span size="sm">{row.positive}</Text>} interval={row.positiveInterval} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A phone's form of the table: a card per row, each figure under its name. */
function HorizonCards({ rows, horizon }: { rows: Row[]; horizon: number }) {
  const figure = (name: string, value: ReactNode) => (
    <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
      <Text size="xs" c="dimmed" pt={2}>
        {name}
      </Text>
      <Box fz="sm" ta="right" style={NUMBERS}>
        {value}
      </Box>
    </Group>
  );
  return (
    <Stack gap="xs" role="list" aria-label={`Returns after ${horizon} sessions`}>
      {rows.map((row) => (
        <Paper key={row.label} withBorder radius="md" p="sm" role="listitem" aria-label={row.label}>
          <Group justify="space-between" gap="xs" mb={4} wrap="nowrap" align="flex-start">
            <Stack gap={0}>
              <Text fw={600} size="sm">
                {row.label}
              </Text>
              {row.note && (
                <Text size="xs" c="dimmed">
                  {row.note}
                </Text>
              )}
            </Stack>
            <Text size="sm" style={NUMBERS}>
              N {row.n}
            </Text>
          </Group>
          <Stack gap={4}>
            {figure('Mean (95% interval)', <WithInterval main={<Signed value={row.mean} fw={600} />} interval={row.interval} />)}
            {figure('Median', <Signed value={row.median} />)}
            {figure('Share positive (95% interval)', <WithInterval main={row.positive} interval={row.positiveInterval} />)}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/**
 * One horizon of the result: the verdict against random entries (from the two means' intervals), the
 * table of this scan, random entries and the benchmark, the mean excess and the entries left out.
 */
export function HorizonSection({ horizon, benchmark, wide }: { horizon: BacktestHorizon; benchmark: string | null; wide: boolean }) {
  const verdict = verdictOf(horizon);
  const { color, Icon } = VERDICT_LOOK[verdict];
  const rows: Row[] = [statsRow('This scan', horizon.scan), statsRow('Random entries', horizon.random, 'same universe, days and volatility')];
  if (benchmark) {
    rows.push({ label: benchmark, note: "each entry's own window", n: '—', mean: horizon.benchmark_mean, interval: '—', median: null, positive: '—', positiveInterval: '—' });
  }
  const immature = immatureText(horizon);
  const titleId = `backtest-horizon-${horizon.horizon}`;
  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" gap="xs" align="center">
        <Title order={3} size="h5" id={titleId}>
          Held {horizon.horizon} sessions
        </Title>
        <Badge variant="light" color={color} size="lg" radius="sm" tt="none" leftSection={<Icon size={14} aria-hidden />} styles={VERDICT_BADGE}>
          {VERDICT_TEXT[verdict]}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed">
        {verdictReason(horizon)}
      </Text>
      {wide ? <HorizonTable rows={rows} horizon={horizon.horizon} /> : <HorizonCards rows={rows} horizon={horizon.horizon} />}
      <Group gap="lg" wrap="wrap">
        {benchmark && (
          <Text size="sm">
            Mean excess over {benchmark}: <Signed value={horizon.excess_mean} fw={600} />
          </Text>
        )}
        {immature && (
          <Text size="sm" c="dimmed">
            {immature}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
