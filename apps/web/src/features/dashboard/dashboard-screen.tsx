// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Accordion.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Divider.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/List.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import './dashboard.css';
import { memo, useDeferredValue, useRef, type ComponentType } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { ScreenHeader } from '../../components/screen-header';
import { DASHBOARD_TITLE } from './dashboard-messages';
import { EconomicIndicatorsSection } from './economic-indicators-section';
import { MarketOverviewPanel } from './market-overview-panel';
import { OverallSentimentSection } from './overall-sentiment-section';
import { SectorSentimentSection } from './sector-sentiment-section';
import { TodaysEarningsSection } from './todays-earnings-section';
import { useDashboardData, type DashboardPart } from './use-dashboard-data';
import { useDrawnWhenNear } from './use-drawn-when-near';

/** The screen's title and sentence: one element for every render, so React never draws them again. */
const HEADER = (
  <ScreenHeader
    title={DASHBOARD_TITLE}
    description="Today's market at a glance: the overall mood, sector news, key economic figures and your favorites' earnings."
  />
);

/**
 * Market Dashboard (spec §2 "Market Dashboard (main)", §4 "Dashboard loading", §7, §8 "Dashboard:",
 * §9 "Sector news"). Every part loads at once and on its own; a part that fails shows its message
 * while the others show their data, and the alert above offers to load the failed parts again.
 *
 * Each answer redraws this component at once (TanStack Query's store is read synchronously), so it
 * draws little itself: the parts are memo components, and each new version of a part is drawn in a
 * background render (useDeferredValue) that React splits into short slices — an arriving answer no
 * longer blocks a phone's CPU for the whole section (issue 24: Lighthouse's total blocking time).
 */
export function MarketDashboardScreen() {
  const data = useDashboardData();
  const overview = useDeferredValue(data.overview);
  return (
    <>
      {HEADER}
      <Stack gap="lg">
        {data.alert && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />}>
            <Group justify="space-between" gap="sm">
              <Text size="sm" fw={500}>
                {data.alert}
              </Text>
              <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={data.retryFailed} loading={data.retrying}>
                Retry
              </Button>
            </Group>
          </Alert>
        )}

        <MarketOverviewPanel part={overview} stale={data.overviewStale} />

        <LowerParts overall={data.overall} earnings={data.earnings} sectors={data.sectors} indicators={data.indicators} />
      </Stack>
    </>
  );
}

type Parts = Pick<ReturnType<typeof useDashboardData>, 'overall' | 'earnings' | 'sectors' | 'indicators'>;

/** The spec's four parts below the overview: drawn again only when one of them changed. */
const LowerParts = memo(function LowerParts({ overall, earnings, sectors, indicators }: Parts) {
  return (
    <div className="sb-lower-parts">
      <Stack gap="lg">
        <DrawnWhenNear part={overall} section={OverallSentimentSection} />
        <DrawnWhenNear part={earnings} section={TodaysEarningsSection} />
      </Stack>
      <DrawnWhenNear part={sectors} section={SectorSentimentSection} />
      <DrawnWhenNear part={indicators} section={EconomicIndicatorsSection} wide />
    </div>
  );
});

/** A part below the first screen (on a phone, all four of the spec's parts): drawn as it comes near (useDrawnWhenNear). */
function DrawnWhenNear<T>({ part, section: Section, wide = false }: { part: DashboardPart<T>; section: ComponentType<{ part: DashboardPart<T> }>; wide?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const drawn = useDrawnWhenNear(box, part);
  return (
    <div ref={box} className={wide ? 'sb-wide' : undefined}>
      <Section part={drawn} />
    </div>
  );
}

export { MarketDashboardScreen as Component };
