/**
 * The real engines (packages/core TRADE_ENGINES) through the platform: a replay over the simulated
 * market, then the lists and the detail answer their contract rows, and every stored row is the
 * fold of its stored events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ideaDetail, layeredTrade, swingTrade, trackRecord, type UniverseMember } from '@signalboard/core';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ideas } from '../../db/schema';
import { US_STOCKS } from '../../providers/market/universe';
import { SERVER_TRADE_ENGINES } from './engines';
import { createTradesRepo } from './trades.repo';

/** 80 S&P 500 members: enough signals for both engines, quick enough for the suite. */
const universe = async (survivorshipBiased: boolean): Promise<UniverseMember[]> =>
  US_STOCKS.slice(0, 80).map((entry) => ({ symbol: entry.symbol, market: 'US', ...(entry.sector ? { sector: entry.sector } : {}), survivorshipBiased }));

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({}, { tradeUniverse: universe });
  const email = uniqueEmail('engines');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
  await t.app.tradeJobs.tick();
  await t.app.tradeJobs.replaysIdle();
}, 300_000);
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

describe('the engines of packages/core on the platform', () => {
  it('replay both engines, and the lists answer their contract rows', async () => {
    const status = (await get('/api/trade_ideas/replay_status')).json<Array<{ engine: string; state: string; ruleVersion: string }>>();
    expect(status.map((row) => [row.engine, row.state])).toEqual([
      ['layered', 'done'],
      ['swing', 'done'],
    ]);
    const layered = z.array(layeredTrade).parse((await get('/api/all_stocks_scanner?limit=500')).json());
    const swing = z.array(swingTrade).parse((await get('/api/get_swing_trade_entries?limit=500')).json());
    expect(layered.length + swing.length).toBeGreaterThan(0);
    for (const row of [...layered, ...swing]) expect(row).toMatchObject({ Origin: 'replayed', SurvivorshipBiased: true });
    const idea = swing[0] ?? layered[0]!;
    const engine = swing[0] ? 'swing' : 'layered';
    const detail = ideaDetail.parse((await get(`/api/trade_ideas/${engine}/${encodeURIComponent(idea.Id)}`)).json());
    expect(detail.events[0]!.type).toBe('opened');
    expect(detail.bars.length).toBeGreaterThan(60);
  });

  it('answer their track records', async () => {
    for (const engine of ['layered', 'swing']) {
      const response = await get(`/api/trade_ideas/${engine}/track_record`);
      expect(response.statusCode, response.body).toBe(200);
      const record = trackRecord.parse(response.json());
      expect(record.engine).toBe(engine);
      expect(record.groups.every((group) => group.origin === 'replayed')).toBe(true);
    }
  });

  it('stores every row as the fold of its events', async () => {
    const repo = createTradesRepo(t.db);
    const rows = await t.db.select().from(ideas);
    const events = await repo.eventsOf(
      t.db,
      rows.map((row) => row.id),
    );
    const byId = new Map(SERVER_TRADE_ENGINES.map((engine) => [engine.id, engine]));
    for (const row of rows) {
      const engine = byId.get(row.engine as 'layered' | 'swing')!;
      const mark = row.markPrice === null ? null : { price: row.markPrice, at: row.markAt!.toISOString() };
      expect(JSON.parse(JSON.stringify(engine.fold(events.get(row.id)!, mark, row.updatedAt.toISOString())))).toEqual(row.row);
    }
  });
});
