import { formatCryptoNumber, type CryptoNumberField, type IdeaEventRow } from '@signalboard/core';

/**
 * What an idea's price chart draws (docs/ui.md "Charts"): the levels its strategy uses as labelled
 * horizontal lines (entry, entry and exit levels, targets, stop, the 30-day high) and a marker on
 * the bar where each event of its log happened. Pure: the chart component only paints this.
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

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function line(out: ChartLine[], title: string, value: unknown, tone: ChartTone, dashed = true) {
  const price = num(value);
  if (price !== null && price > 0) out.push({ title, price, tone, dashed });
}

/** A crypto level with its spec §9 format (swing 4 decimals, highs 8). */
function cryptoLine(out: ChartLine[], title: string, idea: Record<string, unknown>, field: CryptoNumberField, tone: ChartTone, dashed = true) {
  const price = num(idea[field]);
  if (price !== null && price > 0) out.push({ title, price, tone, dashed, text: formatCryptoNumber(field, price) });
}

/** The horizontal lines of an idea, from its row: a plan's levels, a trade's targets and stop, a coin's swing level and highs. */
export function chartLines(engine: string, idea: Record<string, unknown>): ChartLine[] {
  const out: ChartLine[] = [];
  if (engine === 'crypto') {
    const kind = idea.SwingKind === 'low' ? 'Swing low' : idea.SwingKind === 'high' ? 'Swing high' : 'Swing level';
    cryptoLine(out, kind, idea, 'SwingLevel', 'entry', false);
    cryptoLine(out, '1M high', idea, 'OneMonthHigh', 'neutral');
    cryptoLine(out, '6M high', idea, 'SixMonthHigh', 'neutral');
  } else if (engine === 'layered') {
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
 * current, target (+30%) and stop (−50%) values (docs/rules/option-trades.md §4); for a drop O item, its option's.
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
