// Alerts (issue 15; docs/rules/alerts.md §5 "Targets"): a price tick that crosses a rule → the delivery handed to
// the SMS provider, p99 ≤ 1 s. 200 users, each with a Percent Drop rule (SMS on, a verified number)
// on a symbol of its own; each measured tick moves one symbol across its threshold through the
// evaluation service (state, alert and delivery in one transaction), which kicks the delivery worker
// (claim, checks, 'sending', provider, 'sent'). Timed from the tick's start to the provider's send
// call. The outbox SMS provider writes each message to the database and a file, as in the embedded
// mode. PostgreSQL: DATABASE_URL when set, else the embedded server in a temporary directory.
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config';
import { alertRules, userPhones } from '../apps/server/src/db/schema';
import { createAlertDelivery } from '../apps/server/src/features/alerts/delivery/delivery';
import { createAlertEvaluation } from '../apps/server/src/features/alerts/evaluation/evaluation';
import { createUsersRepo } from '../apps/server/src/features/auth/users.repo';
import { createMailer } from '../apps/server/src/providers/mail';
import { createCachedMarket } from '../apps/server/src/providers/market/cached-market';
import { createSimulatedMarket } from '../apps/server/src/providers/market/simulated/simulated-market';
import { US_STOCKS } from '../apps/server/src/providers/market/universe';
import { createSms } from '../apps/server/src/providers/sms';
import { withBenchDatabase } from './bench-database';

const USERS = 200;
const BUDGET_P99_MS = 1_000;
/** Friday 2026-11-20, 10:30 in New York: the market is open. */
const MARKET_NOW_MS = Date.parse('2026-11-20T15:30:00Z');

const percentile = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;

export async function run(): Promise<string[][]> {
  return withBenchDatabase('alert', { poolSize: 10 }, async ({ db, temp }) => {
    const quiet = { info: () => undefined, warn: () => undefined };
    const config = loadConfig({ DATA_DIR: path.join(temp, 'app'), LOG_LEVEL: 'silent', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-01' });
    const clock = { nowMs: () => Date.now() };
    const marketClock = { nowMs: () => MARKET_NOW_MS };
    const market = createCachedMarket(createSimulatedMarket({ clock: marketClock }), marketClock);
    const outbox = createSms(config, db, clock, 'bench');
    const handedAt = new Map<string, number>();
    const sms = { ...outbox, send: async (message: { to: string; body: string }) => {
      handedAt.set(message.to, performance.now());
      return outbox.send(message);
    } };
    const mailer = createMailer(config, db, clock);
    const delivery = createAlertDelivery({ db, sms, mailer, clock, config, log: quiet, jwtSecret: config.JWT_SECRET! });
    const evaluation = createAlertEvaluation({ db, market, marketClock, clock, delivery, log: quiet });

    const users = createUsersRepo(db);
    const symbols = US_STOCKS.slice(0, USERS).map((entry) => entry.symbol);
    const numbers: string[] = [];
    const now = new Date();
    for (const [index, symbol] of symbols.entries()) {
      const user = await users.create({ email: `bench-${index}@example.com`, passwordHash: 'x', firstLogin: false });
      const number = `+1555${String(1_000_000 + index).padStart(7, '0')}`;
      numbers.push(number);
      await db.insert(userPhones).values({ userId: user.id, phoneNumber: number, smsEnabled: true, verifiedAt: now });
      await db.insert(alertRules).values({ userId: user.id, alertType: 'PERCENT_DROP', symbols: [symbol], thresholdValue: 5, targets: [], enableSms: true, enableEmail: false, isActive: true, createdAt: now, updatedAt: now });
    }
    const quote = (symbol: string, price: number) => ({ symbol, price, previousClose: 100, asOfMs: MARKET_NOW_MS, source: 'Simulated market', market: 'stock' as const });
    // Every watch starts armed (and every symbol's bars are cached) before the measured ticks.
    await evaluation.evaluateQuotes(symbols.map((symbol) => quote(symbol, 99)));
    delivery.start(60_000);
    try {
      const times: number[] = [];
      for (const [index, symbol] of symbols.entries()) {
        const started = performance.now();
        await evaluation.evaluateQuotes([quote(symbol, 94)]);
        const number = numbers[index]!;
        const deadline = Date.now() + 10_000;
        while (!handedAt.has(number)) {
          if (Date.now() > deadline) throw new Error(`the SMS for ${symbol} was not handed to the provider within 10 s`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        times.push(handedAt.get(number)! - started);
      }
      const p99 = percentile(times, 99);
      return [[`alert: price tick → SMS handed to the provider, p50 / p99 (${USERS} ticks, embedded mode)`, `${percentile(times, 50).toFixed(1)} / ${p99.toFixed(1)} ms`, `p99 ≤ ${BUDGET_P99_MS} ms`, p99 <= BUDGET_P99_MS ? 'ok' : 'OVER']];
    } finally {
      await delivery.stop();
      await evaluation.stop();
      mailer.close();
    }
  });
}
