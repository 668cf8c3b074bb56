// The trade-idea lists (issue 11): 5,000 stored layered ideas, paged through GET api/all_stocks_scanner
// (the spec's bare first page of 100, a page deep in the list by cursor, and a filtered page), in
// process through app.inject: the token check, the query's validation, the keyset query on the
// ideas table and the rows' JSON as stored. PostgreSQL: DATABASE_URL when set, else the embedded
// server in a temporary directory. Budget (issue 11): p99 < 25 ms per page.
import path from 'node:path';
import { ideaIdOf, isoFromDayNumber, type StoredIdeaEvent } from '@signalboard/core';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createUsersRepo } from '../apps/server/src/features/auth/users.repo';
import { createTradesRepo } from '../apps/server/src/features/trades/trades.repo';
import { recordOf } from '../apps/server/src/features/trades/trades.runner';
import { hashPassword } from '../apps/server/src/lib/password';
import { createMailer } from '../apps/server/src/providers/mail';
import { createCachedMarket } from '../apps/server/src/providers/market/cached-market';
import { createSimulatedMarket } from '../apps/server/src/providers/market/simulated/simulated-market';
import { createFakeEngine } from '../apps/server/test/fake-engine';
import { withBenchDatabase } from './bench-database';

const IDEAS = 5_000;
const REQUESTS = 400;
const BUDGET_P99_MS = 25;

const percentile = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;

export async function run(): Promise<string[][]> {
  return withBenchDatabase('ideas', { poolSize: 10 }, async ({ db, pool, temp }) => {

    // 5,000 layered ideas over two years, each the fold of its events (the platform's test engine).
    const engine = createFakeEngine({ id: 'layered' });
    const repo = createTradesRepo(db);
    const start = Date.UTC(2024, 10, 1) / 86_400_000;
    const symbols = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL', 'META', 'TSLA', 'JPM', 'XOM', 'UNH', 'AVGO', 'LLY', 'V', 'MA', 'HD'];
    let sequence = 0;
    const records = Array.from({ length: IDEAS }, (_, index) => {
      const symbol = `${symbols[index % symbols.length]}${Math.floor(index / symbols.length) % 7 === 0 ? '' : String.fromCharCode(65 + (index % 26))}`;
      const date = isoFromDayNumber(start + Math.floor(index / 7));
      const ideaId = `${ideaIdOf('layered', symbol, date)}@1.0.0`;
      const stamp = { ideaId, engine: 'layered' as const, market: 'US' as const, symbol, level: '', ruleVersion: 'layered@1.0.0', paramHash: '0123456789abcdef', origin: 'replayed' as const };
      const events: Array<StoredIdeaEvent & { sequence: number }> = [
        { ...stamp, type: 'opened', barDate: date, price: 100 + (index % 50), data: { survivorshipBiased: true }, recordedAt: `${date}T21:30:00.000Z`, sequence: (sequence += 1) },
        { ...stamp, type: 'entry_filled', barDate: date, price: 101 + (index % 50), data: {}, recordedAt: `${date}T21:30:00.000Z`, sequence: (sequence += 1) },
      ];
      if (index % 3 !== 0) events.push({ ...stamp, type: 'closed', barDate: date, price: 104 + (index % 50), data: { reason: index % 2 ? 'target' : 'stop' }, recordedAt: `${date}T21:30:00.000Z`, sequence: (sequence += 1) });
      return recordOf(engine, events, { price: 102, at: `${date}T21:00:00.000Z` }, Date.parse(`${date}T21:30:00.000Z`));
    });
    await repo.upsertIdeas(db, records);
    await pool.query('analyze ideas');

    const config = loadConfig({ DATA_DIR: temp, LOG_LEVEL: 'silent', WEB_DIST: path.join(temp, 'no-web') });
    const clock = { nowMs: () => Date.UTC(2026, 10, 2, 15) };
    const app = await buildApp({ config, db, pool, mailer: createMailer(config, db, clock), market: createCachedMarket(createSimulatedMarket({ clock }), clock), marketClock: clock, jwtSecret: 'bench-secret-bench-secret-bench-secret-01', clock, logger: false, tradeEngines: [engine] });
    await app.ready();
    try {
      await createUsersRepo(db).create({ email: 'bench@example.com', passwordHash: await hashPassword('pw'), firstLogin: false });
      const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: 'bench@example.com', password: 'pw' } });
      const headers = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };

      // A cursor about 30 pages deep.
      let deep = '/api/all_stocks_scanner';
      for (let page = 0; page < 30; page += 1) {
        const response = await app.inject({ method: 'GET', url: deep, headers });
        deep = `/api/all_stocks_scanner?cursor=${encodeURIComponent(String(response.headers['x-next-cursor']))}`;
      }
      const cases: Array<[string, string]> = [
        ['first page (no parameters, 100 rows)', '/api/all_stocks_scanner'],
        ['page ~30 by cursor (100 rows)', deep],
        ['filtered: status=active, symbol contains "a", from a date (100 rows)', '/api/all_stocks_scanner?status=active&symbol=a&from=2025-01-01'],
      ];
      const rows: string[][] = [];
      for (const [label, target] of cases) {
        for (let warm = 0; warm < 30; warm += 1) await app.inject({ method: 'GET', url: target, headers });
        const times: number[] = [];
        let count = 0;
        for (let index = 0; index < REQUESTS; index += 1) {
          const began = performance.now();
          const response = await app.inject({ method: 'GET', url: target, headers });
          times.push(performance.now() - began);
          if (response.statusCode !== 200) throw new Error(`${target} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
          count = (JSON.parse(response.body) as unknown[]).length;
        }
        const p99 = percentile(times, 99);
        rows.push([`ideas list of ${IDEAS}: ${label}, p50 / p99 (${count} rows)`, `${percentile(times, 50).toFixed(1)} / ${p99.toFixed(1)} ms`, `p99 < ${BUDGET_P99_MS} ms`, p99 < BUDGET_P99_MS ? 'ok' : 'OVER']);
      }
      return rows;
    } finally {
      await app.close();
    }
  });
}
