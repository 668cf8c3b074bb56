/**
 * SQL of the webhook endpoints (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): a user's endpoints, their
 * sealed secrets, and the state deliveries leave on them (last success, failing since, disabled).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { alertWebhooks } from '../../../db/schema';

type Db = Database | Parameters<Parameters<Database['transaction']>[0]>[0];
export type WebhookRow = typeof alertWebhooks.$inferSelect;

export function createWebhooksRepo(db: Database) {
  return {
    list(userId: number): Promise<WebhookRow[]> {
      return db.select().from(alertWebhooks).where(eq(alertWebhooks.userId, userId)).orderBy(asc(alertWebhooks.id));
    },

    async get(userId: number, id: number): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(alertWebhooks).where(and(eq(alertWebhooks.userId, userId), eq(alertWebhooks.id, id)));
      return row;
    },

    /** Adds an endpoint unless the user has `max` of `kinds` already (counted under a lock on the user's endpoints). */
    async insert(values: Omit<typeof alertWebhooks.$inferInsert, 'id'>, max: number, kinds: readonly string[]): Promise<WebhookRow | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('alert-webhooks'), ${values.userId})`);
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(alertWebhooks)
          .where(and(eq(alertWebhooks.userId, values.userId), inArray(alertWebhooks.kind, [...kinds])));
        if (n >= max) return null;
        const [row] = await tx.insert(alertWebhooks).values(values).returning();
        return row!;
      });
    },

    async update(userId: number, id: number, set: Partial<typeof alertWebhooks.$inferInsert>): Promise<WebhookRow | undefined> {
      const [row] = await db
        .update(alertWebhooks)
        .set(set)
        .where(and(eq(alertWebhooks.userId, userId), eq(alertWebhooks.id, id)))
        .returning();
      return row;
    },

    async remove(userId: number, id: number): Promise<WebhookRow | undefined> {
      const [row] = await db
        .delete(alertWebhooks)
        .where(and(eq(alertWebhooks.userId, userId), eq(alertWebhooks.id, id)))
        .returning();
      return row;
    },

    /** The enabled endpoints of a user that take `alertType` (one delivery each when an alert fires). */
    async takers(tx: Db, userId: number, alertType: string): Promise<number[]> {
      const rows = await tx
        .select({ id: alertWebhooks.id })
        .from(alertWebhooks)
        .where(and(eq(alertWebhooks.userId, userId), eq(alertWebhooks.enabled, true), sql`${alertWebhooks.alertTypes} @> ${JSON.stringify([alertType])}::jsonb`));
      return rows.map((row) => row.id);
    },

    /** A 2xx: the endpoint is healthy again. */
    async succeeded(tx: Db, id: number, at: Date, answer: string) {
      await tx.update(alertWebhooks).set({ lastSuccessAt: at, failingSince: null, lastAnswer: answer, updatedAt: at }).where(eq(alertWebhooks.id, id));
    },

    /** A failed attempt: answers when the endpoint started failing (this attempt when it was healthy). */
    async failed(tx: Db, id: number, at: Date, answer: string): Promise<Date | null> {
      const [row] = await tx
        .update(alertWebhooks)
        .set({ failingSince: sql`coalesce(${alertWebhooks.failingSince}, ${at})`, lastAnswer: answer, updatedAt: at })
        .where(eq(alertWebhooks.id, id))
        .returning({ failingSince: alertWebhooks.failingSince });
      return row?.failingSince ?? null;
    },

    /** Turns a failing endpoint off; answers false when it was off already (so the user is told once). */
    async disable(id: number, reason: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(alertWebhooks)
        .set({ enabled: false, disabledReason: reason, updatedAt: at })
        .where(and(eq(alertWebhooks.id, id), eq(alertWebhooks.enabled, true)))
        .returning({ id: alertWebhooks.id });
      return rows.length > 0;
    },

    /** A user's endpoint by its lookup hash (a push device's endpoint). */
    async byLookup(userId: number, lookupHash: string): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(alertWebhooks).where(and(eq(alertWebhooks.userId, userId), eq(alertWebhooks.lookupHash, lookupHash)));
      return row;
    },

    async removeById(id: number): Promise<void> {
      await db.delete(alertWebhooks).where(eq(alertWebhooks.id, id));
    },

    async byId(id: number): Promise<WebhookRow | undefined> {
      const [row] = await db.select().from(alertWebhooks).where(eq(alertWebhooks.id, id));
      return row;
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
