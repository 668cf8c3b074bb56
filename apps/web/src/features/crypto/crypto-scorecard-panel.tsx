import { Group, Paper, ScrollArea, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import type { CryptoScorecard, CryptoScorecardCell, CryptoScorecardGroup } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { getCryptoScorecard, type CryptoScorecardScope } from './api/crypto';
import { formatFraction, formatShare } from '../../components/trade-ideas/idea-format';
import { ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { ExportCsvButton } from '../../components/trade-ideas/export-csv-button';
import { FEW_IDEAS } from '../../components/trade-ideas/track-record-csv';
import { HORIZON_LABEL, HORIZONS, SCORECARD_CSV, SCORECARD_FILE, scorecardRows, tablesOf } from './crypto-scorecard-csv';

export const cryptoScorecardQuery = (scope: CryptoScorecardScope) => ({
  queryKey: ['crypto', 'scorecard', scope] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => getCryptoScorecard(scope, signal),
});


const interval = (value: { low: number; high: number } | null) => (value ? ` (${formatFraction(value.low)} to ${formatFraction(value.high)})` : '');
const share = (value: CryptoScorecardCell['sharePositive']) => (value ? `${formatShare(value.rate)} (${formatShare(value.low)}–${formatShare(value.high)})` : '—');

/** How much a cell's N says, in words (docs/rules/track-record.md §6.3: percentages are greyed below N = 30). */
export function sampleNote(n: number): string {
  if (n === 0) return 'none matured yet';
  if (n < FEW_IDEAS) return `only ${n}: too few to tell`;
  return '';
}

/**
 * The crypto engine's track record: the signal scorecard (docs/rules/crypto.md §3.4, docs/rules/track-record.md §6.3), for the coins the
 * symbol search matches. Per horizon (a tab) and rule version and origin (never pooled), one row per
 * label and k days: N, pending, mean with its bootstrap interval, share positive with its Wilson
 * interval, the baseline of the same coins over every day of the window, the excess over it, and BTC
 * over the same windows. Figures from fewer than 30 signals are greyed and say so.
 */
export function CryptoScorecardPanel({ scope, refetchInterval }: { scope: CryptoScorecardScope; refetchInterval: number | false }) {
  // Re-read as the list is: the replay adds signals while it runs, and each daily pass matures more.
  const query = useQuery({ ...cryptoScorecardQuery(scope), refetchInterval });
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="crypto-scorecard">
      <Group justify="space-between" gap="sm" mb={4}>
        <Title order={2} size="h4" id="crypto-scorecard">
          Signal scorecard
        </Title>
        {query.isSuccess ? <ExportCsvButton name={SCORECARD_FILE} label="Export scorecard CSV" columns={SCORECARD_CSV} rows={scorecardRows(query.data)} /> : null}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        How the coins did in the days after a signal changed, for the symbol searched above. Sell is scored with the sign flipped: a positive figure
        means the price fell. Past signals, not advice.
      </Text>
      {query.isPending ? (
        <ListLoading message="Loading the scorecard..." />
      ) : query.isError ? (
        <ListError title="The scorecard could not be loaded" message={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <ScorecardBody card={query.data} />
      )}
    </Paper>
  );
}

export function ScorecardBody({ card }: { card: CryptoScorecard }) {
  const window = `${card.window.from ?? 'the first signal'} to ${card.window.to}`;
  if (card.groups.length === 0) {
    return <Text size="sm">No signal change has been recorded for this search yet.</Text>;
  }
  return (
    <Stack gap="sm">
      <Text size="sm">
        Signals from {window} (UTC days), forward returns through {card.asOf}. Baseline: the same coins&apos; mean return over every day of the window.
        Benchmark: {card.benchmarkSymbol} over each signal&apos;s own window.
      </Text>
      <Tabs defaultValue="Short" keepMounted={false}>
        <Tabs.List>
          {HORIZONS.map((horizon) => (
            <Tabs.Tab key={horizon} value={horizon}>
              {HORIZON_LABEL[horizon]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {HORIZONS.map((horizon) => {
          const tables = tablesOf(card, horizon);
          return (
            <Tabs.Panel key={horizon} value={horizon} pt="sm">
              {tables.length === 0 ? (
                <Text size="sm">No {HORIZON_LABEL[horizon].toLowerCase()} signal change yet.</Text>
              ) : (
                <Stack gap="md">
                  {tables.map((table) => (
                    <ScorecardTable key={table.title} title={table.title} groups={table.groups} benchmark={card.benchmarkSymbol} />
                  ))}
                </Stack>
              )}
            </Tabs.Panel>
          );
        })}
      </Tabs>
      <Text size="xs" c="dimmed">
        Greyed: fewer than {FEW_IDEAS} signals, too few to read much into. Intervals are 95%: the mean&apos;s from a block bootstrap over the signals&apos;
        weeks, the share&apos;s Wilson interval.
      </Text>
    </Stack>
  );
}

function ScorecardTable({ title, groups, benchmark }: { title: string; groups: CryptoScorecardGroup[]; benchmark: string }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {/* A keyboard user scrolls a narrow screen's wide table from its focused viewport (WCAG 2.1.1). */}
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${title} scorecard, scrollable` }}>
        <Table withTableBorder withColumnBorders fz="sm" miw={860} verticalSpacing={6} aria-label={`${title} scorecard`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Signal</Table.Th>
              <Table.Th scope="col">After</Table.Th>
              <Table.Th scope="col">N</Table.Th>
              <Table.Th scope="col">Pending</Table.Th>
              <Table.Th scope="col">Mean (95% interval)</Table.Th>
              <Table.Th scope="col">Share positive (95% interval)</Table.Th>
              <Table.Th scope="col">Baseline</Table.Th>
              <Table.Th scope="col">Excess</Table.Th>
              <Table.Th scope="col">{benchmark}</Table.Th>
              <Table.Th scope="col">Excess over {benchmark}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.flatMap((group) =>
              group.cells.map((cell) => {
                const few = cell.n < FEW_IDEAS;
                const dim = few ? 'dimmed' : undefined;
                const note = sampleNote(cell.n);
                return (
                  <Table.Tr key={`${group.label}|${cell.days}`} data-few={few || undefined}>
                    <Table.Th scope="row" fw={500}>
                      {group.label}
                      <Text span size="xs" c="dimmed">
                        {' '}
                        ({group.signals} change{group.signals === 1 ? '' : 's'})
                      </Text>
                    </Table.Th>
                    <Table.Td>{cell.days} days</Table.Td>
                    <Table.Td>
                      {cell.n}
                      {note ? (
                        <Text span size="xs" c="dimmed">
                          {' '}
                          · {note}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>{cell.pending}</Table.Td>
                    <Table.Td c={dim}>
                      {formatFraction(cell.mean)}
                      {interval(cell.meanInterval)}
                    </Table.Td>
                    <Table.Td c={dim}>{share(cell.sharePositive)}</Table.Td>
                    <Table.Td c={dim}>{formatFraction(cell.baseline)}</Table.Td>
                    <Table.Td c={dim}>{formatFraction(cell.excess)}</Table.Td>
                    <Table.Td c={dim}>
                      {formatFraction(cell.benchmark.meanReturn)}
                      {cell.benchmark.n !== cell.n ? ` (N ${cell.benchmark.n})` : ''}
                    </Table.Td>
                    <Table.Td c={dim}>{formatFraction(cell.benchmark.meanExcess)}</Table.Td>
                  </Table.Tr>
                );
              }),
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}
