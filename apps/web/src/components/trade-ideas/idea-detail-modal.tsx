import './mantine-styles';
import { Alert, Button, Group, Loader, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { ruleVersionLabel } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { getIdeaDetail, type TradeEngine } from '../../lib/api/trade-ideas';
import { chartMarkers, eventText } from './chart-model';
import type { EngineView } from './engine-view';
import { formatInstant } from './idea-format';
import { LevelText } from './level-text';

const PriceChart = lazy(() => import('./price-chart'));

export const ideaDetailQuery = (engine: TradeEngine, id: string) => ({
  queryKey: ['trade-ideas', engine, 'detail', id] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => getIdeaDetail(engine, id, signal),
});

/**
 * One idea in full: its price chart with every level drawn and a marker where each was hit, the
 * levels as a table (the chart's text alternative), and the event log the row is folded from.
 * `view` is the idea's engine as its screen shows it (its lines, notes, price format, chart scale and name).
 */
export function IdeaDetailModal({ view, idea, onClose }: { view: EngineView; idea: { id: string; symbol: string } | null; onClose: () => void }) {
  return (
    <Modal opened={idea !== null} onClose={onClose} size="xl" title={idea ? `${idea.symbol} · ${view.noun} detail` : ''} closeButtonProps={{ 'aria-label': 'Close' }}>
      {idea ? <IdeaDetailBody view={view} id={idea.id} symbol={idea.symbol} /> : null}
    </Modal>
  );
}

function IdeaDetailBody({ view, id, symbol }: { view: EngineView; id: string; symbol: string }) {
  const query = useQuery(ideaDetailQuery(view.id, id));
  const lines = useMemo(() => (query.data ? view.chartLines(query.data.idea) : []), [query.data, view]);
  const markers = useMemo(() => (query.data ? chartMarkers(query.data.events) : []), [query.data]);
  const notes = useMemo(() => (query.data ? view.levelNotes(query.data.idea) : []), [query.data, view]);

  if (query.isPending) {
    return (
      <Group gap="sm" py="xl" justify="center" role="status">
        <Loader size="sm" />
        <Text size="sm">Loading the idea...</Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="The idea could not be loaded">
        <Group justify="space-between" gap="sm">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  }
  const { bars, idea } = query.data;
  // A coin's row is rewritten by every daily pass (`updated`): the log lists what changed it, and counts the rest.
  const events = query.data.events.filter((event) => event.type !== 'updated');
  const dailyUpdates = query.data.events.length - events.length;
  // A price in the levels and the log: a coin's in its spec §9 price format (8 decimals), stocks and options to the cent.
  const price = view.formatPrice;
  const ruleVersion = typeof idea.RuleVersion === 'string' ? idea.RuleVersion : null;
  return (
    <Stack gap="md">
      {bars.length > 0 ? (
        <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
          <PriceChart
            bars={bars}
            lines={lines}
            markers={markers}
            precision={view.chartPrecision(bars.map((bar) => bar.close))}
            label={view.chartLabel(symbol)}
          />
        </Suspense>
      ) : (
        <Text size="sm" c="dimmed">
          No price history is stored for this idea yet.
        </Text>
      )}
      {lines.length > 0 || notes.length > 0 ? (
        <section aria-label="Levels">
          <Title order={3} size="h5" mb={4}>
            Levels
          </Title>
          <Group gap="lg" wrap="wrap">
            {lines.map((level) => (
              <LevelText key={level.title} title={level.title} value={level.text ?? price(level.price)} />
            ))}
            {notes.map((level) => (
              <LevelText key={level.title} title={level.title} value={price(level.value)} />
            ))}
          </Group>
        </section>
      ) : null}
      <section aria-label="Event log">
        <Title order={3} size="h5" mb={4}>
          Event log
        </Title>
        {dailyUpdates > 0 ? (
          <Text size="xs" c="dimmed" mb={4}>
            {dailyUpdates} daily update{dailyUpdates === 1 ? '' : 's'} of the fields not listed.
          </Text>
        ) : null}
        {events.length === 0 ? (
          <Text size="sm" c="dimmed">
            No events recorded.
          </Text>
        ) : (
          // A keyboard user scrolls a narrow screen's wide table from its focused viewport (WCAG 2.1.1).
          <ScrollArea type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Event log table, scrollable' }}>
            <Table striped withTableBorder fz="sm" miw={560}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Session</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Level</Table.Th>
                  <Table.Th ta="right">Price</Table.Th>
                  <Table.Th>Origin</Table.Th>
                  <Table.Th>Recorded</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {events.map((event) => (
                  <Table.Tr key={`${event.type}|${event.level}|${event.barDate}|${event.recordedAt}`}>
                    <Table.Td>{event.barDate}</Table.Td>
                    <Table.Td>{eventText(event)}</Table.Td>
                    <Table.Td>{event.level || '—'}</Table.Td>
                    <Table.Td ta="right">{event.price === null ? '—' : price(event.price)}</Table.Td>
                    <Table.Td>{event.origin === 'replayed' ? 'Replayed' : 'Live'}</Table.Td>
                    <Table.Td>{formatInstant(event.recordedAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </section>
      {ruleVersion ? (
        <Text size="xs" c="dimmed">
          Rules {ruleVersionLabel(ruleVersion)}
          {typeof idea.ParamHash === 'string' ? ` · parameters ${idea.ParamHash}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}
