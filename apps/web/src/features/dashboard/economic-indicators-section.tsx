import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { periodLabel, recentIndicatorValues, type EconomicIndicator } from '@signalboard/core';
import { memo, useId, useMemo } from 'react';
import { ChangeText } from './change-text';
import { formatIndicatorChange, formatIndicatorValue, formatIsoMedium, formatIsoShort, latestIso } from './dashboard-format';
import { INDICATORS_FAILED, INDICATORS_TITLE, NO_INDICATORS, NO_SUMMARY } from './dashboard-messages';
import { AsOf, DashboardSection, EmptyState, PartFailure, PartLoading } from './dashboard-section';
import type { DashboardPart } from './use-dashboard-data';

/** Spec §2 "Key Economic Indicators": one card per indicator with its last 2 values. */
export const EconomicIndicatorsSection = memo(function EconomicIndicatorsSection({ part }: { part: DashboardPart<EconomicIndicator[]> }) {
  const indicators = part.data;
  const asOf = indicators ? latestIso(indicators.map((indicator) => indicator.LastUpdatedUtc)) : null;
  return (
    <DashboardSection title={INDICATORS_TITLE} asOf={<AsOf iso={asOf} />}>
      {part.failed ? (
        <PartFailure message={INDICATORS_FAILED} detail={part.detail} retryLabel="Retry economic indicators" retrying={part.retrying} onRetry={part.retry} />
      ) : part.loading || !indicators ? (
        <PartLoading label="Loading economic indicators" lines={4} height={48} />
      ) : indicators.length === 0 ? (
        <EmptyState message={NO_INDICATORS} hint="Indicators appear once their first figures are published." />
      ) : (
        <div className="sb-grid sb-indicator-grid">
          {indicators.map((indicator, index) => (
            <IndicatorCard key={`${indicator.IndicatorCode}-${index}`} indicator={indicator} />
          ))}
        </div>
      )}
    </DashboardSection>
  );
});

function IndicatorCard({ indicator }: { indicator: EconomicIndicator }) {
  const titleId = useId();
  const values = useMemo(() => recentIndicatorValues(indicator.ValueRawJson), [indicator.ValueRawJson]);
  const summary = indicator.GptSummary.trim();
  return (
    <Card component="article" aria-labelledby={titleId} withBorder radius="md" padding="md">
      <Stack gap="sm" h="100%">
        <Stack gap={4}>
          <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
            <Title order={3} size="h5" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {indicator.IndicatorName}
            </Title>
            <Badge variant="light" radius="sm" tt="none" style={{ flexShrink: 0 }}>
              {indicator.IndicatorCode}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {[indicator.Interval, indicator.Unit].filter((part) => part.trim()).join(' · ')}
          </Text>
        </Stack>

        {!values.ok ? (
          <Text size="sm" c="dimmed">
            The values of this indicator could not be read.
          </Text>
        ) : values.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            No recent values.
          </Text>
        ) : (
          <RecentValues values={values.items} interval={indicator.Interval} unit={indicator.Unit} />
        )}

        <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} c={summary ? undefined : 'dimmed'}>
          {summary || NO_SUMMARY}
        </Text>

        <Text size="xs" c="dimmed" mt="auto">
          as of{' '}
          <time dateTime={indicator.LastUpdatedUtc} title={formatIsoMedium(indicator.LastUpdatedUtc)}>
            {formatIsoShort(indicator.LastUpdatedUtc)}
          </time>
        </Text>
      </Stack>
    </Card>
  );
}

/** The latest value and the one before it (newest first), and the change between them. */
function RecentValues({ values, interval, unit }: { values: Array<{ date: string; value: number }>; interval: string; unit: string }) {
  const [latest, previous] = values;
  const change = latest && previous ? latest.value - previous.value : null;
  return (
    <Group gap="lg" align="flex-end" wrap="wrap">
      {latest && <Value label="Latest" date={latest.date} value={latest.value} interval={interval} unit={unit} strong />}
      {previous && <Value label="Previous" date={previous.date} value={previous.value} interval={interval} unit={unit} />}
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          Change
        </Text>
        {change === null ? (
          <Text size="sm" c="dimmed">
            N/A
          </Text>
        ) : (
          <ChangeText value={Number(change.toFixed(2))} size="sm" fw={600}>
            {formatIndicatorChange(change)}
          </ChangeText>
        )}
      </Stack>
    </Group>
  );
}

/** One value with the period it stands for ('October 2026', 'Q3 2026', 'Nov 19, 2026'); percentages with '%'. */
function Value({ label, date, value, interval, unit, strong = false }: { label: string; date: string; value: number; interval: string; unit: string; strong?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label} · <time dateTime={date}>{periodLabel(date, interval)}</time>
      </Text>
      <Text size={strong ? 'lg' : 'sm'} fw={strong ? 700 : 500}>
        {formatIndicatorValue(value)}
        {unit === 'Percent' && Number.isFinite(value) ? '%' : ''}
      </Text>
    </Stack>
  );
}
