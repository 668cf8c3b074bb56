/**
 * Digests (docs/rules/alerts.md §4.4 "Noise control"): alerts held by quiet hours go out as ONE morning digest per
 * user and channel (those still fresh; the others expire), and SMS over the caps are suppressed with
 * ONE later SMS "N more alerts". A digest is itself an alert event (alert_type 'DIGEST', symbol = the
 * channel, data { kind, deliveryIds, symbols }) with one delivery, so it is durable, retried, leased
 * and shown in the history like any alert. Deliveries join the open digest of their user, channel
 * and kind (one still queued) under the user's channel lock; a new one is made when none is open.
 */
import { sql } from 'drizzle-orm';
import type { AlertChannel } from '@signalboard/core';
import { alertDeliveries, alertDeliverySteps, alertEvents } from '../../../db/schema';
import { DIGEST_ALERT_TYPE, type EventRow, type Tx } from './delivery.repo';

export type DigestKind = 'quiet' | 'cap';

export interface DigestData {
  kind: DigestKind;
  deliveryIds: number[];
  symbols: string[];
}

/** How long a digest may wait for a working provider once due. */
export const DIGEST_FRESHNESS_MS = 12 * 3600_000;

export const SMS_CAP_PER_HOUR = 10;
export const SMS_CAP_PER_DAY = 50;

const unique = (values: readonly string[]) => [...new Set(values.filter((value) => value.length > 0))];

/** The texts of a digest of `kind` over `items` (for a cap digest only the count and symbols matter). */
export function digestTexts(kind: DigestKind, items: ReadonlyArray<Pick<EventRow, 'symbol' | 'smsText' | 'emailSubject' | 'emailText'>>, symbols = unique(items.map((item) => item.symbol))) {
  const n = items.length;
  if (kind === 'cap') {
    const list = symbols.slice(0, 8).join(', ') + (symbols.length > 8 ? ', …' : '');
    const smsText = `Signalboard: ${n} more alert${n === 1 ? ' was' : 's were'} not sent by SMS (limit ${SMS_CAP_PER_HOUR} an hour, ${SMS_CAP_PER_DAY} a day)${list ? `: ${list}` : ''}. See them in Signalboard.`;
    return { smsText, emailSubject: `Signalboard: ${n} more alerts`, emailText: `${smsText}\n` };
  }
  const smsText = [`Signalboard: ${n} alert${n === 1 ? '' : 's'} from your quiet hours:`, ...items.map((item) => item.smsText)].join('\n');
  const emailSubject = `Signalboard: ${n} alert${n === 1 ? '' : 's'} from your quiet hours`;
  const emailText = [
    `${n} alert${n === 1 ? '' : 's'} fired during your quiet hours and ${n === 1 ? 'is' : 'are'} still current:`,
    ...items.map((item) => `\n— ${item.emailSubject}\n\n${item.emailText.trim()}`),
  ].join('\n');
  return { smsText, emailSubject, emailText: `${emailText}\n` };
}

/**
 * Adds delivery `deliveryId` (of an alert on `symbol`) to the user's open digest of `kind` on
 * `channel`, or opens one due at `dueAt`. The caller holds the user's channel lock (lockUserChannel).
 */
export async function attachToDigest(
  tx: Tx,
  input: { userId: number; channel: AlertChannel; kind: DigestKind; deliveryId: number; symbol: string; dueAt: Date; now: Date },
): Promise<{ digestDeliveryId: number }> {
  const open = await tx.execute<{ delivery_id: number | string; event_id: number | string; data: DigestData }>(sql`
    select d.id as delivery_id, e.id as event_id, e.data from ${alertDeliveries} d join ${alertEvents} e on e.id = d.event_id
    where e.user_id = ${input.userId} and e.alert_type = ${DIGEST_ALERT_TYPE} and d.channel = ${input.channel}
      and d.status = 'queued' and e.data->>'kind' = ${input.kind}
    order by d.id limit 1 for update of d`);
  const row = open.rows[0];
  if (row) {
    const data: DigestData = {
      kind: input.kind,
      deliveryIds: [...new Set([...row.data.deliveryIds, input.deliveryId])],
      symbols: unique([...row.data.symbols, input.symbol]),
    };
    const texts = digestTexts(input.kind, data.deliveryIds.map(() => ({ symbol: '', smsText: '', emailSubject: '', emailText: '' })), data.symbols);
    await tx.execute(sql`update ${alertEvents} set data = ${JSON.stringify(data)}::jsonb, sms_text = ${texts.smsText}, email_subject = ${texts.emailSubject}, email_text = ${texts.emailText} where id = ${Number(row.event_id)}`);
    return { digestDeliveryId: Number(row.delivery_id) };
  }
  const data: DigestData = { kind: input.kind, deliveryIds: [input.deliveryId], symbols: unique([input.symbol]) };
  const texts = digestTexts(input.kind, [{ symbol: input.symbol, smsText: '', emailSubject: '', emailText: '' }], data.symbols);
  const [event] = await tx
    .insert(alertEvents)
    .values({
      userId: input.userId,
      alertType: DIGEST_ALERT_TYPE,
      symbol: input.channel,
      triggerKey: `${input.kind}:${input.deliveryId}`,
      rule: {},
      data,
      ...texts,
      firedAt: input.now,
    })
    .returning({ id: alertEvents.id });
  const [delivery] = await tx
    .insert(alertDeliveries)
    .values({
      eventId: event!.id,
      userId: input.userId,
      channel: input.channel,
      status: 'queued',
      nextAttemptAt: input.dueAt,
      expiresAt: new Date(input.dueAt.getTime() + DIGEST_FRESHNESS_MS),
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: alertDeliveries.id });
  await tx.insert(alertDeliverySteps).values({ deliveryId: delivery!.id, status: 'queued', reason: input.kind === 'quiet' ? 'morning digest' : 'cap digest', at: input.now });
  return { digestDeliveryId: delivery!.id };
}
