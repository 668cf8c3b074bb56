/**
 * The users' saved alerts (issue 12): option trades (user_option_alerts) and drop items
 * (user_stock_scanner_alerts). Each query is scoped by the owner's id, so one user never reads or
 * changes another's. A save replaces the user's whole set in one transaction, keeping only ideas
 * that exist and are active (and, for drop items, of the type sent); the rest are reported.
 * The ideas themselves (table `ideas`, written by the trades store) are only read here.
 */
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { SavedAlertDropReason, StockScannerAlert } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { ideas, userOptionAlerts, users, userStockScannerAlerts } from '../../../db/schema';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
type DropType = StockScannerAlert['trade_type'];

interface IdeaState {
  isActive: boolean;
  /** The drop item's StockType (null for other engines' rows or a row without it). */
  stockType: string | null;
}

export interface OptionAlertsSave {
  saved: string[];
  dropped: Array<{ id: string; reason: SavedAlertDropReason }>;
}

export interface StockScannerAlertsSave {
  saved: Array<{ stock_id: string; trade_type: DropType }>;
  dropped: Array<{ id: string; trade_type: DropType; reason: SavedAlertDropReason }>;
}

/** The state of the ideas of `engine` among `ids` (voided ideas count as inactive). */
async function ideaStates(tx: Transaction, engine: 'options' | 'drop', ids: readonly string[]): Promise<Map<string, IdeaState>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: ideas.id,
      isActive: sql<boolean>`${ideas.isActive} and not ${ideas.isVoided}`,
      stockType: sql<string | null>`${ideas.row}->>'StockType'`,
    })
    .from(ideas)
    .where(and(eq(ideas.engine, engine), inArray(ideas.id, [...ids])));
  return new Map(rows.map((row) => [row.id, { isActive: row.isActive, stockType: row.stockType }]));
}

/** Locks the user's row: two saves of one user run one after the other (the last one's set wins). */
async function lockUser(tx: Transaction, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export function createSavedAlertsRepo(db: Database) {
  return {
    /** The user's saved option alerts, oldest first (then by id). */
    async optionAlerts(userId: number): Promise<string[]> {
      const rows = await db
        .select({ ideaId: userOptionAlerts.ideaId })
        .from(userOptionAlerts)
        .where(eq(userOptionAlerts.userId, userId))
        .orderBy(asc(userOptionAlerts.createdAt), asc(userOptionAlerts.ideaId));
      return rows.map((row) => row.ideaId);
    },

    /**
     * Makes the user's saved option alerts exactly the active option ideas among `ids` (each once,
     * in the order sent); an id saved before keeps its created_at. An empty list clears them.
     */
    async saveOptionAlerts(userId: number, ids: readonly string[]): Promise<OptionAlertsSave> {
      const unique = [...new Set(ids)];
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const states = await ideaStates(tx, 'options', unique);
        const saved: string[] = [];
        const dropped: OptionAlertsSave['dropped'] = [];
        for (const id of unique) {
          const state = states.get(id);
          if (!state) dropped.push({ id, reason: 'unknown' });
          else if (!state.isActive) dropped.push({ id, reason: 'inactive' });
          else saved.push(id);
        }
        const mine = eq(userOptionAlerts.userId, userId);
        await tx.delete(userOptionAlerts).where(saved.length > 0 ? and(mine, notInArray(userOptionAlerts.ideaId, saved)) : mine);
        if (saved.length > 0) {
          await tx
            .insert(userOptionAlerts)
            .values(saved.map((ideaId) => ({ userId, ideaId })))
            .onConflictDoNothing();
        }
        return { saved, dropped };
      });
    },

    /** The user's saved drop alerts, oldest first (then by id). */
    async stockScannerAlerts(userId: number): Promise<Array<{ stock_id: string; trade_type: DropType }>> {
      const rows = await db
        .select({ ideaId: userStockScannerAlerts.ideaId, tradeType: userStockScannerAlerts.tradeType })
        .from(userStockScannerAlerts)
        .where(eq(userStockScannerAlerts.userId, userId))
        .orderBy(asc(userStockScannerAlerts.createdAt), asc(userStockScannerAlerts.ideaId));
      return rows.map((row) => ({ stock_id: row.ideaId, trade_type: row.tradeType as DropType }));
    },

    /**
     * Makes the user's saved drop alerts exactly the active drop items among `alerts` whose
     * StockType is the trade_type sent (an item named twice is saved once, as its first matching
     * entry); an item saved before keeps its created_at. An empty list clears them.
     */
    async saveStockScannerAlerts(userId: number, alerts: readonly StockScannerAlert[]): Promise<StockScannerAlertsSave> {
      return db.transaction(async (tx) => {
        await lockUser(tx, userId);
        const states = await ideaStates(tx, 'drop', [...new Set(alerts.map((alert) => alert.stock_id))]);
        const kept = new Map<string, DropType>();
        const dropped: StockScannerAlertsSave['dropped'] = [];
        const seen = new Set<string>();
        for (const { stock_id: id, trade_type: tradeType } of alerts) {
          const key = `${id}\u0000${tradeType}`;
          if (seen.has(key)) continue;
          seen.add(key);
          if (kept.has(id)) continue;
          const state = states.get(id);
          if (!state) dropped.push({ id, trade_type: tradeType, reason: 'unknown' });
          else if (state.stockType !== tradeType) dropped.push({ id, trade_type: tradeType, reason: 'type_mismatch' });
          else if (!state.isActive) dropped.push({ id, trade_type: tradeType, reason: 'inactive' });
          else kept.set(id, tradeType);
        }
        const ids = [...kept.keys()];
        const mine = eq(userStockScannerAlerts.userId, userId);
        await tx.delete(userStockScannerAlerts).where(ids.length > 0 ? and(mine, notInArray(userStockScannerAlerts.ideaId, ids)) : mine);
        if (ids.length > 0) {
          await tx
            .insert(userStockScannerAlerts)
            .values(ids.map((ideaId) => ({ userId, ideaId, tradeType: kept.get(ideaId)! })))
            .onConflictDoUpdate({ target: [userStockScannerAlerts.userId, userStockScannerAlerts.ideaId], set: { tradeType: sql`excluded.trade_type` } });
        }
        return { saved: ids.map((id) => ({ stock_id: id, trade_type: kept.get(id)! })), dropped };
      });
    },
  };
}

export type SavedAlertsRepo = ReturnType<typeof createSavedAlertsRepo>;
