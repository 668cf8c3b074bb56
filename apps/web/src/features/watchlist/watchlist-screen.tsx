// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Alert, Badge, Button, Checkbox, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileImport, IconStarOff } from '@tabler/icons-react';
import { useEffect, useReducer, useState } from 'react';
import { useFavorites } from '../../lib/api/favorites';
import { formatTime } from '../../components/format';
import { notifyError, notifyInfo, notifySuccess } from '../../components/notify';
import { ScreenHeader } from '../../components/screen-header';
import { LiveIndicator } from '../../components/live/live-indicator';
import { useLiveQuotes, usePollingWhileDown } from '../../components/live/use-live';
import { FAVORITE_QUOTES_REFRESH_MS, useFavoriteQuotes, withLiveQuotes } from './api/get-favorite-quotes';
import { useSaveFavorites } from './api/save-favorites';
import { editingReducer, editingView, initialEditingState, savePlan, type FavoriteRow } from './favorites-editing';
import { ExportMenu } from './export-menu';
import { FavoritesList } from './favorites-list';
import { ImportDialog } from './import/import-dialog';
import { SymbolSearchBox } from './symbol-search-box';

export const SAVE_NOTE = '**Please click save after adding or removing stocks.';
export const FAVORITES_SAVED = 'Your favorites were saved.';
export const FAVORITES_LOAD_FAILED = 'Your favorites could not be loaded.';
const NO_FAVORITES: FavoriteRow[] = [];

/** WatchList / symbol lookup (spec §2, §4 "Favourites editing", §5, §7, §8). */
export function WatchlistScreen() {
  const saved = useFavorites();
  const [state, dispatch] = useReducer(editingReducer, initialEditingState);
  const savedList = saved.data ?? NO_FAVORITES;
  const view = editingView(state, savedList);
  // Prices: read once, then updated by the live stream; polled only while the stream is down.
  const live = useLiveQuotes(savedList.map((row) => row.symbol));
  const polled = useFavoriteQuotes(savedList.length > 0, usePollingWhileDown(FAVORITE_QUOTES_REFRESH_MS));
  const quotes = { ...polled, data: withLiveQuotes(polled.data, live.quotes) };
  const save = useSaveFavorites();
  const [importing, setImporting] = useState(false);

  // Spec §8 logs the failure; docs/ui.md also wants a visible message with a retry (below).
  useEffect(() => {
    if (saved.error) console.error('Error loading favorites:', saved.error);
  }, [saved.error]);

  async function onSave() {
    const favorites = [...view.favorites];
    try {
      await save.mutateAsync({ plan: savePlan(state), favorites });
      dispatch({ type: 'discard' });
      notifySuccess(FAVORITES_SAVED);
    } catch (error) {
      // Nothing is lost: the edits stay on screen for another try.
      notifyError(`Could not save your favorites: ${(error as Error).message}`);
    }
  }

  function onImport(stocks: FavoriteRow[]) {
    dispatch({ type: 'add', stocks, saved: savedList });
    notifyInfo(`Added ${stocks.length} to your favorites. Click Save to keep them.`);
  }

  function onCancel() {
    dispatch({ type: 'discard' });
    void saved.refetch();
  }

  const loading = saved.isPending;
  const loadFailed = saved.isError && saved.data === undefined;
  const oldestQuote = quotes.data?.quotes.reduce<number | null>((min, q) => (min === null || q.timestamp < min ? q.timestamp : min), null) ?? null;
  const anyStale = quotes.data?.quotes.some((q) => q.stale) ?? false;

  return (
    <>
      <ScreenHeader
        title="Add and Remove Stocks"
        description="Search US and Canadian stocks and keep the ones you follow; the scanners use this list."
      />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="lg" maw={760}>
        <Stack gap="md">
          <Group justify="space-between" align="center" gap="sm">
            <Title order={2} size="h3">
              Favorites List
            </Title>
            <Group gap="xs">
              <Button variant="default" leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => setImporting(true)} disabled={loading || loadFailed}>
                Import
              </Button>
              <ExportMenu disabled={loading || loadFailed || savedList.length === 0} />
            </Group>
          </Group>
          <ImportDialog opened={importing} favorites={view.favorites} onClose={() => setImporting(false)} onAdd={onImport} />
          <Checkbox
            label="Search Canadian Stocks"
            checked={view.canadian}
            onChange={(event) => dispatch({ type: 'setCanadian', canadian: event.currentTarget.checked })}
          />
          <SymbolSearchBox
            canadian={view.canadian}
            favorites={view.favorites}
            disabled={loading || loadFailed}
            onPick={(stock) => dispatch({ type: 'toggle', stock, saved: savedList })}
          />

          <Stack gap="xs">
            <Group justify="space-between" align="baseline" gap="xs">
              <Text fw={600}>
                Your Favorites:
              </Text>
              {quotes.isError && quotes.data === undefined && (
                <Text size="xs" c="dimmed">
                  Prices are not available right now.
                </Text>
              )}
              {oldestQuote !== null && (
                <Group gap={6}>
                  <Text size="xs" c="dimmed">
                    Prices as of {formatTime(oldestQuote)}
                    {live.live ? '' : ` · refreshed every ${FAVORITE_QUOTES_REFRESH_MS / 1000} s`}
                  </Text>
                  <LiveIndicator />
                  {anyStale && (
                    <Badge size="xs" variant="light" color="yellow">
                      delayed
                    </Badge>
                  )}
                </Group>
              )}
            </Group>

            {loading && (
              <Stack gap="xs" aria-label="Loading favorites">
                {[0, 1, 2].map((row) => (
                  <Skeleton key={row} h={40} />
                ))}
              </Stack>
            )}
            {loadFailed && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={FAVORITES_LOAD_FAILED}>
                <Stack gap="xs" align="flex-start">
                  <Text size="sm">{saved.error.message}</Text>
                  <Button size="xs" color="red" onClick={() => void saved.refetch()} loading={saved.isFetching}>
                    Retry
                  </Button>
                </Stack>
              </Alert>
            )}
            {!loading && !loadFailed && view.favorites.length === 0 && (
              <Stack align="center" gap={4} py="lg">
                <IconStarOff size={28} color="var(--mantine-color-dimmed)" aria-hidden />
                <Text>You have no favorite stocks.</Text>
                <Text size="sm" c="dimmed" ta="center">
                  Type a symbol or a company name in Search Symbol and pick a match to add it.
                </Text>
              </Stack>
            )}
            {!loading && !loadFailed && view.favorites.length > 0 && (
              <Paper withBorder radius="md">
                <FavoritesList
                  favorites={view.favorites}
                  saved={savedList}
                  quotes={quotes.data}
                  quotesLoading={quotes.isPending}
                  onRemove={(symbol) => dispatch({ type: 'remove', symbol, saved: savedList })}
                />
              </Paper>
            )}
          </Stack>

          <Text size="sm" c="dimmed">
            {SAVE_NOTE}
          </Text>
          <Group gap="sm">
            <Button onClick={() => void onSave()} disabled={!view.changed || save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button variant="default" onClick={onCancel} disabled={!view.changed || save.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Paper>
    </>
  );
}

export { WatchlistScreen as Component };
