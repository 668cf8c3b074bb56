/**
 * Custom Scan alerts (CUSTOM_SCAN; issue 26, docs/custom-scans.md "Custom Scan alerts"): after each
 * daily pass (16:30 New York on trading sessions), a job with one slot per session runs every saved
 * scan an active rule watches as of that session, compares its results with the scan's previous
 * members (custom_scan_members) and sends one alert per scan listing the symbols that newly entered.
 * A scan's session is written once: its members row (primary key scan and session), the pruning of
 * older rows and its alert commit in one transaction, so a retried slot or a second process writes
 * nothing twice, and a scan whose run failed writes nothing and fails the slot (the registry retries
 * it; the scans already done are not run again). Symbols that entered during the session on live
 * quotes (scan-intraday.evaluator.ts) alerted then: the session's alert leaves them out.
 */
import { customScanEntriesMessage, importedSourceLabel, isoFromDayNumber, newYorkInstantMs, nextScanMembership, tradingDayOnOrAfter, type RunScanResponse, type ScanUniverse } from '@signalboard/core';
import type { Clock } from '../../../lib/clock';
import type { ScanLog } from '../../../lib/scan-failure';
import { tickOf, type Job, type JobRunnerDeps, type RunContext, type Tick } from '../../../jobs/registry';
import { passSessionDay, passTimeMs } from '../../trades/trades.market';
import { insertAlert, type NewAlert } from './alert-store';
import type { Database } from '../../../db/client';
import { rulesOfType, type RuleRow } from './evaluation.repo';
import { channelsOf, ruleSnapshot } from './rule-snapshot';
import {
  CUSTOM_SCAN_TYPE,
  intradayEntered,
  lockScanRule,
  lockScanSession,
  lockScanVersion,
  previousMembers,
  recordMembers,
  scanIdsOf,
  sessionRecorded,
  watchedScans,
  type WatchedScan,
} from './scan-members.repo';

export const CUSTOM_SCAN_ALERTS_JOB = 'custom-scan-alerts';
/** The symbols an alert's `symbol` column names (the history's title and filter); the rest are counted. */
const SYMBOLS_NAMED = 10;
/** A session's new matches are news until the next session opens (09:30 New York). */
const NEXT_OPEN_MINUTE = 9 * 60 + 30;

/** Runs a scan for its owner (the run service's `run`: the `favorites` universe is the owner's). */
export type RunScan = (userId: number, input: { universe: ScanUniverse; formula: string; as_of: string }, log: ScanLog) => Promise<RunScanResponse>;

export interface ScanAlertDeps {
  db: Database;
  runScan: RunScan;
  /** The market's clock: the session a slot is for. */
  marketClock: Clock;
  /** Wall time: claims, when alerts fired. */
  clock: Clock;
  /** "Simulated market", "Dataset" or "Live market data" (evaluation.ts SOURCE_LABELS). */
  source: string;
  runs: JobRunnerDeps['runs'];
  log: JobRunnerDeps['log'];
  /** Told after a commit that queued deliveries. */
  delivery?: { kick(): void };
  /** Told of each alert after its transaction committed (the live updates). */
  alertCommitted?: (alert: NewAlert) => void;
  /** Tests only: holds a claimed slot before it runs (JobRunnerDeps.hold). */
  hold?: JobRunnerDeps['hold'];
}

export interface ScanAlertJobs {
  job: Job;
  /** Runs the job's slot when due (the registry's group). */
  tick: Tick;
  /** One session's pass over every watched scan (the job's run); answers what failed. */
  runSession(day: number, context?: RunContext): Promise<string[]>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const NO_HEARTBEAT: RunContext = { heartbeat: async () => undefined };

/** "AAPL, MSFT +3 more": the alert's `symbol`. */
export const symbolsLabel = (symbols: readonly string[]) =>
  symbols.slice(0, SYMBOLS_NAMED).join(', ') + (symbols.length > SYMBOLS_NAMED ? ` +${symbols.length - SYMBOLS_NAMED} more` : '');

export function createScanAlertJobs(deps: ScanAlertDeps): ScanAlertJobs {
  const { db, runScan, clock } = deps;
  // The run's log (symbols it could not read, facts it could not get), said in the jobs' log.
  const said = (context: object, message: string) => deps.log.warn(`Custom Scan alerts: ${message}: ${errorText((context as { err?: unknown }).err)}`);
  const scanLog: ScanLog = { warn: said, error: said };

  /** The alert of the symbols that entered `scan` at `session` (they are among the run's rows). */
  function alertOf(rule: RuleRow, scan: WatchedScan, answer: RunScanResponse, session: string, day: number, entered: readonly string[], previousSession: string | undefined, firedAt: Date): NewAlert {
    const wanted = new Set(entered);
    const rows = answer.rows.filter((row) => wanted.has(row.symbol));
    const labels = answer.columns.map((column) => column.label);
    // An entry computed from an imported price file's bars: the alert's source says so.
    const source = rows.some((row) => row.imported) ? importedSourceLabel(deps.source) : deps.source;
    const message = customScanEntriesMessage({
      scanName: scan.name,
      formula: answer.formula,
      universe: scan.universe,
      session,
      source,
      entries: rows.map((row) => ({ symbol: row.symbol, price: row.price, changePct: row.change_pct, values: row.values.map((value, index) => ({ label: labels[index] ?? '', value })) })),
    });
    return {
      userId: rule.userId,
      alertType: CUSTOM_SCAN_TYPE,
      symbol: symbolsLabel(rows.map((row) => row.symbol)),
      triggerKey: `scan:${scan.id}:${session}`,
      rule: { ...ruleSnapshot(rule), scan: { id: scan.id, name: scan.name, universe: scan.universe, formula: scan.formula, version: scan.version } },
      data: {
        scan_id: scan.id,
        scan_name: scan.name,
        scan_version: scan.version,
        universe: scan.universe,
        formula: answer.formula,
        session,
        previous_session: previousSession ?? null,
        columns: labels,
        entered: rows,
        source,
        // The bars' as-of: the session's close.
        asOf: new Date(newYorkInstantMs(day, 16 * 60)).toISOString(),
      },
      ...message,
      channels: channelsOf(rule),
      firedAt,
      expiresAt: new Date(newYorkInstantMs(tradingDayOnOrAfter(day + 1), NEXT_OPEN_MINUTE)),
    };
  }

  /**
   * One scan's session: run it, then in one transaction (the rule and the scan locked, so a save or a
   * delete in between is seen) record its members and alert on those that entered. Answers the alert
   * written, if any. Throws when the run fails or the session's bars are not there yet: nothing is
   * written and the slot is retried.
   */
  async function passOfScan(rule: RuleRow, scan: WatchedScan, day: number): Promise<NewAlert | null> {
    const session = isoFromDayNumber(day);
    const answer = await runScan(rule.userId, { universe: scan.universe, formula: scan.formula, as_of: session }, scanLog);
    if (answer.evaluated > 0 && answer.as_of !== session) {
      throw new Error(`the bars of ${session} are not there yet (latest ${answer.as_of}); retried until they are`);
    }
    const firedAt = new Date(clock.nowMs());
    return db.transaction(async (tx) => {
      const current = await lockScanRule(tx, rule.userId);
      // The rule was turned off or the scan unticked since the pass began: it is not watched any more.
      if (!current?.isActive || !scanIdsOf(current.symbols).includes(scan.id)) return null;
      // Deleted since (or edited: the pass of its new version starts by recording).
      if ((await lockScanVersion(tx, rule.userId, scan.id)) !== scan.version) return null;
      // The session's intraday polls (scan-intraday.evaluator.ts) wait for this, or this sees what they wrote.
      await lockScanSession(tx, scan.id);
      const previous = await previousMembers(tx, scan.id, session);
      const membership = nextScanMembership({ previous, session, scanVersion: scan.version, matches: answer.rows.map((row) => row.symbol), missing: answer.missing });
      // A symbol that entered during the session alerted then: once per symbol, scan and session.
      const alertedIntraday = await intradayEntered(tx, scan.id, session);
      const entered = membership.entered.filter((symbol) => !alertedIntraday.has(symbol));
      const recorded = await recordMembers(tx, { scanId: scan.id, session, scanVersion: scan.version, symbols: membership.symbols, entered, recordedAt: firedAt }, previous?.session);
      // Another process (or an earlier attempt) recorded this session: its alert stands.
      if (!recorded || entered.length === 0) return null;
      const alert = alertOf(current, scan, answer, session, day, entered, previous?.session, firedAt);
      return (await insertAlert(tx, alert)) === null ? null : alert;
    });
  }

  async function runSession(day: number, context: RunContext = NO_HEARTBEAT): Promise<string[]> {
    const session = isoFromDayNumber(day);
    const failures: string[] = [];
    for (const rule of await rulesOfType(db, CUSTOM_SCAN_TYPE)) {
      for (const scan of await watchedScans(db, rule.userId, scanIdsOf(rule.symbols))) {
        if (await sessionRecorded(db, scan.id, session)) continue;
        try {
          const alert = await passOfScan(rule, scan, day);
          if (alert) {
            deps.alertCommitted?.(alert);
            if (alert.channels.length > 0) deps.delivery?.kick();
          }
        } catch (error) {
          failures.push(`scan ${scan.id}: ${errorText(error)}`);
        }
        await context.heartbeat();
      }
    }
    return failures;
  }

  const job: Job = {
    name: CUSTOM_SCAN_ALERTS_JOB,
    slotOf: (nowMs) => new Date(passTimeMs(passSessionDay(nowMs))),
    run: (slot, _nowMs, context) => runSession(passSessionDay(slot.getTime()), context),
  };
  const runner: JobRunnerDeps = { runs: deps.runs, marketClock: deps.marketClock, clock, log: deps.log, ...(deps.hold ? { hold: deps.hold } : {}) };
  return { job, tick: tickOf([job], runner), runSession };
}
