/**
 * Mature cohorts (docs/rules/track-record.md §6.2). A cohort is the month of the entry fill; it is mature once
 * its last day plus the engine's maximum hold has passed, so every trade in it has closed and the
 * cohort's figures are no longer biased toward quick exits.
 *
 * Counting: an idea entered on the cohort's last trading day L holds sessions 1 (L) … H at most
 * (H = maxHoldSessions; a close-based stop on session H coincides with the time stop at that close),
 * so by the H-th session *after* the month's last calendar day every idea of the cohort has exited.
 * That session is the maturity day; the cohort is mature from that day on (as of `now`'s New York
 * date; crypto's sessions are UTC days, so its maturity day is H calendar days after and `now`'s
 * UTC date decides).
 */
import { dayNumber, isTradingDayNumber, isoFromDayNumber, newYorkTime } from '../../market/trading-calendar';
import type { SessionCalendar } from '../types';

/** Whose sessions count: NYSE trading days, or every UTC day (crypto); declared with the engine contract. */
export type { SessionCalendar };

/** The cohort of an entry fill: its month, `YYYY-MM`. */
export function cohortOf(entryDate: string): string {
  return entryDate.slice(0, 7);
}

/** The last calendar day of a cohort month, as a day number. */
function lastDayOfCohort(cohort: string): number {
  const year = Number(cohort.slice(0, 4));
  const month = Number(cohort.slice(5, 7));
  // Day 0 of the next month is this month's last day.
  return Math.round(Date.UTC(year, month, 0) / 86_400_000);
}

/** The day number `sessions` sessions after `day` (not counting `day` itself). */
export function addSessions(day: number, sessions: number, calendar: SessionCalendar): number {
  if (calendar === 'utc') return day + sessions;
  let current = day;
  for (let left = sessions; left > 0; ) {
    current += 1;
    if (isTradingDayNumber(current)) left -= 1;
  }
  return current;
}

/** The day (YYYY-MM-DD) from which a cohort is mature: the maxHoldSessions-th session after its last day. */
export function cohortMaturityDate(cohort: string, maxHoldSessions: number, calendar: SessionCalendar = 'us'): string {
  return isoFromDayNumber(addSessions(lastDayOfCohort(cohort), maxHoldSessions, calendar));
}

/** The session date of an instant: its New York date for US sessions, its UTC date for crypto. */
export function sessionDateOf(nowIso: string, calendar: SessionCalendar = 'us'): string {
  const ms = Date.parse(nowIso);
  if (!Number.isFinite(ms)) throw new RangeError(`now is not an ISO 8601 instant: ${nowIso}`);
  return calendar === 'utc' ? new Date(ms).toISOString().slice(0, 10) : newYorkTime(ms).isoDate;
}

/**
 * A memo of cohort maturity as of one `now` (the maturity day of a layered cohort is 504 sessions
 * away, so each cohort is worked out once).
 */
export function cohortMaturity(maxHoldSessions: number, nowIso: string, calendar: SessionCalendar = 'us'): (cohort: string) => boolean {
  const today = dayNumber(sessionDateOf(nowIso, calendar));
  const memo = new Map<string, boolean>();
  return (cohort) => {
    let mature = memo.get(cohort);
    if (mature === undefined) {
      mature = today >= dayNumber(cohortMaturityDate(cohort, maxHoldSessions, calendar));
      memo.set(cohort, mature);
    }
    return mature;
  };
}
