/**
 * Which symbols newly enter a saved scan's results (CUSTOM_SCAN; docs/custom-scans.md "Custom Scan
 * alerts"). Pure: the server hands it the scan's previous recorded members and this session's run.
 */
import { dayNumber } from '../market/trading-calendar';

/**
 * The oldest previous record a pass compares with, in calendar days before its session: older (an
 * account that was off, a source down for more than a week) the pass only records, as a first one.
 */
export const SCAN_MEMBERS_MAX_GAP_DAYS = 10;

export interface RecordedScanMembers {
  /** YYYY-MM-DD. */
  session: string;
  scanVersion: number;
  symbols: readonly string[];
}

export interface ScanMembership {
  /** The members to record for this session (sorted). */
  symbols: string[];
  /** The symbols that newly entered, in the order of the run's matches; empty on a first pass. */
  entered: string[];
  /** No previous record to compare with: this pass only records (a scan newly watched, edited, or after a long gap). */
  first: boolean;
}

/**
 * This session's members and the symbols that entered since `previous`:
 * - a symbol enters when it matches now and was not a member; one that stays in does not enter again,
 *   and one that left and matches again later enters again;
 * - a member the run could not read this time (`missing`: the source failed it, or has no bar) is kept
 *   as a member: not known to have left, so it does not enter again when it is read next;
 * - without a previous record of the same scan version within SCAN_MEMBERS_MAX_GAP_DAYS, nothing
 *   enters: a scan's first pass records what already matches ("created already true").
 */
export function nextScanMembership(input: {
  previous: RecordedScanMembers | undefined;
  session: string;
  scanVersion: number;
  /** The run's matching symbols, in the universe's order. */
  matches: readonly string[];
  /** The universe's symbols the run could not evaluate. */
  missing: readonly string[];
}): ScanMembership {
  const { previous, session, scanVersion, matches } = input;
  const unique = [...new Set(matches)];
  const comparable =
    previous !== undefined &&
    previous.scanVersion === scanVersion &&
    previous.session < session &&
    dayNumber(session) - dayNumber(previous.session) <= SCAN_MEMBERS_MAX_GAP_DAYS;
  if (!comparable) return { symbols: [...unique].sort(), entered: [], first: true };
  const before = new Set(previous.symbols);
  const now = new Set(unique);
  const missing = new Set(input.missing);
  const kept = previous.symbols.filter((symbol) => missing.has(symbol) && !now.has(symbol));
  return {
    symbols: [...new Set([...unique, ...kept])].sort(),
    entered: unique.filter((symbol) => !before.has(symbol)),
    first: false,
  };
}
