/**
 * Replays of new data (issue 29; trades.versions.ts): an engine whose universe gains imported history
 * runs as a version of its own on it, replayed over the imported range and kept apart from its
 * earlier replay; the same data again, or data outside its universe, changes nothing.
 */
import { and, eq, like, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dataVersionIn, dayNumber, isoFromDayNumber, isTradingDayNumber, replayStatusResponse, versionOnData, swingTrade, type UniverseMember } from '@signalboard/core';
import { createFakeEngine, testUniverse } from '../../../test/fake-engine';
import { createTestApp, createUser, login, REPLAY_TIMEOUT_MS, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ideas, tradeEngineVersions } from '../../db/schema';
import { createImportedPricesRepo, type ImportedBarColumns } from '../data-import/imported-prices.repo';
import { IMPORTED_REPLAY_MAX_DAYS } from './trades.market';
import { dataChangedSince, withImportedStamp } from './trades.versions';

let t: TestApp;
let headers: { authorization: string };
const LISTING = { symbol: 'ZZDATA', description: 'Data Version Corp', market: 'US' as const, exchange: 'NYSE', sector: 'Industrials' };
/** The fake engine's universe: the test universe and the imported symbol. */
const universe = async (biased: boolean): Promise<UniverseMember[]> => [...(await testUniverse(biased)), { symbol: 'ZZDATA', market: 'US', survivorshipBiased: biased }];

/** `count` sessions ending on Friday 2026-10-30 (the test clock's last pass): a 3 % fall every 7th session, else a small rise. */
function history(count: number, lift = 0): ImportedBarColumns {
  const days: string[] = [];
  for (let day = dayNumber('2026-10-30'); days.length < count; day -= 1) if (isTradingDayNumber(day)) days.unshift(isoFromDayNumber(day));
  let close = 50 + lift;
  const closes = days.map((_, index) => (close = index % 7 === 6 ? close * 0.97 : close * 1.006));
  return { day: days, open: closes, high: closes.map((c) => c * 1.01), low: closes.map((c) => c * 0.99), close: closes, adjClose: closes.map(() => null), volume: closes.map(() => 100_000) };
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
const statusOf = async () => replayStatusResponse.parse((await get('/api/trade_ideas/replay_status')).json())[0]!;
const versionRows = async () => (await t.db.select().from(tradeEngineVersions)).map((row) => row.ruleVersion).sort();
async function importBars(symbol: string, bars: ImportedBarColumns): Promise<void> {
  await createImportedPricesRepo(t.db).importFile({ name: `${symbol}.csv`, sha256: 'f'.repeat(64), importedBy: null }, [{ listing: { ...LISTING, symbol }, bars }], new Date(t.clock.nowMs()));
  await t.market.importChanged!([symbol]);
}
async function replay(): Promise<void> {
  await t.app.tradeJobs.tick();
  await t.app.tradeJobs.replaysIdle();
}

beforeAll(async () => {
  t = await createTestApp({}, { tradeEngines: [createFakeEngine()], tradeUniverse: universe });
  const email = uniqueEmail('data-version');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
  await replay();
}, REPLAY_TIMEOUT_MS);
afterAll(async () => t.close());

describe('an engine whose universe gains imported history', { timeout: REPLAY_TIMEOUT_MS }, () => {
  let dataVersion = '';

  it('runs as a version of its own on the new data, replayed over the whole imported range', async () => {
    expect(await statusOf()).toMatchObject({ ruleVersion: 'swing@1.0.0', state: 'done' });
    const earlier = await t.db.select({ id: ideas.id }).from(ideas).where(eq(ideas.ruleVersion, 'swing@1.0.0'));
    expect(earlier.length).toBeGreaterThan(0);

    // 1,400 sessions: five and a half years, beyond the replay's two-year window and its five-year bound.
    await importBars('ZZDATA', history(1400));
    const pending = await statusOf();
    expect(pending.ruleVersion).toMatch(/^swing@1\.0\.0\+data\.[0-9a-f]{8}$/);
    expect(pending.state).toBe('pending');
    dataVersion = pending.ruleVersion;
    await replay();

    const done = await statusOf();
    expect(done).toMatchObject({ ruleVersion: dataVersion, state: 'done', error: null });
    // The imported range (its last five years) after the 260 warm-up bars, not the two years the source's history covers.
    let read = 0;
    for (let day = dayNumber('2026-10-30') - IMPORTED_REPLAY_MAX_DAYS; day <= dayNumber('2026-10-30'); day += 1) if (isTradingDayNumber(day)) read += 1;
    expect(done.sessionsTotal).toBe(read - 260);
    expect(read).toBeLessThan(1400);
    const imported = await t.db.select({ id: ideas.id, signalDate: ideas.signalDate }).from(ideas).where(and(eq(ideas.ruleVersion, dataVersion), eq(ideas.symbol, 'ZZDATA')));
    expect(imported.length).toBeGreaterThan(20);
    expect(imported.some((idea) => idea.signalDate < '2024-10-30')).toBe(true);
    expect(imported.every((idea) => idea.id.endsWith(`@1.0.0+data.${dataVersionIn(dataVersion)}`))).toBe(true);

    // The earlier replay is kept, apart: the list shows the new version's replayed ideas only.
    expect(await t.db.select({ id: ideas.id }).from(ideas).where(eq(ideas.ruleVersion, 'swing@1.0.0'))).toEqual(earlier);
    const rows = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => row.RuleVersion))).toEqual(new Set([dataVersion]));
    expect(rows.some((row) => row.Symbol === 'ZZDATA')).toBe(true);
    // The imported symbol's rows say their figures come from the imported file; the others' do not.
    for (const row of rows) expect(row.Imported ?? false, row.Symbol).toBe(row.Symbol === 'ZZDATA');

    // An idea of the new data opens by its id (with its '+').
    const detail = await get(`/api/trade_ideas/swing/${encodeURIComponent(imported[0]!.id)}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().idea).toMatchObject({ RuleVersion: dataVersion, Imported: true });
  });

  it('stays on its version when the same bars come again or another symbol is imported', async () => {
    const before = await versionRows();
    await importBars('ZZDATA', history(1400));
    await importBars('ZZOUTSIDE', history(300));
    expect((await statusOf()).ruleVersion).toBe(dataVersion);
    await replay();
    expect(await versionRows()).toEqual(before);
  });

  it('replays again when a bar of its imported history changes, the earlier data\'s ideas kept apart', async () => {
    await importBars('ZZDATA', history(1400, 1));
    const next = await statusOf();
    expect(next.ruleVersion).not.toBe(dataVersion);
    expect(next.ruleVersion).toMatch(/^swing@1\.0\.0\+data\./);
    await replay();
    expect(await statusOf()).toMatchObject({ ruleVersion: next.ruleVersion, state: 'done' });
    expect(await versionRows()).toEqual(['swing@1.0.0', dataVersion, next.ruleVersion].sort());
    const old = await t.db.select({ id: ideas.id }).from(ideas).where(and(eq(ideas.ruleVersion, dataVersion), lt(ideas.signalDate, '2026-01-01')));
    expect(old.length).toBeGreaterThan(0);
    expect(await t.db.select({ id: ideas.id }).from(ideas).where(like(ideas.id, `%+data.${dataVersionIn(next.ruleVersion)}`))).not.toHaveLength(0);
  });
});

describe('withImportedStamp', () => {
  const imported = new Set(['ZZDATA']);
  it('stamps the stored row of an imported symbol on a version run on imported prices, without parsing it', () => {
    expect(withImportedStamp('{"Symbol":"ZZDATA"}', { symbol: 'ZZDATA', ruleVersion: 'swing@1.0.0+data.1a2b3c4d' }, imported)).toBe('{"Symbol":"ZZDATA","Imported":true}');
    expect(JSON.parse(withImportedStamp('{}', { symbol: 'ZZDATA', ruleVersion: 'swing@1.0.0+data.1a2b3c4d' }, imported))).toEqual({ Imported: true });
  });
  it('leaves the others as stored: another symbol, or the source\'s data', () => {
    expect(withImportedStamp('{"Symbol":"AAPL"}', { symbol: 'AAPL', ruleVersion: 'swing@1.0.0+data.1a2b3c4d' }, imported)).toBe('{"Symbol":"AAPL"}');
    expect(withImportedStamp('{"Symbol":"ZZDATA"}', { symbol: 'ZZDATA', ruleVersion: 'swing@1.0.0' }, imported)).toBe('{"Symbol":"ZZDATA"}');
  });
});

describe('dataChangedSince', () => {
  const engine = { ...createFakeEngine(), ruleVersion: versionOnData('swing@1.0.0', 'abcd1234') };
  const members: UniverseMember[] = [{ symbol: 'ZZDATA', market: 'US', survivorshipBiased: true }];

  it('says why a run must not store what it read when the bars are not its version\'s data', () => {
    expect(dataChangedSince(engine, members, new Map([['ZZDATA', 'x'.repeat(32)]]))).toMatch(/^the imported prices changed while swing@1\.0\.0\+data\.abcd1234 read them \(now swing@1\.0\.0\+data\.[0-9a-f]{8}\)/);
    expect(dataChangedSince(createFakeEngine(), members, new Map())).toBeNull();
    expect(dataChangedSince(createFakeEngine(), members, new Map([['ZZDATA', 'x'.repeat(32)]]))).toMatch(/changed/);
  });
});
