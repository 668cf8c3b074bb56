import { Table, Text } from '@mantine/core';
import type { EarningsRow } from '@signalboard/core';
import { formatPrice, formatSignedPercent } from '../../components/format';
import { ChangeText } from './change-text';
import { formatSignedPrice } from './dashboard-format';
import { EARNINGS_FAILED, EARNINGS_TITLE, NO_EARNINGS } from './dashboard-messages';
import { AsOf, DashboardSection, EmptyState, PartFailure, PartLoading } from './dashboard-section';
import type { DashboardPart } from './use-dashboard-data';
import { memo } from 'react';

const eps = (value: number | null | undefined) => (value === null || value === undefined ? 'N/A' : formatPrice(value));
const numberCell = { textAlign: 'right', whiteSpace: 'nowrap' } as const;
const numberHeader = { textAlign: 'right' } as const;

/** Spec §2 "Today's Earnings (Favorites)": each release today of a favourite symbol. */
export const TodaysEarningsSection = memo(function TodaysEarningsSection({ part }: { part: DashboardPart<EarningsRow[]> }) {
  const asOf = part.data && part.updatedAt > 0 ? new Date(part.updatedAt).toISOString() : null;
  return (
    <DashboardSection title={EARNINGS_TITLE} asOf={<AsOf iso={asOf} />}>
      {part.failed ? (
        <PartFailure message={EARNINGS_FAILED} detail={part.detail} retryLabel="Retry today's earnings" retrying={part.retrying} onRetry={part.retry} />
      ) : part.loading || !part.data ? (
        <PartLoading label="Loading today's earnings" lines={3} height={28} className="sb-earnings-body" />
      ) : part.data.length === 0 ? (
        <EmptyState message={NO_EARNINGS} hint="Add the stocks you follow on the WatchList to see their releases here." />
      ) : (
        <EarningsTable rows={part.data} />
      )}
    </DashboardSection>
  );
});

function EarningsTable({ rows }: { rows: EarningsRow[] }) {
  return (
    // Scrolls sideways on a phone: focusable, so the keyboard can scroll it too (WCAG 2.1.1).
    <Table.ScrollContainer minWidth={280} type="native" tabIndex={0} role="region" aria-label="Today's earnings table">
      <Table verticalSpacing="xs" horizontalSpacing={6} highlightOnHover aria-label="Today's earnings releases of your favorites">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Symbol</Table.Th>
            <Table.Th style={numberHeader}>EPS Estimate</Table.Th>
            <Table.Th style={numberHeader}>EPS Actual</Table.Th>
            <Table.Th style={numberHeader}>Surprise</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={`${row.symbol}:${row.date}:${row.time}`}>
              <Table.Td>
                <Text fw={700} size="sm">
                  {row.symbol}
                </Text>
                <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
                  {row.time}
                </Text>
              </Table.Td>
              <Table.Td style={numberCell}>{eps(row.eps_estimate)}</Table.Td>
              <Table.Td style={numberCell}>
                <Text size="sm">{eps(row.eps_actual)}</Text>
                {row.difference !== null && row.difference !== undefined && Number.isFinite(row.difference) && (
                  <ChangeText value={row.difference} size="xs" arrow={false}>
                    {formatSignedPrice(row.difference)}
                  </ChangeText>
                )}
              </Table.Td>
              <Table.Td style={numberCell}>
                {row.surprise_percent === null || row.surprise_percent === undefined ? (
                  'N/A'
                ) : (
                  <ChangeText value={row.surprise_percent} size="sm" fw={600} arrow={false}>
                    {formatSignedPercent(row.surprise_percent)}
                  </ChangeText>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
