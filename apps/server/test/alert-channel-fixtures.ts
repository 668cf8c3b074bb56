/**
 * What the alert-channel tests (webhooks, Discord, ntfy, Telegram, push) share: a Percent Drop alert of
 * a user written as the evaluator writes it (one 'webhook' delivery per endpoint that takes the
 * type), and that alert's endpoint deliveries.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { alertDeliveries, alertRules } from '../src/db/schema';
import { insertAlert } from '../src/features/alerts/evaluation/alert-store';
import type { FakeClock } from './helpers';

export interface FireOptions {
  /** The e-mail text (the alert's long text; a Telegram message's body). */
  text?: string;
}

/** A PERCENT_DROP alert of `userId` on `symbol` now, its rule made active first; answers the event id. */
export async function firePercentDrop(t: { db: Database; clock: FakeClock }, userId: number, symbol: string, options: FireOptions = {}): Promise<number> {
  const at = new Date(t.clock.nowMs());
  await t.db
    .insert(alertRules)
    .values({ userId, alertType: 'PERCENT_DROP', symbols: [symbol], thresholdValue: 5, targets: [], enableSms: false, enableEmail: false, isActive: true, createdAt: at, updatedAt: at })
    .onConflictDoNothing();
  const eventId = await t.db.transaction((tx) =>
    insertAlert(tx, {
      userId,
      alertType: 'PERCENT_DROP',
      symbol,
      triggerKey: `k${at.getTime()}-${symbol}-${Math.random()}`,
      rule: {},
      data: { price: 212.4, previousClose: 224.3 },
      smsText: `${symbol} −5.3% to 212.40`,
      emailSubject: `${symbol} dropped 5.3%`,
      emailText: options.text ?? `${symbol} −5.3% to 212.40 (prev close 224.30).`,
      channels: [],
      firedAt: at,
      expiresAt: new Date(at.getTime() + 15 * 60_000),
    }),
  );
  return eventId!;
}

/** The endpoint deliveries ('webhook' channel: every kind of endpoint) of one alert. */
export const endpointDeliveriesOf = (db: Database, eventId: number) =>
  db.select().from(alertDeliveries).where(and(eq(alertDeliveries.eventId, eventId), eq(alertDeliveries.channel, 'webhook')));
