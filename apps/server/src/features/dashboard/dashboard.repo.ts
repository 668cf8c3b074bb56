import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { economicIndicators, overallSentiment, sectorSentiment } from '../../db/schema';

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

/** The dashboard's tables: the history of the three parts (the job claims live in jobs/job-runs.ts). */
export function createDashboardRepo(db: Database) {
  return {
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
    /** Drops history older than `before`; the latest row of every part is always kept. */
    async prune(before: Date): Promise<void> {
      await db.execute(sql`delete from ${overallSentiment} where date_created < ${before.toISOString()}::timestamptz
        and id <> (select id from ${overallSentiment} order by date_created desc, id desc limit 1)`);
      await db.execute(sql`delete from ${sectorSentiment} s where s.slot < ${before.toISOString()}::timestamptz
        and s.slot < (select max(slot) from ${sectorSentiment} t where t.sector = s.sector)`);
      await db.execute(sql`delete from ${economicIndicators} e where e.slot < ${before.toISOString()}::timestamptz
        and e.slot < (select max(slot) from ${economicIndicators} f where f.indicator_code = e.indicator_code)`);
    },
  };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
