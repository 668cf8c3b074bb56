/**
 * The Installation card of Administration (issue 28; docs/accounts.md): what this installation runs
 * on and how it is doing, in one answer. Readiness with its details (admins may see what GET api/ready
 * shows only to METRICS_TOKEN: hosts in error texts, job counts), the providers that are set up
 * (named, never called: a look at the card spends no provider's request limit), and each scheduled
 * job's newest run and newest success, which say how fresh the dashboard, the ideas and the alerts are.
 */
import type { AdminInstallationResponse } from '@signalboard/core';
import { sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Readiness } from '../health/readiness';
import { APP_VERSION } from '../health/health.routes';

export interface InstallationDeps {
  db: Database;
  config: Config;
  clock: Clock;
  readiness: Pick<Readiness, 'check'>;
  mailKind: 'smtp' | 'outbox';
  smsKind: 'outbox' | 'twilio';
  /** When the alert rules were last evaluated (Unix ms), null before the first pass. */
  alertsEvaluatedAt: () => number | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function createInstallation({ db, config, clock, readiness, mailKind, smsKind, alertsEvaluatedAt }: InstallationDeps) {
  /** Per job: its newest run (by start) and its newest finished success. */
  async function jobs(): Promise<AdminInstallationResponse['jobs']> {
    const result = await db.execute(sql`
      select distinct on (job) job, status, started_at, finished_at, error,
             (select max(done.finished_at) from job_runs done where done.job = runs.job and done.status = 'done') as last_success_at
        from job_runs runs
       order by job, started_at desc`);
    const rows = result.rows as Array<{ job: string; status: string; started_at: Date | string; finished_at: Date | string | null; error: string | null; last_success_at: Date | string | null }>;
    return rows.map((row) => ({
      job: row.job,
      status: row.status,
      started_at: new Date(row.started_at).toISOString(),
      finished_at: iso(row.finished_at),
      error: row.error,
      last_success_at: iso(row.last_success_at),
    }));
  }

  return {
    async describe(): Promise<AdminInstallationResponse> {
      const [{ body }, runs] = await Promise.all([readiness.check(), jobs()]);
      const evaluated = alertsEvaluatedAt();
      return {
        version: APP_VERSION,
        time: new Date(clock.nowMs()).toISOString(),
        status: body.status,
        checks: Object.entries(body.checks).map(([name, { state, required, latency_ms, msg, ...details }]) => ({
          name,
          state,
          required,
          latency_ms,
          ...(msg === undefined ? {} : { msg }),
          details,
        })),
        market_data: {
          source: config.MARKET_DATA,
          providers: [
            { name: 'Finnhub', configured: config.FINNHUB_API_KEY !== undefined },
            { name: 'Twelve Data', configured: config.TWELVEDATA_API_KEY !== undefined },
            { name: 'FRED', configured: config.FRED_API_KEY !== undefined },
            { name: 'CoinGecko', configured: config.COINGECKO_API_KEY !== undefined },
            { name: 'Yahoo Finance', configured: config.YAHOO_ENABLED },
          ],
        },
        analyst: config.AI_PROVIDER === 'local' ? 'local' : `openai (${config.OPENAI_MODEL})`,
        mail: mailKind,
        sms: smsKind,
        channels: { telegram: config.TELEGRAM_BOT_TOKEN !== undefined, push: true, webhooks: true },
        database: config.isExternalDatabase ? 'external' : 'embedded',
        redis: config.isRedis,
        sign_up: config.SIGNUP,
        alerts_evaluated_at: evaluated === null ? null : new Date(evaluated).toISOString(),
        jobs: runs,
      };
    },
  };
}

export type Installation = ReturnType<typeof createInstallation>;
