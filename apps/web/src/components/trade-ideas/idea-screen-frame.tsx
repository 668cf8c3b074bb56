import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ListEngine, TrackRecordScope } from '../../lib/api/trade-ideas';
import type { EngineView } from './engine-view';
import { ScreenHeader } from '../screen-header';
import { TrackRecordPanel } from './track-record-panel';
import { TradeFilterBar, type StatusGroup } from './trade-filter-bar';
import type { FilterBarState } from './use-idea-screen';

/**
 * A trade screen's frame: its title and explanation, anything the screen puts first (the option
 * screen's how-to), the filter bar, the track record for the filtered dates and symbol, then the
 * list (`children`, an IdeaListSection). `screen` is useIdeaScreen's answer.
 */
export function IdeaScreenFrame<K extends string>({
  title,
  description,
  intro,
  filters,
  screen,
  targetHitBreakEven,
  children,
}: {
  title: string;
  description: string;
  intro?: ReactNode;
  /** The filter bar's name ('Trade filters') and its status checkboxes. */
  filters: { label: string; groups: StatusGroup<K>[] };
  screen: { filterBar: FilterBarState<K>; serverScope: TrackRecordScope; section: { view: EngineView<ListEngine> } };
  /** The options record's nominal break-even beside the target-hit rate. */
  targetHitBreakEven?: number;
  children: ReactNode;
}) {
  return (
    <>
      <ScreenHeader title={title} description={description} />
      <Stack gap="md">
        {intro}
        <TradeFilterBar label={filters.label} groups={filters.groups} {...screen.filterBar} />
        <TrackRecordPanel engine={screen.section.view.id} scope={screen.serverScope} targetHitBreakEven={targetHitBreakEven} />
        {children}
      </Stack>
    </>
  );
}
