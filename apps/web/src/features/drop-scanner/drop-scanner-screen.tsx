// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Table.layer.css';
import { Alert, Badge, Button, Group, Loader, NumberInput, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import {
  DEFAULT_DROP_SELECTION,
  DEFAULT_DROP_THRESHOLD_PERCENT,
  DROP_SELECTION_LABELS,
  DROP_SELECTIONS,
  importedPricesFor,
  type DropScanResponse,
  type DropSelection,
} from '@signalboard/core';
import { IconAlertTriangle, IconChartArrowsVertical, IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { EmptyFavoritesHint } from '../../components/empty-favorites-hint';
import { formatTime } from '../../components/format';
import { ScreenHeader } from '../../components/screen-header';
import { useScanDrops, type DropScanParams } from './api/scan-drops';
import { DropResults } from './drop-results';

export const SCANNING = 'Scanning All Metrics...';
export const NO_RESULTS = 'No stocks meet the criteria at the moment.';

/** Spec §5: the threshold is a number from 0 to 100, step 1. */
const THRESHOLD_MIN = 0;
const THRESHOLD_MAX = 100;
const SELECTION_OPTIONS = DROP_SELECTIONS.map((value) => ({ value, label: DROP_SELECTION_LABELS[value] }));
const isSelection = (value: string | null): value is DropSelection => DROP_SELECTIONS.includes(value as DropSelection);

/** '1 symbol could not be scanned', '2 symbols could not be scanned'. */
export const skippedMessage = (count: number) => `${count} ${count === 1 ? 'symbol' : 'symbols'} could not be scanned`;

/** Drop and Recovery Scanner (spec §2, §4 "Drop scanner", §5, §9). */
export function DropScannerScreen() {
  const [threshold, setThreshold] = useState<number | string>(DEFAULT_DROP_THRESHOLD_PERCENT);
  const [selection, setSelection] = useState<DropSelection>(DEFAULT_DROP_SELECTION);
  const scan = useScanDrops();
  const thresholdValid = typeof threshold === 'number' && threshold >= THRESHOLD_MIN && threshold <= THRESHOLD_MAX;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!thresholdValid || scan.isPending) return;
    scan.mutate({ threshold, selection });
  }

  return (
    <>
      <ScreenHeader
        title="Drop and Recovery Scanner"
        description="Find favorites that fell from a recent high, or rose from a recent low, by at least the threshold."
      />
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="lg">
          <form onSubmit={onSubmit} noValidate>
            <Group align="flex-start" gap="md" wrap="wrap">
              <NumberInput
                label="Drop Threshold (%)"
                value={threshold}
                onChange={setThreshold}
                min={THRESHOLD_MIN}
                max={THRESHOLD_MAX}
                step={1}
                allowNegative={false}
                clampBehavior="strict"
                suffix="%"
                w={{ base: '100%', xs: 180 }}
                error={thresholdValid ? undefined : 'Enter a number from 0 to 100.'}
              />
              <Select
                label="Selection"
                data={SELECTION_OPTIONS}
                value={selection}
                onChange={(value) => {
                  if (isSelection(value)) setSelection(value);
                }}
                allowDeselect={false}
                w={{ base: '100%', xs: 200 }}
              />
              <Button
                type="submit"
                leftSection={<IconSearch size={16} aria-hidden />}
                disabled={!thresholdValid || scan.isPending}
                mt={{ base: 0, xs: 25 }}
                w={{ base: '100%', xs: 'auto' }}
              >
                Search
              </Button>
            </Group>
          </form>
        </Paper>

        <ScanOutcome scan={scan} onRetry={() => scan.variables && scan.mutate(scan.variables)} />
      </Stack>
    </>
  );
}

function ScanOutcome({ scan, onRetry }: { scan: ReturnType<typeof useScanDrops>; onRetry: () => void }) {
  if (scan.isIdle) {
    return (
      <Stack align="center" gap={6} py="xl" c="dimmed">
        <IconChartArrowsVertical size={32} aria-hidden />
        <Text ta="center">Choose a threshold and a selection, then press Search to scan your favorites.</Text>
      </Stack>
    );
  }
  if (scan.isPending) {
    return (
      <Stack gap="sm" aria-busy>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{SCANNING}</Text>
        </Group>
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} h={44} radius="md" />
        ))}
      </Stack>
    );
  }
  if (scan.isError) {
    return (
      <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="The scan could not be run.">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{scan.error.message}</Text>
          <Button size="xs" color="red" onClick={onRetry}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  }
  const { variables, data } = scan;
  return <ScanResults response={data} params={variables} />;
}

function ScanResults({ response, params }: { response: DropScanResponse; params: DropScanParams }) {
  const { selection, threshold } = params;
  const [showSkipped, setShowSkipped] = useState(false);
  const { results, failed, scanned } = response;
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {results.length} of {scanned} {scanned === 1 ? 'favorite' : 'favorites'} flagged · {DROP_SELECTION_LABELS[selection]}, threshold {threshold}%
        </Text>
        <Group gap={6}>
          <Text size="xs" c="dimmed">
            as of {formatTime(response.as_of)}
            {response.imported_symbols ? ` · ${importedPricesFor(response.imported_symbols)}` : ''}
          </Text>
          {response.stale && (
            <Badge size="xs" variant="light" color="yellow">
              delayed
            </Badge>
          )}
        </Group>
      </Group>

      {failed.length > 0 && (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} p="sm">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{skippedMessage(failed.length)}</Text>
            <Button
              variant="subtle"
              color="yellow"
              size="compact-sm"
              aria-expanded={showSkipped}
              aria-controls="drop-scan-skipped"
              onClick={() => setShowSkipped((value) => !value)}
            >
              {showSkipped ? 'Hide symbols' : 'Show symbols'}
            </Button>
          </Group>
          {showSkipped && (
            <Stack component="ul" id="drop-scan-skipped" gap={2} mt="xs" mb={0} pl="md" aria-label="Symbols not scanned">
              {failed.map((failure) => (
                <Text component="li" size="sm" key={failure.symbol}>
                  <Text span fw={600} inherit>
                    {failure.symbol}
                  </Text>
                  : {failure.msg}
                </Text>
              ))}
            </Stack>
          )}
        </Alert>
      )}

      {results.length > 0 ? (
        <DropResults results={results} selection={selection} />
      ) : (
        <Stack align="center" gap={4} py="xl">
          <Text fw={500}>{NO_RESULTS}</Text>
          {scanned === 0 && failed.length === 0 ? (
            <EmptyFavoritesHint />
          ) : (
            <Text size="sm" c="dimmed" ta="center">
              Try a lower threshold or another selection.
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}

export { DropScannerScreen as Component };
