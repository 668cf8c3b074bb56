// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import './earnings-calendar.css';
import type { DatesSetArg, EventContentArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import FullCalendar from '@fullcalendar/react';
import { Alert, Button, Group, Loader, Paper, Skeleton, Stack, Switch, Text } from '@mantine/core';
import { IconAlertTriangle, IconCalendarOff, IconRefresh } from '@tabler/icons-react';
import { EARNINGS_HOUR_LABELS, toCalendarEvents, type EarningsCalendarEvent } from '@signalboard/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useFavorites } from '../../lib/api/favorites';
import { ScreenHeader } from '../../components/screen-header';
import { useEarningsCalendar, type EarningsCalendarRequestBody } from './api/get-earnings';
import { createRangeTracker, rangeInWords, requestRangeOf, sameRange } from './calendar-range';
import { EarningsEventContent } from './earnings-event-content';
import { EARNINGS_HOURS, EarningsHourIcon } from './earnings-hour-icon';

export const FAVORITES_FAILED_LOG = 'Error loading favorites:';

/** Spec §9 "Calendar" and §2: the calendar's fixed configuration. */
const PLUGINS = [listPlugin, dayGridPlugin, interactionPlugin];
const HEADER_TOOLBAR = { left: 'prev,next today', center: 'title', right: 'dayGridMonth,listWeek,listDay' };
const BUTTON_TEXT = { dayGridMonth: 'Month View', listWeek: 'Weekly Events', listDay: 'Daily Events', prev: '<', next: '>', today: 'Today' };
const ASPECT_RATIO = 1.5;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Earnings Calendar (spec §2 "Earnings Calendar screen", §4 "Earnings calendar", §8). */
export function EarningsCalendarScreen() {
  const favorites = useFavorites();
  const favoriteSymbols = useMemo(() => favorites.data?.map((favorite) => favorite.symbol), [favorites.data]);

  useEffect(() => {
    if (favorites.error) console.error(FAVORITES_FAILED_LOG, favorites.error);
  }, [favorites.error]);

  return (
    <>
      <ScreenHeader
        title="Earnings Calendar"
        description="Upcoming and recent earnings releases of your favorite stocks: EPS against the estimate and the surprise."
      />
      {favorites.isPending ? (
        <Skeleton h={480} radius="lg" aria-label="Loading your favorites" />
      ) : favorites.isError ? (
        // Spec §8: without the favourites the calendar's initialisation stops.
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="Your favorites could not be loaded" maw={720}>
          <Stack gap="sm" align="flex-start">
            <Text size="sm">The calendar shows your favorites' earnings, so it waits for them. {messageOf(favorites.error)}</Text>
            <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={() => void favorites.refetch()} loading={favorites.isFetching}>
              Retry
            </Button>
          </Stack>
        </Alert>
      ) : (
        <EarningsCalendar favoriteSymbols={favoriteSymbols ?? []} />
      )}
    </>
  );
}

function EarningsCalendar({ favoriteSymbols }: { favoriteSymbols: string[] }) {
  const [range, setRange] = useState<EarningsCalendarRequestBody | null>(null);
  const [showAll, setShowAll] = useState(false);
  const earnings = useEarningsCalendar(range);
  const wrapperRef = useRef<HTMLDivElement>(null);

  // Built once: the initial fetch when the calendar exists, then each range change but the first.
  const [tracker] = useState(() =>
    createRangeTracker((next) => setRange((current) => (sameRange(current, next) ? current : next))),
  );

  /** The calendar is built (its ref attaches after it has rendered): fetch its visible range. */
  const calendarBuilt = useCallback(
    (calendar: FullCalendar | null) => {
      const view = calendar?.getApi().view;
      if (view) tracker.start(requestRangeOf(view.activeStart, view.activeEnd));
    },
    [tracker],
  );

  const onDatesSet = useCallback(
    (arg: DatesSetArg) => tracker.notify(requestRangeOf(arg.view.activeStart, arg.view.activeEnd)),
    [tracker],
  );

  // The arrow buttons' names follow the calendar's hints, which change with the view; the month's
  // day cells are named by their content.
  useEffect(() => {
    const root = wrapperRef.current;
    if (!root) return;
    const fix = () => {
      labelArrowButtons(root);
      nameDayCellsByContent(root);
    };
    fix();
    const observer = new MutationObserver(fix);
    observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['title', 'aria-labelledby'] });
    return () => observer.disconnect();
  }, []);

  const rows = useMemo(() => earnings.data ?? [], [earnings.data]);
  const events = useMemo(() => toCalendarEvents(rows, { favoriteSymbols, showAll }), [rows, favoriteSymbols, showAll]);
  const eventInputs = useMemo(() => events.map(toEventInput), [events]);
  const loaded = earnings.isSuccess && !earnings.isFetching;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="lg" align="center">
          <Switch
            label="Show all earnings"
            description="Not only your favorites"
            checked={showAll}
            onChange={(event) => setShowAll(event.currentTarget.checked)}
          />
          <Status loading={earnings.isFetching} loaded={loaded} shown={events.length} total={rows.length} showAll={showAll} />
        </Group>
        <Legend />
      </Group>

      {earnings.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} title="The earnings could not be loaded">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{messageOf(earnings.error)}</Text>
            <RetryButton onClick={() => void earnings.refetch()} loading={earnings.isFetching} color="red" />
          </Group>
        </Alert>
      ) : loaded && rows.length === 0 ? (
        <Alert color="gray" variant="light" icon={<IconCalendarOff size={20} />} title="No earnings data available.">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              No company reports {range ? rangeInWords(range) : 'in this period'}. Move to another week or month.
            </Text>
            <RetryButton onClick={() => void earnings.refetch()} loading={earnings.isFetching} color="gray" />
          </Group>
        </Alert>
      ) : null}

      <Paper component="section" aria-label="Earnings calendar" withBorder radius="lg" p={{ base: 'xs', sm: 'md' }} className="sb-calendar" ref={wrapperRef}>
        <FullCalendar
          ref={calendarBuilt}
          plugins={PLUGINS}
          initialView="listWeek"
          aspectRatio={ASPECT_RATIO}
          height="auto"
          headerToolbar={HEADER_TOOLBAR}
          buttonText={BUTTON_TEXT}
          buttonIcons={false}
          viewHint="$0"
          editable
          selectable
          displayEventTime={false}
          events={eventInputs}
          datesSet={onDatesSet}
          eventContent={renderEvent}
          noEventsContent={noEventsText(earnings.isError, loaded, rows.length, showAll)}
        />
      </Paper>
    </Stack>
  );
}

/** What an empty list view says, by why it is empty. */
function noEventsText(failed: boolean, loaded: boolean, rows: number, showAll: boolean): string {
  if (failed) return 'The earnings could not be loaded.';
  if (!loaded) return 'Loading earnings…';
  if (rows > 0 && !showAll) return 'None of your favorites report in this period. Turn on Show all earnings to see every company.';
  return 'No earnings releases in this period.';
}

function toEventInput(event: EarningsCalendarEvent): EventInput {
  return {
    id: event.id,
    title: event.title,
    start: event.start,
    allDay: true,
    classNames: ['sb-earnings', `sb-earnings-${event.hour.toLowerCase()}`],
    extendedProps: { earnings: event },
  };
}

function renderEvent(arg: EventContentArg) {
  const event = arg.event.extendedProps.earnings as EarningsCalendarEvent;
  return <EarningsEventContent event={event} compact={arg.view.type === 'dayGridMonth'} />;
}

/**
 * The spec's prev and next buttons read '<' and '>'; their accessible names are the calendar's
 * own hints ('Previous week', 'Next month'), which change with the view.
 */
function labelArrowButtons(root: HTMLElement) {
  root.querySelectorAll<HTMLButtonElement>('.fc-prev-button, .fc-next-button').forEach((button) => {
    if (button.title && button.getAttribute('aria-label') !== button.title) button.setAttribute('aria-label', button.title);
  });
}

/**
 * FullCalendar names each month-grid cell by its date alone (aria-labelledby on the day number), so a
 * cell's events are not in its name (WCAG 2.5.3, axe: label-content-name-mismatch). Without it the
 * cell is named by its content: the date ('November 19, 2026'), then the releases.
 */
function nameDayCellsByContent(root: HTMLElement) {
  root.querySelectorAll('td.fc-daygrid-day[aria-labelledby]').forEach((cell) => cell.removeAttribute('aria-labelledby'));
}

function Status({ loading, loaded, shown, total, showAll }: { loading: boolean; loaded: boolean; shown: number; total: number; showAll: boolean }) {
  if (loading) {
    return (
      <Group gap={6} c="dimmed">
        <Loader size="xs" />
        <Text size="sm">Loading earnings…</Text>
      </Group>
    );
  }
  if (!loaded || total === 0) return null;
  return (
    <Text size="sm" c="dimmed" role="status">
      {showAll
        ? `Showing all ${total} earnings ${total === 1 ? 'release' : 'releases'}`
        : `Showing ${shown} of ${total} earnings ${total === 1 ? 'release' : 'releases'} (your favorites)`}
    </Text>
  );
}

function Legend() {
  return (
    <Group gap="md" aria-label="Icon legend" role="group">
      {EARNINGS_HOURS.map((hour) => (
        <Group key={hour} gap={4} wrap="nowrap">
          <EarningsHourIcon hour={hour} size={16} decorative />
          <Text size="xs" c="dimmed">
            {EARNINGS_HOUR_LABELS[hour]}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

function RetryButton({ onClick, loading, color }: { onClick: () => void; loading: boolean; color: string }) {
  return (
    <Button size="xs" variant="light" color={color} leftSection={<IconRefresh size={14} />} onClick={onClick} loading={loading}>
      Retry
    </Button>
  );
}

export { EarningsCalendarScreen as Component };
