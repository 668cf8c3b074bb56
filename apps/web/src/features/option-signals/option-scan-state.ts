import type { OptionFlagBody, OptionScanEvent, ScanFailure } from '@signalboard/core';

/**
 * The Options Scanner's state as the streamed scan (POST api/scan/options) arrives (spec §2
 * "Options Scanner screen", §4 "Option Scanner flagging"):
 * - a new scan replaces the list;
 * - a flag is set per symbol and tag, and added only once per pair (a repeat replaces it in place);
 * - the list stays sorted by percentage change, largest first (ties keep their arrival order);
 * - skipped symbols are counted once each.
 */
export type OptionScanStatus = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

export interface OptionScanState {
  status: OptionScanStatus;
  /** Favourites being scanned; null until the server says. */
  total: number | null;
  /** Symbols finished (flagged, clear or skipped). */
  done: number;
  flags: OptionFlagBody[];
  skipped: ScanFailure[];
  /** Unix seconds of the oldest data the scan used (its `end` event). */
  asOf: number | null;
  /** How many scanned favourites have figures from imported price files (its `end` event). */
  importedSymbols: number;
  error: string | null;
}

export type OptionScanAction =
  | { type: 'begin' }
  | { type: 'event'; event: OptionScanEvent }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

export const INITIAL_OPTION_SCAN: OptionScanState = { status: 'idle', total: null, done: 0, flags: [], skipped: [], asOf: null, importedSymbols: 0, error: null };

export const INTERRUPTED_MESSAGE = 'The scan was interrupted before it finished. Please try again.';

const pairKey = (flag: Pick<OptionFlagBody, 'symbol' | 'tag'>) => `${flag.symbol}\u0000${flag.tag}`;

/** Sets the flag for its symbol and tag (once per pair), keeping the list sorted by percentage change, largest first. */
export function setFlag(flags: readonly OptionFlagBody[], flag: OptionFlagBody): OptionFlagBody[] {
  const key = pairKey(flag);
  const index = flags.findIndex((existing) => pairKey(existing) === key);
  const next = index >= 0 ? flags.map((existing, i) => (i === index ? flag : existing)) : [...flags, flag];
  // Array.prototype.sort is stable: equal changes keep the order they arrived in.
  return next.sort((a, b) => b.percentageChange - a.percentageChange);
}

function addSkipped(skipped: readonly ScanFailure[], failures: readonly ScanFailure[]): ScanFailure[] {
  const out = [...skipped];
  for (const failure of failures) if (!out.some((known) => known.symbol === failure.symbol)) out.push(failure);
  return out;
}

export function optionScanReducer(state: OptionScanState, action: OptionScanAction): OptionScanState {
  switch (action.type) {
    case 'begin':
      return { ...INITIAL_OPTION_SCAN, status: 'running' };
    case 'stopped':
      return state.status === 'running' ? { ...state, status: 'stopped' } : state;
    case 'failed':
      return { ...state, status: 'failed', error: action.message };
    case 'event':
      return applyEvent(state, action.event);
  }
}

function applyEvent(state: OptionScanState, event: OptionScanEvent): OptionScanState {
  switch (event.type) {
    case 'start':
      return { ...state, total: event.total, done: 0 };
    case 'flag':
      return { ...state, flags: setFlag(state.flags, event.flag) };
    case 'skip':
      return { ...state, skipped: addSkipped(state.skipped, [{ symbol: event.symbol, msg: event.msg }]) };
    case 'progress':
      return { ...state, done: Math.max(state.done, event.done), total: event.total };
    case 'end':
      return {
        ...state,
        status: 'done',
        skipped: addSkipped(state.skipped, event.failed),
        asOf: event.as_of,
        importedSymbols: event.imported_symbols ?? 0,
      };
  }
}

/** '1 symbol could not be scanned', '2 symbols could not be scanned'. */
export function skippedSummary(count: number): string {
  return `${count} ${count === 1 ? 'symbol' : 'symbols'} could not be scanned`;
}
