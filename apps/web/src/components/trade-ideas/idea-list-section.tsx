import { Group, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import type { ListEngine } from '../../lib/api/trade-ideas';
import type { CsvColumn } from '@signalboard/core';
import type { EngineView } from './engine-view';
import { ExportCsvButton } from './export-csv-button';
import { IdeaCardList } from './idea-card';
import { IdeaDetailModal } from './idea-detail-modal';
import { IdeaListOutcome, type ListQueryState } from './idea-list-outcome';
import { SaveAlertsBar } from './saved-alert-controls';
import type { SavedAlerts } from './use-saved-alerts';

/** What a card gets from the section: open its detail, and its Alert checkbox's state when the screen saves alerts. */
export interface IdeaCardContext {
  onDetails: () => void;
  alert: { checked: boolean; onChange: (on: boolean) => void; disabled: boolean } | null;
}

/** A list's words: its accessible name, the count's noun, and the loading, empty and hint sentences. */
export interface IdeaListTexts {
  /** The accessible name of the list of cards ('Option trades'). */
  listLabel: string;
  /** The count's noun: '3 trades', '1 item'. */
  noun: { one: string; many: string };
  loading: string;
  empty: string;
  emptyHint: string;
}

export interface IdeaListSectionProps<Row> {
  /** The list's engine as its screen shows it: the idea detail's (the chart, its levels and the event log). */
  view: EngineView<ListEngine>;
  /** The list call's state (useIdeaList's answer). */
  list: ListQueryState;
  /** The rows shown, after the screen's filters and order. */
  rows: readonly Row[];
  /** No status is ticked: nothing is asked for, and the empty sentence shows. */
  skipped: boolean;
  replay: Parameters<typeof IdeaListOutcome>[0]['replay'];
  texts: IdeaListTexts;
  /** 'Export CSV' as `{name}-YYYY-MM-DD.csv`: of the rows `exportRows` answers, the whole filtered list (useIdeaScreen). */
  csv: { name: string; columns: CsvColumn<Row>[] };
  /** The whole filtered list, every page of it (useIdeaScreen's `section.exportRows`). */
  exportRows: () => Promise<readonly Row[]>;
  /** The row's id (the card's key, its saved-alert id and its detail's id) and symbol. */
  idea: (row: Row) => { id: string; symbol: string };
  renderCard: (row: Row, context: IdeaCardContext) => ReactNode;
  /** The screen's saved alerts (useSavedAlerts): 'Save Alerts' above the list and an Alert checkbox per card. */
  savedAlerts?: SavedAlerts;
}

/**
 * The trade screens' list section: the 'Save Alerts' bar when the screen saves alerts, how many rows
 * are shown ('… loaded so far' while the server has more), 'Export CSV' of the whole filtered list
 * (every page, not only the loaded ones), then the list's one outcome
 * (loading, a failed load with Retry, the replay's progress, the empty sentence, or the cards), and
 * the detail of the card whose Details was pressed.
 */
export function IdeaListSection<Row>({ view, list, rows, skipped, replay, texts, csv, exportRows, idea, renderCard, savedAlerts }: IdeaListSectionProps<Row>) {
  const [detail, setDetail] = useState<{ id: string; symbol: string } | null>(null);
  const count = (
    <>
      <Text size="sm" c="dimmed" aria-live="polite">
        {!skipped && !list.isPending ? `${rows.length} ${rows.length === 1 ? texts.noun.one : texts.noun.many}${list.hasNextPage ? ' loaded so far' : ''}` : ''}
      </Text>
      <ExportCsvButton name={csv.name} columns={csv.columns} rows={rows} load={exportRows} />
    </>
  );
  const contextOf = (row: Row): IdeaCardContext => {
    const { id, symbol } = idea(row);
    return {
      onDetails: () => setDetail({ id, symbol }),
      alert: savedAlerts ? { checked: savedAlerts.checked.has(id), onChange: (on) => savedAlerts.toggle(id, on), disabled: savedAlerts.saving } : null,
    };
  };
  return (
    <>
      <Group justify="space-between" gap="sm">
        {savedAlerts ? (
          <>
            <SaveAlertsBar
              checkedCount={savedAlerts.checked.size}
              onSave={savedAlerts.onSave}
              saving={savedAlerts.saving}
              loading={savedAlerts.savedQuery.isPending}
              loadError={savedAlerts.savedQuery.isError ? savedAlerts.savedQuery.error.message : null}
              onRetry={() => void savedAlerts.savedQuery.refetch()}
            />
            <Group gap="sm">{count}</Group>
          </>
        ) : (
          count
        )}
      </Group>
      <IdeaListOutcome list={list} skipped={skipped} shown={rows.length} replay={replay} loadingMessage={texts.loading} emptyMessage={texts.empty} emptyHint={texts.emptyHint}>
        <IdeaCardList label={texts.listLabel}>
          {rows.map((row) => (
            <li key={idea(row).id}>{renderCard(row, contextOf(row))}</li>
          ))}
        </IdeaCardList>
      </IdeaListOutcome>
      <IdeaDetailModal view={view} idea={detail} onClose={() => setDetail(null)} />
    </>
  );
}
