import { Button, Grid, Group, NativeSelect, Pagination, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  ALERT_HISTORY_EMPTY_MESSAGE,
  ALERT_HISTORY_NO_MATCH_MESSAGE,
  ALERT_HISTORY_RANGE_MESSAGE,
  ALERT_HISTORY_TYPE_NAMES,
  ALERT_HISTORY_TYPES,
  type AlertHistoryQuery,
  type AlertHistoryType,
} from '@signalboard/core';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { alertHistoryQueryOptions, fetchAlertHistoryCsv } from './api/alert-history';
import { ApiError } from '../../lib/client';
import { notifyError } from '../../components/notify';
import { downloadCsv } from '../../lib/download';
import { EmptyList, ListError, ListLoading } from '../../components/trade-ideas/list-states';
import { AlertHistoryCard } from './alert-history-item';

export const ALERT_HISTORY_PAGE_SIZE = 20;
export const ALERT_HISTORY_LOADING_MESSAGE = 'Loading alert history...';
export const ALERT_HISTORY_LOAD_FAILED_TITLE = 'Could not load the alert history.';
export const ALERT_HISTORY_EXPORT_FAILED_MESSAGE = 'Failed to export the alert history: ';

interface Filters {
  alertType: AlertHistoryType | '';
  symbol: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { alertType: '', symbol: '', from: '', to: '' };

const messageOf = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : String(error));

/**
 * The Alert History tab (issue 15): every alert that fired for the user, newest first, with the data
 * that fired it and each channel's status, reason and timeline; filters by type, symbol and days (in
 * the browser's time zone); CSV export of what the filters select.
 */
export function AlertHistory() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const [symbol] = useDebouncedValue(filters.symbol.trim(), 300);
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const rangeError = filters.from && filters.to && filters.from > filters.to ? ALERT_HISTORY_RANGE_MESSAGE : null;

  const query: AlertHistoryQuery = {
    ...(filters.alertType ? { alert_type: filters.alertType } : {}),
    ...(symbol ? { symbol } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
    ...(timeZone ? { time_zone: timeZone } : {}),
    page,
    limit: ALERT_HISTORY_PAGE_SIZE,
  };
  const history = useQuery({ ...alertHistoryQueryOptions(query), enabled: !rangeError });
  const filtered = Boolean(filters.alertType || symbol || filters.from || filters.to);

  const change = (next: Partial<Filters>) => {
    setFilters({ ...filters, ...next });
    setPage(1);
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { filename, text } = await fetchAlertHistoryCsv(query);
      downloadCsv(filename, text);
    } catch (error) {
      notifyError(`${ALERT_HISTORY_EXPORT_FAILED_MESSAGE}${messageOf(error)}`);
    } finally {
      setExporting(false);
    }
  };

  const data = history.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  const firstShown = data && data.items.length > 0 ? (data.page - 1) * data.limit + 1 : 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3">
            Alert History
          </Title>
          <Text size="sm" c="dimmed">
            Every alert that fired for you, what fired it, and what happened to each SMS, e-mail and webhook.
          </Text>
        </div>
        <Button variant="default" size="sm" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void exportCsv()} loading={exporting} disabled={exporting || Boolean(rangeError)}>
          {exporting ? 'Exporting...' : 'Export CSV'}
        </Button>
      </Group>

      <Paper withBorder radius="md" p="md" component="section" role="search" aria-label="Alert history filters">
        <Grid gap="sm" align="flex-start">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <NativeSelect
              label="Alert type"
              value={filters.alertType}
              onChange={(event) => change({ alertType: event.currentTarget.value as Filters['alertType'] })}
              data={[{ value: '', label: 'All types' }, ...ALERT_HISTORY_TYPES.map((type) => ({ value: type, label: ALERT_HISTORY_TYPE_NAMES[type] }))]}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 3 }}>
            <TextInput
              label="Symbol"
              placeholder="e.g. AAPL"
              value={filters.symbol}
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              leftSection={<IconSearch size={16} aria-hidden />}
              onChange={(event) => change({ symbol: event.currentTarget.value })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 2.5 }}>
            <TextInput type="date" label="From" value={filters.from} max={filters.to || undefined} onChange={(event) => change({ from: event.currentTarget.value })} />
          </Grid.Col>
          <Grid.Col span={{ base: 6, sm: 2.5 }}>
            <TextInput
              type="date"
              label="To"
              value={filters.to}
              min={filters.from || undefined}
              onChange={(event) => change({ to: event.currentTarget.value })}
              error={rangeError}
            />
          </Grid.Col>
        </Grid>
      </Paper>

      {rangeError ? null : history.isPending ? (
        <ListLoading message={ALERT_HISTORY_LOADING_MESSAGE} />
      ) : history.isError ? (
        <ListError title={ALERT_HISTORY_LOAD_FAILED_TITLE} message={messageOf(history.error)} onRetry={() => void history.refetch()} retrying={history.isFetching} />
      ) : data && data.items.length === 0 ? (
        filtered ? (
          <EmptyList message={ALERT_HISTORY_NO_MATCH_MESSAGE} hint="Clear or widen the filters to see more alerts." />
        ) : (
          <EmptyList message={ALERT_HISTORY_EMPTY_MESSAGE} hint="Alerts appear here when a rule you set in Settings fires." />
        )
      ) : data ? (
        <Stack gap="sm">
          <Text size="sm" aria-live="polite" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {`Showing ${firstShown}–${firstShown + data.items.length - 1} of ${data.total} alert${data.total === 1 ? '' : 's'}`}
          </Text>
          <Stack gap="sm" component="section" aria-label="Fired alerts" aria-busy={history.isFetching}>
            {data.items.map((item) => (
              <AlertHistoryCard key={item.id} item={item} />
            ))}
          </Stack>
          {pages > 1 ? (
            <Pagination
              total={pages}
              value={data.page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': control === 'next' ? 'Next page' : 'Previous page' })}
              getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            />
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
