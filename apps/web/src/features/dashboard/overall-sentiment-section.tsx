import { Group, Stack, Text, Title } from '@mantine/core';
import type { OverallSentiment } from '@signalboard/core';
import { formatIsoMedium } from './dashboard-format';
import { MARKET_SUMMARY_HEADING, NO_OVERALL, OVERALL_FAILED, OVERALL_TITLE } from './dashboard-messages';
import { AsOf, DashboardSection, EmptyState, PartFailure, PartLoading } from './dashboard-section';
import { SummaryBullets } from './summary-bullets';
import { ToneBadge } from './tone-badge';
import type { DashboardPart } from './use-dashboard-data';
import { memo } from 'react';

/** Spec §2 "Overall Market Sentiment": the latest summary as bullets, and when it was written. */
export const OverallSentimentSection = memo(function OverallSentimentSection({ part }: { part: DashboardPart<OverallSentiment[]> }) {
  const latest = part.data?.[0];
  return (
    <DashboardSection title={OVERALL_TITLE} asOf={latest && <AsOf iso={latest.DateCreated} />}>
      {part.failed ? (
        <PartFailure message={OVERALL_FAILED} detail={part.detail} retryLabel="Retry overall market sentiment" retrying={part.retrying} onRetry={part.retry} />
      ) : part.loading || !part.data ? (
        <PartLoading label="Loading overall market sentiment" lines={8} className="sb-overall-body" />
      ) : !latest ? (
        <EmptyState message={NO_OVERALL} hint="The summary is written from the latest market news; check back later." />
      ) : (
        <Stack gap="sm" className="sb-overall-body">
          <Group justify="space-between" gap="xs">
            <Title order={3} size="h5">
              {MARKET_SUMMARY_HEADING}
            </Title>
            <ToneBadge tone={latest.SentimentTone} score={latest.SentimentScore} />
          </Group>
          <SummaryBullets summary={latest.GptSummary} label={MARKET_SUMMARY_HEADING} />
          <Text size="xs" c="dimmed">
            Last updated: <time dateTime={latest.DateCreated}>{formatIsoMedium(latest.DateCreated)}</time>
            {latest.NewsCount > 0 && ` · from ${latest.NewsCount} news ${latest.NewsCount === 1 ? 'item' : 'items'}`}
          </Text>
        </Stack>
      )}
    </DashboardSection>
  );
});
