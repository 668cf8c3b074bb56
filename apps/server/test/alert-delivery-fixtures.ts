/** Test fixtures of alert delivery: users with a phone and rules, alerts inserted as the evaluator does. */
import { eq } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { alertDeliveries, alertDeliverySteps, alertEvents, alertRules, userPhones } from '../src/db/schema';
import { createUser, uniqueEmail } from './helpers';

export const FRESH_MS = 15 * 60_000;

let phoneCounter = 0;

/** A user with a verified phone and a PERCENT_DROP rule with both channels on. */
export async function deliveryUser(db: Database, now: Date, options: { phone?: boolean } = {}): Promise<{ userId: number; email: string; phone: string }> {
  const email = uniqueEmail('delivery');
  const userId = await createUser(db, email, 'pw');
  phoneCounter += 1;
  const phone = `+1555${String(1_000_000 + phoneCounter * 37 + (userId % 1000)).slice(-7)}`;
  if (options.phone !== false) await db.insert(userPhones).values({ userId, phoneNumber: phone, smsEnabled: true, verifiedAt: new Date(now.getTime() - 3_600_000) });
  await db.insert(alertRules).values({
    userId,
    alertType: 'PERCENT_DROP',
    symbols: ['AAPL', 'MSFT'],
    thresholdValue: 5,
    targets: [],
    enableSms: true,
    enableEmail: true,
    isActive: true,
    createdAt: now,
    updatedAt: now,
  });
  return { userId, email, phone };
}

let triggerCounter = 0;

/** An alert event with one queued delivery per channel and their 'queued' steps, in one transaction (as the evaluator writes them). */
export async function insertAlert(
  db: Database,
  input: { userId: number; now: Date; channels?: Array<'sms' | 'email'>; symbol?: string; freshMs?: number; alertType?: string },
): Promise<{ eventId: number; deliveries: Record<string, number> }> {
  triggerCounter += 1;
  const symbol = input.symbol ?? 'AAPL';
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(alertEvents)
      .values({
        userId: input.userId,
        alertType: input.alertType ?? 'PERCENT_DROP',
        symbol,
        triggerKey: `t${triggerCounter}`,
        rule: {},
        data: { price: 212.4 },
        smsText: `${symbol} −5.3% to 212.40 (prev close 224.30) #${triggerCounter}`,
        emailSubject: `${symbol} dropped 5.3% #${triggerCounter}`,
        emailText: `${symbol} −5.3% to 212.40 (prev close 224.30), simulated, as of 10:00 ET.`,
        firedAt: input.now,
      })
      .returning({ id: alertEvents.id });
    const deliveries: Record<string, number> = {};
    for (const channel of input.channels ?? ['sms', 'email']) {
      const [row] = await tx
        .insert(alertDeliveries)
        .values({
          eventId: event!.id,
          userId: input.userId,
          channel,
          status: 'queued',
          nextAttemptAt: input.now,
          expiresAt: new Date(input.now.getTime() + (input.freshMs ?? FRESH_MS)),
          createdAt: input.now,
          updatedAt: input.now,
        })
        .returning({ id: alertDeliveries.id });
      await tx.insert(alertDeliverySteps).values({ deliveryId: row!.id, status: 'queued', at: input.now });
      deliveries[channel] = row!.id;
    }
    return { eventId: event!.id, deliveries };
  });
}

export async function deliveryOf(db: Database, id: number) {
  const [row] = await db.select().from(alertDeliveries).where(eq(alertDeliveries.id, id));
  return row!;
}

export async function stepsOf(db: Database, id: number) {
  const rows = await db.select().from(alertDeliverySteps).where(eq(alertDeliverySteps.deliveryId, id)).orderBy(alertDeliverySteps.id);
  return rows.map((row) => (row.reason ? `${row.status}: ${row.reason}` : row.status));
}
