/**
 * The SQL of Custom Scan alerts (docs/custom-scans.md "Custom Scan alerts"): the scans a rule
 * watches, the members each recorded per session (custom_scan_members), the symbols that entered
 * during a session (custom_scan_intraday_entries), and the locks that make a session's write agree
 * with the rule and the scan as they are when it commits.
 */
import { and, desc, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { ScanUniverse } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { alertRules, customScanIntradayEntries, customScanMembers, customScans } from '../../../db/schema';
import type { Executor } from './alert-store';
import { RULE_COLUMNS, type RuleRow } from './evaluation.repo';

export const CUSTOM_SCAN_TYPE = 'CUSTOM_SCAN';

export interface WatchedScan {
  id: number;
  name: string;
  universe: ScanUniverse;
  formula: string;
  version: number;
}

export interface MembersRow {
  session: string;
  scanVersion: number;
  symbols: string[];
}

/** The largest id a serial column holds (PostgreSQL integer). */
const MAX_SCAN_ID = 2_147_483_647;

/** The scan ids of a rule's `stock_symbols` (ids as text; anything else names no scan). */
export const scanIdsOf = (symbols: readonly string[]): number[] =>
  [...new Set(symbols.filter((symbol) => /^\d{1,10}$/.test(symbol)).map(Number))].filter((id) => id > 0 && id <= MAX_SCAN_ID);

/** The user's scans among `ids` (another user's id, or a deleted scan, is not there). */
export async function watchedScans(db: Database, userId: number, ids: readonly number[]): Promise<WatchedScan[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: customScans.id, name: customScans.name, universe: sql<ScanUniverse>`${customScans.universe}`, formula: customScans.formula, version: customScans.version })
    .from(customScans)
    .where(and(eq(customScans.userId, userId), inArray(customScans.id, [...ids])));
}

/** Whether the scan's members of `session` are recorded already (that session's pass of the scan is done). */
export async function sessionRecorded(db: Executor, scanId: number, session: string): Promise<boolean> {
  const [row] = await db
    .select({ scanId: customScanMembers.scanId })
    .from(customScanMembers)
    .where(and(eq(customScanMembers.scanId, scanId), eq(customScanMembers.session, session)));
  return row !== undefined;
}

/**
 * The user's Custom Scan rule, locked FOR SHARE for the transaction: a save of the rule (which
 * drops the members of scans it no longer watches, rules.repo.ts) waits for this transaction, or this
 * one reads the saved rule.
 */
export async function lockScanRule(tx: Executor, userId: number): Promise<RuleRow | undefined> {
  const [rule] = await tx
    .select(RULE_COLUMNS)
    .from(alertRules)
    .where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, CUSTOM_SCAN_TYPE)))
    .for('share');
  return rule;
}

/** The scan's version, its row locked against a delete for the transaction; undefined when it is gone (or not the user's). */
export async function lockScanVersion(tx: Executor, userId: number, scanId: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ version: customScans.version })
    .from(customScans)
    .where(and(eq(customScans.id, scanId), eq(customScans.userId, userId)))
    .for('key share');
  return row?.version;
}

/**
 * Serializes the writes of one scan's session: the daily pass and the intraday polls take it after
 * the rule and the scan rows (the same order everywhere), so a symbol that entered during the session
 * is seen by the pass that records the session, and no poll writes after that pass.
 */
export async function lockScanSession(tx: Executor, scanId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('custom-scan-session'), ${scanId})`);
}

/** The symbols that entered the scan during `session` (they alerted then). */
export async function intradayEntered(tx: Executor, scanId: number, session: string): Promise<Set<string>> {
  const rows = await tx
    .select({ symbol: customScanIntradayEntries.symbol })
    .from(customScanIntradayEntries)
    .where(and(eq(customScanIntradayEntries.scanId, scanId), eq(customScanIntradayEntries.session, session)));
  return new Set(rows.map((row) => row.symbol));
}

/** Records symbols that entered during a session; answers those not recorded before (the ones to alert on). */
export async function recordIntradayEntries(
  tx: Executor,
  rows: ReadonlyArray<{ scanId: number; session: string; symbol: string; scanVersion: number; price: number; firedAt: Date }>,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await tx.insert(customScanIntradayEntries).values([...rows]).onConflictDoNothing().returning({ symbol: customScanIntradayEntries.symbol });
  return inserted.map((row) => row.symbol);
}

/** The scan's latest recorded members before `session`. */
export async function previousMembers(tx: Executor, scanId: number, session: string): Promise<MembersRow | undefined> {
  const [row] = await tx
    .select({ session: customScanMembers.session, scanVersion: customScanMembers.scanVersion, symbols: customScanMembers.symbols })
    .from(customScanMembers)
    .where(and(eq(customScanMembers.scanId, scanId), lt(customScanMembers.session, session)))
    .orderBy(desc(customScanMembers.session))
    .limit(1);
  return row;
}

/**
 * Records the scan's members of `session`; false when they are recorded already (another process, or
 * an earlier attempt of the slot, did this session: its alert stands). Rows before `keepFrom` go.
 */
export async function recordMembers(
  tx: Executor,
  row: { scanId: number; session: string; scanVersion: number; symbols: string[]; entered: string[]; recordedAt: Date },
  keepFrom: string | undefined,
): Promise<boolean> {
  const inserted = await tx.insert(customScanMembers).values(row).onConflictDoNothing().returning({ scanId: customScanMembers.scanId });
  if (inserted.length === 0) return false;
  if (keepFrom !== undefined) await tx.delete(customScanMembers).where(and(eq(customScanMembers.scanId, row.scanId), lt(customScanMembers.session, keepFrom)));
  // The entries of earlier sessions have done their work (this session's are kept with its record).
  await tx.delete(customScanIntradayEntries).where(and(eq(customScanIntradayEntries.scanId, row.scanId), lt(customScanIntradayEntries.session, row.session)));
  return true;
}

/**
 * After a save of the user's Custom Scan rule: the members of the user's scans it does not watch
 * (all of them when the rule is off) are dropped, so a scan chosen again, or a rule turned on again,
 * starts by recording (docs/custom-scans.md "Custom Scan alerts": a first pass never fires).
 */
export async function forgetUnwatchedScans(tx: Executor, userId: number, watchedIds: readonly number[]): Promise<void> {
  const ownScans = tx.select({ id: customScans.id }).from(customScans).where(eq(customScans.userId, userId));
  await tx
    .delete(customScanMembers)
    .where(and(inArray(customScanMembers.scanId, ownScans), ...(watchedIds.length > 0 ? [notInArray(customScanMembers.scanId, [...watchedIds])] : [])));
  await tx
    .delete(customScanIntradayEntries)
    .where(and(inArray(customScanIntradayEntries.scanId, ownScans), ...(watchedIds.length > 0 ? [notInArray(customScanIntradayEntries.scanId, [...watchedIds])] : [])));
}
