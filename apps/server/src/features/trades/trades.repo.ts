/**
 * The one idea store of every engine (docs/rules/conventions.md §0.4): the append-only event log `idea_events`,
 * the `ideas` rows (each the fold of its events, with the columns the lists filter and sort on) and
 * `trade_engine_versions` (replay progress and the last session run, per engine and rule version).
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { EngineId, Origin, StoredIdeaEvent } from '@signalboard/core';
import type { Database } from '../../db/client';
import { ideaEvents, ideas, tradeEngineVersions } from '../../db/schema';

/** A transaction or the database: every write of a session goes through one transaction. */
type Executor = Pick<Database, 'execute' | 'insert' | 'select' | 'update'>;

/** An idea row as the store keeps it (the `ideas` table). */
export interface IdeaRecord {
  id: string;
  engine: EngineId;
  market: string;
  symbol: string;
  createdAt: Date;
  status: string;
  origin: Origin;
  ruleVersion: string;
  isActive: boolean;
  isOpen: boolean;
  isVoided: boolean;
  types: string[];
  cooldownKey: string;
  closedBarDate: string | null;
  signalDate: string;
  lastSequence: number;
  markPrice: number | null;
  markAt: Date | null;
  /** The option's value the mark carried (Mark.optionValue), else null. */
  markOptionValue: number | null;
  row: Record<string, unknown>;
  updatedAt: Date;
}

export interface ListFilter {
  engine: EngineId;
  /** Replayed ideas of this version are listed (live ones of every version). */
  currentVersion: string;
  statuses?: string[];
  from?: Date;
  to?: Date;
  symbol?: string;
  origin?: Origin;
  /** Rows of any of these types; an entry 'type:status' wants only that status of the type. */
  types?: string[];
  limit: number;
  /** Newest first (default), or ProfitPercent descending (the option trades' list), then newest first. */
  order?: 'created' | 'profit';
  after?: { createdAt: Date; id: string; profit?: number };
}

export type ReplayState = 'pending' | 'running' | 'done' | 'failed';

export interface EngineVersionRow {
  engine: string;
  ruleVersion: string;
  paramHash: string;
  replayState: ReplayState;
  sessionsDone: number;
  sessionsTotal: number;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  lastSession: string | null;
}

const toStoredEvent = (row: typeof ideaEvents.$inferSelect): StoredIdeaEvent & { sequence: number } => ({
  sequence: row.sequence,
  ideaId: row.ideaId,
  engine: row.engine as EngineId,
  market: row.market as StoredIdeaEvent['market'],
  symbol: row.symbol,
  type: row.type as StoredIdeaEvent['type'],
  level: row.level,
  barDate: row.barDate,
  price: row.price,
  data: row.data as Record<string, unknown>,
  ruleVersion: row.ruleVersion,
  paramHash: row.paramHash,
  origin: row.origin as Origin,
  recordedAt: row.recordedAt.toISOString(),
});

/**
 * Rows per insert statement. Building one (the query builder maps every value) is synchronous: 300
 * idea rows took tens of ms on a quiet machine, a slice a request had to wait for (issue 24).
 */
const WRITE_CHUNK_ROWS = 100;

/** `%` and `_` match themselves in a LIKE pattern. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export function createTradesRepo(db: Database) {
  return {
    db,
    /** Runs `work` in one transaction (a session's events, rows and progress together). */
    transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(tx));
    },

    /**
     * Appends events; an event already in the log (same idea, type, level, bar date) is kept as it was.
     * `pace`: called before each chunk's statement is built (a background run gives way to requests).
     */
    async appendEvents(tx: Executor, events: readonly StoredIdeaEvent[], pace?: () => Promise<void>): Promise<void> {
      for (let start = 0; start < events.length; start += WRITE_CHUNK_ROWS) {
        await pace?.();
        const chunk = events.slice(start, start + WRITE_CHUNK_ROWS);
        await tx
          .insert(ideaEvents)
          .values(
            chunk.map((event) => ({
              ideaId: event.ideaId,
              engine: event.engine,
              market: event.market,
              symbol: event.symbol,
              type: event.type,
              level: event.level,
              barDate: event.barDate,
              price: event.price,
              data: event.data,
              ruleVersion: event.ruleVersion,
              paramHash: event.paramHash,
              origin: event.origin,
              recordedAt: new Date(event.recordedAt),
            })),
          )
          .onConflictDoNothing();
      }
    },

    /** The events of these ideas, oldest first (by sequence), grouped by idea; with `afterSequence`, only the later ones. */
    async eventsOf(tx: Executor, ids: readonly string[], afterSequence?: number): Promise<Map<string, Array<StoredIdeaEvent & { sequence: number }>>> {
      const out = new Map<string, Array<StoredIdeaEvent & { sequence: number }>>();
      for (let start = 0; start < ids.length; start += 1000) {
        const rows = await tx
          .select()
          .from(ideaEvents)
          .where(and(inArray(ideaEvents.ideaId, ids.slice(start, start + 1000)), afterSequence === undefined ? undefined : gt(ideaEvents.sequence, afterSequence)))
          .orderBy(asc(ideaEvents.sequence));
        for (const row of rows) {
          const list = out.get(row.ideaId) ?? [];
          list.push(toStoredEvent(row));
          out.set(row.ideaId, list);
        }
      }
      return out;
    },

    /** Inserts or replaces idea rows (`pace`: as appendEvents). */
    async upsertIdeas(tx: Executor, records: readonly IdeaRecord[], pace?: () => Promise<void>): Promise<void> {
      for (let start = 0; start < records.length; start += WRITE_CHUNK_ROWS) {
        await pace?.();
        const chunk = records.slice(start, start + WRITE_CHUNK_ROWS);
        await tx
          .insert(ideas)
          .values(chunk.map((record) => ({ ...record })))
          .onConflictDoUpdate({
            target: ideas.id,
            set: {
              status: sql`excluded.status`,
              isActive: sql`excluded.is_active`,
              isOpen: sql`excluded.is_open`,
              isVoided: sql`excluded.is_voided`,
              types: sql`excluded.types`,
              closedBarDate: sql`excluded.closed_bar_date`,
              lastSequence: sql`excluded.last_sequence`,
              markPrice: sql`excluded.mark_price`,
              markAt: sql`excluded.mark_at`,
              markOptionValue: sql`excluded.mark_option_value`,
              row: sql`excluded.row`,
              updatedAt: sql`excluded.updated_at`,
            },
          });
      }
    },

    /** The ideas of an engine and version still followed by the passes. */
    async openIdeas(tx: Executor, engine: EngineId, ruleVersion?: string) {
      return tx
        .select()
        .from(ideas)
        .where(and(eq(ideas.engine, engine), eq(ideas.isOpen, true), ruleVersion === undefined ? undefined : eq(ideas.ruleVersion, ruleVersion)));
    },

    /** Per cooldown key, the bar date its last closed idea (of this version) closed on. */
    async cooldowns(tx: Executor, engine: EngineId, ruleVersion: string): Promise<Map<string, string>> {
      const rows = await tx
        .select({ key: ideas.cooldownKey, closed: sql<string>`max(${ideas.closedBarDate})::text` })
        .from(ideas)
        .where(and(eq(ideas.engine, engine), eq(ideas.ruleVersion, ruleVersion), sql`${ideas.closedBarDate} is not null`))
        .groupBy(ideas.cooldownKey);
      return new Map(rows.map((row) => [row.key, row.closed]));
    },

    /** Every idea of an engine (any origin or version), for its track record; and the log's last sequence. */
    async ideasOf(engine: EngineId) {
      const rows = await db.select().from(ideas).where(eq(ideas.engine, engine));
      const [last] = await db.select({ sequence: sql<number>`coalesce(max(${ideaEvents.sequence}), 0)::bigint` }).from(ideaEvents).where(eq(ideaEvents.engine, engine));
      return { rows, lastSequence: Number(last?.sequence ?? 0) };
    },

    /**
     * A refreshed mark (with the option's value it carried, if any): the row folded at it, no event.
     * Written only while the idea is open and its log ends at `lastSequence`, the event the row was
     * folded through: a pass that has appended events since (a catch-up closing the idea) wrote a
     * newer row, which a fold of the older log must not overwrite. Answers whether it was written.
     */
    async saveMark(
      id: string,
      lastSequence: number,
      mark: { price: number; at: Date; optionValue: number | null },
      row: Record<string, unknown>,
      status: string,
      isActive: boolean,
      updatedAt: Date,
    ): Promise<boolean> {
      const written = await db
        .update(ideas)
        .set({ markPrice: mark.price, markAt: mark.at, markOptionValue: mark.optionValue, row, status, isActive, updatedAt })
        .where(and(eq(ideas.id, id), eq(ideas.lastSequence, lastSequence), eq(ideas.isOpen, true)))
        .returning({ id: ideas.id });
      return written.length === 1;
    },

    /**
     * One page of an engine's list, newest first (created_at, then id): each row's JSON text as
     * stored, and whether more follow. Live ideas of every version, replayed ones of the current
     * version; voided ideas never.
     */
    async list(filter: ListFilter): Promise<{ rows: Array<{ createdAt: Date; id: string; profit: number; symbol: string; ruleVersion: string; json: string }>; more: boolean }> {
      const conditions = [
        sql`${ideas.engine} = ${filter.engine}`,
        sql`not ${ideas.isVoided}`,
        sql`(${ideas.origin} = 'live' or ${ideas.ruleVersion} = ${filter.currentVersion})`,
      ];
      if (filter.statuses?.length) conditions.push(sql`${ideas.status} in (${sql.join(filter.statuses.map((status) => sql`${status}`), sql`, `)})`);
      if (filter.from) conditions.push(sql`${ideas.createdAt} >= ${filter.from.toISOString()}::timestamptz`);
      if (filter.to) conditions.push(sql`${ideas.createdAt} <= ${filter.to.toISOString()}::timestamptz`);
      if (filter.symbol) conditions.push(sql`${ideas.symbol} ilike ${`%${likeEscape(filter.symbol)}%`}`);
      if (filter.origin) conditions.push(sql`${ideas.origin} = ${filter.origin}`);
      if (filter.types?.length) {
        // Each entry a type, or 'type:status' (a type with the one status wanted of it); or-ed.
        const plain = filter.types.filter((entry) => !entry.includes(':'));
        const either = filter.types.flatMap((entry) => {
          const [type, status] = entry.split(':');
          return status ? [sql`(${ideas.types} && array[${type}]::text[] and ${ideas.status} = ${status})`] : [];
        });
        if (plain.length) either.unshift(sql`${ideas.types} && array[${sql.join(plain.map((type) => sql`${type}`), sql`, `)}]::text[]`);
        conditions.push(sql`(${sql.join(either, sql` or `)})`);
      }
      const byProfit = filter.order === 'profit';
      // ProfitPercent of the stored row (the option trades' sort); 0 when a row has none.
      const profit = sql`coalesce((${ideas.row}->>'ProfitPercent')::float8, 0)`;
      if (filter.after) {
        conditions.push(
          byProfit
            ? sql`(${profit}, ${ideas.createdAt}, ${ideas.id}) < (${filter.after.profit ?? 0}::float8, ${filter.after.createdAt.toISOString()}::timestamptz, ${filter.after.id})`
            : sql`(${ideas.createdAt}, ${ideas.id}) < (${filter.after.createdAt.toISOString()}::timestamptz, ${filter.after.id})`,
        );
      }
      const order = byProfit ? sql`page.profit desc, page.created_at desc, page.id desc` : sql`page.created_at desc, page.id desc`;
      const innerOrder = byProfit ? sql`${profit} desc, ${ideas.createdAt} desc, ${ideas.id} desc` : sql`${ideas.createdAt} desc, ${ideas.id} desc`;
      // The page's ids first (no row is read), then their rows' JSON: the text of only the rows sent.
      const result = await db.execute<{ created_at: string | Date; id: string; profit: number | string; symbol: string; rule_version: string; json: string }>(sql`
        select page.created_at, page.id, page.profit, ${ideas.symbol} as symbol, ${ideas.ruleVersion} as rule_version, ${ideas.row}::text as json
        from (select ${ideas.createdAt} as created_at, ${ideas.id} as id, ${byProfit ? profit : sql`0::float8`} as profit from ${ideas}
              where ${sql.join(conditions, sql` and `)}
              order by ${innerOrder}
              limit ${filter.limit + 1}) page
        join ${ideas} on ${ideas.id} = page.id
        order by ${order}`);
      const rows = result.rows.map((row) => ({ createdAt: new Date(row.created_at), id: row.id, profit: Number(row.profit), symbol: row.symbol, ruleVersion: row.rule_version, json: row.json }));
      const more = rows.length > filter.limit;
      return { rows: more ? rows.slice(0, filter.limit) : rows, more };
    },

    /** One idea of an engine with its events (oldest first), or undefined. */
    async detail(engine: EngineId, id: string) {
      const [record] = await db
        .select()
        .from(ideas)
        .where(and(eq(ideas.engine, engine), eq(ideas.id, id)))
        .limit(1);
      if (!record) return undefined;
      const events = (await this.eventsOf(db, [id])).get(id) ?? [];
      return { record, events };
    },

    async version(engine: EngineId, ruleVersion: string): Promise<EngineVersionRow | undefined> {
      const [row] = await db
        .select()
        .from(tradeEngineVersions)
        .where(and(eq(tradeEngineVersions.engine, engine), eq(tradeEngineVersions.ruleVersion, ruleVersion)))
        .limit(1);
      return row ? { ...row, replayState: row.replayState as ReplayState } : undefined;
    },

    /**
     * The last session a version has stored, its row locked until the transaction ends: the session
     * writes of one engine version are serialised, and a process sees the sessions another one stored.
     */
    async lockedLastSession(tx: Executor, engine: EngineId, ruleVersion: string): Promise<string | null> {
      const [row] = await tx
        .select({ lastSession: tradeEngineVersions.lastSession })
        .from(tradeEngineVersions)
        .where(and(eq(tradeEngineVersions.engine, engine), eq(tradeEngineVersions.ruleVersion, ruleVersion)))
        .for('update');
      return row?.lastSession ?? null;
    },

    /** Records a version's replay state (inserting its row the first time). */
    async saveVersion(tx: Executor, row: Partial<EngineVersionRow> & { engine: EngineId; ruleVersion: string; paramHash: string }, nowMs: number): Promise<void> {
      const { engine: _engine, ruleVersion: _ruleVersion, ...given } = row;
      // A new row starts pending; an update changes only the fields given.
      const values = { replayState: 'pending', ...row, updatedAt: new Date(nowMs) };
      const changes = { ...given, updatedAt: new Date(nowMs) };
      await tx
        .insert(tradeEngineVersions)
        .values(values)
        .onConflictDoUpdate({ target: [tradeEngineVersions.engine, tradeEngineVersions.ruleVersion], set: changes });
    },
  };
}

export type TradesRepo = ReturnType<typeof createTradesRepo>;
