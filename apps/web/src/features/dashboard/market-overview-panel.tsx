import { Badge, Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IMPORTED_MARKER, IMPORTED_PRICES, type MarketOverview, type OverviewQuote, type SectorMove } from '@signalboard/core';
import { memo, useId } from 'react';
import { formatPrice, formatSignedPercent } from '../../components/format';
import { SymbolWithMarker } from '../../components/imported-marker';
import { LiveIndicator } from '../../components/live/live-indicator';
import { useLiveQuotes } from '../../components/live/use-live';
import type { LiveQuote } from '../../lib/live';
import { ChangeText } from './change-text';
import { formatNextChange, formatSignedPrice, heatBackground } from './dashboard-format';
import { OVERVIEW_FAILED, OVERVIEW_TITLE } from './dashboard-messages';
import { AsOf, PartFailure } from './dashboard-section';
import type { DashboardPart } from './use-dashboard-data';

type Phase = MarketOverview['market']['phase'];

/** The market's phase in words, with the colour of its badge (the word carries the meaning). */
export const PHASE_LABEL: Readonly<Record<Phase, { label: string; color: string }>> = {
  open: { label: 'Open', color: 'green' },
  'pre-market': { label: 'Pre-market', color: 'yellow' },
  'after-close': { label: 'After hours', color: 'yellow' },
  closed: { label: 'Closed', color: 'gray' },
};

/**
 * Beyond the spec: above the four parts, the market status, the index ETFs and Bitcoin, and a
 * heatmap of today's sector moves. Not one of the spec's parts: a failure here shows its own
 * message and Retry, and does not raise the screen's alert.
 */
export const MarketOverviewPanel = memo(function MarketOverviewPanel({ part, stale }: { part: DashboardPart<MarketOverview>; stale: boolean }) {
  const titleId = useId();
  const live = useLiveQuotes(part.data ? [...part.data.indices.map((quote) => quote.symbol), ...part.data.sectors.map((sector) => sector.etf)] : []);
  const overview = part.data ? withLiveOverview(part.data, live.quotes) : undefined;
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder radius="lg" className="sb-part">
      <Group justify="space-between" align="center" gap="xs" mb="md">
        <Group gap="sm" align="center">
          <Title order={2} size="h4" id={titleId}>
            {OVERVIEW_TITLE}
          </Title>
          {overview ? <MarketStatus market={overview.market} /> : !part.failed && <Skeleton h={22} w={180} radius="sm" />}
        </Group>
        {!overview && !part.failed && <Skeleton h={18} w={150} radius="sm" />}
        {overview && (
          <Group gap={6}>
            <AsOf iso={overview.asOf} prefix="Prices as of" />
            <LiveIndicator />
            {stale && (
              <Badge size="xs" variant="light" color="yellow">
                delayed
              </Badge>
            )}
          </Group>
        )}
      </Group>
      {part.failed ? (
        <PartFailure message={OVERVIEW_FAILED} detail={part.detail} retryLabel="Retry market overview" retrying={part.retrying} onRetry={part.retry} />
      ) : !overview ? (
        <OverviewLoading />
      ) : (
        <Stack gap="md">
          <IndexStrip quotes={overview.indices} />
          <SectorHeatmap sectors={overview.sectors} />
          {overview.failed.length > 0 && (
            <Text size="xs" c="dimmed">
              Not available right now: {overview.failed.map((item) => item.symbol).join(', ')}.
            </Text>
          )}
        </Stack>
      )}
    </Paper>
  );
});

function MarketStatus({ market }: { market: MarketOverview['market'] }) {
  const { label, color } = PHASE_LABEL[market.phase] ?? PHASE_LABEL.closed;
  const verb = market.phase === 'open' ? 'Closes' : 'Opens';
  return (
    <Group gap={6}>
      <VisuallyHidden>Market status:</VisuallyHidden>
      <Badge variant="light" color={color} radius="sm" tt="none">
        {label}
      </Badge>
      <Text size="sm" c="dimmed">
        {verb} <time dateTime={market.nextChange}>{formatNextChange(market.nextChange)}</time>
      </Text>
    </Group>
  );
}

function IndexStrip({ quotes }: { quotes: OverviewQuote[] }) {
  if (quotes.length === 0) return null;
  return (
    <div className="sb-grid sb-index-grid" role="list" aria-label="Indices">
      {quotes.map((quote) => (
        <IndexTile key={quote.symbol} symbol={quote.symbol} name={quote.name} price={quote.price} change={quote.change} percentChange={quote.percentChange} currency={quote.currency} imported={quote.imported} />
      ))}
    </div>
  );
}

/** One index card; its figures are its props, so a live tick redraws only the cards whose prices moved. */
const IndexTile = memo(function IndexTile(quote: Omit<OverviewQuote, 'timestamp'>) {
  return (
    <Paper role="listitem" withBorder radius="md" p="sm" aria-label={indexLabel(quote)}>
      <Group justify="space-between" gap={4} wrap="nowrap" align="baseline">
        <Text fw={700} size="sm">
          <SymbolWithMarker symbol={quote.symbol} imported={quote.imported} />
        </Text>
        <Text size="xs" c="dimmed" truncate title={quote.name}>
          {quote.name}
        </Text>
      </Group>
      <Text fw={600} size="lg">
        {formatPrice(quote.price)}
      </Text>
      <ChangeText value={quote.change} size="sm" style={{ whiteSpace: 'normal' }}>
        <span style={{ whiteSpace: 'nowrap' }}>{formatSignedPrice(quote.change)}</span>{' '}
        <span style={{ whiteSpace: 'nowrap' }}>({formatSignedPercent(quote.percentChange)})</span>
      </ChangeText>
    </Paper>
  );
});

/** The overview with newer live quotes laid over its index tiles and sector tiles (and its as-of moved up). */
export function withLiveOverview(overview: MarketOverview, live: ReadonlyMap<string, LiveQuote>): MarketOverview {
  if (live.size === 0) return overview;
  let newestMs = Date.parse(overview.asOf);
  const indices = overview.indices.map((quote) => {
    const tick = live.get(quote.symbol.toUpperCase());
    if (!tick || tick.timestamp < quote.timestamp) return quote;
    newestMs = Math.max(newestMs, tick.timestamp * 1000);
    return { ...quote, price: tick.price, change: tick.change, percentChange: tick.percentChange, timestamp: tick.timestamp };
  });
  const sectors = overview.sectors.map((sector) => {
    const tick = live.get(sector.etf.toUpperCase());
    return tick ? { ...sector, price: tick.price, percentChange: tick.percentChange } : sector;
  });
  return { ...overview, indices, sectors, asOf: new Date(newestMs).toISOString() };
}

const indexLabel = (quote: Omit<OverviewQuote, 'timestamp'>) =>
  `${quote.symbol} ${quote.name}: ${formatPrice(quote.price)} ${quote.currency}, ${formatSignedPrice(quote.change)} (${formatSignedPercent(quote.percentChange)})${quote.imported ? `, ${IMPORTED_PRICES}` : ''}`;

function SectorHeatmap({ sectors }: { sectors: SectorMove[] }) {
  if (sectors.length === 0) return null;
  const sorted = [...sectors].sort((a, b) => b.percentChange - a.percentChange);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Sectors today
      </Text>
      <div className="sb-grid sb-heat-grid" role="list" aria-label="Sector heatmap">
        {sorted.map((sector) => (
          <HeatTile key={sector.sector} sector={sector.sector} etf={sector.etf} price={sector.price} percentChange={sector.percentChange} imported={sector.imported} />
        ))}
      </div>
    </Stack>
  );
}

/** One heatmap tile; like an index card, redrawn only when its own move changes. */
const HeatTile = memo(function HeatTile(sector: SectorMove) {
  return (
    <div
      role="listitem"
      className="sb-heat-tile"
      style={{ background: heatBackground(sector.percentChange) }}
      aria-label={`${sector.sector} ${formatSignedPercent(sector.percentChange)} (${sector.etf}${sector.imported ? `, ${IMPORTED_PRICES}` : ''})`}
      title={`${sector.sector} (${sector.etf} ${formatPrice(sector.price)}${sector.imported ? `, ${IMPORTED_PRICES}` : ''})`}
    >
      <Text size="xs" fw={600} lh={1.2}>
        {sector.sector}
      </Text>
      <Group justify="space-between" gap={4} wrap="nowrap" align="baseline">
        <Text size="sm" fw={700}>
          {formatSignedPercent(sector.percentChange)}
        </Text>
        <Text size="xs" opacity={0.8}>
          {sector.imported ? `${sector.etf} · ${IMPORTED_MARKER}` : sector.etf}
        </Text>
      </Group>
    </div>
  );
});

/**
 * The overview's layout with skeletons in place of its figures: the same grids, an index card and a
 * heatmap tile as tall as loaded ones (one line of each text), so nothing moves when prices arrive.
 */
function OverviewLoading() {
  const blank = '\u00a0';
  return (
    <Stack gap="md" role="status" aria-label="Loading the market overview">
      <div className="sb-grid sb-index-grid">
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} radius="md">
            <Paper withBorder radius="md" p="sm">
              <Text fw={700} size="sm">
                {blank}
              </Text>
              <Text fw={600} size="lg">
                {blank}
              </Text>
              <Text size="sm">{blank}</Text>
            </Paper>
          </Skeleton>
        ))}
      </div>
      <Stack gap="xs">
        <Skeleton w={110} radius="sm">
          <Text size="sm" fw={600}>
            {blank}
          </Text>
        </Skeleton>
        <div className="sb-grid sb-heat-grid">
          {Array.from({ length: 11 }, (_, index) => (
            <Skeleton key={index} radius="md">
              <div className="sb-heat-tile" />
            </Skeleton>
          ))}
        </div>
      </Stack>
    </Stack>
  );
}
