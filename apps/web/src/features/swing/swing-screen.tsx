import type { IdeaListQuery, SwingTrade } from '@signalboard/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { Text } from '@mantine/core';
import { changeColor, formatPrice, formatSignedPercent } from '../../components/format';
import type { CsvColumn } from '@signalboard/core';
import { matchesDateSymbol, type DateSymbolFilter } from '../../components/trade-ideas/filter-values';
import { IdeaStampBadges, StatusBadge, TagBadge } from '../../components/trade-ideas/idea-badges';
import { ClosedField, IdeaCard, IdeaField } from '../../components/trade-ideas/idea-card';
import { IdeaListSection, type IdeaListTexts } from '../../components/trade-ideas/idea-list-section';
import { IdeaScreenFrame } from '../../components/trade-ideas/idea-screen-frame';
import type { StatusGroup } from '../../components/trade-ideas/trade-filter-bar';
import { useIdeaScreen } from '../../components/trade-ideas/use-idea-screen';
import { TONE } from '../../theme';
import { SWING_VIEW } from './swing-view';

export const TITLE = SCREEN_TITLES.stockshort;
export const EMPTY_MESSAGE = 'No trades match the selected filters.';
export const LOADING_MESSAGE = 'Loading trades...';
const LIST_TEXTS: IdeaListTexts = { listLabel: 'Short-term trades', noun: { one: 'trade', many: 'trades' }, loading: LOADING_MESSAGE, empty: EMPTY_MESSAGE, emptyHint: 'Tick a Successful or Failed box to see closed trades, or widen the dates.' };

/** The trade-type groups of spec §4: Trend (not a drop), Price Drop (a drop), Level System (NearSupport). */
type Kind = 'trend' | 'drop' | 'level';
type StatusKey = 'active' | `${Kind}Successful` | `${Kind}Failed`;

export const KIND_BADGE: Record<Kind, string> = { trend: 'Trend Based', drop: 'Price Drop Based', level: 'Level System Based' };
const KIND_LEGEND: Record<Kind, string> = { trend: 'Trend Based', drop: 'Price Drop Based', level: 'Level Systems' };
const KINDS: Kind[] = ['trend', 'drop', 'level'];

const FILTER_GROUPS: StatusGroup<StatusKey>[] = [
  { options: [{ key: 'active', label: 'Active Trades' }] },
  ...KINDS.map(
    (kind): StatusGroup<StatusKey> => ({
      legend: KIND_LEGEND[kind],
      options: [
        { key: `${kind}Successful`, label: 'Successful' },
        { key: `${kind}Failed`, label: 'Failed' },
      ],
    }),
  ),
];
const INITIAL_STATUSES: Record<StatusKey, boolean> = {
  active: true,
  trendSuccessful: false,
  trendFailed: false,
  dropSuccessful: false,
  dropFailed: false,
  levelSuccessful: false,
  levelFailed: false,
};

/** The groups a trade belongs to: its type, and Level System too when it was near support. */
export function kindsOf(row: SwingTrade): Kind[] {
  return [row.IsDrop ? 'drop' : 'trend', ...(row.NearSupport ? (['level'] as const) : [])];
}

/**
 * Whether the status checkboxes show a trade: Active ones under Active Trades; closed ones under
 * their groups' Successful (Partial too, with its badge) or Failed.
 */
export function statusShows(row: SwingTrade, statuses: Record<StatusKey, boolean>): boolean {
  if (row.Status === 'Active') return statuses.active;
  const bucket = row.Status === 'Failed' ? 'Failed' : 'Successful';
  return kindsOf(row).some((kind) => statuses[`${kind}${bucket}`]);
}

const newestFirst = (a: SwingTrade, b: SwingTrade) => Date.parse(b.DateCreated) - Date.parse(a.DateCreated);

export function filterSwing(rows: readonly SwingTrade[], statuses: Record<StatusKey, boolean>, filter: DateSymbolFilter): SwingTrade[] {
  return rows.filter((row) => statusShows(row, statuses) && matchesDateSymbol(filter, row.Symbol, row.DateCreated)).sort(newestFirst);
}

const sameStatuses = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((status) => b.includes(status));

/**
 * The list call's filter for the ticked boxes, exactly (so every page the server answers is of the
 * filtered list, and the count is what the boxes select): nothing ticked, null (nothing to ask for).
 * A trade is Trend or Price Drop, and Level System on top of either; a kind's Successful box wants
 * its successful and partial trades, Failed its failed ones, Active Trades the active ones of any kind.
 * When Trend and Price Drop want the same closed statuses and Level Systems none other, `status`
 * alone says it; closed trades only, the same statuses for each kind that has any, `status` and
 * `type`; otherwise each kind with each status wanted of it ('trend:active,drop:failed,level:failed').
 */
export function swingServerFilter(statuses: Record<StatusKey, boolean>): Pick<IdeaListQuery, 'status' | 'type'> | null {
  const closedOf = (kind: Kind) => [...(statuses[`${kind}Successful`] ? ['successful', 'partial'] : []), ...(statuses[`${kind}Failed`] ? ['failed'] : [])];
  const active = statuses.active ? ['active'] : [];
  const [trend, drop, level] = KINDS.map(closedOf) as [string[], string[], string[]];
  const kinds = KINDS.filter((kind) => closedOf(kind).length > 0);
  if (active.length === 0 && kinds.length === 0) return null;
  if (sameStatuses(trend, drop) && level.every((status) => trend.includes(status))) return { status: [...active, ...trend].join(',') };
  const first = closedOf(kinds[0]!);
  if (active.length === 0 && kinds.every((kind) => sameStatuses(closedOf(kind), first))) return { status: first.join(','), type: kinds.join(',') };
  const entries = [...(active.length > 0 ? ['trend:active', 'drop:active'] : []), ...KINDS.flatMap((kind) => closedOf(kind).map((status) => `${kind}:${status}`))];
  return { type: entries.join(',') };
}

export const SWING_CSV: CsvColumn<SwingTrade>[] = [
  { header: 'Symbol', value: (row) => row.Symbol },
  { header: 'Status', value: (row) => row.Status },
  { header: 'Type', value: (row) => row.TradeType },
  { header: 'Level System', value: (row) => row.NearSupport },
  { header: 'Origin', value: (row) => row.Origin },
  { header: 'Entry pending', value: (row) => row.EntryPending },
  { header: 'Created', value: (row) => row.DateCreated },
  { header: 'Updated', value: (row) => row.DateUpdated },
  { header: 'Entry price', value: (row) => row.EntryPrice },
  { header: 'Current price', value: (row) => row.CurrentPrice },
  { header: '5% target', value: (row) => row.Target1Price },
  { header: '5% target hit', value: (row) => row.IsProfit1 },
  { header: '10% target', value: (row) => row.Target2Price },
  { header: '10% target hit', value: (row) => row.IsProfit2 },
  { header: 'Stop', value: (row) => row.StopPrice },
  { header: 'Profit %', value: (row) => row.CurrentProfit },
  { header: 'Close reason', value: (row) => row.CloseReason },
  { header: 'Closed', value: (row) => row.ClosedAt },
  { header: 'Exit fill', value: (row) => row.ExitPrice },
  { header: 'Rule version', value: (row) => row.RuleVersion },
  { header: 'Id', value: (row) => row.Id },
];

/** Stock Short-Term Trades (spec §2 "Short-term trades screen", §4; docs/rules/swing.md §2). */
export function SwingScreen() {
  const screen = useIdeaScreen({ view: SWING_VIEW, initialStatuses: INITIAL_STATUSES, serverFilter: swingServerFilter, filterRows: filterSwing });

  return (
    <IdeaScreenFrame
      title={TITLE}
      description="High-volume stocks held for up to a month: enter on a new alert, exit with limit orders at the 5% and 10% profit targets. Price Drop trades bet on a rebound (mean reversion), Trend trades on continuation."
      filters={{ label: 'Trade filters', groups: FILTER_GROUPS }}
      screen={screen}
    >
      <IdeaListSection {...screen.section} texts={LIST_TEXTS} csv={{ name: 'short-term-trades', columns: SWING_CSV }} idea={(row) => ({ id: row.Id, symbol: row.Symbol })} renderCard={(row, { onDetails }) => <SwingCard row={row} onDetails={onDetails} />} />
    </IdeaScreenFrame>
  );
}

function TargetValue({ price, hit }: { price: number; hit: boolean }) {
  return (
    <>
      {formatPrice(price)}
      {hit ? (
        <Text span size="sm" fw={600} c={TONE.success}>
          {' '}
          · Hit
        </Text>
      ) : null}
    </>
  );
}

function SwingCard({ row, onDetails }: { row: SwingTrade; onDetails: () => void }) {
  return (
    <IdeaCard
      symbol={row.Symbol}
      createdAt={row.DateCreated}
      updatedAt={row.DateUpdated}
      onDetails={onDetails}
      badges={
        <>
          <StatusBadge status={row.Status} />
          {kindsOf(row).map((kind) => (
            <TagBadge key={kind}>{KIND_BADGE[kind]}</TagBadge>
          ))}
          {row.EarningsSoon ? <TagBadge>Earnings soon</TagBadge> : null}
          <IdeaStampBadges origin={row.Origin} entryPending={row.EntryPending} imported={row.Imported ? { symbol: row.Symbol } : undefined} />
        </>
      }
    >
      <IdeaField label={row.EntryPending ? 'Entry price (signal close)' : 'Entry price'}>{formatPrice(row.EntryPrice)}</IdeaField>
      <IdeaField label="Current price">{formatPrice(row.CurrentPrice)}</IdeaField>
      <IdeaField label={`${row.PercentProfitTarget1}% target`}>
        <TargetValue price={row.Target1Price} hit={row.IsProfit1} />
      </IdeaField>
      <IdeaField label={`${row.PercentProfitTarget2}% target`}>
        <TargetValue price={row.Target2Price} hit={row.IsProfit2} />
      </IdeaField>
      <IdeaField label="Profit" color={changeColor(row.CurrentProfit)}>
        {formatSignedPercent(row.CurrentProfit)}
      </IdeaField>
      <IdeaField label="Stop">{formatPrice(row.StopPrice)}</IdeaField>
      <ClosedField row={row} />
    </IdeaCard>
  );
}

export { SwingScreen as Component };
