/**
 * The reads (and cursor moves) of alert evaluation (issue 15; docs/rules/alerts.md): the active
 * rules, the price watches' states, the saved alerts of the trade screens, and the two cursors
 * (alert_cursors) over the idea_events log and the market news. The writes an alert makes are in
 * alert-store.ts.
 */
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { AlertType, PriceAlertType } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { alertCursors, alertRules, alertSymbolState, ideaEvents, ideas, userOptionAlerts, users, userStockScannerAlerts } from '../../../db/schema';
import type { Executor, StateRow } from './alert-store';

export const PRICE_ALERT_TYPES: readonly PriceAlertType[] = ['PERCENT_DROP', 'CURRENT_PRICE', 'BITCOIN', 'LEVEL_SYSTEM'];

export const IDEA_CURSOR = 'idea_events';
export const NEWS_CURSOR = 'market_news';

export interface RuleRow {
  userId: number;
  alertType: string;
  symbols: string[];
  thresholdValue: number | null;
  targets: Array<{ symbol: string; price: number; direction: 'above' | 'below' }>;
  enableSms: boolean;
  enableEmail: boolean;
  isActive: boolean;
  updatedAt: Date;
}

/** The columns of a rule the evaluation reads. */
export const RULE_COLUMNS = {
  userId: alertRules.userId,
  alertType: alertRules.alertType,
  symbols: alertRules.symbols,
  thresholdValue: alertRules.thresholdValue,
  targets: alertRules.targets,
  enableSms: alertRules.enableSms,
  enableEmail: alertRules.enableEmail,
  isActive: alertRules.isActive,
  updatedAt: alertRules.updatedAt,
};

/** The active price rules of active users (with `symbols`: those watching one of them). */
export async function activePriceRules(db: Database, symbols?: readonly string[]): Promise<RuleRow[]> {
  const rows = await db
    .select(RULE_COLUMNS)
    .from(alertRules)
    .innerJoin(users, eq(users.id, alertRules.userId))
    .where(and(eq(alertRules.isActive, true), eq(users.isActive, true), inArray(alertRules.alertType, [...PRICE_ALERT_TYPES])));
  if (!symbols) return rows;
  const wanted = new Set(symbols);
  return rows.filter((row) => row.symbols.some((symbol) => wanted.has(symbol)));
}

/** The active rules of `type` of active users. */
export const rulesOfType = (db: Database, type: AlertType) =>
  db
    .select(RULE_COLUMNS)
    .from(alertRules)
    .innerJoin(users, eq(users.id, alertRules.userId))
    .where(and(eq(alertRules.alertType, type), eq(alertRules.isActive, true), eq(users.isActive, true)));

/** A user's rule of `type`, whatever its state (undefined: none saved). */
export async function ruleOf(db: Database, userId: number, type: AlertType) {
  const [rule] = await db.select().from(alertRules).where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, type)));
  return rule;
}

/** The price watches' states of `symbols`. */
export function priceStatesOf(db: Database, symbols: readonly string[]): Promise<StateRow[]> {
  return db
    .select()
    .from(alertSymbolState)
    .where(and(inArray(alertSymbolState.alertType, [...PRICE_ALERT_TYPES]), inArray(alertSymbolState.symbol, [...symbols])));
}

/** Deletes the states of a user's rule of `type` for the symbols no longer in `symbols`. */
export async function deleteStatesOutside(db: Database, userId: number, type: AlertType, symbols: readonly string[]): Promise<void> {
  const kept = symbols.length > 0 ? [notInArray(alertSymbolState.symbol, [...symbols])] : [];
  await db.delete(alertSymbolState).where(and(eq(alertSymbolState.userId, userId), eq(alertSymbolState.alertType, type), ...kept));
}

/** The saves of active users on the trade screens of `ideaIds`, and those ideas' rows (their labels). */
export async function savesOfIdeas(db: Database, ids: string[]) {
  const optionSaves = await db.select({ userId: userOptionAlerts.userId, ideaId: userOptionAlerts.ideaId }).from(userOptionAlerts).innerJoin(users, eq(users.id, userOptionAlerts.userId)).where(and(inArray(userOptionAlerts.ideaId, ids), eq(users.isActive, true)));
  const dropSaves = await db.select({ userId: userStockScannerAlerts.userId, ideaId: userStockScannerAlerts.ideaId, tradeType: userStockScannerAlerts.tradeType }).from(userStockScannerAlerts).innerJoin(users, eq(users.id, userStockScannerAlerts.userId)).where(and(inArray(userStockScannerAlerts.ideaId, ids), eq(users.isActive, true)));
  const labels = new Map((await db.select({ id: ideas.id, row: ideas.row }).from(ideas).where(inArray(ideas.id, ids))).map((idea) => [idea.id, idea.row as Record<string, unknown>]));
  return { optionSaves, dropSaves, labels };
}

// ---- cursors -----------------------------------------------------------------------------------

/**
 * The cursor `name`, locked for the transaction (two processes read and advance it one after the
 * other); a new cursor starts at `initial`.
 */
export async function lockCursor(tx: Executor, name: string, initial: number, now: Date): Promise<number> {
  await tx.insert(alertCursors).values({ name, position: initial, updatedAt: now }).onConflictDoNothing();
  const [cursor] = await tx.select().from(alertCursors).where(eq(alertCursors.name, name)).for('update');
  return cursor!.position;
}

export async function moveCursor(tx: Executor, name: string, position: number, now: Date): Promise<void> {
  await tx.update(alertCursors).set({ position, updatedAt: now }).where(eq(alertCursors.name, name));
}

const horizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;

/** The oldest transaction still running (pg_snapshot_xmin): every transaction below it has finished. */
export async function snapshotHorizon(tx: Executor): Promise<number> {
  const [row] = (await tx.execute<{ xmin: string }>(sql`select (${horizon})::text as xmin`)).rows;
  return Number(row!.xmin);
}

// ---- idea events -------------------------------------------------------------------------------

export interface EventRow {
  sequence: number;
  ideaId: string;
  engine: string;
  symbol: string;
  type: string;
  level: string;
  barDate: string;
  price: number | null;
  data: unknown;
  /** When the engine's pass recorded it (market clock): the alert's "as of". */
  recordedAt: Date;
}

// Replayed history is the record, never news. A new trade alerts only when it was opened live
// (origin); a later event of any trade (a trade opened during the install replay keeps origin
// 'replayed' for life) alerts when a pass recorded it lately — a replay records its sessions'
// nominal pass times, long past. Only those rows are read: a replay's thousands are skipped.
const alerting = (recentFrom: Date) =>
  sql`((${ideaEvents.type} = 'opened' and ${ideaEvents.origin} = 'live') or (${ideaEvents.type} <> 'opened' and ${ideaEvents.recordedAt} >= ${recentFrom}))`;

const xid = (position: number | string) => sql`(${String(position)})::xid8`;

/** The most transactions finishedIdeaTransactions answers at once. */
export const IDEA_TRANSACTIONS_PER_READ = 1000;

/**
 * The finished transactions (tx_id from `from` up to the horizon) that wrote alerting events, oldest
 * first, with their alerting events' count: at most IDEA_TRANSACTIONS_PER_READ.
 */
export async function finishedIdeaTransactions(tx: Executor, from: number, recentFrom: Date): Promise<Array<{ tx: string; n: number }>> {
  return (
    await tx.execute<{ tx: string; n: number }>(
      sql`select tx_id::text as tx, count(*)::int as n from ${ideaEvents} where tx_id >= ${xid(from)} and tx_id < ${horizon} and ${alerting(recentFrom)} group by tx_id order by tx_id limit ${sql.raw(String(IDEA_TRANSACTIONS_PER_READ))}`,
    )
  ).rows;
}

/** The alerting events of the transactions from `from` through `last`, in transaction and sequence order. */
export function ideaEventsThrough(tx: Executor, from: number, last: string, recentFrom: Date): Promise<EventRow[]> {
  return tx
    .select({
      sequence: ideaEvents.sequence,
      ideaId: ideaEvents.ideaId,
      engine: ideaEvents.engine,
      symbol: ideaEvents.symbol,
      type: ideaEvents.type,
      level: ideaEvents.level,
      barDate: ideaEvents.barDate,
      price: ideaEvents.price,
      data: ideaEvents.data,
      origin: ideaEvents.origin,
      recordedAt: ideaEvents.recordedAt,
    })
    .from(ideaEvents)
    .where(sql`${ideaEvents.txId} >= ${xid(from)} and ${ideaEvents.txId} <= ${xid(last)} and ${alerting(recentFrom)}`)
    .orderBy(asc(ideaEvents.txId), asc(ideaEvents.sequence));
}
