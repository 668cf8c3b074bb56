import type { IdeaListQuery, LayeredTrade } from '@signalboard/core';
import { SCREEN_TITLES } from '@signalboard/core';
import { Button, Collapse, SimpleGrid } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { changeColor, formatPrice, formatSignedPercent } from '../../components/format';
import type { CsvColumn } from '@signalboard/core';
import { matchesDateSymbol } from '../../components/trade-ideas/filter-values';
import { ClosedField, IdeaCard, IdeaField } from '../../components/trade-ideas/idea-card';
import { IdeaStampBadges, NewBadge, StatusBadge } from '../../components/trade-ideas/idea-badges';
import { IdeaListSection, type IdeaListTexts } from '../../components/trade-ideas/idea-list-section';
import { IdeaScreenFrame } from '../../components/trade-ideas/idea-screen-frame';
import type { StatusGroup } from '../../components/trade-ideas/trade-filter-bar';
import { useIdeaScreen } from '../../components/trade-ideas/use-idea-screen';
import { PlanTable } from './plan-table';
import { LAYERED_VIEW } from './long-term-view';

export const TITLE = SCREEN_TITLES.allstockscanner;
export const EMPTY_MESSAGE = 'No trades match the selected filters.';
export const LOADING_MESSAGE = 'Loading trades...';
const LIST_TEXTS: IdeaListTexts = { listLabel: 'Layered plans', noun: { one: 'plan', many: 'plans' }, loading: LOADING_MESSAGE, empty: EMPTY_MESSAGE, emptyHint: 'Tick Successful or Failed to see closed plans, or widen the dates.' };

type StatusKey = 'active' | 'successful' | 'failed';
const STATUS_OF: Record<LayeredTrade['Status'], StatusKey> = { Active: 'active', Successful: 'successful', Failed: 'failed' };
const FILTER_GROUPS: StatusGroup<StatusKey>[] = [
  {
    options: [
      { key: 'active', label: 'Active' },
      { key: 'successful', label: 'Successful' },
      { key: 'failed', label: 'Failed' },
    ],
  },
];
const INITIAL_STATUSES: Record<StatusKey, boolean> = { active: true, successful: false, failed: false };

const newestFirst = (a: LayeredTrade, b: LayeredTrade) => Date.parse(b.CreatedAt) - Date.parse(a.CreatedAt);

/** The screen's filters applied to rows (spec §4 statuses from the row's Status, §5 dates and symbol), newest first. */
export function filterLayered(rows: readonly LayeredTrade[], statuses: Record<StatusKey, boolean>, filter: Parameters<typeof matchesDateSymbol>[0]): LayeredTrade[] {
  return rows.filter((row) => statuses[STATUS_OF[row.Status]] && matchesDateSymbol(filter, row.Symbol, row.CreatedAt)).sort(newestFirst);
}

export const LAYERED_CSV: CsvColumn<LayeredTrade>[] = [
  { header: 'Symbol', value: (row) => row.Symbol },
  { header: 'Status', value: (row) => row.Status },
  { header: 'Origin', value: (row) => row.Origin },
  { header: 'Entry pending', value: (row) => row.EntryPending },
  { header: 'Created', value: (row) => row.CreatedAt },
  { header: 'Updated', value: (row) => row.UpdatedAt },
  { header: 'Entry price', value: (row) => row.OriginalEntryPrice },
  { header: 'Exit price', value: (row) => row.latestExitLevel },
  { header: 'Current price', value: (row) => row.CurrentPrice },
  { header: 'Current profit %', value: (row) => row.CurrentProfit },
  { header: 'Potential profit %', value: (row) => row.PotentialProfit },
  { header: 'Entries hit', value: (row) => row.entriesHit },
  { header: 'Exits hit', value: (row) => row.exitsHit },
  { header: '30-day high at creation', value: (row) => row.ThirtyDayHigh },
  { header: 'Stop', value: (row) => row.StopPrice },
  { header: 'Close reason', value: (row) => row.CloseReason },
  { header: 'Closed', value: (row) => row.ClosedAt },
  { header: 'Exit fill', value: (row) => row.ExitPrice },
  { header: 'Rule version', value: (row) => row.RuleVersion },
  { header: 'Id', value: (row) => row.Id },
];

/** The list call's status for the checkboxes (null: none ticked, nothing to ask for). */
export function layeredServerFilter(statuses: Record<StatusKey, boolean>): Pick<IdeaListQuery, 'status'> | null {
  const selected = (Object.keys(statuses) as StatusKey[]).filter((key) => statuses[key]);
  return selected.length === 0 ? null : { status: selected.join(',') };
}

/** Stock Layered Entry & Exit Plan (spec §2 "Long-term layered plan screen", §4, §5; docs/rules/long-term.md §1). */
export function LayeredScreen() {
  const screen = useIdeaScreen({ view: LAYERED_VIEW, initialStatuses: INITIAL_STATUSES, serverFilter: layeredServerFilter, filterRows: filterLayered });

  return (
    <IdeaScreenFrame
      title={TITLE}
      description="Buy in layers with limit orders, putting more to work at lower entries (equal dollars buy more shares lower down), and sell in stages at the exit targets. A long-term hold."
      filters={{ label: 'Trade filters', groups: FILTER_GROUPS }}
      screen={screen}
    >
      <IdeaListSection {...screen.section} texts={LIST_TEXTS} csv={{ name: 'layered-plans', columns: LAYERED_CSV }} idea={(row) => ({ id: row.Id, symbol: row.Symbol })} renderCard={(row, { onDetails }) => <LayeredCard row={row} onDetails={onDetails} />} />
    </IdeaScreenFrame>
  );
}

function LayeredCard({ row, onDetails }: { row: LayeredTrade; onDetails: () => void }) {
  const [planOpen, setPlanOpen] = useState(false);
  const planId = useId();
  return (
    <IdeaCard
      symbol={row.Symbol}
      createdAt={row.CreatedAt}
      updatedAt={row.UpdatedAt}
      onDetails={onDetails}
      badges={
        <>
          {row.IsNewTrade ? <NewBadge /> : null}
          <StatusBadge status={row.Status} />
          <IdeaStampBadges origin={row.Origin} entryPending={row.EntryPending} imported={row.Imported ? { symbol: row.Symbol } : undefined} />
        </>
      }
      footer={
        <>
          <div>
            <Button
              variant="light"
              size="compact-sm"
              onClick={() => setPlanOpen((open) => !open)}
              aria-expanded={planOpen}
              aria-controls={planId}
              rightSection={planOpen ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
            >
              {planOpen ? 'Hide Plan' : 'Show Plan'}
            </Button>
          </div>
          <Collapse expanded={planOpen} id={planId}>
            {planOpen ? (
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <PlanTable caption="Entry plan" levels={row.entryPlan} />
                <PlanTable caption="Exit plan" levels={row.exitPlan} />
              </SimpleGrid>
            ) : null}
          </Collapse>
        </>
      }
    >
      <IdeaField label="Current profit" color={changeColor(row.CurrentProfit)}>
        {formatSignedPercent(row.CurrentProfit)}
      </IdeaField>
      <IdeaField label="Potential profit" color={changeColor(row.PotentialProfit)}>
        {formatSignedPercent(row.PotentialProfit)}
      </IdeaField>
      <IdeaField label={row.EntryPending ? 'Entry price (signal close)' : 'Entry price'}>{formatPrice(row.OriginalEntryPrice)}</IdeaField>
      <IdeaField label="Exit price">{formatPrice(row.latestExitLevel)}</IdeaField>
      <IdeaField label="Current price">{formatPrice(row.CurrentPrice)}</IdeaField>
      <IdeaField label="Entries hit">{row.entriesHit}</IdeaField>
      <IdeaField label="Exits hit">{row.exitsHit}</IdeaField>
      <IdeaField label="30-day high at creation">{formatPrice(row.ThirtyDayHigh)}</IdeaField>
      <ClosedField row={row} />
    </IdeaCard>
  );
}

export { LayeredScreen as Component };
