import type { IdeaEventRow } from '@signalboard/core';

/**
 * What an idea's price chart draws (UI.md "Charts"): the levels its strategy uses as labelled
 * horizontal lines (entry, entry and exit levels, targets, stop, the 30-day high) and a marker on
 * the bar where each event of its log happened. Pure: the chart component only paints this.
 */

export type ChartTone = 'entry' | 'gain' | 'loss' | 'neutral';

export interface ChartLine {
  title: string;
  price: number;
  tone: ChartTone;
  dashed: boolean;
}

export interface ChartMarker {
  /** YYYY-MM-DD: the bar the event was decided on. */
  date: string;
  text: string;
  tone: ChartTone;
  position: 'aboveBar' | 'belowBar' | 'inBar';
  shape: 'arrowUp' | 'arrowDown' | 'circle' | 'square';
}

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function line(out: ChartLine[], title: string, value: unknown, tone: ChartTone, dashed = true) {
  const price = num(value);
  if (price !== null && price > 0) out.push({ title, price, tone, dashed });
}

/** The horizontal lines of a layered plan or a short-term trade, from the idea's row. */
export function chartLines(engine: string, idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  if (engine === 'layered') {
    line(out, 'Entry', idea.OriginalEntryPrice, 'entry', false);
    for (let n = 2; n <= 5; n += 1) line(out, `ENL${n}`, idea[`ENL${n}`], 'entry');
    for (let n = 1; n <= 5; n += 1) line(out, `EXL${n}`, idea[`EXL${n}`], 'gain');
    line(out, 'Stop', idea.StopPrice, 'loss');
    line(out, '30-day high at creation', idea.ThirtyDayHigh, 'neutral');
  } else if (engine === 'options') {
    // The strike and the option's values are not prices of the underlying: the chart is the
    // underlying's, with its signal close and its price now; the option's values are in levelNotes.
    line(out, 'Signal close', idea.SignalPrice, 'entry', false);
    line(out, 'Underlying now', idea.CurrentPriceStock, 'neutral');
  } else if (engine === 'drop') {
    line(out, 'Entry', idea.StockEntryPrice, 'entry', false);
    // An O item's TargetValue is the option's target (levelNotes), not a price of the stock.
    if (idea.StockType !== 'O') line(out, 'Target', idea.TargetValue, 'gain');
    line(out, 'Stop', idea.StopPrice, 'loss');
    line(out, 'Current', idea.StockCurrentPrice, 'neutral');
  } else {
    line(out, 'Entry', idea.EntryPrice, 'entry', false);
    line(out, 'Target 5%', idea.Target1Price, 'gain');
    line(out, 'Target 10%', idea.Target2Price, 'gain');
    line(out, 'Stop', idea.StopPrice, 'loss');
    line(out, 'Support', idea.SupportLevel, 'neutral');
  }
  return out;
}

/** A level shown as text only (not on the chart): an option's values, which the underlying's chart cannot show. */
export interface LevelNote {
  title: string;
  value: number;
}

function note(out: LevelNote[], title: string, value: unknown) {
  const price = num(value);
  if (price !== null) out.push({ title, value: price });
}

/**
 * The levels an idea's chart cannot draw: for an option trade, the strike and the option's entry,
 * current, target (+30%) and stop (−50%) values (strategies.md §4); for a drop O item, its option's.
 */
export function levelNotes(engine: string, idea: Record<string, unknown>): LevelNote[] {
  const out: LevelNote[] = [];
  if (engine === 'options') {
    note(out, 'Strike', idea.Strike);
    note(out, 'Option entry', idea.EntryValue);
    note(out, 'Option current', idea.Current_Value);
    const entry = num(idea.EntryValue);
    if (entry !== null && entry > 0) {
      note(out, 'Option target (+30%)', Math.round(entry * 130) / 100);
      note(out, 'Option stop (−50%)', Math.round(entry * 50) / 100);
    }
    note(out, 'Option exit', idea.ExitValue);
  } else if (engine === 'drop' && idea.StockType === 'O') {
    note(out, 'Option entry', idea.OptionEntryValue);
    note(out, 'Option current', idea.OptionCurrentValue);
    note(out, 'Option target', idea.TargetValue);
    note(out, 'Option exit', idea.OptionExitValue);
  }
  return out;
}

/** Event types as a person reads them, for markers and the event log. */
export const EVENT_LABELS: Record<string, string> = {
  opened: 'Signal',
  entry_filled: 'Entry filled',
  level_hit: 'Level hit',
  levels_cancelled: 'Levels cancelled',
  target_hit: 'Target hit',
  stop_hit: 'Stop hit',
  time_stop: 'Time stop',
  closed: 'Closed',
  voided: 'Voided',
  alert_repeat: 'Alert repeated',
  split_adjusted: 'Split adjusted',
  correction: 'Correction',
  signal_changed: 'Signal changed',
};

export function eventLabel(type: string): string {
  return EVENT_LABELS[type] ?? type.replace(/_/g, ' ');
}

/** One marker per event that happened at a price on a bar; events without a place on the chart are left out. */
export function chartMarkers(events: IdeaEventRow[]): ChartMarker[] {
  const markers: ChartMarker[] = [];
  for (const event of events) {
    const level = event.level;
    switch (event.type) {
      case 'opened':
        markers.push({ date: event.barDate, text: 'Signal', tone: 'neutral', position: 'belowBar', shape: 'circle' });
        break;
      case 'entry_filled':
        markers.push({ date: event.barDate, text: 'Entry', tone: 'entry', position: 'belowBar', shape: 'arrowUp' });
        break;
      case 'level_hit':
        if (level.startsWith('ENL')) markers.push({ date: event.barDate, text: level, tone: 'entry', position: 'belowBar', shape: 'arrowUp' });
        else markers.push({ date: event.barDate, text: level || 'Level', tone: 'gain', position: 'aboveBar', shape: 'arrowDown' });
        break;
      case 'target_hit':
        markers.push({ date: event.barDate, text: level === 'T1' ? 'Target 5%' : level === 'T2' ? 'Target 10%' : level || 'Target', tone: 'gain', position: 'aboveBar', shape: 'arrowDown' });
        break;
      case 'stop_hit':
        markers.push({ date: event.barDate, text: 'Stop', tone: 'loss', position: 'aboveBar', shape: 'arrowDown' });
        break;
      case 'time_stop':
        markers.push({ date: event.barDate, text: 'Time stop', tone: 'neutral', position: 'aboveBar', shape: 'square' });
        break;
      case 'closed':
        markers.push({ date: event.barDate, text: 'Closed', tone: 'neutral', position: 'aboveBar', shape: 'square' });
        break;
      case 'voided':
        markers.push({ date: event.barDate, text: 'Voided', tone: 'loss', position: 'aboveBar', shape: 'square' });
        break;
      default:
        break;
    }
  }
  // The chart needs markers in time order; the log is oldest first already, keep that order within a day.
  return markers.map((marker, index) => ({ marker, index })).sort((a, b) => (a.marker.date < b.marker.date ? -1 : a.marker.date > b.marker.date ? 1 : a.index - b.index)).map(({ marker }) => marker);
}
