import { Accordion, Divider, Group, Skeleton, Stack, Text } from '@mantine/core';
import { slugify, type SectorSentiment } from '@signalboard/core';
import { formatIsoMedium, formatIsoShort, latestIso } from './dashboard-format';
import { NO_SECTORS, SECTORS_FAILED, SECTORS_TITLE } from './dashboard-messages';
import { AsOf, DashboardSection, EmptyState, PartFailure } from './dashboard-section';
import { SectorNews } from './sector-news';
import { SummaryBullets } from './summary-bullets';
import { ToneBadge } from './tone-badge';
import type { DashboardPart } from './use-dashboard-data';
import { memo } from 'react';

/** Spec §2 "Sector Sentiment & News": one accordion item per sector, its summary and its news. */
export const SectorSentimentSection = memo(function SectorSentimentSection({ part }: { part: DashboardPart<SectorSentiment[]> }) {
  const sectors = part.data;
  const asOf = sectors ? latestIso(sectors.map((sector) => sector.LastUpdatedUtc)) : null;
  return (
    <DashboardSection title={SECTORS_TITLE} asOf={<AsOf iso={asOf} />}>
      {part.failed ? (
        <PartFailure message={SECTORS_FAILED} detail={part.detail} retryLabel="Retry sector sentiments" retrying={part.retrying} onRetry={part.retry} />
      ) : part.loading || !sectors ? (
        <SectorsLoading />
      ) : sectors.length === 0 ? (
        <EmptyState message={NO_SECTORS} hint="Sector summaries are written through the day; check back later." />
      ) : (
        // A closed sector's summary and news are rendered when it opens, not with the first paint
        // (keepMounted={false}): eleven panels of bullets and news were most of the screen's first
        // render, for text nobody sees until they open a sector.
        <Accordion multiple variant="separated" order={3} chevronPosition="right" keepMounted={false}>
          {sectors.map((sector, index) => (
            // The item's value makes the ids of its control and panel (aria-controls): a slug, never the raw name.
            <Accordion.Item key={`${sector.IndicatorName}-${index}`} value={`${slugify(sector.IndicatorName)}-${index}`}>
              <Accordion.Control>
                {/* On a phone the time goes under the name and tone rather than over them. */}
                <Group justify="space-between" gap="xs" wrap="wrap" pr="xs" style={{ rowGap: 4 }}>
                  <Group gap="xs" wrap="wrap" miw={0} style={{ rowGap: 4 }}>
                    <Text fw={600} size="sm">
                      {sector.IndicatorName}
                    </Text>
                    <ToneBadge tone={sector.SentimentTone} score={sector.SentimentScore} />
                  </Group>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    as of{' '}
                    <time dateTime={sector.LastUpdatedUtc} title={formatIsoMedium(sector.LastUpdatedUtc)}>
                      {formatIsoShort(sector.LastUpdatedUtc)}
                    </time>
                  </Text>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <SummaryBullets summary={sector.GptSummary} label={`${sector.IndicatorName} summary`} />
                  <Divider label="News" labelPosition="left" />
                  <SectorNews sector={sector.IndicatorName} valueRawJson={sector.ValueRawJson} />
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </DashboardSection>
  );
});

/** The 11 GICS sectors the server summarises: one bar each, as tall as a closed accordion item. */
const GICS_SECTORS = 11;

function SectorsLoading() {
  return (
    <Stack gap="md" role="status" aria-label="Loading sector sentiments">
      {Array.from({ length: GICS_SECTORS }, (_, index) => (
        <Skeleton key={index} className="sb-sector-placeholder" radius="md" />
      ))}
    </Stack>
  );
}
