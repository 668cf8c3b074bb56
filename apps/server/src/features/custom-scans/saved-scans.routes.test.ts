import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { and, count, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listScansResponse, MAX_SAVED_SCANS, SCAN_TEMPLATES, SCAN_UNIVERSES, saveScanResponse, scanResponse, type SaveScanRequest, type ScanGroupsOutput } from '@signalboard/core';
import { customScans } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

type Headers = { authorization: string };
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** A signed-in user: its bearer header and its id. */
async function newUser(label: string): Promise<Headers & { id: number }> {
  const email = uniqueEmail(`scans-${label}`);
  const id = await createUser(t.db, email, 'pw');
  return { ...(await login(t.app, email, 'pw')), id };
}
async function call(method: Method, url: string, headers: Partial<Headers>, payload?: InjectOptions['payload']): Promise<LightMyRequestResponse> {
  const response = await t.app.inject({ method, url, headers: headers.authorization === undefined ? {} : { authorization: headers.authorization }, ...(payload === undefined ? {} : { payload }) });
  expect(response.statusCode, `${method} ${url} answered 500: ${response.body}`).not.toBe(500);
  return response;
}
function expectStatus(response: LightMyRequestResponse, status: number, msg?: string | RegExp) {
  expect(response.statusCode, response.body).toBe(status);
  if (typeof msg === 'string') expect(response.json()).toEqual({ msg });
  else if (msg) expect(response.json().msg).toMatch(msg);
}
const list = async (headers: Headers) => {
  const response = await call('GET', '/api/scans', headers);
  expectStatus(response, 200);
  return listScansResponse.parse(response.json());
};
async function create(headers: Headers, body: SaveScanRequest) {
  const response = await call('POST', '/api/scans', headers, body as object);
  expectStatus(response, 200);
  return saveScanResponse.parse(response.json());
}
async function update(headers: Headers, id: number, body: SaveScanRequest) {
  const response = await call('PUT', `/api/scans/${id}`, headers, body as object);
  expectStatus(response, 200);
  return saveScanResponse.parse(response.json());
}
async function storedCount(userId: number): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(customScans).where(eq(customScans.userId, userId));
  return row!.n;
}

const RSI_FORMULA = 'rsi(14) < 30 and close > sma(200)';
const RSI_CONDITIONS: ScanGroupsOutput = {
  all: [
    { kind: 'compare', left: { field: 'rsi', params: [14] }, op: '<', right: { kind: 'number', value: 30 } },
    { kind: 'compare', left: { field: 'close', params: [] }, op: '>', right: { kind: 'field', ref: { field: 'sma', params: [200] } } },
  ],
  any: [],
  none: [],
};

describe('api/scans', () => {
  it('answers 401 without a token, for every call', async () => {
    const body = { name: 'x', universe: 'sp500', formula: RSI_FORMULA };
    for (const [method, url, payload] of [
      ['GET', '/api/scans'],
      ['POST', '/api/scans', body],
      ['GET', '/api/scans/1'],
      ['PUT', '/api/scans/1', body],
      ['DELETE', '/api/scans/1'],
    ] as const) {
      expect((await call(method, url, {}, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('saves a formula and answers it canonical with the builder\'s groups; lists, reads, replaces and deletes it', async () => {
    const user = await newUser('round-trip');
    expect(await list(user)).toMatchObject({ scans: [], limit: MAX_SAVED_SCANS });

    // A formula typed loosely comes back printed canonically, with its groups.
    const typed = await create(user, { name: '  Oversold  ', universe: 'sp500', formula: 'RSI < 30 AND close > SMA(200)' });
    expect(typed.msg).toBe('Saved "Oversold".');
    expect(typed.scan).toMatchObject({ name: 'Oversold', universe: 'sp500', formula: RSI_FORMULA, conditions: RSI_CONDITIONS, version: 1 });
    expect(typed.scan.created_at).toBe(typed.scan.updated_at);
    expect(new Date(typed.scan.created_at).toISOString()).toBe(typed.scan.created_at);

    // Conditions give the same scan as the formula.
    const built = await create(user, { name: 'Built', universe: 'crypto', conditions: RSI_CONDITIONS });
    expect(built.scan).toMatchObject({ name: 'Built', universe: 'crypto', formula: RSI_FORMULA, conditions: RSI_CONDITIONS, version: 1 });

    // A formula whose nesting does not fit the groups is kept as a formula (conditions null).
    const nested = await create(user, { name: 'Nested', universe: 'us', formula: '(rsi < 30 or rvol > 2) and (close > sma(50) or gap_pct < -2)' });
    expect(nested.scan).toMatchObject({ formula: '(rsi(14) < 30 or rvol > 2) and (close > sma(50) or gap_pct < -2)', conditions: null });

    const listed = await list(user);
    expect(listed.scans.map((scan) => scan.name)).toEqual(['Nested', 'Built', 'Oversold']);
    expect(listed.scans.find((scan) => scan.id === typed.scan.id)).toEqual(typed.scan);

    const read = await call('GET', `/api/scans/${built.scan.id}`, user);
    expectStatus(read, 200);
    expect(scanResponse.parse(read.json())).toEqual({ scan: built.scan });

    // PUT replaces with conditions and answers both forms too.
    const replaced = await update(user, typed.scan.id, {
      name: 'Oversold, any',
      universe: 'sp500',
      conditions: { any: [{ kind: 'between', left: { field: 'rsi' }, low: 20, high: 30 }, { kind: 'in', left: { field: 'sector' }, values: ['Energy', 'Utilities'] }] },
    });
    expect(replaced.msg).toBe('Saved "Oversold, any".');
    expect(replaced.scan).toMatchObject({ id: typed.scan.id, name: 'Oversold, any', formula: 'rsi(14) between 20 and 30 or sector in ("Energy", "Utilities")', version: 2 });
    expect(replaced.scan.conditions).toEqual({
      all: [],
      any: [
        { kind: 'between', left: { field: 'rsi', params: [14] }, low: 20, high: 30 },
        { kind: 'in', left: { field: 'sector', params: [] }, values: ['Energy', 'Utilities'], negated: false },
      ],
      none: [],
    });
    expect(replaced.scan.created_at).toBe(typed.scan.created_at);
    expect((await list(user)).scans[0]!.id).toBe(typed.scan.id);

    const deleted = await call('DELETE', `/api/scans/${typed.scan.id}`, user);
    expectStatus(deleted, 200, 'Deleted "Oversold, any".');
    expectStatus(await call('GET', `/api/scans/${typed.scan.id}`, user), 404, 'No such scan.');
    expectStatus(await call('DELETE', `/api/scans/${typed.scan.id}`, user), 404, 'No such scan.');
    expect((await list(user)).scans.map((scan) => scan.name)).toEqual(['Nested', 'Built']);
  });

  it('saves every universe', async () => {
    const user = await newUser('universes');
    for (const universe of SCAN_UNIVERSES) expect((await create(user, { name: universe, universe, formula: 'rvol > 2' })).scan.universe).toBe(universe);
  });

  it('moves the version only when the universe or the formula changes, and updated_at on every save', async () => {
    const user = await newUser('versions');
    const { scan } = await create(user, { name: 'Dip', universe: 'sp500', formula: RSI_FORMULA });
    // Put the row's times in the past, so that a save's new time shows whatever the clock's resolution.
    const past = new Date('2026-01-02T03:04:05.000Z');
    await t.db.update(customScans).set({ createdAt: past, updatedAt: past }).where(eq(customScans.id, scan.id));

    const renamed = await update(user, scan.id, { name: 'Dip, renamed', universe: 'sp500', formula: RSI_FORMULA });
    expect(renamed.scan).toMatchObject({ name: 'Dip, renamed', version: 1, created_at: past.toISOString() });
    expect(new Date(renamed.scan.updated_at).getTime()).toBeGreaterThan(past.getTime());

    // The same scan spelt otherwise (or given as conditions) is no change of the scan.
    expect((await update(user, scan.id, { name: 'Dip, renamed', universe: 'sp500', formula: 'RSI(14)<30 AND close>sma(200)' })).scan.version).toBe(1);
    expect((await update(user, scan.id, { name: 'Dip, renamed', universe: 'sp500', conditions: RSI_CONDITIONS })).scan.version).toBe(1);

    expect((await update(user, scan.id, { name: 'Dip, renamed', universe: 'tsx', formula: RSI_FORMULA })).scan.version).toBe(2);
    expect((await update(user, scan.id, { name: 'Dip, renamed', universe: 'tsx', formula: 'rsi(14) < 25 and close > sma(200)' })).scan.version).toBe(3);
    const both = await update(user, scan.id, { name: 'Dip', universe: 'sp500', formula: 'rsi(7) < 25' });
    expect(both.scan).toMatchObject({ name: 'Dip', universe: 'sp500', formula: 'rsi(7) < 25', version: 4, created_at: past.toISOString() });
    expect(scanResponse.parse((await call('GET', `/api/scans/${scan.id}`, user)).json()).scan).toEqual(both.scan);
  });

  it("keeps users apart: another user's scan is a 404 for every call and is not listed", async () => {
    const alice = await newUser('alice');
    const bob = await newUser('bob');
    const { scan } = await create(alice, { name: 'Mine', universe: 'sp500', formula: RSI_FORMULA });
    const body = { name: 'Taken', universe: 'us', formula: 'rvol > 3' };
    expectStatus(await call('GET', `/api/scans/${scan.id}`, bob), 404, 'No such scan.');
    expectStatus(await call('PUT', `/api/scans/${scan.id}`, bob, body), 404, 'No such scan.');
    expectStatus(await call('DELETE', `/api/scans/${scan.id}`, bob), 404, 'No such scan.');
    // An id nobody has answers the same.
    expectStatus(await call('GET', '/api/scans/2147483647', bob), 404, 'No such scan.');
    expect((await list(bob)).scans).toEqual([]);
    // Alice's scan is untouched, and Bob may use the same name.
    expect(scanResponse.parse((await call('GET', `/api/scans/${scan.id}`, alice)).json()).scan).toEqual(scan);
    expect((await create(bob, { name: 'mine', universe: 'sp500', formula: RSI_FORMULA })).scan.name).toBe('mine');
    expect((await list(alice)).scans).toEqual([scan]);
  });

  it('refuses a second scan of the same name, whatever its case, on create and on rename; "<name> (copy)" is another name', async () => {
    const user = await newUser('names');
    const { scan } = await create(user, { name: 'Breakout', universe: 'sp500', formula: RSI_FORMULA });
    expectStatus(await call('POST', '/api/scans', user, { name: ' BREAKOUT ', universe: 'us', formula: 'rvol > 2' }), 400, 'You already have a scan named "BREAKOUT".');
    const copy = await create(user, { name: `${scan.name} (copy)`, universe: scan.universe, formula: scan.formula });
    expect(copy.scan).toMatchObject({ name: 'Breakout (copy)', formula: scan.formula, version: 1 });
    expect(copy.scan.id).not.toBe(scan.id);
    expectStatus(await call('PUT', `/api/scans/${copy.scan.id}`, user, { name: 'breakout', universe: 'sp500', formula: RSI_FORMULA }), 400, 'You already have a scan named "breakout".');
    // A scan may change the case of its own name.
    expect((await update(user, scan.id, { name: 'BreakOut', universe: 'sp500', formula: RSI_FORMULA })).scan).toMatchObject({ name: 'BreakOut', version: 1 });
    expect((await list(user)).scans.map((item) => item.name).sort()).toEqual(['BreakOut', 'Breakout (copy)']);
  });

  it(`keeps at most ${MAX_SAVED_SCANS} scans: the next one is refused and nothing is stored`, async () => {
    const user = await newUser('limit');
    const userId = user.id;
    await t.db.insert(customScans).values(Array.from({ length: MAX_SAVED_SCANS - 1 }, (_, index) => ({ userId, name: `Scan ${index}`, universe: 'sp500', formula: RSI_FORMULA })));
    await create(user, { name: 'The last one', universe: 'sp500', formula: RSI_FORMULA });
    const over = await call('POST', '/api/scans', user, { name: 'One too many', universe: 'sp500', formula: RSI_FORMULA });
    expectStatus(over, 400, `You can keep at most ${MAX_SAVED_SCANS} saved scans. Delete one to save another.`);
    expect(await storedCount(userId)).toBe(MAX_SAVED_SCANS);
    expect((await list(user)).scans).toHaveLength(MAX_SAVED_SCANS);
    // Replacing a kept scan is still fine, and deleting one makes room.
    const [first] = (await list(user)).scans;
    await update(user, first!.id, { name: first!.name, universe: 'us', formula: RSI_FORMULA });
    expectStatus(await call('DELETE', `/api/scans/${first!.id}`, user), 200);
    await create(user, { name: 'One too many', universe: 'sp500', formula: RSI_FORMULA });
  });

  it(`lets only one of several concurrent creates at ${MAX_SAVED_SCANS - 1} through`, async () => {
    const user = await newUser('race');
    await t.db.insert(customScans).values(Array.from({ length: MAX_SAVED_SCANS - 1 }, (_, index) => ({ userId: user.id, name: `Scan ${index}`, universe: 'sp500', formula: RSI_FORMULA })));
    // Make the race happen every time: while another session holds the table in SHARE mode, a create
    // can count but not insert. Unless creates are serialised, each of them counts 49 before any inserts.
    const blocker = new pg.Client({ connectionString: t.url });
    await blocker.connect();
    const RACERS = 3;
    let answers: LightMyRequestResponse[];
    try {
      await blocker.query('begin');
      await blocker.query('lock table custom_scans in share mode');
      const racing = Promise.all(Array.from({ length: RACERS }, (_, index) => call('POST', '/api/scans', user, { name: `Racer ${index}`, universe: 'sp500', formula: RSI_FORMULA })));
      // Every create is waiting on a lock: at the insert (behind the blocker), or behind another create.
      // (pg_stat_activity is read once per transaction unless its snapshot is cleared.)
      const waiting = async () => {
        await blocker.query('select pg_stat_clear_snapshot()');
        const { rows } = await blocker.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        return rows[0]!.n;
      };
      await expect.poll(waiting, { timeout: 20_000 }).toBe(RACERS);
      await blocker.query('commit');
      answers = await racing;
    } finally {
      await blocker.end();
    }
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
    expect(await storedCount(user.id)).toBe(MAX_SAVED_SCANS);
    // Another user is not held back by this one's limit.
    await create(await newUser('race-other'), { name: 'Racer 0', universe: 'sp500', formula: RSI_FORMULA });
  });

  it('refuses bad input with a msg: a formula (with its position), both or neither form, no condition, a bad id', async () => {
    const user = await newUser('bad');
    const { scan } = await create(user, { name: 'Good', universe: 'sp500', formula: RSI_FORMULA });
    for (const [method, url] of [['POST', '/api/scans'], ['PUT', `/api/scans/${scan.id}`]] as const) {
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'sp500', formula: 'rsx(14) < 30' }), 400, /^Unknown field "rsx" at position 0/);
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'sp500', formula: 'close > sma(200) and' }), 400, /at position 20/);
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'sp500', formula: 'rvol > 2', conditions: { all: [] } }), 400, 'Give the scan as formula or as conditions (one of them)');
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'sp500' }), 400, 'Give the scan as formula or as conditions (one of them)');
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'sp500', conditions: { all: [], any: [] } }), 400, 'Add at least one condition');
      expectStatus(await call(method, url, user, { name: ' ', universe: 'sp500', formula: 'rvol > 2' }), 400, 'Name is required');
      expectStatus(await call(method, url, user, { name: 'Bad', universe: 'nasdaq', formula: 'rvol > 2' }), 400, /universe must be one of/);
    }
    for (const id of ['abc', '0', '-1', '1.5', '2147483648', '1e3x']) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const body = method === 'PUT' ? { name: 'Good', universe: 'sp500', formula: RSI_FORMULA } : undefined;
        expectStatus(await call(method, `/api/scans/${id}`, user, body), 400, 'id must be a scan id');
      }
    }
    // Nothing was changed by the refusals.
    expect((await list(user)).scans).toEqual([scan]);
  });

  it('lists the starter templates; each parses, shows as the builder\'s groups, and saves as a copy with the same formula', async () => {
    const user = await newUser('templates');
    const { templates } = await list(user);
    expect(templates.map((template) => template.key)).toEqual(SCAN_TEMPLATES.map((template) => template.key));
    for (const template of templates) {
      const spec = SCAN_TEMPLATES.find((item) => item.key === template.key)!;
      expect(template).toMatchObject({ name: spec.name, description: spec.description, universe: spec.universe, formula: spec.formula });
      expect(template.conditions, template.key).not.toBeNull();
      // The user copies it from the builder's groups: the same, canonical formula comes back.
      const copied = await create(user, { name: `${template.name} (copy)`, universe: template.universe, conditions: template.conditions! });
      expect(copied.scan).toMatchObject({ formula: template.formula, conditions: template.conditions });
    }
    const [row] = await t.db.select({ n: count() }).from(customScans).where(and(eq(customScans.userId, user.id), sql`${customScans.name} like '% (copy)'`));
    expect(row!.n).toBe(SCAN_TEMPLATES.length);
  });
});
