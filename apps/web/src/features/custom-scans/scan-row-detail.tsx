import '../../components/trade-ideas/mantine-styles';
import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { figureSourceLabel, parseFormula, scanChartLevels, type RunScanResponse, type ScanResultRow } from '@signalboard/core';
import { useQuery } from '@tanstack/react-query';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { lazy, Suspense, useMemo } from 'react';
import { chartPrecision, type ChartLine, type ChartMarker } from '../../components/trade-ideas/chart-model';
import { LevelText } from '../../components/trade-ideas/level-text';
import { formatPrice } from '../../components/format';
import { TONE } from '../../theme';
import { scanChartQuery } from './api/get-scan-chart';
import { formatCell, formatSessionDate, resultColumns } from './results-model';

const PriceChart = lazy(() => import('../../components/trade-ideas/price-chart'));

export const detailTitle = (symbol: string) => `${symbol} · Details`;

/**
 * A result row in full (docs/custom-scans.md, "Running a scan"): the symbol's daily candles through
 * the run's session with the scan's price levels drawn (core's scanChartLevels, from the row's own
 * values), a marker on the session it matched, the levels as text (the chart's alternative) and every
 * value the scan read.
 */
export function ScanRowDetail({ response, row, onClose }: { response: RunScanResponse; row: ScanResultRow | null; onClose: () => void }) {
  return (
    <Modal opened={row !== null} onClose={onClose} size="xl" title={row ? detailTitle(row.symbol) : ''} closeButtonProps={{ 'aria-label': 'Close' }}>
      {row ? <DetailBody response={response} row={row} /> : null}
    </Modal>
  );
}

function DetailBody({ response, row }: { response: RunScanResponse; row: ScanResultRow }) {
  const query = useQuery(scanChartQuery(row.symbol, response.as_of));
  const bars = query.data?.bars;
  const precision = useMemo(() => (response.universe === 'crypto' && bars ? chartPrecision(bars.map((bar) => bar.close)) : 2), [bars, response.universe]);
  const lines = useMemo((): ChartLine[] => {
    if (!bars) return [];
    const series = { high: bars.map((bar) => bar.high), low: bars.map((bar) => bar.low), close: bars.map((bar) => bar.close), volume: bars.map((bar) => bar.volume) };
    const levels = scanChartLevels({ expr: parseFormula(response.formula), columns: response.columns, values: row.values, close: row.price, bars: series });
    return levels.map((level) => ({ title: level.title, price: level.price, tone: level.kind === 'threshold' ? 'entry' : 'neutral', dashed: level.kind === 'threshold' }));
  }, [bars, response, row]);
  const markers = useMemo((): ChartMarker[] => (query.data ? [{ date: query.data.as_of, text: 'Matched', tone: 'entry', position: 'belowBar', shape: 'arrowUp' }] : []), [query.data]);
  const fields = useMemo(() => resultColumns(response).slice(4), [response]);

  let chart;
  if (query.isPending) {
    chart = (
      <Group gap="sm" py="xl" justify="center" role="status">
        <Loader size="sm" />
        <Text size="sm">Loading the chart...</Text>
      </Group>
    );
  } else if (query.isError) {
    chart = (
      <Alert color={TONE.failure} variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="The chart could not be loaded">
        <Group justify="space-between" gap="sm">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" variant="light" color={TONE.failure} leftSection={<IconRefresh size={14} aria-hidden />} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Group>
      </Alert>
    );
  } else {
    chart = (
      <Suspense fallback={<Loader size="sm" aria-label="Loading the chart" />}>
        <PriceChart bars={query.data.bars} lines={lines} markers={markers} precision={precision} label={`${row.symbol} daily candles through ${formatSessionDate(query.data.as_of)} with the scan's levels`} />
      </Suspense>
    );
  }

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {row.name} · as of {response.as_of ? formatSessionDate(response.as_of) : 'no session'} · source {figureSourceLabel(response.source, row.imported === true || query.data?.imported === true)}
      </Text>
      {chart}
      <section aria-label="Levels">
        <Title order={3} size="h5" mb={4}>
          Levels
        </Title>
        {lines.length > 0 ? (
          <Group gap="lg" wrap="wrap">
            {lines.map((level) => (
              <LevelText key={level.title} title={level.title} value={formatPrice(level.price, precision)} />
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {query.isSuccess ? 'This scan reads no price level.' : '—'}
          </Text>
        )}
      </section>
      <section aria-label="Values">
        <Title order={3} size="h5" mb={4}>
          What the scan read
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" verticalSpacing={4}>
          {fields.map((column) => (
            <Stack key={column.id} gap={0}>
              <Text size="xs" c="dimmed">
                {column.label}
              </Text>
              <Text size="sm" fw={600}>
                {formatCell(column.value(row), column.unit)}
              </Text>
            </Stack>
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
