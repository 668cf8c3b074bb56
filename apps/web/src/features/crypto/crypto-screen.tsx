// The stylesheets of what this screen renders beyond the shared trade-idea components (mantine-styles.test.ts).
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '../../components/trade-ideas/mantine-styles';
import { Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { CRYPTO_CSV_COLUMNS, formatCryptoRow, SCREEN_TITLES, type CryptoTrade } from '@signalboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { getCryptoTrades } from './api/crypto';
import type { CsvColumn } from '@signalboard/core';
import { ExportCsvButton } from '../../components/trade-ideas/export-csv-button';
import { IdeaCardList } from '../../components/trade-ideas/idea-card';
import { IdeaDetailModal } from '../../components/trade-ideas/idea-detail-modal';
import { IdeaListOutcome, type ListQueryState } from '../../components/trade-ideas/idea-list-outcome';
import { SymbolSearchInput } from '../../components/trade-ideas/trade-filter-bar';
import { LIST_REFRESH_MS, REPLAY_POLL_MS, useReplayStatus } from '../../components/trade-ideas/use-idea-list';
import { ScreenHeader } from '../../components/screen-header';
import { CryptoCard } from './crypto-card';
import { CRYPTO_VIEW } from './crypto-view';
import { filterCrypto, HORIZON_OPTIONS, NO_CRYPTO_FILTER, SIGNAL_OPTIONS, type CryptoFilter, type HorizonChoice, type SignalChoice } from './crypto-filters';
import { CryptoScorecardPanel } from './crypto-scorecard-panel';
import { useLiveEngine, usePollingWhileDown } from '../../components/live/use-live';

export const TITLE = SCREEN_TITLES.cryptoscanner;
export const EMPTY_MESSAGE = 'No crypto trades found.';
export const LOADING_MESSAGE = 'Loading crypto trades...';
export const LIST_LABEL = 'Crypto trades';

/** The CSV export: the spec §3 "Crypto trade" fields in order, numbers as the screen writes them (spec §9). */
export const CRYPTO_CSV: CsvColumn<CryptoTrade>[] = CRYPTO_CSV_COLUMNS.map((column) => ({ header: column, value: (row: CryptoTrade) => formatCryptoRow(row)[column] }));

export const cryptoTradesQuery = {
  queryKey: ['crypto', 'list'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => getCryptoTrades(signal),
};

/** Crypto Scanner (spec §2 "Crypto screen (cryptoscanner)"; docs/rules/crypto.md §3). */
export function CryptoScreen() {
  const [filter, setFilter] = useState<CryptoFilter>(NO_CRYPTO_FILTER);
  const [detail, setDetail] = useState<{ id: string; symbol: string } | null>(null);
  const replay = useReplayStatus('crypto');
  useLiveEngine(CRYPTO_VIEW);
  // Live updates re-read the list when the engine wrote (LiveProvider); polled only while the stream is down.
  const listRefetchMs = usePollingWhileDown(LIST_REFRESH_MS);
  const refetchInterval = replay.running ? REPLAY_POLL_MS : listRefetchMs;
  useReloadWhenReplayEnds(replay.running);
  const query = useQuery({ ...cryptoTradesQuery, refetchInterval });
  const all = query.data;
  const rows = useMemo(() => filterCrypto(all ?? [], filter), [all, filter]);
  const list: ListQueryState = {
    isPending: query.isPending,
    isError: query.isError,
    error: query.error,
    isFetching: query.isFetching,
    isFetchingNextPage: false,
    hasNextPage: false,
    refetch: query.refetch,
    fetchNextPage: () => undefined,
    rows: all ?? [],
  };
  const filtered = filter.signal !== 'all' || filter.symbol.trim() !== '';
  const symbol = filter.symbol.trim().slice(0, 20);

  return (
    <>
      <ScreenHeader
        title={TITLE}
        description="Every listed coin on UTC daily candles: price against its 1-month and 6-month highs, RSI, volume, swing level, trend, news, and Buy / Sell / Hold signals for three horizons (a signal changes only after two closes agree)."
      />
      <Stack gap="md">
        <CryptoFilterBar filter={filter} onChange={setFilter} />
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {query.isPending ? '' : `${rows.length} ${rows.length === 1 ? 'coin' : 'coins'}`}
          </Text>
          <ExportCsvButton name="crypto-trades" columns={CRYPTO_CSV} rows={rows} />
        </Group>
        <IdeaListOutcome
          list={list}
          skipped={false}
          shown={rows.length}
          replay={replay}
          loadingMessage={LOADING_MESSAGE}
          emptyMessage={EMPTY_MESSAGE}
          emptyHint={filtered ? 'Clear the search or choose All signals.' : 'A coin is listed once it has 30 daily candles.'}
        >
          <IdeaCardList label={LIST_LABEL}>
            {rows.map((row) => (
              <li key={row.Id}>
                <CryptoCard row={row} onDetails={() => setDetail({ id: row.Id, symbol: row.Symbol })} />
              </li>
            ))}
          </IdeaCardList>
        </IdeaListOutcome>
        <CryptoScorecardPanel scope={symbol ? { symbol } : {}} refetchInterval={refetchInterval} />
        <IdeaDetailModal view={CRYPTO_VIEW} idea={detail} onClose={() => setDetail(null)} />
      </Stack>
    </>
  );
}

/** When the crypto replay ends, the rows and the scorecard are re-read at once (not at the next minute's refresh). */
function useReloadWhenReplayEnds(running: boolean): void {
  const client = useQueryClient();
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void client.invalidateQueries({ queryKey: ['crypto'] });
    wasRunning.current = running;
  }, [client, running]);
}

function CryptoFilterBar({ filter, onChange }: { filter: CryptoFilter; onChange: (next: CryptoFilter) => void }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" role="search" aria-label="Crypto filters">
      <Group gap="sm" align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
        <NativeSelect
          label="Signal"
          data={SIGNAL_OPTIONS}
          value={filter.signal}
          onChange={(event) => onChange({ ...filter, signal: event.currentTarget.value as SignalChoice })}
          miw={150}
        />
        <NativeSelect
          label="Horizon"
          data={HORIZON_OPTIONS}
          value={filter.horizon}
          disabled={filter.signal === 'all'}
          onChange={(event) => onChange({ ...filter, horizon: event.currentTarget.value as HorizonChoice })}
          miw={150}
        />
        <SymbolSearchInput placeholder="e.g. BTC" value={filter.symbol} onChange={(symbol) => onChange({ ...filter, symbol })} />
      </Group>
    </Paper>
  );
}

export { CryptoScreen as Component };
