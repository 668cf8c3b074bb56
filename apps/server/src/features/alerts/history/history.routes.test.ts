import { ALERT_HISTORY_CSV_COLUMNS, CSV_BOM, csvCell, ALERT_HISTORY_TYPE_MESSAGE, type GetAlertHistoryResponse } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, alertDeliverySteps, alertEvents } from '../../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';

type Headers = { authorization: string };

let t: TestApp;
let alice: { id: number; headers: Headers };
let bob: { id: number; headers: Headers };

const history = (headers: Headers | undefined, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/get_alert_history', ...(headers ? { headers } : {}), payload: payload as Record<string, unknown> });
const csv = (headers: Headers | undefined, query = '') => t.app.inject({ method: 'GET', url: `/api/alert_history.csv${query}`, ...(headers ? { headers } : {}) });
const items = async (headers: Headers, payload: unknown) => {
  const response = await history(headers, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<GetAlertHistoryResponse>().data;
};

interface Seed {
  userId: number;
  type: string;
  symbol: string;
  firedAt: string;
  sms?: string;
  data?: Record<string, unknown>;
  deliveries?: Array<{ channel: 'sms' | 'email'; status: string; reason?: string | null; attempts?: number; duplicate?: boolean; steps: Array<[string, string | null, string]> }>;
}

/** Writes an event, its deliveries and their steps as the evaluator and the delivery worker would. */
async function seed(event: Seed): Promise<number> {
  const firedAt = new Date(event.firedAt);
  const [row] = await t.db
    .insert(alertEvents)
    .values({
      userId: event.userId,
      alertType: event.type,
      symbol: event.symbol,
      triggerKey: `${event.firedAt}-${Math.random()}`,
      rule: { stock_symbols: [event.symbol], threshold_value: 5, enable_sms: true, enable_email: true, is_active: true },
      data: event.data ?? { price: 212.4, previousClose: 224.3, changePercent: -5.3, source: 'Simulated market', asOf: event.firedAt },
      smsText: event.sms ?? `${event.symbol} −5.3% to 212.40 (prev close 224.30) · 14:05 ET`,
      emailSubject: `${event.symbol} alert`,
      emailText: 'text',
      firedAt,
    })
    .returning({ id: alertEvents.id });
  for (const delivery of event.deliveries ?? []) {
    const [saved] = await t.db
      .insert(alertDeliveries)
      .values({
        eventId: row!.id,
        userId: event.userId,
        channel: delivery.channel,
        status: delivery.status,
        reason: delivery.reason ?? null,
        attempts: delivery.attempts ?? 1,
        possiblyDuplicate: delivery.duplicate ?? false,
        nextAttemptAt: firedAt,
        expiresAt: new Date(firedAt.getTime() + 15 * 60_000),
        createdAt: firedAt,
        updatedAt: firedAt,
      })
      .returning({ id: alertDeliveries.id });
    for (const [status, reason, at] of delivery.steps) await t.db.insert(alertDeliverySteps).values({ deliveryId: saved!.id, status, reason, at: new Date(at) });
  }
  return row!.id;
}

let ids: Record<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  const make = async (label: string) => {
    const email = uniqueEmail(label);
    const id = await createUser(t.db, email, 'pw');
    return { id, headers: await login(t.app, email, 'pw') };
  };
  alice = await make('history-alice');
  bob = await make('history-bob');
  ids = {
    // 2026-11-02 in New York (EST, UTC−5).
    drop: await seed({
      userId: alice.id,
      type: 'PERCENT_DROP',
      symbol: 'AAPL',
      firedAt: '2026-11-02T19:05:00Z',
      deliveries: [
        {
          channel: 'sms',
          status: 'delivered',
          steps: [
            ['queued', null, '2026-11-02T19:05:00Z'],
            ['sent', null, '2026-11-02T19:05:01Z'],
            ['delivered', null, '2026-11-02T19:05:03Z'],
          ],
        },
        { channel: 'email', status: 'suppressed', reason: 'quiet_hours', attempts: 0, steps: [['suppressed', 'quiet_hours', '2026-11-02T19:05:00Z']] },
      ],
    }),
    // 2026-11-03 04:30 UTC is still 2026-11-02 in New York, 2026-11-03 in Berlin.
    late: await seed({
      userId: alice.id,
      type: 'CURRENT_PRICE',
      symbol: 'NVDA',
      firedAt: '2026-11-03T04:30:00Z',
      sms: '=HYPERLINK("http://evil","x"), "quoted"',
      data: { price: 150.42, target: 150, direction: 'above', source: '+Finnhub', asOf: '2026-11-03T04:29:55Z' },
      deliveries: [{ channel: 'sms', status: 'failed', reason: 'Twilio 21211: invalid To number', attempts: 5, duplicate: true, steps: [['queued', null, '2026-11-03T04:30:00Z'], ['failed', 'Twilio 21211: invalid To number', '2026-11-03T04:31:00Z']] }],
    }),
    crypto: await seed({ userId: alice.id, type: 'BITCOIN', symbol: 'BTC', firedAt: '2026-11-05T10:00:00Z' }),
    saved: await seed({ userId: alice.id, type: 'SAVED_OPTION_TRADE', symbol: 'AAPL', firedAt: '2026-11-06T15:00:00Z', deliveries: [{ channel: 'email', status: 'expired', reason: 'stale', steps: [] }] }),
    bobs: await seed({
      userId: bob.id,
      type: 'PERCENT_DROP',
      symbol: 'AAPL',
      firedAt: '2026-11-04T15:00:00Z',
      sms: 'BOB-ONLY AAPL message',
      deliveries: [{ channel: 'sms', status: 'sent', steps: [['sent', null, '2026-11-04T15:00:01Z']] }],
    }),
  };
});
afterAll(async () => t?.close());

describe('POST api/get_alert_history', () => {
  it('answers every alert of the user, newest first, with the rule, the data and each channel timeline', async () => {
    const data = await items(alice.headers, {});
    expect(data.total).toBe(4);
    expect(data.next).toBeUndefined();
    expect(data.items.map((item) => item.id)).toEqual([ids.saved, ids.crypto, ids.late, ids.drop]);
    const drop = data.items.find((item) => item.id === ids.drop)!;
    expect(drop).toMatchObject({
      fired_at: '2026-11-02T19:05:00.000Z',
      alert_type: 'PERCENT_DROP',
      type_name: 'Percent Drop',
      symbol: 'AAPL',
      message: 'AAPL −5.3% to 212.40 (prev close 224.30) · 14:05 ET',
      rule: { stock_symbols: ['AAPL'], threshold_value: 5 },
      data: { price: 212.4, source: 'Simulated market', asOf: '2026-11-02T19:05:00Z' },
    });
    expect(drop.deliveries.map((delivery) => delivery.channel)).toEqual(['sms', 'email']);
    expect(drop.deliveries[0]!.steps.map((step) => step.status)).toEqual(['queued', 'sent', 'delivered']);
    expect(drop.deliveries[1]).toMatchObject({ status: 'suppressed', reason: 'quiet_hours', attempts: 0, possibly_duplicate: false, steps: [{ status: 'suppressed', reason: 'quiet_hours', at: '2026-11-02T19:05:00.000Z' }] });
    expect(data.items.find((item) => item.id === ids.saved)).toMatchObject({ type_name: 'Saved option trade', deliveries: [{ channel: 'email', status: 'expired', steps: [] }] });
    expect(data.items.find((item) => item.id === ids.crypto)!.deliveries).toEqual([]);
    expect(data.items.find((item) => item.id === ids.late)!.deliveries[0]).toMatchObject({ possibly_duplicate: true, attempts: 5 });
  });

  it('filters by type, by symbol (contains, any case) and by days in the time zone', async () => {
    expect((await items(alice.headers, { alert_type: 'PERCENT_DROP' })).items.map((item) => item.id)).toEqual([ids.drop]);
    expect((await items(alice.headers, { alert_type: 'SAVED_OPTION_TRADE' })).items.map((item) => item.id)).toEqual([ids.saved]);
    expect((await items(alice.headers, { alert_type: 'LEVEL_SYSTEM' })).items).toEqual([]);
    expect((await items(alice.headers, { symbol: 'aap' })).items.map((item) => item.id)).toEqual([ids.saved, ids.drop]);
    expect((await items(alice.headers, { symbol: '%' })).total).toBe(0);
    expect((await items(alice.headers, { symbol: 'aapl', alert_type: 'PERCENT_DROP' })).items.map((item) => item.id)).toEqual([ids.drop]);
    // New York (default): both the 19:05 UTC and the 04:30 UTC alerts are on Nov 2.
    expect((await items(alice.headers, { from: '2026-11-02', to: '2026-11-02' })).items.map((item) => item.id)).toEqual([ids.late, ids.drop]);
    expect((await items(alice.headers, { from: '2026-11-02', to: '2026-11-02', time_zone: 'Europe/Berlin' })).items.map((item) => item.id)).toEqual([ids.drop]);
    expect((await items(alice.headers, { from: '2026-11-05' })).items.map((item) => item.id)).toEqual([ids.saved, ids.crypto]);
    expect((await items(alice.headers, { to: '2026-11-01' })).total).toBe(0);
  });

  it('pages: total, page, limit and the next page', async () => {
    const first = await items(alice.headers, { limit: 3 });
    expect(first).toMatchObject({ total: 4, page: 1, limit: 3, next: 2 });
    expect(first.items.map((item) => item.id)).toEqual([ids.saved, ids.crypto, ids.late]);
    const second = await items(alice.headers, { limit: 3, page: 2 });
    expect(second.items.map((item) => item.id)).toEqual([ids.drop]);
    expect(second.next).toBeUndefined();
    expect((await items(alice.headers, { limit: 3, page: 9 })).items).toEqual([]);
  });

  it("never shows another user's alerts", async () => {
    const data = await items(bob.headers, {});
    expect(data.total).toBe(1);
    expect(data.items.map((item) => item.id)).toEqual([ids.bobs]);
    expect(data.items[0]!.deliveries).toHaveLength(1);
    expect((await items(bob.headers, { symbol: 'NVDA' })).total).toBe(0);
    expect((await items(alice.headers, { symbol: 'AAPL' })).items.map((item) => item.id)).not.toContain(ids.bobs);
  });

  it('answers 400 with a msg for bad filters, and 401 without a token', async () => {
    const bad = async (payload: unknown, msg: string) => {
      const response = await history(alice.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ msg });
    };
    await bad({ alert_type: 'NOPE' }, ALERT_HISTORY_TYPE_MESSAGE);
    await bad({ from: '2026-13-01' }, 'from must be a date, YYYY-MM-DD');
    await bad({ from: '2026-11-05', to: '2026-11-01' }, 'from must be on or before to');
    await bad({ limit: 1000 }, 'limit must be a whole number from 1 to 200');
    await bad({ page: -1 }, 'page must be a whole number from 1');
    await bad({ symbol: 'A\nB' }, 'symbol must not contain line breaks or other control characters');
    await bad({ time_zone: 'Nowhere/Land' }, 'time_zone must be an IANA time zone, e.g. America/New_York');
    const list = await t.app.inject({ method: 'POST', url: '/api/get_alert_history', headers: { ...alice.headers, 'content-type': 'application/json' }, payload: '[]' });
    expect(list.statusCode).toBe(400);
    expect((await history(undefined, {})).statusCode).toBe(401);
  });
});

describe('GET api/alert_history.csv', () => {
  /** The file's lines after its byte-order mark (every export starts with one, for Excel). */
  const parse = (body: string) => {
    expect(body.startsWith(CSV_BOM)).toBe(true);
    return body.slice(1).trimEnd().split('\r\n');
  };

  it('downloads one line per delivery as text/csv with a file name', async () => {
    const response = await csv(alice.headers);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="alert-history-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = parse(response.body);
    expect(lines[0]).toBe(ALERT_HISTORY_CSV_COLUMNS.join(','));
    // saved (1 delivery), crypto (none: one line), late (1), drop (2).
    expect(lines).toHaveLength(1 + 5);
    expect(lines[1]).toBe("2026-11-06T15:00:00.000Z,SAVED_OPTION_TRADE,Saved option trade,AAPL,AAPL −5.3% to 212.40 (prev close 224.30) · 14:05 ET,212.4,Simulated market,2026-11-06T15:00:00Z,email,expired,Expired,stale,Expired: too late to send,1,false,");
    expect(lines[2]).toBe('2026-11-05T10:00:00.000Z,BITCOIN,Cryptocurrency,BTC,BTC −5.3% to 212.40 (prev close 224.30) · 14:05 ET,212.4,Simulated market,2026-11-05T10:00:00Z,,,,,,,,');
    expect(lines[5]).toBe(
      '2026-11-02T19:05:00.000Z,PERCENT_DROP,Percent Drop,AAPL,AAPL −5.3% to 212.40 (prev close 224.30) · 14:05 ET,212.4,Simulated market,2026-11-02T19:05:00Z,email,suppressed,Suppressed,quiet_hours,Held: quiet hours,0,false,2026-11-02T19:05:00.000Z suppressed (quiet_hours)',
    );
    expect(lines[4]).toContain(',sms,delivered,Delivered,,,1,false,2026-11-02T19:05:00.000Z queued; 2026-11-02T19:05:01.000Z sent; 2026-11-02T19:05:03.000Z delivered');
  });

  it('escapes quotes and commas and defuses formulas', async () => {
    const lines = parse((await csv(alice.headers, '?symbol=NVDA')).body);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(
      `2026-11-03T04:30:00.000Z,CURRENT_PRICE,Current Price,NVDA,"'=HYPERLINK(""http://evil"",""x""), ""quoted""",150.42,'+Finnhub,2026-11-03T04:29:55Z,sms,failed,Failed,Twilio 21211: invalid To number,Twilio 21211: invalid To number,5,true,2026-11-03T04:30:00.000Z queued; 2026-11-03T04:31:00.000Z failed (Twilio 21211: invalid To number)`,
    );
    for (const [input, output] of [
      ['-1+1', "'-1+1"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['a\nb', '"a\nb"'],
      ['plain', 'plain'],
    ]) expect(csvCell(input)).toBe(output);
    expect(csvCell(-5.3)).toBe('-5.3');
  });

  it('takes the same filters, and is strictly per user', async () => {
    const filtered = parse((await csv(alice.headers, '?alert_type=PERCENT_DROP&from=2026-11-02&to=2026-11-02')).body);
    expect(filtered).toHaveLength(3);
    expect(filtered.slice(1).every((line) => line.includes(',PERCENT_DROP,'))).toBe(true);
    const bobs = (await csv(bob.headers)).body;
    expect(parse(bobs)).toHaveLength(2);
    expect(bobs).toContain('BOB-ONLY AAPL message');
    expect((await csv(alice.headers)).body).not.toContain('BOB-ONLY');
    expect(parse((await csv(alice.headers, '?alert_type=LEVEL_SYSTEM')).body)).toEqual([ALERT_HISTORY_CSV_COLUMNS.join(',')]);
    // A type with '+' travels percent-encoded (URLSearchParams does so); page and limit do not cut the export.
    const encoded = await csv(alice.headers, `?alert_type=${encodeURIComponent('NEWS+TRUMP+MAG7+ALPHA')}&symbol=&limit=1`);
    expect(encoded.statusCode, encoded.body).toBe(200);
    expect(parse((await csv(alice.headers, '?limit=1&page=3')).body)).toHaveLength(6);
  });

  it('answers 400 with a msg for bad filters, and 401 without a token (no token in the URL)', async () => {
    const response = await csv(alice.headers, '?from=yesterday');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ msg: 'from must be a date, YYYY-MM-DD' });
    expect((await csv(alice.headers, '?alert_type=X')).json()).toEqual({ msg: ALERT_HISTORY_TYPE_MESSAGE });
    expect((await csv(alice.headers, '?limit=abc')).statusCode).toBe(400);
    expect((await csv(alice.headers, '?token=x&from=2026-11-01')).statusCode).toBe(400);
    expect((await csv(undefined)).statusCode).toBe(401);
  });
});
