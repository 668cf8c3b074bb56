import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ideaDetail, layeredTrade, replayStatusResponse, swingTrade, trackRecord } from '@signalboard/core';
import { createFakeEngine, TEST_UNIVERSE, testUniverse } from '../../../test/fake-engine';
import { createTestApp, createUser, login, REPLAY_TIMEOUT_MS, uniqueEmail, type TestApp } from '../../../test/helpers';


let t: TestApp;
let headers: { authorization: string };
/** The replay waits for the universe until the test lets it go. */
let releaseUniverse = () => undefined as void;
const universeReleased = new Promise<void>((resolve) => (releaseUniverse = resolve));

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      tradeEngines: [createFakeEngine({ id: 'layered' }), createFakeEngine({ id: 'swing' })],
      tradeUniverse: async (biased) => {
        await universeReleased;
        return testUniverse(biased);
      },
    },
  );
  const email = uniqueEmail('trades');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

const get = (url: string, auth = true) => t.app.inject({ method: 'GET', url, ...(auth ? { headers } : {}) });

describe('the history replay', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('is pending before the first tick, runs in the background, and reports its progress until done', async () => {
    const before = replayStatusResponse.parse((await get('/api/trade_ideas/replay_status')).json());
    expect(before.map((row) => [row.engine, row.ruleVersion, row.state, row.sessionsDone])).toEqual([
      ['layered', 'layered@1.0.0', 'pending', 0],
      ['swing', 'swing@1.0.0', 'pending', 0],
    ]);
    // The tick does not wait for the replay (here: held before it reads the universe).
    expect(await t.app.tradeJobs.tick()).toEqual({});
    const running = replayStatusResponse.parse((await get('/api/trade_ideas/replay_status')).json());
    expect(running.map((row) => [row.state, row.sessionsDone])).toEqual([
      ['running', 0],
      ['running', 0],
    ]);
    expect(running[0]!.startedAt).toBe(new Date(t.clock.nowMs()).toISOString());
    // A second tick while it runs starts nothing more.
    expect(await t.app.tradeJobs.tick()).toEqual({});
    releaseUniverse();
    await t.app.tradeJobs.replaysIdle();
    const after = replayStatusResponse.parse((await get('/api/trade_ideas/replay_status')).json());
    for (const row of after) {
      expect(row.state).toBe('done');
      // Two years of sessions minus the 260 warm-up bars.
      expect(row.sessionsTotal).toBeGreaterThan(200);
      expect(row.sessionsTotal).toBeLessThan(260);
      expect(row.sessionsDone).toBe(row.sessionsTotal);
      expect(row.finishedAt! >= row.startedAt!).toBe(true);
      expect(row.error).toBeNull();
    }
  });
});

describe('the lists', () => {
  it('answer the spec bare lists, newest first, each row the contract row of its engine', async () => {
    const layered = await get('/api/all_stocks_scanner');
    expect(layered.statusCode).toBe(200);
    expect(layered.headers['content-type']).toMatch(/^application\/json/);
    const layeredRows = z.array(layeredTrade).parse(layered.json());
    expect(layeredRows.length).toBe(100);
    expect(layered.headers['x-next-cursor']).toEqual(expect.any(String));

    const swing = await get('/api/get_swing_trade_entries');
    const swingRows = z.array(swingTrade).parse(swing.json());
    expect(swingRows.length).toBe(100);
    const created = swingRows.map((row) => row.DateCreated);
    expect(created).toEqual([...created].sort().reverse());
    for (const row of swingRows) {
      expect(row).toMatchObject({ Origin: 'replayed', SurvivorshipBiased: true, RuleVersion: 'swing@1.0.0', ParamHash: '0123456789abcdef' });
      expect(TEST_UNIVERSE).toContain(row.Symbol);
      expect(row.Id).toMatch(/^swing\.[A-Z.]+\.\d{4}-\d{2}-\d{2}@1\.0\.0$/);
    }
    // Replayed ideas carry their session's nominal pass time (16:30 New York) as CreatedAt.
    expect(new Date(swingRows[0]!.DateCreated).toISOString()).toMatch(/T2[01]:30:00\.000Z$/);
    // Open ideas are marked at the last close; closed ones carry their exit.
    expect(swingRows.some((row) => row.IsActive)).toBe(true);
    expect(swingRows.some((row) => !row.IsActive && row.ExitPrice !== null)).toBe(true);
  });

  it('pages with the cursor in X-Next-Cursor until the last page, without repeats or gaps', async () => {
    const all = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    expect(all.length).toBeGreaterThan(30);
    const paged: string[] = [];
    let url = '/api/get_swing_trade_entries?limit=7';
    for (let pages = 0; pages < 200; pages += 1) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      const rows = z.array(swingTrade).parse(response.json());
      paged.push(...rows.map((row) => row.Id));
      const next = response.headers['x-next-cursor'] as string | undefined;
      if (!next) break;
      expect(rows.length).toBe(7);
      url = `/api/get_swing_trade_entries?limit=7&cursor=${encodeURIComponent(next)}`;
    }
    expect(paged).toEqual(all.map((row) => row.Id));
  });

  it('filters by status, symbol (case-insensitive contains), dates, origin and type', async () => {
    const all = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    const active = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?status=active&limit=500')).json());
    expect(active.map((row) => row.Id)).toEqual(all.filter((row) => row.Status === 'Active').map((row) => row.Id));
    const closed = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?status=successful,failed&limit=500')).json());
    expect(closed.map((row) => row.Id)).toEqual(all.filter((row) => row.Status === 'Successful' || row.Status === 'Failed').map((row) => row.Id));

    const symbol = all[0]!.Symbol;
    const part = symbol.slice(0, 2).toLowerCase();
    const bySymbol = z.array(swingTrade).parse((await get(`/api/get_swing_trade_entries?symbol=${part}&limit=500`)).json());
    expect(bySymbol.length).toBeGreaterThan(0);
    expect(bySymbol.map((row) => row.Id)).toEqual(all.filter((row) => row.Symbol.toLowerCase().includes(part)).map((row) => row.Id));
    // LIKE's wildcards match themselves.
    expect((await get('/api/get_swing_trade_entries?symbol=%25')).json()).toEqual([]);

    const day = all[10]!.DateCreated.slice(0, 10);
    const onDay = z.array(swingTrade).parse((await get(`/api/get_swing_trade_entries?from=${day}&to=${day}&limit=500`)).json());
    expect(onDay.length).toBeGreaterThan(0);
    expect(onDay.map((row) => row.Id)).toEqual(all.filter((row) => row.DateCreated.slice(0, 10) === day).map((row) => row.Id));
    const since = z.array(swingTrade).parse((await get(`/api/get_swing_trade_entries?from=${encodeURIComponent(all[5]!.DateCreated)}&limit=500`)).json());
    expect(since.map((row) => row.Id)).toEqual(all.filter((row) => row.DateCreated >= all[5]!.DateCreated).map((row) => row.Id));

    expect((await get('/api/get_swing_trade_entries?origin=live')).json()).toEqual([]);
    expect((await get('/api/get_swing_trade_entries?origin=replayed&limit=500')).json()).toHaveLength(all.length);
    const level = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?type=level&limit=500')).json());
    expect(level.map((row) => row.Id)).toEqual(all.filter((row) => row.NearSupport).map((row) => row.Id));
    expect((await get('/api/get_swing_trade_entries?type=trend')).json()).toEqual([]);
    expect((await get('/api/get_swing_trade_entries?type=drop,trend&limit=500')).json()).toHaveLength(all.length);
  });

  it('answers a type with the one status wanted of it (the screen’s per-type boxes), or-ed, and-ed with status, paged', async () => {
    const all = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    const ids = (rows: readonly z.infer<typeof swingTrade>[]) => rows.map((row) => row.Id);
    const pages = async (query: string) => {
      const rows: unknown[] = [];
      let cursor = '';
      for (let page = 0; page < 100; page += 1) {
        const response = await get(`/api/get_swing_trade_entries?${query}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(response.statusCode, response.body).toBe(200);
        rows.push(...response.json<unknown[]>());
        cursor = (response.headers['x-next-cursor'] as string | undefined) ?? '';
        if (!cursor) return z.array(swingTrade).parse(rows);
      }
      throw new Error('too many pages');
    };
    const kinds = (row: z.infer<typeof swingTrade>) => [row.TradeType === 'Trend' ? 'trend' : 'drop', ...(row.NearSupport ? ['level'] : [])];
    const wants = (row: z.infer<typeof swingTrade>, entries: string[]) => entries.some((entry) => kinds(row).includes(entry.split(':')[0]!) && row.Status.toLowerCase() === entry.split(':')[1]);
    // Active Trades with Level Systems Failed: the active trades of every type, and the failed ones near support only.
    const activeAndLevelFailed = ['drop:active', 'trend:active', 'level:failed'];
    const expected = all.filter((row) => wants(row, activeAndLevelFailed));
    expect(expected.some((row) => row.Status === 'Active')).toBe(true);
    expect(expected.some((row) => row.Status === 'Failed')).toBe(true);
    expect(all.some((row) => row.Status === 'Failed' && !row.NearSupport)).toBe(true);
    expect(ids(await pages(`type=${activeAndLevelFailed.join(',')}`))).toEqual(ids(expected));
    // Price Drop Successful (Partial too) with Level Systems Failed.
    const closed = ['drop:successful', 'drop:partial', 'level:failed'];
    expect(ids(await pages(`type=${closed.join(',')}`))).toEqual(ids(all.filter((row) => wants(row, closed))));
    // With status as well, both hold.
    expect(ids(await pages('type=drop:active,level:failed&status=failed'))).toEqual(ids(all.filter((row) => wants(row, ['level:failed']))));
    // A bare type and a type with its status.
    expect(ids(await pages('type=level,drop:active'))).toEqual(ids(all.filter((row) => row.NearSupport || wants(row, ['drop:active']))));
  });

  it('answer 401 without a token', async () => {
    for (const url of ['/api/all_stocks_scanner', '/api/get_swing_trade_entries', '/api/trade_ideas/replay_status', '/api/trade_ideas/swing/x']) {
      const response = await get(url, false);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ msg: 'Auth token missing' });
    }
  });

  it('answer 400 with a msg for every bad parameter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['status=foo', /^status must be a comma-separated list/],
      ['status=active,', /^status must be/],
      ['limit=0', /limit must be between 1 and 500/],
      ['limit=501', /limit must be between 1 and 500/],
      ['limit=2.5', /limit must be a whole number/],
      ['limit=abc', /number/],
      ['from=garbage', /^from must be a date \(YYYY-MM-DD\) or an ISO 8601 instant/],
      ['to=2026-02-30T99:00:00Z', /^to must be a date/],
      ['from=2026-05-01&to=2026-04-01', /^from must not be after to$/],
      ['cursor=garbage', /^cursor is not valid/],
      [`cursor=${Buffer.from('["2026-01-01", 5]').toString('base64url')}`, /^cursor is not valid/],
      ['unknown=1', /unknown/i],
      ['origin=both', /replayed/],
      ['type=swing', /^type must be a comma-separated list/],
      ['type=drop:deactivated', /^type of api\/get_swing_trade_entries must be a comma-separated list of trend, drop or level, each optionally with :active, :successful, :partial, :failed$/],
      ['type=drop:active,S:active', /^type of api\/get_swing_trade_entries must be a comma-separated list of trend, drop or level, each optionally/],
      ['type=drop:won', /^type must be a comma-separated list of trend, drop, level \(swing\) or S, L, O \(drop items\), each optionally with :status/],
      ['type=drop:', /^type must be a comma-separated list/],
      [`symbol=${'A'.repeat(21)}`, /^symbol must be at most 20 characters$/],
      ['symbol=a%00b', /^symbol must not contain line breaks or other control characters$/],
    ];
    for (const [query, msg] of cases) {
      const response = await get(`/api/get_swing_trade_entries?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ msg: string }>().msg, query).toMatch(msg);
    }
    const layered = await get('/api/all_stocks_scanner?type=trend');
    expect(layered.statusCode).toBe(400);
    expect(layered.json()).toEqual({ msg: 'type applies to api/get_swing_trade_entries and api/get_stock_scanner_data only' });
  });
});

describe("an idea's detail", () => {
  it('answers the row, the event log oldest first, and bars from ~60 sessions before the signal to the exit', async () => {
    const all = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?status=successful,failed&limit=500')).json());
    const idea = all[all.length - 1]!;
    const response = await get(`/api/trade_ideas/swing/${encodeURIComponent(idea.Id)}`);
    expect(response.statusCode).toBe(200);
    const detail = ideaDetail.parse(response.json());
    expect(detail.engine).toBe('swing');
    expect(detail.idea).toEqual(JSON.parse(JSON.stringify(idea)));
    expect(detail.events.map((event) => event.type)).toEqual(['opened', 'entry_filled', 'closed']);
    expect(detail.events.map((event) => event.barDate)).toEqual([...detail.events.map((event) => event.barDate)].sort());
    expect(detail.events[0]).toMatchObject({ origin: 'replayed', ruleVersion: 'swing@1.0.0', paramHash: '0123456789abcdef', level: '' });
    const signalDate = detail.events[0]!.barDate;
    const exitDate = detail.events[2]!.barDate;
    expect(detail.bars.filter((bar) => bar.date < signalDate)).toHaveLength(60);
    expect(detail.bars.at(-1)!.date).toBe(exitDate);
    expect(detail.bars.map((bar) => bar.date)).toEqual([...detail.bars.map((bar) => bar.date)].sort());
  });

  it('answers 404 for an unknown idea or an engine without ideas, 400 for an unknown engine', async () => {
    const unknown = await get('/api/trade_ideas/swing/swing.AAPL.1999-01-01@1.0.0');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ msg: 'No swing idea swing.AAPL.1999-01-01@1.0.0' });
    expect((await get('/api/trade_ideas/crypto/x')).json()).toEqual({ msg: 'The crypto engine has no ideas yet' });
    const bad = await get('/api/trade_ideas/stocks/x');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ msg: 'engine must be one of layered, swing, crypto, options, drop' });
    expect((await get('/api/trade_ideas/swing/%00')).statusCode).toBe(400);
  });
});

describe("an engine's track record", () => {
  it('answers the contract record of the stored ideas, scoped by date and symbol', async () => {
    const response = await get('/api/trade_ideas/swing/track_record');
    expect(response.statusCode).toBe(200);
    const record = trackRecord.parse(response.json());
    expect(record).toMatchObject({ engine: 'swing', scope: { from: null, to: null, symbol: null }, survivorshipNote: "survivorship: today's members" });
    const all = record.groups.find((group) => group.type === 'All' && group.origin === 'replayed' && group.ruleVersion === 'swing@1.0.0')!;
    const rows = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    const closedEntered = rows.filter((row) => !row.IsActive && !row.EntryPending);
    expect(all.allClosed.n).toBe(closedEntered.length);
    expect(all.open.count).toBe(rows.filter((row) => row.IsActive && !row.EntryPending).length);
    expect(all.baseline?.n).toBeGreaterThan(0);
    expect(all.benchmark?.symbol).toBe('SPY');

    const symbol = rows[0]!.Symbol;
    const scoped = trackRecord.parse((await get(`/api/trade_ideas/swing/track_record?symbol=${symbol.toLowerCase()}&from=2025-01-01`)).json());
    expect(scoped.scope).toEqual({ from: '2025-01-01', to: null, symbol: symbol.toLowerCase() });
    const scopedAll = scoped.groups.find((group) => group.type === 'All' && group.origin === 'replayed')!;
    expect(scopedAll.allClosed.n).toBe(closedEntered.filter((row) => row.Symbol.toLowerCase().includes(symbol.toLowerCase()) && row.DateCreated >= '2025-01-01').length);
  });

  it('answers 400 for bad parameters, 401 without a token, 404 for an engine without ideas', async () => {
    for (const [query, msg] of [
      ['from=garbage', /^from must be a date/],
      ['from=2026-02-01&to=2026-01-01', /^from must not be after to$/],
      ['status=active', /unknown|unrecognized/i],
      [`symbol=${'A'.repeat(21)}`, /^symbol must be at most 20 characters$/],
    ] as const) {
      const response = await get(`/api/trade_ideas/swing/track_record?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ msg: string }>().msg, query).toMatch(msg);
    }
    expect((await get('/api/trade_ideas/swing/track_record', false)).statusCode).toBe(401);
    expect((await get('/api/trade_ideas/options/track_record')).statusCode).toBe(404);
  });
});

describe('the event log', () => {
  it('refuses UPDATE and DELETE (a database trigger), and keeps the first copy of a repeated event', async () => {
    const [before] = (await t.pool.query<{ n: string }>('select count(*) as n from idea_events')).rows;
    await expect(t.pool.query("update idea_events set price = 1 where type = 'opened'")).rejects.toThrow(/idea_events is append-only: UPDATE is not allowed/);
    await expect(t.pool.query('delete from idea_events')).rejects.toThrow(/idea_events is append-only: DELETE is not allowed/);
    const first = (await t.db.execute<{ idea_id: string; type: string; level: string; bar_date: string }>(sql`select idea_id, type, level, bar_date::text from idea_events order by sequence limit 1`)).rows[0]!;
    await t.pool.query(
      `insert into idea_events (idea_id, engine, market, symbol, type, level, bar_date, price, data, rule_version, param_hash, origin, recorded_at)
       values ($1, 'swing', 'US', 'X', $2, $3, $4, 1, '{}', 'swing@1.0.0', 'x', 'live', now()) on conflict do nothing`,
      [first.idea_id, first.type, first.level, first.bar_date],
    );
    const [after] = (await t.pool.query<{ n: string }>('select count(*) as n from idea_events')).rows;
    expect(after!.n).toBe(before!.n);
  });
});
