import type { IdeaEventRow } from '@signalboard/core';

/**
 * What an idea's price chart draws (docs/ui.md "Charts"): the levels its strategy uses as labelled
 * horizontal lines (entry, entry and exit levels, targets, stop, the 30-day high) and a marker on
 * the bar where each event of its log happened. Pure: the chart component only paints this. Which
 * levels an idea has is its engine's (EngineView.chartLines, in the engine's feature folder).
 */

export type ChartTone = 'entry' | 'gain' | 'loss' | 'neutral';

export interface ChartLine {
  title: string;
  price: number;
  tone: ChartTone;
  dashed: boolean;
  /** The price as the screen writes it, when the engine has its own format (crypto: spec §9). */
  text?: string;
}

export interface ChartMarker {
  /** YYYY-MM-DD: the bar the event was decided on. */
  date: string;
  text: string;
  tone: ChartTone;
  position: 'aboveBar' | 'belowBar' | 'inBar';
  shape: 'arrowUp' | 'arrowDown' | 'circle' | 'square';
}

/** A finite number, or null (a row's level may be missing or null). */
export const finiteNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** Adds a line at `value` when it is a price (a positive number): an engine's chartLines (EngineView). */
export function pushLine(out: ChartLine[], title: string, value: unknown, tone: ChartTone, dashed = true) {
  const price = finiteNumber(value);
  if (price !== null && price > 0) out.push({ title, price, tone, dashed });
}

/** A level shown as text only (not on the chart): an option's values, which the underlying's chart cannot show. */
export interface LevelNote {
  title: string;
  value: number;
}

/** Adds a note of `value` when it is a number: an engine's levelNotes (EngineView). */
export function pushNote(out: LevelNote[], title: string, value: unknown) {
  const price = finiteNumber(value);
  if (price !== null) out.push({ title, value: price });
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

/** A crypto label change's data (core CryptoSignalChangedData): the horizon and the labels from and to. */
function signalChange(event: IdeaEventRow): { horizon: string; from: string; to: string } | null {
  const { horizon, from, to } = event.data;
  return typeof horizon === 'string' && typeof from === 'string' && typeof to === 'string' ? { horizon, from, to } : null;
}

/** An event as the log's text: its type, and for a crypto label change which horizon went from what to what. */
export function eventText(event: IdeaEventRow): string {
  const change = event.type === 'signal_changed' ? signalChange(event) : null;
  return change ? `${eventLabel(event.type)}: ${change.horizon} ${change.from} → ${change.to}` : eventLabel(event.type);
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
      case 'signal_changed': {
        // A crypto label change: 'Short Buy' under the bar (green, up), 'Long Sell' above it (red, down), Hold grey.
        const change = signalChange(event);
        if (!change) break;
        const text = `${change.horizon} ${change.to}`;
        if (change.to === 'Buy') markers.push({ date: event.barDate, text, tone: 'gain', position: 'belowBar', shape: 'arrowUp' });
        else if (change.to === 'Sell') markers.push({ date: event.barDate, text, tone: 'loss', position: 'aboveBar', shape: 'arrowDown' });
        else markers.push({ date: event.barDate, text, tone: 'neutral', position: 'aboveBar', shape: 'circle' });
        break;
      }
      default:
        break;
    }
  }
  // The chart needs markers in time order; the log is oldest first already, keep that order within a day.
  return markers.map((marker, index) => ({ marker, index })).sort((a, b) => (a.marker.date < b.marker.date ? -1 : a.marker.date > b.marker.date ? 1 : a.index - b.index)).map(({ marker }) => marker);
}

/** Decimals the chart's price scale needs to tell a coin's candles apart (DOGE at 0.08 needs more than 2). */
export function chartPrecision(closes: readonly number[]): number {
  const low = Math.min(...closes.filter((close) => close > 0));
  if (!Number.isFinite(low) || low >= 100) return 2;
  if (low >= 1) return 4;
  return Math.min(8, Math.max(4, Math.ceil(-Math.log10(low)) + 4));
}
