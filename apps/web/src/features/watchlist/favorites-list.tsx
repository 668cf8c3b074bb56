import { ActionIcon, Badge, Box, Group, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import type { FavoriteQuotesResponse } from '@signalboard/core';
import { IconArrowDownRight, IconArrowUpRight, IconX } from '@tabler/icons-react';
import { changeColor, formatPrice, formatSignedPercent } from '../../components/format';
import { sameSymbol, type FavoriteRow } from './favorites-editing';

type Quote = FavoriteQuotesResponse['quotes'][number];

interface FavoritesListProps {
  favorites: readonly FavoriteRow[];
  /** The saved list: rows not in it are marked as not saved yet (they have no price until saved). */
  saved: readonly FavoriteRow[];
  quotes: FavoriteQuotesResponse | undefined;
  quotesLoading: boolean;
  onRemove: (symbol: string) => void;
}

/** 'Imported close, Oct 14, 2008': the price is an imported file's last bar, not a quote (docs/data-in-and-out.md). */
export const importedCloseLabel = (timestamp: number) =>
  `Imported close, ${new Date(timestamp * 1000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}`;

const signed = (value: number) => `${value > 0 ? '+' : ''}${formatPrice(value)}`;

/** The rows under 'Your Favorites:' (spec §2): 'symbol - description', its price, and a × to remove it. */
export function FavoritesList({ favorites, saved, quotes, quotesLoading, onRemove }: FavoritesListProps) {
  return (
    <Box component="ul" aria-label="Your Favorites" m={0} p={0} style={{ listStyle: 'none' }}>
      {favorites.map((row, index) => {
        const quote = quotes?.quotes.find((q) => sameSymbol(q.symbol, row.symbol));
        const failure = quotes?.failed.find((f) => sameSymbol(f.symbol, row.symbol));
        const unsaved = !saved.some((s) => sameSymbol(s.symbol, row.symbol));
        return (
          <Box
            component="li"
            key={row.symbol}
            py="xs"
            px="sm"
            style={{ borderTop: index === 0 ? undefined : '1px solid var(--mantine-color-default-border)' }}
          >
            <Group justify="space-between" wrap="nowrap" gap="sm" align="center" mih={40}>
              <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                <Text span fw={600} inherit>
                  {row.symbol}
                </Text>
                {' - '}
                {row.description}
              </Text>
              <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
                <QuoteCell quote={quote} failure={failure?.msg} unsaved={unsaved} loading={quotesLoading} />
                <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${row.symbol}`} onClick={() => onRemove(row.symbol)}>
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          </Box>
        );
      })}
    </Box>
  );
}

function QuoteCell({ quote, failure, unsaved, loading }: { quote?: Quote; failure?: string; unsaved: boolean; loading: boolean }) {
  if (quote) {
    const color = changeColor(quote.change);
    const Arrow = quote.change < 0 ? IconArrowDownRight : IconArrowUpRight;
    return (
      <Stack gap={0} align="flex-end">
        <Text size="sm" fw={600} ta="right">
          {formatPrice(quote.current_price)}
        </Text>
        <Group gap={2} wrap="nowrap" justify="flex-end">
          {color !== 'dimmed' && <Arrow size={12} aria-hidden color={`var(--mantine-color-${color}-text)`} />}
          <Text size="xs" c={color} ta="right" style={{ whiteSpace: 'nowrap' }}>
            {signed(quote.change)} ({formatSignedPercent(quote.percent_change)})
          </Text>
        </Group>
        {quote.last_bar && (
          <Text size="xs" c="dimmed" ta="right" style={{ whiteSpace: 'nowrap' }}>
            {importedCloseLabel(quote.timestamp)}
          </Text>
        )}
      </Stack>
    );
  }
  if (unsaved) {
    return (
      <Tooltip label="Save to keep it and see its price">
        <Badge variant="light" color="yellow" size="sm" tt="none" tabIndex={0}>
          Not saved
        </Badge>
      </Tooltip>
    );
  }
  if (loading) return <Skeleton h={30} w={92} aria-label="Loading price" />;
  return (
    <Tooltip label={failure ?? 'No price is available for this symbol right now.'}>
      <Text size="xs" c="dimmed" tabIndex={0}>
        No price
      </Text>
    </Tooltip>
  );
}
