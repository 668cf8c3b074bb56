/**
 * docs/rules/track-record.md §6.5 at server level for the crypto engine, on the pinned e2e dataset (file source):
 * - replay = live: an install on Saturday 2026-11-14 (replay through Friday 2026-11-13) followed by the daily passes
 *   run at 00:05 UTC of each later day (Saturday and Sunday too) stores exactly the events an install
 *   on MARKET_NOW's day replays (same ideas, types, candles, prices, data, origin and pass times);
 * - no look-ahead: the events of the early install are those of the full replay dated ≤ 2026-11-13.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoEngine, dayNumber } from '@signalboard/core';
import { DATASET_PARTS } from '../../../../../e2e/fixtures/market';
import { MARKET_NOW, writeDataset } from '../../../../../e2e/fixtures/market/dataset';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { ideaEvents } from '../../db/schema';

const DAY_MS = 86_400_000;
const passOf = (date: string) => (dayNumber(date) + 1) * DAY_MS + 5 * 60_000;

let datasetDir: string;
let early: TestApp;
let full: TestApp;

/** The stored log, oldest first, without the store's own numbering. */
async function logOf(t: TestApp) {
  const rows = await t.db.select().from(ideaEvents).orderBy(asc(ideaEvents.sequence));
  return rows.map(({ ideaId, type, level, barDate, price, data, ruleVersion, paramHash, origin, recordedAt }) => ({ ideaId, type, level, barDate, price, data, ruleVersion, paramHash, origin, recordedAt: recordedAt.toISOString() }));
}

async function install(atMs: number): Promise<TestApp> {
  const t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: datasetDir }, { tradeEngines: [cryptoEngine] });
  t.clock.advance(atMs - t.clock.nowMs());
  await t.app.tradeJobs.tick();
  await t.app.tradeJobs.replaysIdle();
  return t;
}

beforeAll(async () => {
  datasetDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-crypto-replay-'));
  await writeDataset(datasetDir, DATASET_PARTS);
  early = await install(passOf('2026-11-13') + 3_600_000);
  full = await install(Date.parse(MARKET_NOW));
}, 300_000);
afterAll(async () => {
  await early?.close();
  await full?.close();
  await fs.rm(datasetDir, { recursive: true, force: true });
});

describe('the crypto engine on the platform: replay = live, no look-ahead (§6.5)', () => {
  it('the early install holds exactly the full replay’s events dated through its last pass', async () => {
    const mine = await logOf(early);
    const theirs = await logOf(full);
    expect(mine.length).toBeGreaterThan(1000);
    expect(mine.every((event) => event.barDate <= '2026-11-13')).toBe(true);
    expect(mine).toEqual(theirs.filter((event) => event.barDate <= '2026-11-13'));
  });

  it('the daily passes at 00:05 UTC, weekend days included, then store what the full replay stored', async () => {
    const engine = early.app.tradeJobs.versions.registered.get('crypto')!;
    for (const date of ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19']) {
      early.clock.advance(passOf(date) - early.clock.nowMs());
      const outcome = await early.app.tradeJobs.runDaily(engine);
      expect(JSON.stringify(outcome), date).not.toMatch(/fail|error/i);
    }
    // Before 00:05 UTC the next day's pass has not come: nothing more.
    early.clock.advance(passOf('2026-11-20') - 60_000 - early.clock.nowMs());
    await early.app.tradeJobs.runDaily(engine);
    expect(await logOf(early)).toEqual(await logOf(full));
  });
});
