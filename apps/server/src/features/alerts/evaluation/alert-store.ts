/**
 * The write side of alert evaluation (issue 15; docs/rules/alerts.md §4.1 "Durable outbox"): a fired alert is one
 * alert_events row plus one alert_deliveries row (and its first 'queued' step) per channel, written
 * in the transaction of the state change that caused it. The unique key (user, alert_type, symbol,
 * trigger_key) of alert_events makes a second insert of the same alert a no-op, and (event, channel,
 * endpoint) of alert_deliveries a second delivery; so evaluating twice, or in two processes, never
 * sends twice. Each webhook endpoint that takes the alert's type gets a delivery of its own.
 */
import { and, eq, sql } from 'drizzle-orm';
import { WEBHOOK_RETRY_WINDOW_HOURS, type AlertChannel } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { alertDeliveries, alertDeliverySteps, alertEvents, alertSymbolState, alertWebhooks, userPhones } from '../../../db/schema';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

export interface NewAlert {
  userId: number;
  /** One of the eleven rule types (ALERT_TYPES), or SAVED_OPTION_TRADE / SAVED_STOCK_SCANNER. */
  alertType: string;
  symbol: string;
  triggerKey: string;
  /** The rule (or the saved idea) as it was when the alert fired. */
  rule: Record<string, unknown>;
  data: Record<string, unknown>;
  smsText: string;
  emailSubject: string;
  emailText: string;
  channels: readonly AlertChannel[];
  firedAt: Date;
  /** After this a delivery is stale and is never sent (docs/rules/alerts.md §4.5 "Retries"). */
  expiresAt: Date;
}

/** The saved-alert kinds the trade screens make (their events fire like rules). */
export const SAVED_OPTION_TRADE = 'SAVED_OPTION_TRADE';
export const SAVED_STOCK_SCANNER = 'SAVED_STOCK_SCANNER';

/** Inserts the alert and its deliveries; answers the event's id, or null when it was there already. */
export async function insertAlert(tx: Executor, alert: NewAlert): Promise<number | null> {
  const [event] = await tx
    .insert(alertEvents)
    .values({
      userId: alert.userId,
      alertType: alert.alertType,
      symbol: alert.symbol,
      triggerKey: alert.triggerKey,
      rule: alert.rule,
      data: alert.data,
      smsText: alert.smsText,
      emailSubject: alert.emailSubject,
      emailText: alert.emailText,
      firedAt: alert.firedAt,
    })
    .onConflictDoNothing()
    .returning({ id: alertEvents.id });
  if (!event) return null;
  for (const channel of new Set(alert.channels)) {
    const [delivery] = await tx
      .insert(alertDeliveries)
      .values({
        eventId: event.id,
        userId: alert.userId,
        channel,
        status: 'queued',
        nextAttemptAt: alert.firedAt,
        expiresAt: alert.expiresAt,
        createdAt: alert.firedAt,
        updatedAt: alert.firedAt,
      })
      .onConflictDoNothing()
      .returning({ id: alertDeliveries.id });
    if (delivery) await tx.insert(alertDeliverySteps).values({ deliveryId: delivery.id, status: 'queued', reason: null, at: alert.firedAt });
  }
  // One delivery per webhook endpoint that takes this type (issue 27), retried for a day: a receiver gets `fired_at`.
  const endpoints = await tx
    .select({ id: alertWebhooks.id })
    .from(alertWebhooks)
    .where(and(eq(alertWebhooks.userId, alert.userId), eq(alertWebhooks.enabled, true), sql`${alertWebhooks.alertTypes} @> ${JSON.stringify([alert.alertType])}::jsonb`));
  for (const endpoint of endpoints) {
    const [delivery] = await tx
      .insert(alertDeliveries)
      .values({
        eventId: event.id,
        userId: alert.userId,
        channel: 'webhook',
        endpointId: endpoint.id,
        status: 'queued',
        nextAttemptAt: alert.firedAt,
        expiresAt: new Date(alert.firedAt.getTime() + WEBHOOK_RETRY_WINDOW_HOURS * 3_600_000),
        createdAt: alert.firedAt,
        updatedAt: alert.firedAt,
      })
      .onConflictDoNothing()
      .returning({ id: alertDeliveries.id });
    if (delivery) await tx.insert(alertDeliverySteps).values({ deliveryId: delivery.id, status: 'queued', reason: null, at: alert.firedAt });
  }
  return event.id;
}

/** Whether the user has a verified number with SMS on (saved alerts add SMS only then). */
export async function hasSmsNumber(tx: Executor, userId: number): Promise<boolean> {
  const [row] = await tx.select({ on: userPhones.smsEnabled }).from(userPhones).where(eq(userPhones.userId, userId));
  return row?.on === true;
}

export type StateRow = typeof alertSymbolState.$inferSelect;

export interface StateWrite {
  userId: number;
  alertType: string;
  symbol: string;
  ruleStamp: Date;
  armed: boolean;
  triggerPrice: number | null;
  lastFiredAt: Date | null;
  lastFiredSession: string | null;
  lastPrice: number | null;
  evaluatedAt: Date;
}

/** The stored columns of a state write (all but the key and the version). */
const stateValues = (write: StateWrite) => ({
  ruleStamp: write.ruleStamp,
  armed: write.armed,
  triggerPrice: write.triggerPrice,
  lastFiredAt: write.lastFiredAt,
  lastFiredSession: write.lastFiredSession,
  lastPrice: write.lastPrice,
  lastEvaluatedAt: write.evaluatedAt,
});

/**
 * Writes a watch's new state if nobody changed it since it was read (`expectedVersion`; null: no row
 * was there). Answers false when another evaluation got there first: its result stands.
 */
export async function writeState(tx: Executor, write: StateWrite, expectedVersion: number | null): Promise<boolean> {
  const values = stateValues(write);
  if (expectedVersion === null) {
    const inserted = await tx
      .insert(alertSymbolState)
      .values({ userId: write.userId, alertType: write.alertType, symbol: write.symbol, ...values, version: 1 })
      .onConflictDoNothing()
      .returning({ version: alertSymbolState.version });
    return inserted.length === 1;
  }
  const updated = await tx
    .update(alertSymbolState)
    .set({ ...values, version: sql`${alertSymbolState.version} + 1` })
    .where(
      and(
        eq(alertSymbolState.userId, write.userId),
        eq(alertSymbolState.alertType, write.alertType),
        eq(alertSymbolState.symbol, write.symbol),
        eq(alertSymbolState.version, expectedVersion),
      ),
    )
    .returning({ version: alertSymbolState.version });
  return updated.length === 1;
}

/** A new state made when a rule is saved: replaces whatever was there (the rule starts again). */
export async function resetState(tx: Executor, write: StateWrite): Promise<void> {
  const values = stateValues(write);
  await tx
    .insert(alertSymbolState)
    .values({ userId: write.userId, alertType: write.alertType, symbol: write.symbol, ...values, version: 1 })
    .onConflictDoUpdate({
      target: [alertSymbolState.userId, alertSymbolState.alertType, alertSymbolState.symbol],
      set: { ...values, version: sql`${alertSymbolState.version} + 1` },
    });
}
