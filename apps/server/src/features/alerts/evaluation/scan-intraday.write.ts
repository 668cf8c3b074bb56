/**
 * The write of Custom Scan alerts during the session (docs/custom-scans.md "Custom Scan alerts",
 * "During the session"): the symbols of one scan that entered on a poll, recorded with their alert in
 * one transaction that locks as the daily pass does (scan.evaluator.ts): the rule FOR SHARE, the scan
 * FOR KEY SHARE, then the scan's session lock. So a rule saved off or a scan unticked, edited or
 * deleted since the poll began writes nothing, a poll after the session's daily pass writes nothing,
 * and a symbol is recorded (and alerted) once per scan and session however many polls and processes
 * see it enter: custom_scan_intraday_entries' primary key.
 */
import { customScanIntradayMessage, importedSourceLabel, newYorkInstantMs, nextScanMembership, type ScanValue } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { insertAlert, type NewAlert } from './alert-store';
import type { RuleRow } from './evaluation.repo';
import { channelsOf, ruleSnapshot } from './rule-snapshot';
import { symbolsLabel } from './scan.evaluator';
import { CUSTOM_SCAN_TYPE, lockScanRule, lockScanSession, lockScanVersion, previousMembers, recordIntradayEntries, scanIdsOf, sessionRecorded, type WatchedScan } from './scan-members.repo';

/** A symbol that matches a scan on its quote: what its alert says of it. */
export interface IntradayRow {
  symbol: string;
  name: string;
  /** The live price (today's provisional close). */
  price: number;
  /** Against the previous session's close, in %. */
  change_pct: number | null;
  /** The scan's fields today, in its columns' order. */
  values: ScanValue[];
  /** When the quote was priced (ms). */
  asOfMs: number;
  /** The symbol's bars (or its price) come from an imported price file: the alert's source says so. */
  imported?: true;
}

export interface IntradayWrite {
  rule: RuleRow;
  scan: WatchedScan;
  /** The session under way (YYYY-MM-DD) and its day number. */
  session: string;
  day: number;
  /** The scan's matches on this poll's quotes, in the universe's order. */
  rows: readonly IntradayRow[];
  /** The labels of the scan's columns (`RSI(14)`). */
  columns: readonly string[];
  source: string;
  firedAt: Date;
}

/** The session's close (16:00 New York). */
const CLOSE_MINUTE = 16 * 60;
/** The least time an alert stays worth sending: a price alert's (price.evaluator.ts PRICE_ALERT_FRESH_MS, docs/rules/alerts.md §4.5). */
const MIN_FRESH_MS = 15 * 60_000;

/**
 * Records the symbols of `rows` that entered (not members at the scan's previous record, not entered
 * yet this session) and writes their alert; answers it, or null when nothing entered or the rule,
 * the scan or the session's record says not to.
 */
export function writeIntradayEntries(db: Database, write: IntradayWrite): Promise<NewAlert | null> {
  const { scan, session, rows, firedAt } = write;
  return db.transaction(async (tx) => {
    const rule = await lockScanRule(tx, write.rule.userId);
    if (!rule?.isActive || !scanIdsOf(rule.symbols).includes(scan.id)) return null;
    if ((await lockScanVersion(tx, rule.userId, scan.id)) !== scan.version) return null;
    await lockScanSession(tx, scan.id);
    // The session's daily pass recorded it already: what it alerted on stands.
    if (await sessionRecorded(tx, scan.id, session)) return null;
    const previous = await previousMembers(tx, scan.id, session);
    const membership = nextScanMembership({ previous, session, scanVersion: scan.version, matches: rows.map((row) => row.symbol), missing: [] });
    if (membership.first || membership.entered.length === 0) return null;
    const bySymbol = new Map(rows.map((row) => [row.symbol, row]));
    const recorded = await recordIntradayEntries(
      tx,
      membership.entered.map((symbol) => ({ scanId: scan.id, session, symbol, scanVersion: scan.version, price: bySymbol.get(symbol)!.price, firedAt })),
    );
    const fresh = new Set(recorded);
    const entered = rows.filter((row) => fresh.has(row.symbol));
    if (entered.length === 0) return null;
    const asOfMs = Math.max(...entered.map((row) => row.asOfMs));
    const source = entered.some((row) => row.imported) ? importedSourceLabel(write.source) : write.source;
    const message = customScanIntradayMessage({
      scanName: scan.name,
      formula: scan.formula,
      universe: scan.universe,
      session,
      asOfMs,
      source,
      entries: entered.map((row) => ({ symbol: row.symbol, price: row.price, changePct: row.change_pct, values: row.values.map((value, index) => ({ label: write.columns[index] ?? '', value })) })),
    });
    const alert: NewAlert = {
      userId: rule.userId,
      alertType: CUSTOM_SCAN_TYPE,
      symbol: symbolsLabel(entered.map((row) => row.symbol)),
      // Each symbol enters once per scan and session: the first of them names the alert.
      triggerKey: `scan:${scan.id}:${session}:intraday:${[...recorded].sort()[0]!}`,
      rule: { ...ruleSnapshot(rule), scan: { id: scan.id, name: scan.name, universe: scan.universe, formula: scan.formula, version: scan.version } },
      data: {
        scan_id: scan.id,
        scan_name: scan.name,
        scan_version: scan.version,
        universe: scan.universe,
        formula: scan.formula,
        session,
        intraday: true,
        previous_session: previous?.session ?? null,
        columns: [...write.columns],
        entered: entered.map(({ asOfMs: _asOfMs, ...row }) => row),
        source,
        asOf: new Date(asOfMs).toISOString(),
      },
      ...message,
      channels: channelsOf(rule),
      firedAt,
      // News for the rest of the session (at least as long as a price alert's).
      expiresAt: new Date(Math.max(newYorkInstantMs(write.day, CLOSE_MINUTE), firedAt.getTime() + MIN_FRESH_MS)),
    };
    return (await insertAlert(tx, alert)) === null ? null : alert;
  });
}
