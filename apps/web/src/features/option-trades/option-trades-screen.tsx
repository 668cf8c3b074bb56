import '@mantine/core/styles/List.layer.css';
import type { IdeaListQuery, OptionTrade } from '@signalboard/core';
import { optionStrengthBand, optionStrengthScore, SCREEN_TITLES, type StrengthColour } from '@signalboard/core';
import { Badge, List } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { getUserOptionAlerts, saveUserOptionAlerts } from '../../lib/api/saved-alerts';
import { changeColor, formatPrice, formatSignedPercent } from '../../components/format';
import type { CsvColumn } from '@signalboard/core';
import { matchesDateSymbol, type DateSymbolFilter } from '../../components/trade-ideas/filter-values';
import { IdeaStampBadges, NewBadge, StatusBadge, TagBadge } from '../../components/trade-ideas/idea-badges';
import { ClosedField, IdeaCard, IdeaField } from '../../components/trade-ideas/idea-card';
import { IdeaListSection, type IdeaCardContext, type IdeaListTexts } from '../../components/trade-ideas/idea-list-section';
import { AlertCheckbox } from '../../components/trade-ideas/saved-alert-controls';
import { IdeaScreenFrame } from '../../components/trade-ideas/idea-screen-frame';
import type { StatusGroup } from '../../components/trade-ideas/trade-filter-bar';
import { useIdeaList } from '../../components/trade-ideas/use-idea-list';
import { useIdeaScreen } from '../../components/trade-ideas/use-idea-screen';
import { useSavedAlerts } from '../../components/trade-ideas/use-saved-alerts';
import { TONE } from '../../theme';
import { OPTIONS_VIEW } from './option-trades-view';

export const TITLE = SCREEN_TITLES.options2;
export const EMPTY_MESSAGE = 'No options match the selected filters.';
export const LOADING_MESSAGE = 'Loading option trades...';
export const SAVE_FAILED = 'Failed to save alerts.';
const LIST_TEXTS: IdeaListTexts = { listLabel: 'Option trades', noun: { one: 'trade', many: 'trades' }, loading: LOADING_MESSAGE, empty: EMPTY_MESSAGE, emptyHint: 'Tick Sucessful Trades or Failed Trades to see closed trades, or widen the dates.' };
/** The hit rate a +30% target against a −50% stop needs to break even: 50 / (30 + 50) (docs/rules/option-trades.md §4.4). */
export const OPTION_BREAK_EVEN = 0.625;

type StatusKey = 'active' | 'successful' | 'failed';
export type OptionStatus = 'Active' | 'Successful' | 'Failed';

/** Spec §2 "Option trades screen": the labels as the spec spells them. */
const FILTER_GROUPS: StatusGroup<StatusKey>[] = [
  {
    options: [
      { key: 'active', label: 'Current Trades' },
      { key: 'successful', label: 'Sucessful Trades' },
      { key: 'failed', label: 'Failed Trades' },
    ],
  },
];
const INITIAL_STATUSES: Record<StatusKey, boolean> = { active: true, successful: false, failed: false };

/** Spec §4 "Option trade filters": Active when IsActive; Successful when inactive with the target hit; Failed otherwise. */
export function optionStatus(row: OptionTrade): OptionStatus {
  if (row.IsActive) return 'Active';
  return row.IsTargetHit ? 'Successful' : 'Failed';
}

const STATUS_KEY: Record<OptionStatus, StatusKey> = { Active: 'active', Successful: 'successful', Failed: 'failed' };

/** Profit % highest first (spec §4); ties newest first, then by id, so the order is stable. */
export function byProfitDescending(a: OptionTrade, b: OptionTrade): number {
  return b.ProfitPercent - a.ProfitPercent || Date.parse(b.CreatedDate) - Date.parse(a.CreatedDate) || (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0);
}

export function filterOptions(rows: readonly OptionTrade[], statuses: Record<StatusKey, boolean>, filter: DateSymbolFilter): OptionTrade[] {
  return rows.filter((row) => statuses[STATUS_KEY[optionStatus(row)]] && matchesDateSymbol(filter, row.Symbol, row.CreatedDate)).sort(byProfitDescending);
}

/** The list call's status for the checkboxes (null: none ticked, nothing to ask for). */
export function optionServerFilter(statuses: Record<StatusKey, boolean>): Pick<IdeaListQuery, 'status'> | null {
  const status = (['active', 'successful', 'failed'] as const).filter((key) => statuses[key]);
  return status.length === 0 ? null : { status: status.join(',') };
}

/** The strength band's colour as a theme tone (red below 30, yellow 30–69, green 70 and above). */
const BAND_TONE: Record<StrengthColour, string> = { red: TONE.failure, yellow: TONE.middling, green: TONE.success };
const BAND_WORD = { low: 'weak', medium: 'medium', high: 'strong' } as const;

/** The spec's strength score (core's one definition) and its band. */
export function optionStrength(row: OptionTrade) {
  const score = optionStrengthScore(row);
  const { band, colour } = optionStrengthBand(score);
  return { score, band, colour, tone: BAND_TONE[colour], word: BAND_WORD[band] };
}

export const OPTIONS_CSV: CsvColumn<OptionTrade>[] = [
  { header: 'Symbol', value: (row) => row.Symbol },
  { header: 'Contract', value: (row) => row.ContractName },
  { header: 'Status', value: (row) => optionStatus(row) },
  { header: 'Side', value: (row) => row.Side },
  { header: 'Strike', value: (row) => row.Strike },
  { header: 'Expiry', value: (row) => row.Expiry },
  { header: 'Entry value', value: (row) => row.EntryValue },
  { header: 'Current value', value: (row) => row.Current_Value },
  { header: 'Profit %', value: (row) => row.ProfitPercent },
  { header: 'Strength', value: (row) => optionStrengthScore(row) },
  { header: 'Volume', value: (row) => row.VolumeSpikeCheck === '1' },
  { header: 'Level System', value: (row) => row.IsLevel },
  { header: 'Stock price', value: (row) => row.CurrentPriceStock },
  { header: 'Price source', value: (row) => row.PriceSource },
  { header: 'Origin', value: (row) => row.Origin },
  { header: 'Entry pending', value: (row) => row.EntryPending },
  { header: 'Created', value: (row) => row.CreatedDate },
  { header: 'Updated', value: (row) => row.LastUpdatedDate },
  { header: 'Close reason', value: (row) => row.CloseReason },
  { header: 'Closed', value: (row) => row.ClosedAt },
  { header: 'Exit value', value: (row) => row.ExitValue },
  { header: 'Rule version', value: (row) => row.RuleVersion },
  { header: 'Id', value: (row) => row.OptionsChainId },
];

/** Options Scanner, the option trades (spec §2 "Option trades screen", §4, §5; docs/rules/option-trades.md §4). */
export function OptionTradesScreen() {
  const screen = useIdeaScreen({ view: OPTIONS_VIEW, initialStatuses: INITIAL_STATUSES, serverFilter: optionServerFilter, filterRows: filterOptions });
  // The active trades whatever the filters (the same call as the default view): which checked alerts are still active.
  const activeList = useIdeaList('options', { status: 'active' }, screen.replay.running);
  const known = useMemo(() => {
    const map = new Map<string, boolean>();
    for (const row of screen.list.rows) map.set(row.OptionsChainId, row.IsActive);
    for (const row of activeList.rows) map.set(row.OptionsChainId, row.IsActive);
    return map;
  }, [screen.list.rows, activeList.rows]);
  // Every active trade is loaded: one that is not among them is closed (or gone).
  const activeComplete = activeList.isSuccess && !activeList.hasNextPage;
  const isActive = useCallback((id: string) => known.get(id) ?? (activeComplete ? false : undefined), [known, activeComplete]);
  const alerts = useSavedAlerts({ key: 'options', load: getUserOptionAlerts, save: saveUserOptionAlerts, isActive, failureMessage: SAVE_FAILED });

  return (
    <IdeaScreenFrame
      title={TITLE}
      description="Option trades opened on new alerts, with their current value, profit and strength."
      intro={
        <List size="sm" spacing={2} aria-label="How to trade these alerts">
          <List.Item>Enter on a new alert.</List.Item>
          <List.Item>Exit while the trade is active, or with a limit order at a 30% profit target.</List.Item>
          <List.Item>The stop loss is 50% of the option price.</List.Item>
          <List.Item>Trades with a Volume tag are more likely to succeed (bi-weekly hold): the track record below shows whether the data agrees.</List.Item>
        </List>
      }
      filters={{ label: 'Option trade filters', groups: FILTER_GROUPS }}
      screen={screen}
      targetHitBreakEven={OPTION_BREAK_EVEN}
    >
      <IdeaListSection {...screen.section} texts={LIST_TEXTS} csv={{ name: 'option-trades', columns: OPTIONS_CSV }} idea={(row) => ({ id: row.OptionsChainId, symbol: row.Symbol })} savedAlerts={alerts} renderCard={(row, context) => <OptionCard row={row} context={context} />} />
    </IdeaScreenFrame>
  );
}

function OptionCard({ row, context }: { row: OptionTrade; context: IdeaCardContext }) {
  const status = optionStatus(row);
  const strength = optionStrength(row);
  return (
    <IdeaCard
      symbol={row.Symbol}
      createdAt={row.CreatedDate}
      updatedAt={row.LastUpdatedDate}
      onDetails={context.onDetails}
      badges={
        <>
          <StatusBadge status={status} />
          {row.NewTrade ? <NewBadge /> : null}
          {row.VolumeSpikeCheck === '1' ? <TagBadge>Volume</TagBadge> : null}
          {row.IsLevel ? <TagBadge>Level System</TagBadge> : null}
          {row.PriceSource === 'model' ? (
            <Badge variant="outline" color={TONE.neutral} radius="sm" title="No option chain for the day priced: the value is the model's (Black–Scholes)">
              model
            </Badge>
          ) : null}
          <IdeaStampBadges origin={row.Origin} entryPending={row.EntryPending} imported={row.Imported ? { symbol: row.Symbol } : undefined} />
        </>
      }
      footer={status === 'Active' && context.alert ? <AlertCheckbox name={`${row.Symbol} ${row.ContractName}`} {...context.alert} /> : null}
    >
      <IdeaField label="Contract">{row.ContractName}</IdeaField>
      <IdeaField label="Side" color={row.Side === 'CALL' ? TONE.gain : TONE.loss}>
        {row.Side}
      </IdeaField>
      <IdeaField label="Strike">{formatPrice(row.Strike)}</IdeaField>
      <IdeaField label="Expiry">{row.Expiry}</IdeaField>
      <IdeaField label={row.EntryPending ? 'Entry price (signal close)' : 'Entry price'}>{formatPrice(row.EntryValue)}</IdeaField>
      <IdeaField label="Current price">{formatPrice(row.Current_Value)}</IdeaField>
      <IdeaField label="Profit" color={changeColor(row.ProfitPercent)}>
        {formatSignedPercent(row.ProfitPercent)}
      </IdeaField>
      <IdeaField label="Trade strength" color={strength.tone}>
        {strength.score}/100 ({strength.word})
      </IdeaField>
      <IdeaField label="Current stock price">{formatPrice(row.CurrentPriceStock)}</IdeaField>
      <ClosedField row={row} />
    </IdeaCard>
  );
}

export { OptionTradesScreen as Component };
