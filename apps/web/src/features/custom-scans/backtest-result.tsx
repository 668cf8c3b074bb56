import { Alert, Divider, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { BacktestResultBody } from '@signalboard/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { changeColor } from '../../components/format';
import { ExportCsvButton } from '../../components/trade-ideas/export-csv-button';
import { formatFraction } from '../../components/trade-ideas/idea-format';
import { TONE } from '../../theme';
import { BACKTEST_CSV, BACKTEST_FILE, backtestRows, WORST_CSV, WORST_FILE } from './backtest-csv';
import { HorizonSection } from './backtest-horizon';
import { equityDescription, equitySummary, longerRangeText, windowText } from './backtest-model';
import { formatSessionDate } from './results-model';

const EquityChart = lazy(() => import('./equity-chart'));

const NUMBERS = { fontVariantNumeric: 'tabular-nums' } as const;

/** The equity curve, its final value and drawdown in words (the chart's text alternative, shown too). */
function EquityCurve({ result }: { result: BacktestResultBody }) {
  const summary = equitySummary(result.equity);
  const description = equityDescription(result);
  return (
    <Stack gap="xs" component="section" aria-labelledby="backtest-equity-title">
      <Title order={3} size="h5" id="backtest-equity-title">
        Equity curve
      </Title>
      <Text size="xs" c="dimmed">
        Every entry held 21 sessions at equal weight, compounded; the return since the first session.
      </Text>
      {summary ? (
        <>
          <Suspense fallback={<Skeleton h={200} radius="md" />}>
            <EquityChart equity={result.equity} label={description} />
          </Suspense>
          <Group gap="lg" wrap="wrap">
            <Text size="sm">
              Final value:{' '}
              <Text span fw={600} c={changeColor(summary.finalReturn)} style={NUMBERS}>
                {formatFraction(summary.finalReturn)}
              </Text>
            </Text>
            <Text size="sm">
              Max drawdown:{' '}
              <Text span fw={600} c={changeColor(summary.maxDrawdown)} style={NUMBERS}>
                {formatFraction(summary.maxDrawdown)}
              </Text>
            </Text>
          </Group>
        </>
      ) : (
        <Text size="sm">{description}</Text>
      )}
    </Stack>
  );
}

/** The ten lowest 21-session returns. */
function WorstEntries({ worst }: { worst: BacktestResultBody['worst'] }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="backtest-worst-title">
      <Group justify="space-between" gap="sm">
        <Title order={3} size="h5" id="backtest-worst-title">
          Worst entries
        </Title>
        <Group gap="sm">
          <ExportCsvButton name={WORST_FILE} label="Export worst entries CSV" columns={WORST_CSV} rows={worst} />
        </Group>
      </Group>
      {worst.length === 0 ? (
        <Text size="sm">No entry was held 21 sessions yet.</Text>
      ) : (
        <Table verticalSpacing={4} horizontalSpacing="sm" striped aria-label="Worst entries" style={NUMBERS}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Symbol</Table.Th>
              <Table.Th scope="col">Entry date</Table.Th>
              <Table.Th scope="col" ta="right">
                21-session return
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {worst.map((entry) => (
              <Table.Tr key={`${entry.symbol}|${entry.date}`}>
                <Table.Td fw={700}>{entry.symbol}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSessionDate(entry.date)}</Table.Td>
                <Table.Td ta="right">
                  <Text span size="sm" c={changeColor(entry.return_21)}>
                    {formatFraction(entry.return_21)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/**
 * A finished backtest (docs/custom-scans.md "Backtest"): the window replayed, what it cannot know,
 * each horizon's figures and verdict, the equity curve and the worst entries.
 */
export function BacktestResult({ result, dataVersion }: { result: BacktestResultBody; dataVersion?: string | null | undefined }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const longer = longerRangeText(result);
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" fw={600} style={NUMBERS}>
            {windowText(result)}
          </Text>
          {longer && <Text size="sm">{longer}</Text>}
          {/* Its universe held imported symbols: their figures come from the imported files (docs/data-in-and-out.md). */}
          {dataVersion ? <Text size="sm">Run on the imported prices of its universe's imported symbols (data {dataVersion}).</Text> : null}
          <Text size="xs" c="dimmed">
            Entries at the next session's open; returns net of 5 bps per side; mature months only.
            {result.benchmark ? ` Benchmark: ${result.benchmark}, no costs.` : ' This source has no benchmark.'}
          </Text>
        </Stack>
        <Group gap="sm">
          <ExportCsvButton name={BACKTEST_FILE} label="Export backtest CSV" columns={BACKTEST_CSV} rows={backtestRows(result)} />
        </Group>
      </Group>
      <Alert variant="light" color={TONE.middling} icon={<IconInfoCircle size={18} aria-hidden />} p="xs" role="note">
        <Text size="sm">{result.survivorship}</Text>
      </Alert>
      {result.horizons.map((horizon) => (
        <Paper key={horizon.horizon} withBorder radius="md" p={wide ? 'md' : 'sm'}>
          <HorizonSection horizon={horizon} benchmark={result.benchmark} wide={wide} />
        </Paper>
      ))}
      <Divider />
      <EquityCurve result={result} />
      <Divider />
      <WorstEntries worst={result.worst} />
    </Stack>
  );
}
