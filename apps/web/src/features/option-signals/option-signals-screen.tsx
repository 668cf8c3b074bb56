// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { Alert, Button, Center, Group, List, Loader, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  CALL_RSI_14_BELOW,
  CALL_RSI_DAILY_BELOW,
  LEVEL_PROXIMITY,
  OPTION_THRESHOLD_1M,
  OPTION_THRESHOLD_6M,
  PUT_RSI_14_ABOVE,
  PUT_RSI_DAILY_ABOVE,
  SCREEN_TITLES,
  importedPricesFor,
} from '@signalboard/core';
import { IconAlertTriangle, IconCheck, IconPlayerStop, IconRadar, IconRefresh, IconSearch } from '@tabler/icons-react';
import { ScreenHeader } from '../../components/screen-header';
import { TONE } from '../../theme';
import { formatTime } from '../../components/format';
import { OptionResults } from './option-results';
import { skippedSummary, type OptionScanState } from './option-scan-state';
import { useOptionScan } from './use-option-scan';

export const EMPTY_MESSAGE = 'No stocks meet the criteria at the moment.';
export const RUNNING_MESSAGE = 'Scanning metrics...';

const pct = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** Option Signals, the spec's Options Scanner screen (spec §2 "Options Scanner screen (options)", §4 "Option Scanner flagging", §5 rule). */
export function OptionScannerScreen() {
  const { state, start, stop } = useOptionScan();
  const running = state.status === 'running';

  return (
    <>
      <ScreenHeader
        title={SCREEN_TITLES.options}
        description="Checks each favorite against its 1- and 6-month highs and lows for a CALL or PUT setup, confirmed by RSI, a volume level and sector sentiment."
      />
      <Stack gap="md">
        <Group gap="sm">
          <Button leftSection={<IconRadar size={18} />} onClick={() => void start()} disabled={running}>
            Start Scanning
          </Button>
          {running ? (
            <Button variant="default" leftSection={<IconPlayerStop size={18} />} onClick={stop}>
              Stop
            </Button>
          ) : null}
          {state.status === 'done' && state.asOf !== null ? (
            <Text size="xs" c="dimmed">
              Data as of {formatTime(state.asOf)}
              {state.importedSymbols > 0 ? ` · ${importedPricesFor(state.importedSymbols)}` : ''}
            </Text>
          ) : null}
        </Group>

        {state.status === 'idle' ? <RuleHint /> : state.status === 'failed' && state.total === null ? null : <ScanProgress state={state} />}

        {state.status === 'failed' ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="The scan could not finish">
            <Group justify="space-between" gap="sm">
              <Text size="sm">{state.error}</Text>
              <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={() => void start()}>
                Retry
              </Button>
            </Group>
          </Alert>
        ) : null}

        {state.skipped.length > 0 ? (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} />} title={skippedSummary(state.skipped.length)}>
            <List size="sm" spacing={2}>
              {state.skipped.map((failure) => (
                <List.Item key={failure.symbol}>
                  <Text span fw={600} size="sm">
                    {failure.symbol}
                  </Text>
                  : {failure.msg}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}

        {state.flags.length > 0 ? <OptionResults flags={state.flags} /> : null}

        {state.status === 'done' && state.flags.length === 0 ? (
          <Center py="xl">
            <Stack align="center" gap={6} maw={520}>
              <ThemeIcon variant="light" color="gray" size={44} radius="xl">
                <IconSearch size={22} />
              </ThemeIcon>
              <Text fw={600}>{EMPTY_MESSAGE}</Text>
              <Text size="sm" c="dimmed" ta="center">
                {state.total === 0
                  ? 'You have no favorites yet: add stocks on the WatchList, then scan again.'
                  : 'Setups are rare by design. Scan again later in the session, or add more favorites on the WatchList.'}
              </Text>
            </Stack>
          </Center>
        ) : null}
      </Stack>
    </>
  );
}

/** 'Scanning metrics...' with 'n of N' and a bar while running; the outcome once it ends. */
function ScanProgress({ state }: { state: OptionScanState }) {
  const { status, done, total } = state;
  const value = total ? (done / total) * 100 : status === 'done' ? 100 : 0;
  const count = total === null ? null : `${done} of ${total}`;
  const heading =
    status === 'running' ? RUNNING_MESSAGE : status === 'done' ? (total !== null && done < total ? 'Scan ended early' : 'Scan complete') : status === 'stopped' ? 'Scan stopped' : 'Scan failed';
  return (
    <Paper withBorder radius="md" p="md" aria-label="Scan progress" component="section">
      <Group justify="space-between" mb={8} wrap="nowrap">
        <Group gap={8} wrap="nowrap">
          {status === 'running' ? <Loader size={16} /> : status === 'done' ? <IconCheck size={18} color={`var(--mantine-color-${TONE.success}-text)`} aria-hidden /> : null}
          <Text fw={600} size="sm" aria-live="polite">
            {heading}
          </Text>
        </Group>
        {count ? (
          <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {count}
          </Text>
        ) : null}
      </Group>
      <Progress.Root size="md" radius="xl" transitionDuration={150}>
        <Progress.Section
          value={value}
          color={status === 'failed' ? TONE.failure : status === 'done' ? TONE.success : status === 'stopped' ? TONE.neutral : undefined}
          animated={status === 'running'}
          striped={status === 'running'}
          aria-label={count ? `Scanned ${count}` : 'Starting the scan'}
        />
      </Progress.Root>
      {status === 'stopped' ? (
        <Text size="xs" c="dimmed" mt={8}>
          Stopped before the end: the rows found so far are shown. Start Scanning runs a new scan.
        </Text>
      ) : null}
    </Paper>
  );
}

/** What the scan looks for (spec §5), before the first scan. */
function RuleHint() {
  return (
    <Paper withBorder radius="md" p="md" style={{ borderStyle: 'dashed' }}>
      <Text size="sm" fw={600} mb={6}>
        Press Start Scanning to check your favorites.
      </Text>
      <List size="sm" c="dimmed" spacing={4}>
        <List.Item>
          <Text span fw={600} c={TONE.gain}>
            CALL
          </Text>{' '}
          after a drop of {pct(OPTION_THRESHOLD_1M)} from the 1-month high (short term) or {pct(OPTION_THRESHOLD_6M)} from the 6-month
          high (long term), with 14-day RSI below {CALL_RSI_14_BELOW}, today's RSI below {CALL_RSI_DAILY_BELOW} and a bullish sector.
        </List.Item>
        <List.Item>
          <Text span fw={600} c={TONE.loss}>
            PUT
          </Text>{' '}
          after the same rise from the 1- or 6-month low, with 14-day RSI above {PUT_RSI_14_ABOVE}, today's RSI above {PUT_RSI_DAILY_ABOVE}{' '}
          and a bearish sector.
        </List.Item>
        <List.Item>Both need a high-volume price level within {pct(LEVEL_PROXIMITY)} of the price.</List.Item>
      </List>
    </Paper>
  );
}

export { OptionScannerScreen as Component };
