// Mantine stylesheets of what the panel renders beyond the screen's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Progress.layer.css';
import { Alert, Button, Group, Loader, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { SavedScan, ScanBacktestResponse } from '@signalboard/core';
import { IconAlertTriangle, IconInfoCircle, IconPlayerPlay, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { formatInstant } from '../../components/trade-ideas/idea-format';
import { TONE } from '../../theme';
import { ApiError } from '../../lib/client';
import { isUnderWay, useCancelBacktest, useScanBacktest, useStartBacktest } from './api/backtest';
import { BacktestResult } from './backtest-result';
import { benchmarkName, DATA_CHANGED, DATA_CHANGED_WAITING, progressText } from './backtest-model';

export const BACKTEST_TITLE = 'Would this have worked?';
export const NOT_SAVED = 'Save the scan to backtest it: a backtest replays a saved scan.';
export const EARLIER_VERSION = 'This result is of an earlier version of the scan.';
export const CANCELLED = 'Backtest cancelled.';

const failureIcon = <IconAlertTriangle size={18} aria-hidden />;

/** The bar and the count while the job replays, with Cancel backtest. */
function Progressing({ backtest, cancelling, onCancel }: { backtest: ScanBacktestResponse; cancelling: boolean; onCancel: () => void }) {
  const text = progressText(backtest);
  const counted = backtest.total > 0;
  return (
    <Stack gap="xs" aria-busy>
      {backtest.data_changed && (
        <Text size="sm" role="status">
          {DATA_CHANGED}
        </Text>
      )}
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="nowrap">
          {!counted && <Loader size="xs" />}
          <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {text}
          </Text>
        </Group>
        <Button size="xs" variant="default" leftSection={<IconPlayerStop size={14} aria-hidden />} onClick={onCancel} disabled={cancelling}>
          {cancelling ? 'Cancelling...' : 'Cancel backtest'}
        </Button>
      </Group>
      <Progress.Root
        size="md"
        role="progressbar"
        aria-label="Backtest progress"
        aria-valuemin={0}
        aria-valuemax={backtest.total}
        aria-valuenow={backtest.done}
        aria-valuetext={text}
      >
        <Progress.Section value={counted ? (100 * backtest.done) / backtest.total : 100} striped={!counted} animated={!counted} withAria={false} />
      </Progress.Root>
    </Stack>
  );
}

function StartButton({ label, starting, onStart }: { label: string; starting: boolean; onStart: () => void }) {
  const Icon = label === 'Run backtest' ? IconPlayerPlay : IconRefresh;
  return (
    <Button size="sm" leftSection={<Icon size={16} aria-hidden />} onClick={onStart} disabled={starting} w={{ base: '100%', xs: 'auto' }}>
      {starting ? 'Starting...' : label}
    </Button>
  );
}

/** The stored backtest in each of its states: under way, failed, cancelled, done (current or of an earlier version). */
function BacktestState({ backtest, starting, cancelling, onStart, onCancel }: { backtest: ScanBacktestResponse; starting: boolean; cancelling: boolean; onStart: () => void; onCancel: () => void }) {
  const again = <StartButton label="Run again" starting={starting} onStart={onStart} />;
  if (isUnderWay(backtest)) return <Progressing backtest={backtest} cancelling={cancelling} onCancel={onCancel} />;
  if (backtest.status === 'failed') {
    return (
      <Alert color={TONE.failure} variant="light" icon={failureIcon} title="The backtest failed.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{backtest.error ?? 'The backtest failed on our side. Please try again.'}</Text>
          {again}
        </Stack>
      </Alert>
    );
  }
  if (backtest.status === 'cancelled') {
    return (
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500} role="status">
          {CANCELLED}
        </Text>
        {again}
      </Group>
    );
  }
  return (
    <Stack gap="md">
      {backtest.current && backtest.data_changed ? (
        <Alert color={TONE.info} variant="light" icon={<IconInfoCircle size={18} aria-hidden />} role="status" p="sm">
          <Text size="sm">{DATA_CHANGED_WAITING}</Text>
        </Alert>
      ) : backtest.current ? (
        <Text size="xs" c="dimmed">
          Finished {formatInstant(backtest.finished_at)}.
        </Text>
      ) : (
        <Alert color={TONE.info} variant="light" icon={<IconInfoCircle size={18} aria-hidden />} role="status" p="sm">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{EARLIER_VERSION}</Text>
            {again}
          </Group>
        </Alert>
      )}
      {backtest.result ? <BacktestResult result={backtest.result} dataVersion={backtest.data_version} /> : <Text size="sm">The backtest finished without a result.</Text>}
    </Stack>
  );
}

/** The panel of one saved scan: read its stored backtest at once, start, follow and cancel one. */
function ScanBacktest({ scan }: { scan: SavedScan }) {
  const query = useScanBacktest(scan.id, scan.version);
  const start = useStartBacktest(scan.id, scan.version);
  const cancel = useCancelBacktest(scan.id, scan.version);
  const onStart = () => {
    cancel.reset();
    start.mutate();
  };
  const onCancel = () => cancel.mutate();

  let body;
  if (query.isPending) {
    body = <Skeleton h={72} radius="md" aria-busy />;
  } else if (query.isError && query.data === undefined) {
    body = (
      <Alert color={TONE.failure} variant="light" icon={failureIcon} title="The backtest could not be loaded.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" color={TONE.failure} onClick={() => void query.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else if (!query.data) {
    body = (
      <Group justify="space-between" gap="sm">
        <Text size="sm">No backtest of this scan yet.</Text>
        <StartButton label="Run backtest" starting={start.isPending} onStart={onStart} />
      </Group>
    );
  } else {
    body = <BacktestState backtest={query.data} starting={start.isPending} cancelling={cancel.isPending} onStart={onStart} onCancel={onCancel} />;
  }

  const refused = start.error ?? cancel.error;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Replays “{scan.name}” as last saved over the source's last two years, with no look-ahead: each symbol that newly enters the results is bought at the next
        session's open, and compared with random entries of the same volatility on the same days and with {benchmarkName(scan.universe)}.
      </Text>
      {refused && (
        <Alert
          color={refused instanceof ApiError && refused.status === 429 ? TONE.middling : TONE.failure}
          variant="light"
          icon={failureIcon}
          title={start.error ? 'The backtest could not be started.' : 'The backtest could not be cancelled.'}
        >
          <Text size="sm">{refused.message}</Text>
        </Alert>
      )}
      {query.isError && query.data !== undefined && (
        <Text size="sm" c={TONE.failure}>
          The progress could not be read: {query.error.message}
        </Text>
      )}
      {body}
    </Stack>
  );
}

/**
 * "Would this have worked?" (issue 26, docs/custom-scans.md "Backtest"): the backtest of the saved
 * scan that is open. `scan` is null when none is (a new scan or a template): it must be saved first.
 * `opening`: a scan is open but the list does not hold it yet (just saved).
 */
export function BacktestPanel({ scan, opening }: { scan: SavedScan | null; opening: boolean }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="custom-scan-backtest-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="custom-scan-backtest-title">
          {BACKTEST_TITLE}
        </Title>
        {scan ? <ScanBacktest key={scan.id} scan={scan} /> : opening ? <Skeleton h={72} radius="md" aria-busy /> : <Text size="sm">{NOT_SAVED}</Text>}
      </Stack>
    </Paper>
  );
}
