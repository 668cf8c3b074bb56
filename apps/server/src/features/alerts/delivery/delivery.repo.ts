/**
 * SQL of the delivery worker (issue 15; docs/rules/alerts.md §4 "Delivery"): claims with a lease, status changes
 * that each write a step, the channel's opt-out and problem, the SMS counts of the caps.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AlertChannel } from '@signalboard/core';
import type { Database } from '../../../db/client';
import {
  alertChannelDeliveries,
  alertChannelStatus,
  alertDeliveries,
  alertDeliverySettings,
  alertDeliverySteps,
  alertEvents,
  alertRules,
  userPhones,
  users,
} from '../../../db/schema';
import { metrics } from '../../../lib/metrics';

export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
type Db = Database | Tx;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;
export type EventRow = typeof alertEvents.$inferSelect;
export type DeliveryStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'expired' | 'suppressed';

/** Who claims a delivery: the SMS and e-mail worker, or the webhook lane (channels/webhook-lane.ts). */
export type DeliveryLane = 'messages' | 'webhook';

/** The alert_type of a digest's event (delivery.digest.ts). */
export const DIGEST_ALERT_TYPE = 'DIGEST';

export function createAlertDeliveryRepo(db: Database) {
  return {
    /**
     * Leases up to `limit` deliveries: queued ones that are due, and 'sending' ones whose lease ran out
     * (their worker died between committing 'sending' and recording the provider's answer), of the
     * lane's channels. Rows other workers hold are skipped, so several processes can run passes at once.
     */
    async claim(now: Date, leaseUntil: Date, limit: number, lane: DeliveryLane = 'messages'): Promise<DeliveryRow[]> {
      // Each lane claims its own channels: a slow webhook never holds up an SMS or an e-mail.
      const channels = lane === 'webhook' ? sql`${alertDeliveries.channel} = 'webhook'` : sql`${alertDeliveries.channel} in ('sms', 'email')`;
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: alertDeliveries.id })
          .from(alertDeliveries)
          .where(
            sql`((${alertDeliveries.status} = 'queued' and ${alertDeliveries.nextAttemptAt} <= ${now}) or ${alertDeliveries.status} = 'sending')
                and (${alertDeliveries.claimedUntil} is null or ${alertDeliveries.claimedUntil} < ${now}) and ${channels}`,
          )
          .orderBy(alertDeliveries.nextAttemptAt, alertDeliveries.id)
          .limit(limit)
          .for('update', { skipLocked: true });
        if (due.length === 0) return [];
        return tx
          .update(alertDeliveries)
          .set({ claimedUntil: leaseUntil })
          .where(inArray(alertDeliveries.id, due.map((row) => row.id)))
          .returning();
      });
    },

    /** Everything a decision needs: the event, the user, the rule, the settings, the channel, the phone. */
    async context(delivery: DeliveryRow) {
      const [event] = await db.select().from(alertEvents).where(eq(alertEvents.id, delivery.eventId));
      const [user] = await db.select({ email: users.email, isActive: users.isActive }).from(users).where(eq(users.id, delivery.userId));
      const [settings] = await db.select().from(alertDeliverySettings).where(eq(alertDeliverySettings.userId, delivery.userId));
      const [channel] = await db
        .select()
        .from(alertChannelStatus)
        .where(and(eq(alertChannelStatus.userId, delivery.userId), eq(alertChannelStatus.channel, delivery.channel)));
      const [phone] = await db.select().from(userPhones).where(eq(userPhones.userId, delivery.userId));
      const [rule] = event
        ? await db.select().from(alertRules).where(and(eq(alertRules.userId, delivery.userId), eq(alertRules.alertType, event.alertType)))
        : [];
      const [last] = await db
        .select()
        .from(alertChannelDeliveries)
        .where(and(eq(alertChannelDeliveries.userId, delivery.userId), eq(alertChannelDeliveries.channel, delivery.channel)));
      return { event, user, settings, channel, phone, rule, last };
    },

    /**
     * Moves a delivery to `status` with a step, only while it is still in one of `from` (the guard
     * against a second worker or a second receipt). Answers whether it moved.
     */
    async move(
      tx: Db,
      id: number,
      from: readonly DeliveryStatus[],
      status: DeliveryStatus,
      reason: string | null,
      at: Date,
      extra: Partial<Pick<DeliveryRow, 'attempts' | 'nextAttemptAt' | 'claimedUntil' | 'providerId' | 'possiblyDuplicate'>> = {},
    ): Promise<boolean> {
      const moved = await tx
        .update(alertDeliveries)
        .set({ status, reason, updatedAt: at, ...extra })
        .where(and(eq(alertDeliveries.id, id), inArray(alertDeliveries.status, [...from])))
        .returning({ id: alertDeliveries.id, channel: alertDeliveries.channel });
      if (moved.length === 0) return false;
      await tx.insert(alertDeliverySteps).values({ deliveryId: id, status, reason, at });
      // Every status change (the worker's and Twilio's receipts); a rare rolled-back move still counts.
      metrics.alertDeliveries.inc({ channel: moved[0]!.channel, status });
      return true;
    },

    /** Gives the lease back without a status change (a hold, a later slot). */
    async reschedule(tx: Db, id: number, nextAttemptAt: Date, at: Date, reason?: string) {
      await tx
        .update(alertDeliveries)
        .set({ nextAttemptAt, claimedUntil: null, updatedAt: at, ...(reason !== undefined ? { reason } : {}) })
        .where(eq(alertDeliveries.id, id));
    },

    async step(tx: Db, id: number, status: DeliveryStatus, reason: string | null, at: Date) {
      await tx.insert(alertDeliverySteps).values({ deliveryId: id, status, reason, at });
    },

    /** The channel's last successful delivery, shown on the settings screen. */
    async recordChannelDelivery(tx: Db, userId: number, channel: AlertChannel, at: Date, providerAnswer: string) {
      await tx
        .insert(alertChannelDeliveries)
        .values({ userId, channel, lastDeliveredAt: at, providerAnswer })
        .onConflictDoUpdate({ target: [alertChannelDeliveries.userId, alertChannelDeliveries.channel], set: { lastDeliveredAt: at, providerAnswer } });
    },

    /** Flags the channel: a permanent error, shown on the screen until cleared. */
    async flagProblem(tx: Db, userId: number, channel: AlertChannel, problem: string, at: Date) {
      await tx
        .insert(alertChannelStatus)
        .values({ userId, channel, problem, problemAt: at, updatedAt: at })
        .onConflictDoUpdate({ target: [alertChannelStatus.userId, alertChannelStatus.channel], set: { problem, problemAt: at, updatedAt: at } });
    },

    /** Opt-out (STOP, unsubscribe from all) or back in (START; `optedOut` false also clears the problem). */
    async setOptOut(tx: Db, userId: number, channel: AlertChannel, optedOut: boolean, at: Date) {
      const set = optedOut ? { optedOutAt: at, updatedAt: at } : { optedOutAt: null, problem: null, problemAt: null, updatedAt: at };
      if (optedOut) {
        // A second STOP keeps the first one's time.
        await tx
          .insert(alertChannelStatus)
          .values({ userId, channel, optedOutAt: at, updatedAt: at })
          .onConflictDoUpdate({
            target: [alertChannelStatus.userId, alertChannelStatus.channel],
            set: { optedOutAt: sql`coalesce(${alertChannelStatus.optedOutAt}, ${at})`, updatedAt: at },
          });
        return;
      }
      await tx.update(alertChannelStatus).set(set).where(and(eq(alertChannelStatus.userId, userId), eq(alertChannelStatus.channel, channel)));
    },

    /** Serialises one user's SMS decisions (the caps) across processes, until the transaction ends. */
    async lockUserChannel(tx: Tx, userId: number, channel: AlertChannel) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`alert-delivery:${channel}`}), ${userId})`);
    },

    /**
     * The user's SMS that left (a 'sent' step of an SMS delivery: digests count once, the alerts they
     * carried not at all) since `since`, oldest first, plus those being sent right now.
     */
    async smsSentTimes(tx: Db, userId: number, since: Date, exceptId: number): Promise<{ times: Date[]; sending: number }> {
      const sent = await tx.execute<{ at: Date | string }>(sql`
        select s.at from ${alertDeliverySteps} s join ${alertDeliveries} d on d.id = s.delivery_id
        where d.user_id = ${userId} and d.channel = 'sms' and s.status = 'sent' and s.reason is null and s.at >= ${since}
        order by s.at`);
      const sending = await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from ${alertDeliveries}
        where user_id = ${userId} and channel = 'sms' and status = 'sending' and id <> ${exceptId}`);
      return { times: sent.rows.map((row) => new Date(row.at)), sending: sending.rows[0]?.n ?? 0 };
    },

    async deliveriesWithEvents(ids: readonly number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ delivery: alertDeliveries, event: alertEvents })
        .from(alertDeliveries)
        .innerJoin(alertEvents, eq(alertEvents.id, alertDeliveries.eventId))
        .where(inArray(alertDeliveries.id, [...ids]))
        .orderBy(alertEvents.firedAt, alertDeliveries.id);
    },
  };
}

export type AlertDeliveryRepo = ReturnType<typeof createAlertDeliveryRepo>;
