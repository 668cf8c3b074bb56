import { Alert, Checkbox, List, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { PriceImportSeries } from '@signalboard/core';
import { useId } from 'react';
import { formatPrice } from '../../../components/format';
import { rangeText } from './imported-prices-table';

export interface Listing {
  description: string;
  exchange: string;
  sector: string;
}

/** The listing the preview found for a series (the source's profile, an earlier import, or the bare symbol). */
export const listingOf = (series: PriceImportSeries): Listing => ({ description: series.description, exchange: series.exchange, sector: series.sector ?? '' });

const ratioText = (value: number) => formatPrice(value, value >= 0.1 ? 2 : 4);
const count = (value: number) => formatPrice(value, 0);

/**
 * One symbol of a preview: its rows and range, the sessions it misses, its bars on closed days, its
 * possible splits (each adjustable one with its checkbox), whether the trade engines can use it, and
 * for a symbol new to the installation the listing to give it.
 */
export function PriceSeriesReport({
  series,
  adjust,
  onAdjust,
  listing,
  onListing,
}: {
  series: PriceImportSeries;
  adjust: readonly string[];
  onAdjust: (date: string, checked: boolean) => void;
  /** The listing inputs' values; null: the symbol is known, no inputs. */
  listing: Listing | null;
  onListing: (listing: Listing) => void;
}) {
  const headingId = useId();
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId}>
      <Title order={4} size="h5" id={headingId}>
        {series.symbol}
      </Title>
      <Text size="sm">
        {count(series.rows)} rows, {rangeText(series.first, series.last)}
        {series.stored_rows !== series.rows ? ` (${count(series.stored_rows)} to store)` : ''} · {count(series.missing_session_count)}{' '}
        {series.missing_session_count === 1 ? 'missing session' : 'missing sessions'} · {count(series.closed_day_bars.length)}{' '}
        {series.closed_day_bars.length === 1 ? 'bar' : 'bars'} on closed days
      </Text>
      {series.closed_day_bars.length > 0 && (
        <Text size="sm" c="dimmed">
          Bars on days the exchange was closed are not stored: {series.closed_day_bars.slice(0, 10).join(', ')}
          {series.closed_day_bars.length > 10 ? '…' : ''}
        </Text>
      )}
      {!series.usable_by_trade_engines && (
        <Alert color="yellow" variant="light" p="xs">
          <Text size="sm">
            {count(series.stored_rows)} bars: usable by the scans, not by the trade engines (they need {count(series.warmup_bars)}).
          </Text>
        </Alert>
      )}
      {series.possible_splits.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Possible splits
          </Text>
          <List size="sm" spacing={6} aria-label={`Possible splits of ${series.symbol}`}>
            {series.possible_splits.map((split) => (
              <List.Item key={split.date}>
                <Stack gap={4}>
                  <Text size="sm">
                    {split.date}: close {formatPrice(split.previous_close)} on {split.previous_date} → {formatPrice(split.close)} (ratio {ratioText(split.ratio)})
                    {split.adjustable ? '' : split.adj_ratio === null ? '; the file has no Adj Close to adjust by.' : '; the Adj Close moved too: a real move, nothing to adjust.'}
                  </Text>
                  {split.adjustable && split.adj_ratio !== null && (
                    <Checkbox
                      label={`Adjust the earlier bars (Adj Close ratio ${ratioText(split.adj_ratio)})`}
                      checked={adjust.includes(split.date)}
                      onChange={(event) => onAdjust(split.date, event.currentTarget.checked)}
                    />
                  )}
                </Stack>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      {listing && (
        <Stack gap={4}>
          <Text size="sm">{series.symbol} is new to this installation: how should it be listed?</Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
            <TextInput label="Description" maxLength={200} value={listing.description} onChange={(event) => onListing({ ...listing, description: event.currentTarget.value })} />
            <TextInput label="Exchange" maxLength={40} value={listing.exchange} onChange={(event) => onListing({ ...listing, exchange: event.currentTarget.value })} />
            <TextInput label="Sector" maxLength={80} value={listing.sector} onChange={(event) => onListing({ ...listing, sector: event.currentTarget.value })} />
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}
