import './mantine-styles';
import { Button, Center, Group, Text } from '@mantine/core';
import type { ReplayStatus } from '@signalboard/core';
import type { ReactNode } from 'react';
import { EmptyList, ListError, ListLoading, ReplayFailed, ReplayProgress, replayingTitle } from './list-states';

/** What the outcome block needs of a list query (useIdeaList's answer). */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  isFetching: boolean;
  isFetchingNextPage: boolean;
  hasNextPage: boolean;
  refetch: () => unknown;
  fetchNextPage: () => unknown;
  /** The rows the server answered, before the screen's own filtering. */
  rows: readonly unknown[];
}

/**
 * The trade screens' one async outcome (docs/ui.md "States every screen has"): loading with the screen's
 * message, a failed load with Retry, the replay's progress instead of an empty list while the
 * engine's history replay runs, the spec's empty sentence, or the cards with 'Load more' when the
 * server has another page.
 */
export function IdeaListOutcome({
  list,
  skipped,
  shown,
  replay,
  loadingMessage,
  emptyMessage,
  emptyHint,
  children,
}: {
  list: ListQueryState;
  /** No status is selected: nothing to ask the server for. */
  skipped: boolean;
  /** How many cards the screen shows after its filters. */
  shown: number;
  replay: { status: ReplayStatus | undefined; running: boolean };
  loadingMessage: string;
  emptyMessage: string;
  emptyHint: string;
  children: ReactNode;
}) {
  if (!skipped && list.isPending) return <ListLoading message={loadingMessage} />;
  if (!skipped && list.isError && list.rows.length === 0) {
    return <ListError title="The trades could not be loaded" message={list.error?.message ?? 'Unknown error.'} onRetry={() => void list.refetch()} retrying={list.isFetching} />;
  }
  if (shown === 0) {
    if (replay.running && replay.status && list.rows.length === 0) return <ReplayProgress status={replay.status} />;
    return (
      <>
        {replay.status?.state === 'failed' && list.rows.length === 0 ? <ReplayFailed status={replay.status} /> : null}
        <EmptyList message={emptyMessage} hint={emptyHint} />
        {list.hasNextPage ? <LoadMore list={list} /> : null}
      </>
    );
  }
  return (
    <>
      {replay.running && replay.status ? (
        <Text size="sm" c="dimmed" aria-live="polite">
          {replayingTitle(replay.status)}: {replay.status.sessionsDone} of {replay.status.sessionsTotal} sessions
        </Text>
      ) : null}
      {children}
      {list.hasNextPage ? <LoadMore list={list} /> : null}
    </>
  );
}

function LoadMore({ list }: { list: ListQueryState }) {
  return (
    <Center>
      <Group gap="sm">
        <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          Load more
        </Button>
      </Group>
    </Center>
  );
}
