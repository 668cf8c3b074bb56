/**
 * SQL of the alert settings (issue 14): rules, delivery settings and each channel's last delivery.
 * Every query is scoped by the signed-in user's id.
 */
import { and, asc, eq } from 'drizzle-orm';
import { ALERT_TYPE_SYMBOL_SOURCE, type AlertChannel, type AlertType } from '@signalboard/core';
import type { Database } from '../../../db/client';
import { alertChannelDeliveries, alertChannelStatus, alertDeliverySettings, alertRules, customScans, favoriteStocks, userPhones } from '../../../db/schema';
import { forgetUnwatchedScans, scanIdsOf } from '../evaluation/scan-members.repo';

export type AlertRuleRow = typeof alertRules.$inferSelect;
export type AlertDeliverySettingsRow = typeof alertDeliverySettings.$inferSelect;

export function createAlertRulesRepo(db: Database) {
  return {
    async favoriteSymbols(userId: number): Promise<string[]> {
      const rows = await db.select({ symbol: favoriteStocks.symbol }).from(favoriteStocks).where(eq(favoriteStocks.userId, userId)).orderBy(asc(favoriteStocks.id));
      return rows.map((row) => row.symbol);
    },

    /** The ids of the user's saved scans, as text (the Custom Scan rule's choice). */
    async savedScanIds(userId: number): Promise<string[]> {
      const rows = await db.select({ id: customScans.id }).from(customScans).where(eq(customScans.userId, userId)).orderBy(asc(customScans.id));
      return rows.map((row) => String(row.id));
    },

    /** The user's verified number, when SMS are enabled for it. */
    async verifiedPhone(userId: number): Promise<string | null> {
      const [row] = await db
        .select({ phoneNumber: userPhones.phoneNumber, smsEnabled: userPhones.smsEnabled })
        .from(userPhones)
        .where(eq(userPhones.userId, userId));
      return row && row.smsEnabled ? row.phoneNumber : null;
    },

    async rule(userId: number, type: AlertType): Promise<AlertRuleRow | undefined> {
      const [row] = await db.select().from(alertRules).where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, type)));
      return row;
    },

    /**
     * Inserts or replaces the user's rule of that type (created_at kept on replace). A saved-scans
     * rule also drops, in the same transaction, what the scans it no longer watches recorded (all of
     * them when it is off): a scan watched again starts by recording (docs/custom-scans.md "Custom Scan alerts").
     */
    async saveRule(row: Omit<AlertRuleRow, 'createdAt'>, now: Date): Promise<AlertRuleRow> {
      const { userId: _userId, alertType: _alertType, ...changes } = row;
      return db.transaction(async (tx) => {
        const [saved] = await tx
          .insert(alertRules)
          .values({ ...row, createdAt: now })
          .onConflictDoUpdate({ target: [alertRules.userId, alertRules.alertType], set: changes })
          .returning();
        if (ALERT_TYPE_SYMBOL_SOURCE[row.alertType as AlertType] === 'saved_scans') await forgetUnwatchedScans(tx, row.userId, row.isActive ? scanIdsOf(row.symbols) : []);
        return saved!;
      });
    },

    async deliverySettings(userId: number): Promise<AlertDeliverySettingsRow | undefined> {
      const [row] = await db.select().from(alertDeliverySettings).where(eq(alertDeliverySettings.userId, userId));
      return row;
    },

    async saveDeliverySettings(row: AlertDeliverySettingsRow): Promise<AlertDeliverySettingsRow> {
      const { userId: _userId, ...changes } = row;
      const [saved] = await db.insert(alertDeliverySettings).values(row).onConflictDoUpdate({ target: alertDeliverySettings.userId, set: changes }).returning();
      return saved!;
    },

    async lastDeliveries(userId: number): Promise<Record<AlertChannel, Date | null>> {
      const rows = await db
        .select({ channel: alertChannelDeliveries.channel, at: alertChannelDeliveries.lastDeliveredAt })
        .from(alertChannelDeliveries)
        .where(eq(alertChannelDeliveries.userId, userId));
      const result: Record<AlertChannel, Date | null> = { sms: null, email: null };
      for (const row of rows) if (row.channel === 'sms' || row.channel === 'email') result[row.channel] = row.at;
      return result;
    },

    /** Each channel's opt-out and problem (alert_channel_status), absent when never set. */
    async channelStatus(userId: number) {
      return db.select().from(alertChannelStatus).where(eq(alertChannelStatus.userId, userId));
    },

    /** Clears the e-mail channel's opt-out and problem. */
    async resumeEmail(userId: number, at: Date) {
      await db
        .update(alertChannelStatus)
        .set({ optedOutAt: null, problem: null, problemAt: null, updatedAt: at })
        .where(and(eq(alertChannelStatus.userId, userId), eq(alertChannelStatus.channel, 'email')));
    },

    async recordDelivery(userId: number, channel: AlertChannel, at: Date, providerAnswer: string): Promise<void> {
      await db
        .insert(alertChannelDeliveries)
        .values({ userId, channel, lastDeliveredAt: at, providerAnswer })
        .onConflictDoUpdate({ target: [alertChannelDeliveries.userId, alertChannelDeliveries.channel], set: { lastDeliveredAt: at, providerAnswer } });
    },
  };
}

export type AlertRulesRepo = ReturnType<typeof createAlertRulesRepo>;
