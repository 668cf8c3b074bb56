/**
 * Custom Scan alerts (docs/custom-scans.md "Custom Scan alerts") on the test database: users, saved
 * scans and rules through the API; the job's runs of the scans are a fake (a scan's matches set by the
 * test) so every membership case is exact, and one test runs the real scan service on the simulated
 * market through the job's slot.
 */
import { and, asc, eq } from 'drizzle-orm';
import { isoFromDayNumber, dayNumber, type RunScanResponse } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, alertEvents, customScanMembers, jobRuns, userPhones } from '../../../db/schema';
import { createJobRuns } from '../../../jobs/job-runs';
import { createScanRunService } from '../../custom-scans/scan-run.service';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import type { NewAlert } from './alert-store';
import { CUSTOM_SCAN_ALERTS_JOB, createScanAlertJobs, type RunScan } from './scan.evaluator';

type Headers = { authorization: string };

/** Friday 2026-11-20, 17:00 New York: that session's daily pass (16:30) has come. */
const MARKET_NOW = '2026-11-20T22:00:00Z';
const FRIDAY = dayNumber('2026-11-20');
/** The next sessions: Monday 23, Tuesday 24, Wednesday 25 November 2026. */
const MONDAY = dayNumber('2026-11-23');
const TUESDAY = dayNumber('2026-11-24');
const WEDNESDAY = dayNumber('2026-11-25');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW });
});
afterAll(async () => t?.close());

/** What the fake run answers for a formula: its matches and the symbols it could not read, or an error. */
const outcomes = new Map<string, { matches: string[]; missing?: string[]; imported?: string[] } | Error>();
const runs: Array<{ userId: number; formula: string; as_of: string }> = [];
/** The formulas run for `userId` since the `from`-th run (the pass also runs the other tests' users' scans). */
const runsOf = (userId: number, from = 0) => runs.slice(from).filter((run) => run.userId === userId).map((run) => run.formula);
const fakeRun: RunScan = async (userId, input) => {
  runs.push({ userId, formula: input.formula, as_of: input.as_of });
  const outcome = outcomes.get(input.formula) ?? { matches: [] };
  if (outcome instanceof Error) throw outcome;
  return {
    universe: input.universe,
    as_of: input.as_of,
    source: 'simulated',
    formula: input.formula,
    conditions: null,
    columns: [{ key: 'c0', field: 'close', params: [], label: 'Close', unit: 'price' }],
    universe_size: 500,
    evaluated: 500 - (outcome.missing?.length ?? 0),
    missing: outcome.missing ?? [],
    matches: outcome.matches.length,
    rows: outcome.matches.map((symbol, index) => ({ symbol, name: `${symbol} Inc.`, price: 100 + index, change_pct: 1.5, values: [100 + index], ...(outcome.imported?.includes(symbol) ? { imported: true as const } : {}) })),
  } as RunScanResponse;
};

const committed: NewAlert[] = [];
let kicks = 0;
const jobsWith = (runScan: RunScan = fakeRun) =>
  createScanAlertJobs({
    db: t.db,
    runScan,
    marketClock: { nowMs: () => Date.parse(MARKET_NOW) },
    clock: t.clock,
    source: 'Simulated market',
    runs: createJobRuns(t.db),
    log: { info() {}, warn() {} },
    delivery: { kick: () => void (kicks += 1) },
    alertCommitted: (alert) => void committed.push(alert),
  });

let formulaCount = 0;
async function newUser(label: string): Promise<{ id: number; headers: Headers }> {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'pw');
  return { id, headers: await login(t.app, email, 'pw') };
}
/** Saves a scan with a formula of its own (the fake run's key); answers its id and canonical formula. */
async function saveScan(user: { headers: Headers }, name: string): Promise<{ id: number; formula: string }> {
  formulaCount += 1;
  const response = await t.app.inject({ method: 'POST', url: '/api/scans', headers: user.headers, payload: { name, universe: 'sp500', formula: `close > ${formulaCount}` } });
  expect(response.statusCode, response.body).toBe(200);
  const { scan } = response.json<{ scan: { id: number; formula: string } }>();
  return { id: scan.id, formula: scan.formula };
}
async function saveRule(user: { headers: Headers }, scanIds: number[], fields: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/save_alert_preferences',
    headers: user.headers,
    payload: { alert_type: 'CUSTOM_SCAN', stock_symbols: scanIds.map(String), enable_sms: false, enable_email: true, is_active: true, ...fields },
  });
  expect(response.statusCode, response.body).toBe(200);
}
const eventsOf = (userId: number) => t.db.select().from(alertEvents).where(and(eq(alertEvents.userId, userId), eq(alertEvents.alertType, 'CUSTOM_SCAN'))).orderBy(asc(alertEvents.id));
const membersOf = (scanId: number) => t.db.select().from(customScanMembers).where(eq(customScanMembers.scanId, scanId)).orderBy(asc(customScanMembers.session));
const enteredBy = async (userId: number) => (await eventsOf(userId)).map((event) => [(event.data as { session: string }).session, (event.data as { entered: Array<{ symbol: string }> }).entered.map((row) => row.symbol)]);

describe('Custom Scan alerts: the daily pass over the watched scans', () => {
  it('names its source with "imported prices" when an entry\'s figures come from an imported price file', async () => {
    const user = await newUser('scan-imported');
    const scan = await saveScan(user, 'Imported');
    await saveRule(user, [scan.id]);
    const jobs = jobsWith();
    outcomes.set(scan.formula, { matches: ['AAPL'] });
    expect(await jobs.runSession(FRIDAY)).toEqual([]);
    outcomes.set(scan.formula, { matches: ['ZZLB', 'AAPL'], imported: ['ZZLB'] });
    expect(await jobs.runSession(MONDAY)).toEqual([]);
    const [event] = await eventsOf(user.id);
    expect(event!.smsText).toBe(`New in "Imported": ZZLB 100.00 | ${scan.formula} · Simulated market, imported prices 2026-11-23 close`);
    expect(event!.emailText).toContain('Source: Simulated market, imported prices');
    expect(event!.data).toMatchObject({ source: 'Simulated market, imported prices', entered: [{ symbol: 'ZZLB', imported: true }] });
  });

  it('records on a scan\'s first pass, fires once for a symbol that enters, not while it stays, and again when it re-enters', async () => {
    const user = await newUser('scan-fires');
    const scan = await saveScan(user, 'Oversold in an uptrend');
    await saveRule(user, [scan.id]);
    const jobs = jobsWith();

    outcomes.set(scan.formula, { matches: ['AAPL', 'MSFT'] });
    expect(await jobs.runSession(FRIDAY)).toEqual([]);
    expect(await eventsOf(user.id)).toEqual([]);
    expect((await membersOf(scan.id)).map((row) => [row.session, row.symbols, row.entered])).toEqual([['2026-11-20', ['AAPL', 'MSFT'], []]]);

    // Monday: NVDA enters, AAPL and MSFT stay.
    outcomes.set(scan.formula, { matches: ['NVDA', 'AAPL', 'MSFT'] });
    const committedBefore = committed.length;
    const kicksBefore = kicks;
    expect(await jobs.runSession(MONDAY)).toEqual([]);
    const [event] = await eventsOf(user.id);
    expect(event).toMatchObject({
      alertType: 'CUSTOM_SCAN',
      symbol: 'NVDA',
      triggerKey: `scan:${scan.id}:2026-11-23`,
      smsText: `New in "Oversold in an uptrend": NVDA 100.00 | ${scan.formula} · Simulated market 2026-11-23 close`,
      emailSubject: 'Signalboard alert: 1 new in "Oversold in an uptrend" (Custom Scan)',
    });
    expect(event!.emailText).toContain(`Conditions: ${scan.formula}`);
    expect(event!.emailText).toContain('- NVDA 100.00 (+1.5%): Close 100');
    expect(event!.data).toMatchObject({ scan_id: scan.id, scan_name: 'Oversold in an uptrend', session: '2026-11-23', previous_session: '2026-11-20', source: 'Simulated market', asOf: '2026-11-23T21:00:00.000Z' });
    expect(event!.rule).toMatchObject({ alert_type: 'CUSTOM_SCAN', stock_symbols: [String(scan.id)], enable_email: true, scan: { id: scan.id, formula: scan.formula } });
    // Through the delivery pipeline: one queued e-mail, fresh until Tuesday's open.
    const deliveries = await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, event!.id));
    expect(deliveries.map((delivery) => [delivery.channel, delivery.status, delivery.expiresAt.toISOString()])).toEqual([['email', 'queued', '2026-11-24T14:30:00.000Z']]);
    expect(committed.slice(committedBefore).filter((alert) => alert.userId === user.id).map((alert) => alert.triggerKey)).toEqual([`scan:${scan.id}:2026-11-23`]);
    expect(kicks).toBe(kicksBefore + 1);

    // Tuesday: NVDA stays, AAPL leaves. Wednesday: AAPL is back, MSFT and NVDA stay.
    outcomes.set(scan.formula, { matches: ['NVDA', 'MSFT'] });
    expect(await jobs.runSession(TUESDAY)).toEqual([]);
    outcomes.set(scan.formula, { matches: ['AAPL', 'MSFT', 'NVDA'] });
    expect(await jobs.runSession(WEDNESDAY)).toEqual([]);
    expect(await enteredBy(user.id)).toEqual([
      ['2026-11-23', ['NVDA']],
      ['2026-11-25', ['AAPL']],
    ]);
    // Only the latest two sessions are kept.
    expect((await membersOf(scan.id)).map((row) => row.session)).toEqual(['2026-11-24', '2026-11-25']);
  });

  it('a retried slot, or two processes on one session, run each scan once and write nothing twice; a failed run writes nothing', async () => {
    const user = await newUser('scan-retry');
    const good = await saveScan(user, 'Good');
    const flaky = await saveScan(user, 'Flaky');
    await saveRule(user, [good.id, flaky.id]);
    outcomes.set(good.formula, { matches: ['AAPL'] });
    outcomes.set(flaky.formula, { matches: ['MSFT'] });
    expect(await jobsWith().runSession(FRIDAY)).toEqual([]);

    outcomes.set(good.formula, { matches: ['AAPL', 'AMD'] });
    outcomes.set(flaky.formula, new Error('market data provider failed (502)'));
    const failures = await jobsWith().runSession(MONDAY);
    expect(failures).toEqual([`scan ${flaky.id}: market data provider failed (502)`]);
    expect(await enteredBy(user.id)).toEqual([['2026-11-23', ['AMD']]]);
    expect((await membersOf(flaky.id)).map((row) => row.session)).toEqual(['2026-11-20']);

    // The retry: the flaky scan's run answers now; the good one is not run again. Two processes retry at once.
    outcomes.set(flaky.formula, { matches: ['MSFT', 'TSLA'] });
    const before = runs.length;
    const [a, b] = await Promise.all([jobsWith().runSession(MONDAY), jobsWith().runSession(MONDAY)]);
    expect([a, b]).toEqual([[], []]);
    expect(new Set(runsOf(user.id, before))).toEqual(new Set([flaky.formula]));
    expect(await enteredBy(user.id)).toEqual([
      ['2026-11-23', ['AMD']],
      ['2026-11-23', ['TSLA']],
    ]);
    // And once more: nothing is run, nothing is written.
    const again = runs.length;
    expect(await jobsWith().runSession(MONDAY)).toEqual([]);
    expect(runsOf(user.id, again)).toEqual([]);
    expect(await eventsOf(user.id)).toHaveLength(2);
  });

  it('fails the scan\'s session, writing nothing, while the source has no bars of the session yet', async () => {
    const user = await newUser('scan-bars');
    const scan = await saveScan(user, 'Early');
    await saveRule(user, [scan.id]);
    const early: RunScan = async (userId, input, log) => ({ ...(await fakeRun(userId, input, log)), as_of: '2026-11-19' });
    expect(await jobsWith(early).runSession(FRIDAY)).toEqual([`scan ${scan.id}: the bars of 2026-11-20 are not there yet (latest 2026-11-19); retried until they are`]);
    expect(await membersOf(scan.id)).toEqual([]);
  });

  it('an inactive rule, an unticked scan and a deleted scan fire nothing; a scan watched again starts by recording', async () => {
    const user = await newUser('scan-off');
    const kept = await saveScan(user, 'Kept');
    const unticked = await saveScan(user, 'Unticked');
    const deleted = await saveScan(user, 'Deleted');
    await saveRule(user, [kept.id, unticked.id, deleted.id]);
    for (const scan of [kept, unticked, deleted]) outcomes.set(scan.formula, { matches: ['AAPL'] });
    const jobs = jobsWith();
    expect(await jobs.runSession(FRIDAY)).toEqual([]);

    // Off: nothing is run.
    await saveRule(user, [kept.id, unticked.id, deleted.id], { is_active: false });
    for (const scan of [kept, unticked, deleted]) outcomes.set(scan.formula, { matches: ['AAPL', 'NVDA'] });
    const before = runs.length;
    expect(await jobs.runSession(MONDAY)).toEqual([]);
    expect(runsOf(user.id, before)).toEqual([]);

    // On again without one scan, and another deleted: the kept scan starts by recording (turning the rule off forgot it).
    await saveRule(user, [kept.id, deleted.id]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/scans/${deleted.id}`, headers: user.headers })).statusCode).toBe(200);
    expect(await membersOf(deleted.id)).toEqual([]);
    expect(await jobs.runSession(TUESDAY)).toEqual([]);
    expect(runsOf(user.id, before)).toEqual([kept.formula]);
    expect(await eventsOf(user.id)).toEqual([]);
    expect((await membersOf(kept.id)).map((row) => [row.session, row.symbols])).toEqual([['2026-11-24', ['AAPL', 'NVDA']]]);
    expect(await membersOf(unticked.id)).toEqual([]);

    // Ticked again: it records first; the kept one fires.
    await saveRule(user, [kept.id, unticked.id]);
    for (const scan of [kept, unticked]) outcomes.set(scan.formula, { matches: ['AAPL', 'NVDA', 'TSLA'] });
    expect(await jobs.runSession(WEDNESDAY)).toEqual([]);
    expect((await eventsOf(user.id)).map((event) => [(event.data as { scan_id: number }).scan_id, event.symbol])).toEqual([[kept.id, 'TSLA']]);
  });

  it('writes the alert with the rule\'s channels: SMS and e-mail, or none (history only)', async () => {
    const both = await newUser('scan-both');
    await t.db.insert(userPhones).values({ userId: both.id, phoneNumber: '+12025550199', smsEnabled: true, verifiedAt: new Date() });
    const none = await newUser('scan-none');
    const bothScan = await saveScan(both, 'Both');
    const noneScan = await saveScan(none, 'None');
    await saveRule(both, [bothScan.id], { enable_sms: true, enable_email: true });
    await saveRule(none, [noneScan.id], { enable_sms: false, enable_email: false });
    outcomes.set(bothScan.formula, { matches: [] });
    outcomes.set(noneScan.formula, { matches: [] });
    const jobs = jobsWith();
    await jobs.runSession(FRIDAY);
    outcomes.set(bothScan.formula, { matches: ['AAPL'] });
    outcomes.set(noneScan.formula, { matches: ['AAPL'] });
    expect(await jobs.runSession(MONDAY)).toEqual([]);
    const channels = async (userId: number) => {
      const [event] = await eventsOf(userId);
      return (await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, event!.id))).map((delivery) => delivery.channel).sort();
    };
    expect(await channels(both.id)).toEqual(['email', 'sms']);
    expect(await channels(none.id)).toEqual([]);
  });

  it('keeps a member the run could not read: it does not enter again when it is read next', async () => {
    const user = await newUser('scan-missing');
    const scan = await saveScan(user, 'Missing');
    await saveRule(user, [scan.id]);
    const jobs = jobsWith();
    outcomes.set(scan.formula, { matches: ['AAPL', 'MSFT'] });
    await jobs.runSession(FRIDAY);
    outcomes.set(scan.formula, { matches: ['MSFT'], missing: ['AAPL'] });
    await jobs.runSession(MONDAY);
    outcomes.set(scan.formula, { matches: ['AAPL', 'MSFT'] });
    await jobs.runSession(TUESDAY);
    expect(await eventsOf(user.id)).toEqual([]);
  });

  it('runs as the registry\'s job once per session, on the real scan service over the simulated market', async () => {
    const user = await newUser('scan-job');
    const scan = await saveScan(user, 'Everything');
    await saveRule(user, [scan.id]);
    // The other tests' rules are watched too: their scans have no outcome (no match) here.
    const service = createScanRunService({ market: t.market, marketClock: { nowMs: () => Date.parse(MARKET_NOW) }, favorites: { list: async () => [] } });
    const jobs = jobsWith((userId, input, log) => (input.formula === scan.formula ? service.run(userId, input, log) : fakeRun(userId, input, log)));
    expect(jobs.job.slotOf(Date.parse(MARKET_NOW))).toEqual(new Date('2026-11-20T21:30:00.000Z'));
    // Before Friday's pass time the slot is Thursday's.
    expect(jobs.job.slotOf(Date.parse('2026-11-20T21:00:00Z'))).toEqual(new Date('2026-11-19T21:30:00.000Z'));

    expect(await jobs.tick()).toEqual({ [CUSTOM_SCAN_ALERTS_JOB]: 'done' });
    const expected = await t.app.inject({ method: 'POST', url: '/api/scans/run', headers: user.headers, payload: { universe: 'sp500', formula: scan.formula, as_of: isoFromDayNumber(FRIDAY) } });
    const symbols = expected.json<RunScanResponse>().rows.map((row) => row.symbol).sort();
    expect(symbols.length).toBeGreaterThan(0);
    expect((await membersOf(scan.id)).map((row) => [row.session, row.symbols])).toEqual([['2026-11-20', symbols]]);
    expect(await jobs.tick()).toEqual({ [CUSTOM_SCAN_ALERTS_JOB]: 'skipped' });
    const [claim] = await t.db.select().from(jobRuns).where(eq(jobRuns.job, CUSTOM_SCAN_ALERTS_JOB));
    expect(claim).toMatchObject({ status: 'done', attempts: 1, slot: new Date('2026-11-20T21:30:00.000Z') });
  });
});
