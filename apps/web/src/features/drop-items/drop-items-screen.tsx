import type { DropItem, IdeaListQuery } from '@signalboard/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { Badge, Stack, Text } from '@mantine/core';
import { useCallback, useMemo, useRef } from 'react';
import { getUserStockScannerAlerts, saveUserStockScannerAlerts } from '../../lib/api/saved-alerts';
import { changeColor, formatPercent, formatPrice, formatSignedPercent } from '../../components/format';
import type { CsvColumn } from '@signalboard/core';
import { matchesDateSymbol, type DateSymbolFilter } from '../../components/trade-ideas/filter-values';
import { IdeaStampBadges, TagBadge } from '../../components/trade-ideas/idea-badges';
import { IdeaCard, IdeaField } from '../../components/trade-ideas/idea-card';
import { IdeaListSection, type IdeaCardContext, type IdeaListTexts } from '../../components/trade-ideas/idea-list-section';
import { AlertCheckbox } from '../../components/trade-ideas/saved-alert-controls';
import { IdeaScreenFrame } from '../../components/trade-ideas/idea-screen-frame';
import type { StatusGroup } from '../../components/trade-ideas/trade-filter-bar';
import { useIdeaList } from '../../components/trade-ideas/use-idea-list';
import { useIdeaScreen } from '../../components/trade-ideas/use-idea-screen';
import { useSavedAlerts } from '../../components/trade-ideas/use-saved-alerts';
import { TONE } from '../../theme';
import { DROP_VIEW } from './drop-items-view';

export const TITLE = SCREEN_TITLES.drop;
export const EMPTY_MESSAGE = 'No items match the selected filters.';
export const LOADING_MESSAGE = 'Loading drop items...';
export const SAVE_FAILED = 'Failed to save alerts. Please try again.';
const LIST_TEXTS: IdeaListTexts = { listLabel: 'Drop items', noun: { one: 'item', many: 'items' }, loading: LOADING_MESSAGE, empty: EMPTY_MESSAGE, emptyHint: 'Tick a Deactivated box to see closed items, or widen the dates.' };

type DropType = DropItem['StockType'];
type StatusKey = `${DropType}${'Active' | 'Deactivated'}`;

export const TYPE_BADGE: Record<DropType, string> = { S: 'Short', L: 'Long', O: 'Option' };
const TYPE_LEGEND: Record<DropType, string> = { S: 'Stock Drop Short-Term', L: 'Stock Drop Long-Term', O: 'Option Drop' };
const TYPES: DropType[] = ['S', 'L', 'O'];

/**
 * Spec §2 "Drop Scanner alerts screen": per type an Active (on) and a Deactivated (off) box. Under
 * the type's heading each box's accessible name starts with it: 'Stock Drop Short-Term Active'.
 */
const FILTER_GROUPS: StatusGroup<StatusKey>[] = TYPES.map((type) => ({
  legend: TYPE_LEGEND[type],
  options: [
    { key: `${type}Active`, label: 'Active' },
    { key: `${type}Deactivated`, label: 'Deactivated' },
  ],
}));
const INITIAL_STATUSES: Record<StatusKey, boolean> = { SActive: true, SDeactivated: false, LActive: true, LDeactivated: false, OActive: true, ODeactivated: false };

/** Spec §4 "Drop alerts": Active or Deactivated by StockIsActive, per type. */
export function dropStatusKey(row: DropItem): StatusKey {
  return `${row.StockType}${row.StockIsActive ? 'Active' : 'Deactivated'}`;
}

const newestFirst = (a: DropItem, b: DropItem) =>
  Date.parse(b.StockCreatedDate) - Date.parse(a.StockCreatedDate) || (a.StockScannerId < b.StockScannerId ? -1 : a.StockScannerId > b.StockScannerId ? 1 : 0);

export function filterDrops(rows: readonly DropItem[], statuses: Record<StatusKey, boolean>, filter: DateSymbolFilter): DropItem[] {
  return rows.filter((row) => statuses[dropStatusKey(row)] && matchesDateSymbol(filter, row.StockSymbol, row.StockCreatedDate)).sort(newestFirst);
}

const SENTIMENT_TONE = { Positive: TONE.gain, Negative: TONE.loss, Neutral: 'dimmed' } as const;

export const DROP_CSV: CsvColumn<DropItem>[] = [
  { header: 'Symbol', value: (row) => row.StockSymbol },
  { header: 'Type', value: (row) => TYPE_BADGE[row.StockType] },
  { header: 'Status', value: (row) => row.Status },
  { header: 'Threshold %', value: (row) => row.DropThreshold },
  { header: 'Entry price', value: (row) => row.StockEntryPrice },
  { header: 'Current price', value: (row) => row.StockCurrentPrice },
  { header: 'Profit %', value: (row) => row.ProfitPercentage },
  { header: 'Target hit', value: (row) => (row.StockIsTarget ? 'Yes' : 'No') },
  { header: 'Target value', value: (row) => row.TargetValue },
  { header: 'Sentiment', value: (row) => row.Sentiment },
  { header: 'News', value: (row) => row.StockNews },
  { header: 'Sector', value: (row) => row.StockSectorName },
  { header: 'Contract', value: (row) => row.ContractName },
  { header: 'Option expiry', value: (row) => row.OptionExpiry },
  { header: 'Option entry', value: (row) => row.OptionEntryValue },
  { header: 'Option current', value: (row) => row.OptionCurrentValue },
  { header: 'Option profit %', value: (row) => row.OptionProfitPercent },
  { header: 'Origin', value: (row) => row.Origin },
  { header: 'Entry pending', value: (row) => row.EntryPending },
  { header: 'Created', value: (row) => row.StockCreatedDate },
  { header: 'Updated', value: (row) => row.StockUpdatedDate },
  { header: 'Close reason', value: (row) => row.CloseReason },
  { header: 'Closed', value: (row) => row.ClosedAt },
  { header: 'Rule version', value: (row) => row.RuleVersion },
  { header: 'Id', value: (row) => row.StockScannerId },
];

const STATUSES = ['Active', 'Deactivated'] as const;

/**
 * The list call's filter for the ticked boxes, exactly (so every page the server answers is of the
 * filtered list): nothing ticked, null (nothing to ask for); the same statuses ticked for each type
 * that has any, `status` (and `type` when not every type); otherwise each type with its one status
 * ('S:active'), or bare when both are ticked.
 */
export function dropServerFilter(statuses: Record<StatusKey, boolean>): Pick<IdeaListQuery, 'status' | 'type'> | null {
  const wanted = TYPES.map((type) => ({ type, statuses: STATUSES.filter((status) => statuses[`${type}${status}`]).map((status) => status.toLowerCase()) })).filter((one) => one.statuses.length > 0);
  if (wanted.length === 0) return null;
  if (new Set(wanted.map((one) => one.statuses.join(','))).size === 1) {
    return { status: wanted[0]!.statuses.join(','), ...(wanted.length < TYPES.length ? { type: wanted.map((one) => one.type).join(',') } : {}) };
  }
  return { type: wanted.map((one) => (one.statuses.length === STATUSES.length ? one.type : `${one.type}:${one.statuses[0]!}`)).join(',') };
}

/** Every active item (the saved alerts' Alert state): the same call as the default view. */
const ACTIVE_ITEMS: IdeaListQuery = { status: 'active' };

/** All Stocks Scanner, the drop items with their saved alerts (spec §2 "Drop Scanner alerts screen", §4, §5; docs/rules/drop-items.md §5). */
export function DropItemsScreen() {
  const screen = useIdeaScreen({ view: DROP_VIEW, initialStatuses: INITIAL_STATUSES, serverFilter: dropServerFilter, filterRows: filterDrops });
  // Every active item whatever the filters: which checked alerts are still active, and their types.
  const activeList = useIdeaList('drop', ACTIVE_ITEMS, screen.replay.running);
  const known = useMemo(() => {
    const map = new Map<string, DropItem>();
    for (const row of activeList.rows) map.set(row.StockScannerId, row);
    for (const row of screen.list.rows) map.set(row.StockScannerId, row);
    return map;
  }, [screen.list.rows, activeList.rows]);
  // Every active item is loaded: one that is not among them is not active (closed, or gone).
  const activeComplete = activeList.isSuccess && !activeList.hasNextPage;
  const isActive = useCallback((id: string) => known.get(id)?.StockIsActive ?? (activeComplete ? false : undefined), [known, activeComplete]);
  // The saved alerts' types, for items this screen has not loaded.
  const savedTypes = useRef(new Map<string, DropItem['StockType']>());
  const load = useCallback(async (signal: AbortSignal) => {
    const saved = await getUserStockScannerAlerts(signal);
    savedTypes.current = new Map(saved.map((alert) => [alert.stock_id, alert.trade_type]));
    return saved.map((alert) => alert.stock_id);
  }, []);
  const save = useCallback(
    // An id of no known type (neither loaded nor saved before) cannot be a drop item: it is not sent.
    (ids: string[]) =>
      saveUserStockScannerAlerts(
        ids.flatMap((id) => {
          const type = known.get(id)?.StockType ?? savedTypes.current.get(id);
          return type ? [{ stock_id: id, trade_type: type }] : [];
        }),
      ),
    [known],
  );
  const alerts = useSavedAlerts({ key: 'drop', load, save, isActive, failureMessage: SAVE_FAILED });

  return (
    <IdeaScreenFrame
      title={TITLE}
      description="Stocks and options that dropped past their threshold: short-term (S), long-term (L) and option (O) items. Tick Alert on active items and save to be alerted."
      filters={{ label: 'Drop item filters', groups: FILTER_GROUPS }}
      screen={screen}
    >
      <IdeaListSection {...screen.section} texts={LIST_TEXTS} csv={{ name: 'drop-items', columns: DROP_CSV }} idea={(row) => ({ id: row.StockScannerId, symbol: row.StockSymbol })} savedAlerts={alerts} renderCard={(row, context) => <DropCard row={row} context={context} />} />
    </IdeaScreenFrame>
  );
}

function DropCard({ row, context }: { row: DropItem; context: IdeaCardContext }) {
  const isOption = row.StockType === 'O';
  const alertName = `${row.StockSymbol} ${TYPE_BADGE[row.StockType]}${row.ContractName ? ` ${row.ContractName}` : ''}`;
  return (
    <IdeaCard
      symbol={row.StockSymbol}
      createdAt={row.StockCreatedDate}
      updatedAt={row.StockUpdatedDate}
      onDetails={context.onDetails}
      badges={
        <>
          <TagBadge>{TYPE_BADGE[row.StockType]}</TagBadge>
          {row.StockIsActive ? null : (
            <Badge variant="light" color={TONE.neutral} radius="sm">
              Deactivated
            </Badge>
          )}
          <IdeaStampBadges origin={row.Origin} entryPending={row.EntryPending} imported={row.Imported ? { symbol: row.StockSymbol } : undefined} />
        </>
      }
      footer={
        <Stack gap={6}>
          <Text size="sm">
            <Text span size="sm" c="dimmed">
              News:{' '}
            </Text>
            {row.StockNews || 'No recent news.'}
          </Text>
          {row.StockIsActive && context.alert ? <AlertCheckbox name={alertName} {...context.alert} /> : null}
        </Stack>
      }
    >
      <IdeaField label="Threshold">{formatPercent(row.DropThreshold)}</IdeaField>
      <IdeaField label={row.EntryPending ? 'Entry (signal close)' : 'Entry'}>{formatPrice(row.StockEntryPrice)}</IdeaField>
      <IdeaField label="Current">{formatPrice(row.StockCurrentPrice)}</IdeaField>
      <IdeaField label="Profit" color={changeColor(row.ProfitPercentage)}>
        {formatSignedPercent(row.ProfitPercentage)}
      </IdeaField>
      <IdeaField label="Target hit" color={row.StockIsTarget ? TONE.success : undefined}>
        {row.StockIsTarget ? 'Yes' : 'No'}
      </IdeaField>
      <IdeaField label={isOption ? 'Target value (option)' : 'Target value'}>{formatPrice(row.TargetValue)}</IdeaField>
      <IdeaField label="Sentiment" color={SENTIMENT_TONE[row.Sentiment]}>
        {row.Sentiment}
      </IdeaField>
      <IdeaField label="Sector">{row.StockSectorName ?? 'N/A'}</IdeaField>
      {isOption ? (
        <>
          <IdeaField label="Contract">{row.ContractName ?? 'N/A'}</IdeaField>
          <IdeaField label="Option expiry">{row.OptionExpiry ?? 'N/A'}</IdeaField>
          <IdeaField label="Option entry">{formatPrice(row.OptionEntryValue)}</IdeaField>
          <IdeaField label="Option current">{formatPrice(row.OptionCurrentValue)}</IdeaField>
          <IdeaField label="Option profit" color={changeColor(row.OptionProfitPercent)}>
            {formatSignedPercent(row.OptionProfitPercent)}
          </IdeaField>
        </>
      ) : null}
    </IdeaCard>
  );
}

export { DropItemsScreen as Component };
