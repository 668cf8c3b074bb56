import type { InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import { SAVED_ALERTS_MAX, SAVED_ALERT_ID_MAX } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { createTradesRepo, type IdeaRecord } from '../../trades/trades.repo';

type Headers = { authorization: string };

let t: TestApp;

/** Idea rows as the trades store writes them (upsertIdeas), one per case the saves tell apart. */
const OPT = {
  spy: 'options.SPY.2026-03-02@1.0.0',
  qqq: 'options.QQQ.2026-03-03@1.0.0',
  aapl: 'options.AAPL.2026-03-04@1.0.0',
  closed: 'options.MSFT.2026-02-02@1.0.0',
  voided: 'options.NVDA.2026-02-03@1.0.0',
};
const DROP = {
  s: 'drop.AAPL.2026-03-02.S@1.0.0',
  l: 'drop.KO.2026-03-02.L@1.0.0',
  o: 'drop.TSLA.2026-03-02.O@1.0.0',
  closed: 'drop.META.2026-02-02.S@1.0.0',
};

function idea(id: string, engine: 'options' | 'drop', active: boolean, row: Record<string, unknown>, voided = false): IdeaRecord {
  const [, symbol = 'X', signalDate = '2026-03-02'] = id.split('@')[0]!.split('.');
  const at = new Date(`${signalDate}T21:00:00Z`);
  return {
    id,
    engine,
    market: 'US',
    symbol,
    createdAt: at,
    status: active ? 'active' : 'failed',
    origin: 'live',
    ruleVersion: `${engine}@1.0.0`,
    isActive: active,
    isOpen: active,
    isVoided: voided,
    types: engine === 'drop' ? [String(row.StockType)] : [],
    cooldownKey: `${engine}.${symbol}`,
    closedBarDate: active ? null : signalDate,
    signalDate,
    lastSequence: 1,
    markPrice: null,
    markAt: null,
    markOptionValue: null,
    row,
    updatedAt: at,
  };
}
const optionRow = (id: string, active: boolean) => ({ Id: id, OptionsChainId: id, Symbol: id.split('.')[1], IsActive: active, Status: active ? 'Active' : 'Failed' });
const dropRow = (id: string, type: 'S' | 'L' | 'O', active: boolean) => ({
  StockScannerId: id,
  StockType: type,
  StockSymbol: id.split('.')[1],
  StockIsActive: active,
  Status: active ? 'Active' : 'Deactivated',
});

beforeAll(async () => {
  t = await createTestApp();
  const repo = createTradesRepo(t.db);
  await repo.transaction((tx) =>
    repo.upsertIdeas(tx, [
      idea(OPT.spy, 'options', true, optionRow(OPT.spy, true)),
      idea(OPT.qqq, 'options', true, optionRow(OPT.qqq, true)),
      idea(OPT.aapl, 'options', true, optionRow(OPT.aapl, true)),
      idea(OPT.closed, 'options', false, optionRow(OPT.closed, false)),
      idea(OPT.voided, 'options', false, optionRow(OPT.voided, false), true),
      idea(DROP.s, 'drop', true, dropRow(DROP.s, 'S', true)),
      idea(DROP.l, 'drop', true, dropRow(DROP.l, 'L', true)),
      idea(DROP.o, 'drop', true, dropRow(DROP.o, 'O', true)),
      idea(DROP.closed, 'drop', false, dropRow(DROP.closed, 'S', false)),
    ]),
  );
});
afterAll(async () => t.close());

async function newUser(label: string): Promise<Headers & { id: number }> {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'pw');
  return { id, ...(await login(t.app, email, 'pw')) };
}
const auth = (user: Headers) => ({ authorization: user.authorization });
async function call(method: 'GET' | 'POST', url: string, headers: Partial<Headers> & Record<string, string>, payload?: InjectOptions['payload']) {
  const response = await t.app.inject({ method, url, headers, payload });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
const saveOptions = (user: Headers, ids: unknown) => call('POST', '/api/save_user_option_alerts', auth(user), { option_chain_ids: ids } as object);
const saveDrops = (user: Headers, alerts: unknown) => call('POST', '/api/save_user_stock_scanner_alerts', auth(user), { alerts } as object);
async function optionIds(user: Headers): Promise<string[]> {
  const response = await call('GET', '/api/get_user_option_alerts', auth(user));
  expect(response.statusCode).toBe(200);
  return response.json<{ option_chain_ids: string[] }>().option_chain_ids;
}
async function dropAlerts(user: Headers): Promise<Array<{ stock_id: string; trade_type: string }>> {
  const response = await call('GET', '/api/get_user_stock_scanner_alerts', auth(user));
  expect(response.statusCode).toBe(200);
  return response.json<{ alerts: Array<{ stock_id: string; trade_type: string }> }>().alerts;
}
async function expect400(response: Awaited<ReturnType<typeof call>>, msg: string) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ msg });
}
const sorted = <T>(list: T[]) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('api/save_user_option_alerts and api/get_user_option_alerts', () => {
  it('starts empty, then answers exactly the set saved', async () => {
    const user = await newUser('opt-roundtrip');
    expect(await optionIds(user)).toEqual([]);
    const answer = await saveOptions(user, [OPT.spy, OPT.qqq]);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Saved 2 option alerts.', saved: [OPT.spy, OPT.qqq], dropped: [] }]);
    expect(sorted(await optionIds(user))).toEqual(sorted([OPT.spy, OPT.qqq]));
  });

  it('replaces the set: ids not sent again are removed, new ones added, kept ones keep their saved time', async () => {
    const user = await newUser('opt-replace');
    await saveOptions(user, [OPT.spy, OPT.qqq]);
    const before = await t.db.execute(sql`select created_at from user_option_alerts where user_id = ${user.id} and idea_id = ${OPT.qqq}`);
    const answer = await saveOptions(user, [OPT.qqq, OPT.aapl]);
    expect(answer.json()).toEqual({ msg: 'Saved 2 option alerts.', saved: [OPT.qqq, OPT.aapl], dropped: [] });
    expect(sorted(await optionIds(user))).toEqual(sorted([OPT.qqq, OPT.aapl]));
    const after = await t.db.execute(sql`select created_at from user_option_alerts where user_id = ${user.id} and idea_id = ${OPT.qqq}`);
    expect(after.rows).toEqual(before.rows);
    // Oldest first: the kept one, then the one added by the second save.
    expect(await optionIds(user)).toEqual([OPT.qqq, OPT.aapl]);
  });

  it('clears the set with an empty list (so a last alert can be removed)', async () => {
    const user = await newUser('opt-clear');
    await saveOptions(user, [OPT.spy]);
    const answer = await saveOptions(user, []);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Cleared your option alerts.', saved: [], dropped: [] }]);
    expect(await optionIds(user)).toEqual([]);
  });

  it('keeps only active option ideas that exist, reports the others and saves the rest', async () => {
    const user = await newUser('opt-dropped');
    const answer = await saveOptions(user, [OPT.closed, OPT.spy, 'options.NOPE.2026-03-02@1.0.0', DROP.s, OPT.voided, OPT.spy]);
    expect([answer.statusCode, answer.json()]).toEqual([
      200,
      {
        msg: 'Saved 1 option alert. Left out 4 items that are no longer active or unknown.',
        saved: [OPT.spy],
        dropped: [
          { id: OPT.closed, reason: 'inactive' },
          { id: 'options.NOPE.2026-03-02@1.0.0', reason: 'unknown' },
          // A drop item's id is no option trade.
          { id: DROP.s, reason: 'unknown' },
          { id: OPT.voided, reason: 'inactive' },
        ],
      },
    ]);
    expect(await optionIds(user)).toEqual([OPT.spy]);
    // Only closed ones sent: the set becomes empty.
    const none = await saveOptions(user, [OPT.closed]);
    expect(none.json()).toEqual({ msg: 'Saved 0 option alerts. Left out 1 item that is no longer active or unknown.', saved: [], dropped: [{ id: OPT.closed, reason: 'inactive' }] });
    expect(await optionIds(user)).toEqual([]);
  });

  it('answers malformed bodies 400 with a msg and changes nothing', async () => {
    const user = await newUser('opt-400');
    await saveOptions(user, [OPT.spy]);
    await expect400(await call('POST', '/api/save_user_option_alerts', auth(user), {}), 'option_chain_ids must be a list of option trade ids');
    await expect400(await saveOptions(user, 'options.SPY'), 'option_chain_ids must be a list of option trade ids');
    await expect400(await saveOptions(user, [5]), 'Option trade id must be text');
    await expect400(await saveOptions(user, ['  ']), 'Option trade id must not be empty');
    await expect400(await saveOptions(user, [`${OPT.spy}\u0000`]), 'Option trade id must not contain line breaks or other control characters');
    await expect400(await saveOptions(user, ['x'.repeat(SAVED_ALERT_ID_MAX + 1)]), `Option trade id must be at most ${SAVED_ALERT_ID_MAX} characters`);
    await expect400(await saveOptions(user, Array.from({ length: SAVED_ALERTS_MAX + 1 }, (_, i) => `options.X${i}.2026-03-02@1.0.0`)), `option_chain_ids may hold at most ${SAVED_ALERTS_MAX} ids`);
    await expect400(await call('POST', '/api/save_user_option_alerts', { ...auth(user), 'content-type': 'application/json' }, '[]'), 'The request body must be a JSON object with the fields of this call.');
    expect(await optionIds(user)).toEqual([OPT.spy]);
    // The longest id allowed is taken (and unknown).
    const longest = await saveOptions(user, [OPT.spy, 'x'.repeat(SAVED_ALERT_ID_MAX)]);
    expect(longest.json()).toMatchObject({ saved: [OPT.spy], dropped: [{ id: 'x'.repeat(SAVED_ALERT_ID_MAX), reason: 'unknown' }] });
  });
});

describe('api/save_user_stock_scanner_alerts and api/get_user_stock_scanner_alerts', () => {
  it('starts empty, then answers exactly the set saved', async () => {
    const user = await newUser('drop-roundtrip');
    expect(await dropAlerts(user)).toEqual([]);
    const alerts = [
      { stock_id: DROP.s, trade_type: 'S' },
      { stock_id: DROP.o, trade_type: 'O' },
    ];
    const answer = await saveDrops(user, alerts);
    expect([answer.statusCode, answer.json()]).toEqual([200, { msg: 'Saved 2 drop alerts.', saved: alerts, dropped: [] }]);
    expect(sorted(await dropAlerts(user))).toEqual(sorted(alerts));
  });

  it('replaces the set and clears it with an empty list', async () => {
    const user = await newUser('drop-replace');
    await saveDrops(user, [{ stock_id: DROP.s, trade_type: 'S' }, { stock_id: DROP.l, trade_type: 'L' }]);
    const answer = await saveDrops(user, [{ stock_id: DROP.l, trade_type: 'L' }, { stock_id: DROP.o, trade_type: 'O' }]);
    expect(answer.json()).toEqual({ msg: 'Saved 2 drop alerts.', saved: [{ stock_id: DROP.l, trade_type: 'L' }, { stock_id: DROP.o, trade_type: 'O' }], dropped: [] });
    expect(await dropAlerts(user)).toEqual([{ stock_id: DROP.l, trade_type: 'L' }, { stock_id: DROP.o, trade_type: 'O' }]);
    const cleared = await saveDrops(user, []);
    expect([cleared.statusCode, cleared.json()]).toEqual([200, { msg: 'Cleared your drop alerts.', saved: [], dropped: [] }]);
    expect(await dropAlerts(user)).toEqual([]);
  });

  it('keeps only active drop items of the type sent, reports the others and saves the rest', async () => {
    const user = await newUser('drop-dropped');
    const answer = await saveDrops(user, [
      { stock_id: DROP.closed, trade_type: 'S' },
      { stock_id: DROP.l, trade_type: 'S' },
      { stock_id: DROP.s, trade_type: 'S' },
      { stock_id: 'drop.NOPE.2026-03-02.S@1.0.0', trade_type: 'S' },
      { stock_id: OPT.spy, trade_type: 'O' },
      { stock_id: DROP.s, trade_type: 'S' },
      { stock_id: DROP.o, trade_type: 'O' },
    ]);
    expect([answer.statusCode, answer.json()]).toEqual([
      200,
      {
        msg: 'Saved 2 drop alerts. Left out 4 items that are no longer active or unknown.',
        saved: [{ stock_id: DROP.s, trade_type: 'S' }, { stock_id: DROP.o, trade_type: 'O' }],
        dropped: [
          { id: DROP.closed, trade_type: 'S', reason: 'inactive' },
          { id: DROP.l, trade_type: 'S', reason: 'type_mismatch' },
          { id: 'drop.NOPE.2026-03-02.S@1.0.0', trade_type: 'S', reason: 'unknown' },
          // An option trade's id is no drop item.
          { id: OPT.spy, trade_type: 'O', reason: 'unknown' },
        ],
      },
    ]);
    expect(sorted(await dropAlerts(user))).toEqual(sorted([{ stock_id: DROP.s, trade_type: 'S' }, { stock_id: DROP.o, trade_type: 'O' }]));
  });

  it('answers malformed bodies 400 with a msg and changes nothing', async () => {
    const user = await newUser('drop-400');
    await saveDrops(user, [{ stock_id: DROP.s, trade_type: 'S' }]);
    await expect400(await call('POST', '/api/save_user_stock_scanner_alerts', auth(user), {}), 'alerts must be a list of {stock_id, trade_type}');
    await expect400(await saveDrops(user, { stock_id: DROP.s, trade_type: 'S' }), 'alerts must be a list of {stock_id, trade_type}');
    await expect400(await saveDrops(user, [{ trade_type: 'S' }]), 'stock_id must be text');
    await expect400(await saveDrops(user, [{ stock_id: DROP.s }]), 'trade_type must be S, L or O');
    await expect400(await saveDrops(user, [{ stock_id: DROP.s, trade_type: 's' }]), 'trade_type must be S, L or O');
    await expect400(await saveDrops(user, [{ stock_id: '', trade_type: 'S' }]), 'stock_id must not be empty');
    await expect400(await saveDrops(user, [{ stock_id: 'a\nb', trade_type: 'S' }]), 'stock_id must not contain line breaks or other control characters');
    await expect400(await saveDrops(user, [{ stock_id: 'x'.repeat(SAVED_ALERT_ID_MAX + 1), trade_type: 'S' }]), `stock_id must be at most ${SAVED_ALERT_ID_MAX} characters`);
    await expect400(
      await saveDrops(user, Array.from({ length: SAVED_ALERTS_MAX + 1 }, () => ({ stock_id: DROP.s, trade_type: 'S' }))),
      `alerts may hold at most ${SAVED_ALERTS_MAX} alerts`,
    );
    expect(await dropAlerts(user)).toEqual([{ stock_id: DROP.s, trade_type: 'S' }]);
  });
});

describe('the saved alerts are per user', () => {
  it('answers 401 without a token and changes nothing', async () => {
    for (const [method, url] of [
      ['GET', '/api/get_user_option_alerts'],
      ['POST', '/api/save_user_option_alerts'],
      ['GET', '/api/get_user_stock_scanner_alerts'],
      ['POST', '/api/save_user_stock_scanner_alerts'],
    ] as const) {
      const response = await call(method, url, {}, method === 'POST' ? { option_chain_ids: [], alerts: [] } : undefined);
      expect([response.statusCode, response.json()], url).toEqual([401, { msg: 'Auth token missing' }]);
    }
    const rows = await t.db.execute(sql`select (select count(*) from user_option_alerts) + (select count(*) from user_stock_scanner_alerts) as n`);
    const n = Number((rows.rows[0] as { n: string }).n);
    await call('POST', '/api/save_user_option_alerts', {}, { option_chain_ids: [OPT.spy] });
    const again = await t.db.execute(sql`select (select count(*) from user_option_alerts) + (select count(*) from user_stock_scanner_alerts) as n`);
    expect(Number((again.rows[0] as { n: string }).n)).toBe(n);
  });

  it("user B neither reads nor changes user A's saved alerts", async () => {
    const a = await newUser('iso-a');
    const b = await newUser('iso-b');
    await saveOptions(a, [OPT.spy, OPT.qqq]);
    await saveDrops(a, [{ stock_id: DROP.s, trade_type: 'S' }]);
    // B starts empty: A's alerts are not B's.
    expect(await optionIds(b)).toEqual([]);
    expect(await dropAlerts(b)).toEqual([]);
    // B saves the same ids, then replaces and clears its own: A's stay as they were.
    await saveOptions(b, [OPT.spy]);
    await saveDrops(b, [{ stock_id: DROP.s, trade_type: 'S' }, { stock_id: DROP.l, trade_type: 'L' }]);
    expect(await optionIds(b)).toEqual([OPT.spy]);
    await saveOptions(b, [OPT.aapl]);
    await saveOptions(b, []);
    await saveDrops(b, []);
    expect(sorted(await optionIds(a))).toEqual(sorted([OPT.spy, OPT.qqq]));
    expect(await dropAlerts(a)).toEqual([{ stock_id: DROP.s, trade_type: 'S' }]);
    expect(await optionIds(b)).toEqual([]);
    // A's clearing leaves B's.
    await saveOptions(b, [OPT.qqq]);
    await saveOptions(a, []);
    expect(await optionIds(b)).toEqual([OPT.qqq]);
  });

  it("removes a user's saved alerts with the account (on delete cascade)", async () => {
    const user = await newUser('cascade');
    await saveOptions(user, [OPT.spy]);
    await saveDrops(user, [{ stock_id: DROP.s, trade_type: 'S' }]);
    await t.db.execute(sql`delete from users where id = ${user.id}`);
    const rows = await t.db.execute(
      sql`select (select count(*) from user_option_alerts where user_id = ${user.id}) + (select count(*) from user_stock_scanner_alerts where user_id = ${user.id}) as n`,
    );
    expect(Number((rows.rows[0] as { n: string }).n)).toBe(0);
  });

  it('two concurrent saves of one user leave exactly one of the two sets', async () => {
    const user = await newUser('concurrent');
    const [first, second] = await Promise.all([saveOptions(user, [OPT.spy, OPT.qqq]), saveOptions(user, [OPT.aapl])]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const now = sorted(await optionIds(user));
    expect([sorted([OPT.spy, OPT.qqq]), [OPT.aapl]]).toContainEqual(now);
  });
});
