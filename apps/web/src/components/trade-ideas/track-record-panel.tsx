import './mantine-styles';
import { Accordion, Alert, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { dataVersionIn, type IdeaStats, type TrackRecord, type TrackRecordGroup } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { getTrackRecord, type ListEngine, type TrackRecordScope } from '../../lib/api/trade-ideas';
import { ExportCsvButton } from './export-csv-button';
import { formatFraction, formatInstant, formatShare } from './idea-format';
import { ListError, ListLoading } from './list-states';
import { ALL_CLOSED_NOTE, FEW_IDEAS, groupBases, groupMeasures, groupTitle, targetHitShare, TRACK_RECORD_CSV, TRACK_RECORD_FILE, trackRecordFigures, type MetricKey } from './track-record-csv';

export const NO_MATURE_COHORT = 'no mature cohort yet';

export const trackRecordQuery = (engine: ListEngine, scope: TrackRecordScope) => ({
  queryKey: ['trade-ideas', engine, 'track-record', scope] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => getTrackRecord(engine, scope, signal),
});

/**
 * The engine's track record for the date and symbol filters in force (docs/rules/track-record.md §6; the status
 * checkboxes do not change it): per type, origin and rule version, the headline from mature cohorts
 * only, the "all closed so far" line, the open ideas, and beside them the random-entry baseline and
 * SPY over the same windows.
 */
export function TrackRecordPanel({ engine, scope, targetHitBreakEven }: { engine: ListEngine; scope: TrackRecordScope; targetHitBreakEven?: number }) {
  const query = useQuery(trackRecordQuery(engine, scope));
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={`track-record-${engine}`}>
      <Group justify="space-between" gap="sm" mb={4}>
        <Title order={2} size="h4" id={`track-record-${engine}`}>
          Track record
        </Title>
        {query.isSuccess ? (
          <Group gap="sm">
            <ExportCsvButton name={TRACK_RECORD_FILE[engine]} label="Export track record CSV" columns={TRACK_RECORD_CSV} rows={trackRecordFigures(query.data, targetHitBreakEven)} />
          </Group>
        ) : null}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        For the dates and symbol filtered above; the status checkboxes do not change it. A win is a return above zero.
      </Text>
      {query.isPending ? (
        <ListLoading message="Loading the track record..." />
      ) : query.isError ? (
        <ListError title="The track record could not be loaded" message={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : (
        <TrackRecordBody record={query.data} targetHitBreakEven={targetHitBreakEven} />
      )}
    </Paper>
  );
}

const groupKey = (group: TrackRecordGroup) => `${group.type}|${group.origin}|${group.ruleVersion}`;

/**
 * `targetHitBreakEven` (options: the nominal 62.5%, 50/(30+50), docs/rules/option-trades.md §4.4): the target-hit
 * rate (the Successful share) is shown beside it, in each group's line and as a row of its table.
 */
export function TrackRecordBody({ record, targetHitBreakEven }: { record: TrackRecord; targetHitBreakEven?: number }) {
  if (record.groups.length === 0) {
    return <Text size="sm">No idea has been recorded for these filters yet.</Text>;
  }
  return (
    <Stack gap="sm">
      {record.survivorshipNote ? (
        <Alert variant="light" color="yellow" icon={<IconInfoCircle size={18} />} p="xs">
          <Text size="sm">
            {record.survivorshipNote.charAt(0).toUpperCase() + record.survivorshipNote.slice(1)}: replayed ideas were picked from today's index
            members, which flatters the record.
          </Text>
        </Alert>
      ) : null}
      <Accordion multiple variant="separated" chevronPosition="left">
        {record.groups.map((group) => (
          <Accordion.Item key={groupKey(group)} value={groupKey(group)}>
            <Accordion.Control>
              <GroupSummary group={group} targetHitBreakEven={targetHitBreakEven} />
            </Accordion.Control>
            <Accordion.Panel>
              <GroupRecord group={group} targetHitBreakEven={targetHitBreakEven} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
      <Text size="xs" c="dimmed">
        Returns net of {record.costBps} bps per side. As of {formatInstant(record.asOf)}. Past ideas, not advice; replayed ideas are
        hypothetical.
        {record.groups.some((group) => dataVersionIn(group.ruleVersion) !== '') ? ' Groups “on imported prices” were run on the daily prices an administrator imported.' : null}
      </Text>
    </Stack>
  );
}

/** A cell's text, greyed when its column has fewer than FEW_IDEAS closed ideas. */
function Figure({ children, few }: { children: ReactNode; few: boolean }) {
  return (
    <Text span size="sm" c={few ? 'dimmed' : undefined} data-few={few || undefined}>
      {children}
    </Text>
  );
}

const rate = (value: { rate: number; low: number; high: number } | null | undefined) =>
  value ? `${formatShare(value.rate)} (${formatShare(value.low)}–${formatShare(value.high)})` : '—';

const mix = (shares: Record<string, number>) => {
  const parts = Object.entries(shares)
    .filter(([, share]) => share > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, share]) => `${name.replace(/_/g, ' ')} ${formatShare(share)}`);
  return parts.length > 0 ? parts.join(' · ') : '—';
};

const sessions = (value: number | null) => (value === null ? '—' : `${value} session${value === 1 ? '' : 's'}`);

interface Column {
  header: string;
  note?: string;
  few: boolean;
  cell: (metric: MetricKey) => string;
}

function statsCell(stats: IdeaStats, metric: MetricKey): string {
  switch (metric) {
    case 'targetHit':
      return formatShare(targetHitShare(stats));
    case 'n':
      return `${stats.n} (${stats.entryWeeks} entry week${stats.entryWeeks === 1 ? '' : 's'})`;
    case 'winRate':
      return rate(stats.winRate);
    case 'breakEven':
      return formatShare(stats.breakEvenWinRate);
    case 'mean':
      return stats.meanInterval ? `${formatFraction(stats.meanReturn)} (${formatFraction(stats.meanInterval.low)} to ${formatFraction(stats.meanInterval.high)})` : formatFraction(stats.meanReturn);
    case 'median':
      return formatFraction(stats.medianReturn);
    case 'avgWinLoss':
      return `${formatFraction(stats.avgWin)} / ${formatFraction(stats.avgLoss)}`;
    case 'profitFactor':
      return stats.profitFactor === null ? '—' : stats.profitFactor.toFixed(2);
    case 'dollar':
      return stats.dollarWeighted
        ? `${formatFraction(stats.dollarWeighted.onDeployed)} on deployed · ${formatFraction(stats.dollarWeighted.onCommitted)} on committed · XIRR ${formatFraction(stats.dollarWeighted.xirr)}`
        : '—';
    case 'holding':
      return `${sessions(stats.holdingMedian)} / ${sessions(stats.holdingMax)}`;
    case 'worst':
      return formatFraction(stats.worstReturn);
    case 'mae':
      return formatFraction(stats.maxAdverseExcursion);
    case 'exits':
      return mix(stats.exitReasons);
    case 'statuses':
      return mix(stats.statuses);
    case 'excess':
      return '—';
  }
}

/**
 * A group's one-glance line (the accordion's control): the headline from mature cohorts only, or
 * "no mature cohort yet", and the "all closed so far" line with its caveat. Greyed below N = 30.
 */
function GroupSummary({ group, targetHitBreakEven }: { group: TrackRecordGroup; targetHitBreakEven?: number }) {
  const { mature, allClosed } = group;
  const headline = mature ?? allClosed;
  return (
    <Stack gap={2}>
      <Text size="sm" fw={600}>
        {groupTitle(group)}
      </Text>
      <Text size="sm">
        Mature cohorts:{' '}
        {mature ? (
          <Figure few={mature.n < FEW_IDEAS}>
            {mature.n} closed, win rate {rate(mature.winRate)}, mean {formatFraction(mature.meanReturn)}
          </Figure>
        ) : (
          <Text span size="sm" fw={600}>
            {NO_MATURE_COHORT}
          </Text>
        )}
      </Text>
      <Text size="xs" c="dimmed">
        All closed so far: {allClosed.n} closed, win rate {rate(allClosed.winRate)}, mean {formatFraction(allClosed.meanReturn)} ({ALL_CLOSED_NOTE})
      </Text>
      {targetHitBreakEven !== undefined ? (
        <Text size="sm">
          <Figure few={headline.n < FEW_IDEAS}>
            Target hit {formatShare(targetHitShare(headline))} ({mature ? 'mature cohorts' : 'all closed'}) · break-even {formatShare(targetHitBreakEven)}
          </Figure>
        </Text>
      ) : null}
    </Stack>
  );
}

function GroupRecord({ group, targetHitBreakEven }: { group: TrackRecordGroup; targetHitBreakEven?: number }) {
  // The columns (their headers, notes and greying) are the CSV's (track-record-csv.ts); the cells' text is this panel's.
  const { mature, allClosed, baseline, benchmark } = group;
  const cellOf: ((metric: MetricKey) => string)[] = [];
  if (mature) cellOf.push((metric) => statsCell(mature, metric));
  cellOf.push((metric) => statsCell(allClosed, metric));
  cellOf.push((metric) => {
    if (!baseline) return '—';
    if (metric === 'n') return String(baseline.n);
    if (metric === 'winRate') return rate(baseline.winRate);
    if (metric === 'mean') return formatFraction(baseline.meanReturn);
    if (metric === 'dollar') return formatFraction(baseline.dollarWeighted);
    return '—';
  });
  cellOf.push((metric) => (!benchmark ? '—' : metric === 'mean' ? formatFraction(benchmark.meanReturn) : metric === 'excess' ? formatFraction(benchmark.meanExcess) : '—'));
  const columns: Column[] = groupBases(group).map((basis, index) => ({ header: basis.header, note: basis.note, few: basis.few, cell: cellOf[index]! }));
  const metrics = groupMeasures(group, targetHitBreakEven);
  const anyFew = columns.some((column) => column.few);
  const openIdeas = group.open;

  return (
    <Stack gap="xs">
      {/* A keyboard user scrolls a narrow screen's wide table from its focused viewport (WCAG 2.1.1). */}
      <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `${groupTitle(group)} figures, scrollable` }}>
        <Table withTableBorder withColumnBorders fz="sm" miw={640} verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Measure</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header} scope="col">
                  {column.header}
                  {column.note ? (
                    <Text size="xs" c="dimmed" fw={400}>
                      {column.note}
                    </Text>
                  ) : null}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {metrics.map((metric) => (
              <Table.Tr key={metric.key}>
                <Table.Th scope="row" fw={500}>
                  {metric.label}
                </Table.Th>
                {columns.map((column) => (
                  <Table.Td key={column.header}>
                    <Figure few={metric.percent && column.few}>{column.cell(metric.key)}</Figure>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {anyFew ? (
        <Text size="xs" c="dimmed">
          Greyed: fewer than {FEW_IDEAS} closed ideas, too few to read much into.
        </Text>
      ) : null}
      <Group gap="lg" wrap="wrap">
        <Text size="sm">
          Open ideas: {openIdeas.count}
          {openIdeas.count > 0 ? ` · average mark ${formatFraction(openIdeas.avgMark)} · oldest ${sessions(openIdeas.oldestSessions)}` : ''}
        </Text>
        {group.voided > 0 ? <Text size="sm">Voided (not counted): {group.voided}</Text> : null}
      </Group>
    </Stack>
  );
}
