/**
 * The users' saved scans (table custom_scans). Every query is scoped by the owner's id, so another
 * user's scan reads as missing. The repo stores what it is given (a parsed, canonical formula) and
 * answers why a write was refused; the routes turn that into answers.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { MAX_SAVED_SCANS, type ScanUniverse } from '@signalboard/core';
import type { Database } from '../../db/client';
import { pgErrorCode } from '../../db/errors';
import { customScans, users } from '../../db/schema';

export interface SavedScanRow {
  id: number;
  name: string;
  universe: ScanUniverse;
  formula: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

/** What a save writes: the name as given (trimmed by the contract), the universe and the canonical formula. */
export interface SavedScanFields {
  name: string;
  universe: ScanUniverse;
  formula: string;
}

/** Why a write did not happen: the user keeps MAX_SAVED_SCANS already, has a scan of this name (any case), or has no scan of this id. */
export type SaveRefusal = 'limit' | 'duplicate-name' | 'missing';
export type SaveResult = { row: SavedScanRow } | { refused: SaveRefusal };

const columns = {
  id: customScans.id,
  name: customScans.name,
  universe: sql<ScanUniverse>`${customScans.universe}`,
  formula: customScans.formula,
  version: customScans.version,
  createdAt: customScans.createdAt,
  updatedAt: customScans.updatedAt,
};

/** The only unique constraint a write can break (ids are generated): custom_scans_user_name_unique. */
const isDuplicateName = (error: unknown) => pgErrorCode(error) === '23505';

export function createSavedScansRepo(db: Database) {
  return {
    /** The user's scans, last changed first (then the newest). */
    async list(userId: number): Promise<SavedScanRow[]> {
      return db.select(columns).from(customScans).where(eq(customScans.userId, userId)).orderBy(desc(customScans.updatedAt), desc(customScans.id));
    },

    async get(userId: number, id: number): Promise<SavedScanRow | undefined> {
      const [row] = await db.select(columns).from(customScans).where(and(eq(customScans.id, id), eq(customScans.userId, userId)));
      return row;
    },

    /**
     * Inserts a scan unless the user has MAX_SAVED_SCANS already. The user's row is locked (FOR NO
     * KEY UPDATE: it serialises this user's creates without blocking other tables' foreign-key
     * checks on the row) before counting, so two creates at 49 cannot both pass.
     */
    async create(userId: number, fields: SavedScanFields): Promise<SaveResult> {
      try {
        return await db.transaction(async (tx): Promise<SaveResult> => {
          await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
          const [kept] = await tx.select({ n: count() }).from(customScans).where(eq(customScans.userId, userId));
          if ((kept?.n ?? 0) >= MAX_SAVED_SCANS) return { refused: 'limit' };
          const [row] = await tx
            .insert(customScans)
            .values({ userId, ...fields })
            .returning(columns);
          return { row: row! };
        });
      } catch (error) {
        if (isDuplicateName(error)) return { refused: 'duplicate-name' };
        throw error;
      }
    },

    /**
     * Replaces name, universe and formula; the version goes up by one only when the universe or the
     * formula changed (a rename keeps it). updated_at is the transaction's time.
     */
    async update(userId: number, id: number, fields: SavedScanFields): Promise<SaveResult> {
      try {
        const [row] = await db
          .update(customScans)
          .set({
            ...fields,
            version: sql`case when ${customScans.universe} is distinct from ${fields.universe} or ${customScans.formula} is distinct from ${fields.formula} then ${customScans.version} + 1 else ${customScans.version} end`,
            updatedAt: sql`now()`,
          })
          .where(and(eq(customScans.id, id), eq(customScans.userId, userId)))
          .returning(columns);
        return row ? { row } : { refused: 'missing' };
      } catch (error) {
        if (isDuplicateName(error)) return { refused: 'duplicate-name' };
        throw error;
      }
    },

    /** Deletes the user's scan; its name, or undefined when the user has no scan of this id. */
    async remove(userId: number, id: number): Promise<string | undefined> {
      const [row] = await db
        .delete(customScans)
        .where(and(eq(customScans.id, id), eq(customScans.userId, userId)))
        .returning({ name: customScans.name });
      return row?.name;
    },
  };
}

export type SavedScansRepo = ReturnType<typeof createSavedScansRepo>;
