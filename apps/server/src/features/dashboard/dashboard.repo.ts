import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { economicIndicators, jobRuns, overallSentiment, sectorSentiment } from '../../db/schema';

export type DashboardJob = 'overall-sentiment' | 'sector-sentiment' | 'economic-indicators';

/** A sector's news item as stored (ValueRawJson): spec §3's title, url, image, summary, and where it came from. */
export interface StoredSectorNews {
  title: string;
  url: string;
  image: string;
  summary: string;
  source: string;
  /** Unix seconds. */
  datetime: number;
  symbol: string;
}

export interface StoredObservation {
  date: string;
  value: number;
}

/** How long a 'running' claim is trusted before another process may take the slot over. */
const STALE_RUN_MS = 15 * 60_000;

/** The dashboard's tables: job claims, and the history of the three parts. */
export function createDashboardRepo(db: Database) {
  return {
    /**
     * Claims `job` for `slot` at wall time `nowMs`. True when this caller may run it: the slot is new,
     * its last attempt failed and the backoff has passed (1, 2, 4 … minutes after the
     * failure, at most 30), or a 'running' claim is stale (its process
     * died). Two concurrent callers: exactly one gets true (the row's unique key decides).
     */
    async claim(job: DashboardJob, slot: Date, nowMs: number): Promise<boolean> {
      const now = new Date(nowMs);
      const staleBefore = new Date(nowMs - STALE_RUN_MS);
      const rows = await db.execute(sql`
        insert into ${jobRuns} (job, slot, status, attempts, started_at)
        values (${job}, ${slot.toISOString()}, 'running', 1, ${now.toISOString()})
        on conflict (job, slot) do update set status = 'running', attempts = ${jobRuns.attempts} + 1, started_at = excluded.started_at, finished_at = null, error = null
        where (${jobRuns.status} = 'failed' and ${jobRuns.finishedAt} + make_interval(mins => least(30, power(2, greatest(0, ${jobRuns.attempts} - 1))::int)) <= ${now.toISOString()}::timestamptz)
           or (${jobRuns.status} = 'running' and ${jobRuns.startedAt} < ${staleBefore.toISOString()}::timestamptz)
        returning id`);
      return rows.rows.length === 1;
    },
    async finish(job: DashboardJob, slot: Date, nowMs: number, error?: string): Promise<void> {
      await db
        .update(jobRuns)
        .set({ status: error === undefined ? 'done' : 'failed', finishedAt: new Date(nowMs), error: error?.slice(0, 2000) ?? null })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.slot, slot)));
    },
    /** The last run of `job` (any slot), for the scheduler's log and the tests. */
    async lastRun(job: DashboardJob) {
      const [row] = await db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.slot)).limit(1);
      return row;
    },

    /** Inserts the slot's row; a second insert for the same slot changes nothing. */
    async addOverall(row: { slot: Date; gptSummary: string; newsCount: number; tone: string; score: number; analyst: string; dateCreated: Date }): Promise<boolean> {
      const inserted = await db.insert(overallSentiment).values(row).onConflictDoNothing().returning({ id: overallSentiment.id });
      return inserted.length === 1;
    },
    async addSector(row: { sector: string; slot: Date; gptSummary: string; news: StoredSectorNews[]; tone: string; score: number; analyst: string; lastUpdatedUtc: Date }): Promise<boolean> {
      const inserted = await db.insert(sectorSentiment).values(row).onConflictDoNothing().returning({ id: sectorSentiment.id });
      return inserted.length === 1;
    },
    async addIndicator(row: {
      indicatorCode: string;
      indicatorName: string;
      interval: string;
      unit: string;
      slot: Date;
      observations: StoredObservation[];
      gptSummary: string;
      analyst: string;
      lastUpdatedUtc: Date;
    }): Promise<boolean> {
      const inserted = await db.insert(economicIndicators).values(row).onConflictDoNothing().returning({ id: economicIndicators.id });
      return inserted.length === 1;
    },
    /** Which sectors / indicators already have a row for `slot` (a retried run skips them). */
    async sectorsDone(slot: Date): Promise<Set<string>> {
      const rows = await db.select({ sector: sectorSentiment.sector }).from(sectorSentiment).where(eq(sectorSentiment.slot, slot));
      return new Set(rows.map((row) => row.sector));
    },
    async indicatorsDone(slot: Date): Promise<Set<string>> {
      const rows = await db.select({ code: economicIndicators.indicatorCode }).from(economicIndicators).where(eq(economicIndicators.slot, slot));
      return new Set(rows.map((row) => row.code));
    },

    /** The overall summaries, newest first. */
    async overallHistory(limit: number) {
      return db.select().from(overallSentiment).orderBy(desc(overallSentiment.dateCreated), desc(overallSentiment.id)).limit(limit);
    },
    /** The latest row of each sector. */
    async latestSectors() {
      const rows = await db.execute<{ sector: string; gpt_summary: string; news: unknown; tone: string; score: number; last_updated_utc: string | Date }>(sql`
        select distinct on (sector) sector, gpt_summary, news, tone, score, last_updated_utc
        from ${sectorSentiment} order by sector, slot desc`);
      return rows.rows.map((row) => ({
        sector: row.sector,
        gptSummary: row.gpt_summary,
        news: row.news,
        tone: row.tone,
        score: Number(row.score),
        lastUpdatedUtc: new Date(row.last_updated_utc),
      }));
    },
    /** The latest row of each indicator. */
    async latestIndicators() {
      const rows = await db.execute<{
        indicator_code: string;
        indicator_name: string;
        interval: string;
        unit: string;
        observations: unknown;
        gpt_summary: string;
        last_updated_utc: string | Date;
      }>(sql`
        select distinct on (indicator_code) indicator_code, indicator_name, interval, unit, observations, gpt_summary, last_updated_utc
        from ${economicIndicators} order by indicator_code, slot desc`);
      return rows.rows.map((row) => ({
        indicatorCode: row.indicator_code,
        indicatorName: row.indicator_name,
        interval: row.interval,
        unit: row.unit,
        observations: row.observations,
        gptSummary: row.gpt_summary,
        lastUpdatedUtc: new Date(row.last_updated_utc),
      }));
    },
    /** Whether each part has any row at all (a new installation has none). */
    async counts(): Promise<{ overall: number; sectors: number; indicators: number }> {
      const rows = await db.execute<{ overall: string; sectors: string; indicators: string }>(sql`
        select (select count(*) from ${overallSentiment}) as overall, (select count(*) from ${sectorSentiment}) as sectors,
               (select count(*) from ${economicIndicators}) as indicators`);
      const [row] = rows.rows;
      return { overall: Number(row?.overall ?? 0), sectors: Number(row?.sectors ?? 0), indicators: Number(row?.indicators ?? 0) };
    },
    /** Drops history older than `before` (job runs too); the latest row of every part is always kept. */
    async prune(before: Date): Promise<void> {
      await db.execute(sql`delete from ${overallSentiment} where date_created < ${before.toISOString()}::timestamptz
        and id <> (select id from ${overallSentiment} order by date_created desc, id desc limit 1)`);
      await db.execute(sql`delete from ${sectorSentiment} s where s.slot < ${before.toISOString()}::timestamptz
        and s.slot < (select max(slot) from ${sectorSentiment} t where t.sector = s.sector)`);
      await db.execute(sql`delete from ${economicIndicators} e where e.slot < ${before.toISOString()}::timestamptz
        and e.slot < (select max(slot) from ${economicIndicators} f where f.indicator_code = e.indicator_code)`);
      await db.delete(jobRuns).where(lt(jobRuns.slot, before));
    },
  };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
