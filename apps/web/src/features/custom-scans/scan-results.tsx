import { Alert, Button, Group, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { RunScanResponse, ScanResultRow } from '@signalboard/core';
import { IconAlertTriangle, IconDownload, IconFilterSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { EmptyFavoritesHint } from '../../components/empty-favorites-hint';
import { downloadCsv } from '../../lib/download';
import { TONE } from '../../theme';
import type { useRunScan } from './api/run-scan';
import { csvFileName, formatSessionDate, matchesSummary, nextSort, noMatchesMessage, resultColumns, resultsCsv, resultsSourceLabel, sortRows, type SortState } from './results-model';
import { ResultsTable } from './results-table';
import { ScanRowDetail } from './scan-row-detail';

export const RUNNING = 'Running the scan...';
export const NOT_RUN = 'Build your conditions, then press Run scan to see the symbols that match.';

/** '3 symbols had no daily bars and were not scanned'. */
export const missingMessage = (count: number) => `${count} ${count === 1 ? 'symbol has' : 'symbols have'} no daily bars and ${count === 1 ? 'was' : 'were'} not scanned`;

function Missing({ symbols }: { symbols: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <Alert color={TONE.middling} variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} p="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{missingMessage(symbols.length)}</Text>
        <Button variant="subtle" color={TONE.middling} size="compact-sm" aria-expanded={open} aria-controls="custom-scan-missing" onClick={() => setOpen((value) => !value)}>
          {open ? 'Hide symbols' : 'Show symbols'}
        </Button>
      </Group>
      {open && (
        <Text id="custom-scan-missing" size="sm" mt="xs" style={{ overflowWrap: 'anywhere' }}>
          {symbols.join(', ')}
        </Text>
      )}
    </Alert>
  );
}

/** One answer: the count, "as of", missing symbols, CSV export, then the table (or the empty sentence) and a row's Details. */
function Answer({ response }: { response: RunScanResponse }) {
  const [sort, setSort] = useState<SortState | null>(null);
  const [detail, setDetail] = useState<ScanResultRow | null>(null);
  const columns = useMemo(() => resultColumns(response), [response]);
  const rows = useMemo(() => sortRows(response.rows, columns, sort), [response, columns, sort]);
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" align="center">
        <Stack gap={2}>
          <Text fw={600} aria-live="polite">
            {matchesSummary(response)}
          </Text>
          <Text size="sm" c="dimmed">
            as of {response.as_of ? formatSessionDate(response.as_of) : 'no session'} · source {resultsSourceLabel(response)}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="sm"
          leftSection={<IconDownload size={16} aria-hidden />}
          disabled={rows.length === 0}
          onClick={() => downloadCsv(csvFileName(response), resultsCsv(columns, rows))}
        >
          Export CSV
        </Button>
      </Group>
      {response.missing.length > 0 && <Missing symbols={response.missing} />}
      {rows.length > 0 ? (
        <ResultsTable columns={columns} rows={rows} sort={sort} onSortColumn={(column) => setSort((current) => nextSort(current, column))} onSort={setSort} onDetails={setDetail} />
      ) : (
        <Stack align="center" gap={4} py="xl">
          <Text fw={500} ta="center">
            {noMatchesMessage(response.as_of)}
          </Text>
          {response.universe === 'favorites' && response.universe_size === 0 ? (
            <EmptyFavoritesHint />
          ) : (
            <Text size="sm" c="dimmed" ta="center">
              Loosen a condition, try another universe or run as of another date.
            </Text>
          )}
        </Stack>
      )}
      <ScanRowDetail response={response} row={detail} onClose={() => setDetail(null)} />
    </Stack>
  );
}

/** The results section: before the first run, while it runs, its failure (the server's msg, Retry) or its answer. */
export function ScanResults({ run, onRetry }: { run: ReturnType<typeof useRunScan>; onRetry: () => void }) {
  let body;
  if (run.isIdle) {
    body = (
      <Stack align="center" gap={6} py="xl" c="dimmed">
        <IconFilterSearch size={32} aria-hidden />
        <Text ta="center">{NOT_RUN}</Text>
      </Stack>
    );
  } else if (run.isPending) {
    body = (
      <Stack gap="sm" aria-busy>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{RUNNING}</Text>
        </Group>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} h={36} radius="md" />
        ))}
      </Stack>
    );
  } else if (run.isError) {
    body = (
      <Alert color={TONE.failure} variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} title="The scan could not be run.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{run.error.message}</Text>
          <Button size="xs" color={TONE.failure} onClick={onRetry}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    body = <Answer key={run.submittedAt} response={run.data} />;
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby="custom-scan-results-title">
      <Title order={2} size="h4" id="custom-scan-results-title">
        Results
      </Title>
      {body}
    </Stack>
  );
}
