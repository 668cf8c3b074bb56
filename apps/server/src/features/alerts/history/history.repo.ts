/**
 * SQL of the alert history (issue 15): alert events with their deliveries and each delivery's steps.
 * Every query is scoped by the signed-in user's id; steps are read only through the user's deliveries.
 */
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { alertDeliveries, alertDeliverySteps, alertEvents, alertWebhooks } from '../../../db/schema';

export type AlertEventRow = typeof alertEvents.$inferSelect;
export type AlertDeliveryRow = typeof alertDeliveries.$inferSelect;
export type AlertDeliveryStepRow = typeof alertDeliverySteps.$inferSelect;

/** The filters as the repo applies them: instants already resolved from the user's days. */
export interface AlertEventFilter {
  alertType?: string;
  /** Case-insensitive "contains". */
  symbol?: string;
  /** fired_at ≥ fromMs. */
  fromMs?: number;
  /** fired_at < beforeMs. */
  beforeMs?: number;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

export function createAlertHistoryRepo(db: Database) {
  const where = (userId: number, filter: AlertEventFilter): SQL => {
    const conditions: SQL[] = [eq(alertEvents.userId, userId)];
    if (filter.alertType) conditions.push(eq(alertEvents.alertType, filter.alertType));
    if (filter.symbol) conditions.push(sql`${alertEvents.symbol} ilike ${`%${likeEscape(filter.symbol)}%`}`);
    if (filter.fromMs !== undefined) conditions.push(gte(alertEvents.firedAt, new Date(filter.fromMs)));
    if (filter.beforeMs !== undefined) conditions.push(lt(alertEvents.firedAt, new Date(filter.beforeMs)));
    return and(...conditions)!;
  };

  return {
    /** A page of the user's events, newest first (ties by id, newest first). */
    async events(userId: number, filter: AlertEventFilter, page: { offset: number; limit: number }): Promise<AlertEventRow[]> {
      return db.select().from(alertEvents).where(where(userId, filter)).orderBy(desc(alertEvents.firedAt), desc(alertEvents.id)).limit(page.limit).offset(page.offset);
    },

    async count(userId: number, filter: AlertEventFilter): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(alertEvents).where(where(userId, filter));
      return row?.n ?? 0;
    },

    /** The user's deliveries of these events, SMS before e-mail before the webhooks (with their names; null once deleted). */
    async deliveries(userId: number, eventIds: readonly number[]): Promise<Array<AlertDeliveryRow & { endpointName: string | null; endpointKind: string | null }>> {
      if (eventIds.length === 0) return [];
      const rows = await db
        .select({ delivery: alertDeliveries, endpointName: alertWebhooks.name, endpointKind: alertWebhooks.kind })
        .from(alertDeliveries)
        .leftJoin(alertWebhooks, and(eq(alertDeliveries.channel, 'webhook'), eq(alertWebhooks.id, alertDeliveries.endpointId)))
        .where(and(eq(alertDeliveries.userId, userId), inArray(alertDeliveries.eventId, [...eventIds])))
        .orderBy(asc(alertDeliveries.eventId), sql`case ${alertDeliveries.channel} when 'sms' then 0 when 'email' then 1 else 2 end`, asc(alertDeliveries.endpointId));
      return rows.map((row) => ({ ...row.delivery, endpointName: row.endpointName, endpointKind: row.endpointKind }));
    },

    /** The steps of these deliveries (already the user's), oldest first. */
    async steps(deliveryIds: readonly number[]): Promise<AlertDeliveryStepRow[]> {
      if (deliveryIds.length === 0) return [];
      return db
        .select()
        .from(alertDeliverySteps)
        .where(inArray(alertDeliverySteps.deliveryId, [...deliveryIds]))
        .orderBy(asc(alertDeliverySteps.deliveryId), asc(alertDeliverySteps.at), asc(alertDeliverySteps.id));
    },
  };
}

export type AlertHistoryRepo = ReturnType<typeof createAlertHistoryRepo>;
