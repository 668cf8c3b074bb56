/**
 * The dashboard's refresh jobs (issue 6): overall market sentiment, sector sentiment and economic
 * indicators, kept in the database with their history.
 *
 * Each job belongs to a slot, the cadence window of the market clock it runs in:
 * - overall sentiment: every 30 minutes while the US market is open, hourly otherwise;
 * - sector sentiment: hourly;
 * - economic indicators: every 6 hours (the series change at most daily).
 * A run claims its slot in job_runs first, so any number of ticks and processes run each slot once.
 * A run that fails keeps the last good rows (nothing is deleted) and is retried with backoff
 * (1, 2, 4 … 30 minutes); a partly failed run keeps what it wrote and the retry does only the rest.
 */
import { analyzeNewsItems, marketSession, type NewsItem } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { Analyst } from '../../providers/ai';
import type { Cached } from '../../providers/market/cache';
import type { CachedMarket } from '../../providers/market/cached-market';
import { UnknownSymbolError, type NewsArticle } from '../../providers/market/types';
import { GICS_SECTORS, US_STOCKS } from '../../providers/market/universe';
import type { JobRuns } from '../../jobs/job-runs';
import { runJob, sharedPass, type Job, type JobRunnerDeps, type RunOutcome, type TickOptions } from '../../jobs/registry';
import type { DashboardJob, DashboardRepo, StoredSectorNews } from './dashboard.repo';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The economic series the dashboard shows, in this order (FRED ids where FRED has them). */
export const DASHBOARD_INDICATORS = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'DGS10', 'A191RL1Q225SBEA', 'ISM_PMI', 'PAYEMS_CHG', 'UMCSENT'] as const;
/** Observations kept per indicator row (newest first): the screen shows the first 2; 13 monthly values give a yearly change. */
export const INDICATOR_OBSERVATIONS_KEPT = 13;
/** Market news items the overall summary reads. */
export const OVERALL_NEWS_ITEMS = 30;
/** The largest companies of each sector whose news makes the sector's. */
export const SECTOR_COMPANIES = 6;
/** Days of company news a sector reads, and how many items it keeps. */
export const SECTOR_NEWS_DAYS = 3;
export const SECTOR_NEWS_KEPT = 10;
/** History older than this is pruned (the latest row of every part is always kept). */
export const DASHBOARD_HISTORY_DAYS = 90;

/** The start of the slot `nowMs` falls in, for each job. */
export function slotOf(job: DashboardJob, nowMs: number): Date {
  const size = job === 'overall-sentiment' ? (marketSession(nowMs).phase === 'open' ? 30 * MINUTE_MS : HOUR_MS) : job === 'sector-sentiment' ? HOUR_MS : 6 * HOUR_MS;
  return new Date(Math.floor(nowMs / size) * size);
}

export type { RunOutcome } from '../../jobs/registry';

export interface DashboardJobsDeps {
  repo: DashboardRepo;
  /** The job claims (jobs/job-runs.ts) on the same database. */
  runs: JobRuns;
  market: CachedMarket;
  analyst: Analyst;
  /** The market's clock (MARKET_NOW when pinned): it picks the slot and stamps the rows. */
  marketClock: Clock;
  /** Wall time: claims and retry backoff. */
  clock: Clock;
  log: { info(message: string): void; warn(message: string): void };
  /** Tests only: holds a claimed run before it starts (JobRunnerDeps.hold). */
  hold?: JobRunnerDeps['hold'];
}

/** The news' tone and score from the finance lexicon: the same reading whichever analyst writes the summary. */
function toneOf(items: readonly NewsItem[]): { tone: string; score: number } {
  const { tone, score } = analyzeNewsItems(items);
  return { tone, score };
}

/**
 * A cached answer's value, or an error when it is stale: the cache serves the last good value while
 * the provider fails, and a summary of it must not be stored as if it were new.
 */
function fresh<T>(answer: Cached<T>, what: string): T {
  if (answer.stale) throw new Error(`${what}: the provider is failing (only an older copy is cached)`);
  return answer.value;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A sector's news item as stored: spec §3's fields plus its source, time and company. */
function toStoredNews(article: NewsArticle, symbol: string): StoredSectorNews {
  return { title: article.headline, url: article.url, image: article.image, summary: article.summary, source: article.source, datetime: article.datetime, symbol };
}

export function createDashboardJobs(deps: DashboardJobsDeps) {
  const { repo, runs, market, analyst, marketClock, clock, log } = deps;
  const runner: JobRunnerDeps = { runs, marketClock, clock, log, ...(deps.hold ? { hold: deps.hold } : {}) };
  const jobOf = (name: DashboardJob, work: (slot: Date, nowMs: number) => Promise<string[]>): Job => ({ name, slotOf: (nowMs) => slotOf(name, nowMs), run: work });

  /**
   * Claims the slot (jobs/; `options.queued`: see TickOptions), runs `work`, and records the
   * outcome; `work` returns what failed (empty: all good).
   */
  const run = (job: DashboardJob, options: TickOptions, work: (slot: Date, nowMs: number) => Promise<string[]>): Promise<RunOutcome> => runJob(jobOf(job, work), runner, options);

  async function refreshOverall(options: TickOptions = {}): Promise<RunOutcome> {
    return run('overall-sentiment', options, async (slot, nowMs) => {
      const news = fresh(await market.getMarketNews(), 'market news').filter((article) => article.datetime * 1000 <= nowMs).slice(0, OVERALL_NEWS_ITEMS);
      const summary = await analyst.summarizeNews({ scope: 'market', subject: 'Market', items: news });
      await repo.addOverall({ slot, gptSummary: summary, newsCount: news.length, ...toneOf(news), analyst: analyst.kind, dateCreated: new Date(nowMs) });
      const before = new Date(nowMs - DASHBOARD_HISTORY_DAYS * DAY_MS);
      await repo.prune(before);
      await runs.prune(['overall-sentiment', 'sector-sentiment', 'economic-indicators'], before);
      return [];
    });
  }

  /**
   * One sector's recent company news, newest first, without repeats. Rejects when every company the
   * source knows failed upstream; undefined when the source knows none of them (a small dataset).
   */
  async function sectorNews(sector: string, nowMs: number): Promise<StoredSectorNews[] | undefined> {
    const companies = US_STOCKS.filter((entry) => entry.sector === sector).slice(0, SECTOR_COMPANIES);
    const from = isoDay(nowMs - SECTOR_NEWS_DAYS * DAY_MS);
    const to = isoDay(nowMs);
    const results = await Promise.allSettled(companies.map(async (company) => ({ company, news: fresh(await market.getCompanyNews(company.symbol, from, to), `${company.symbol} news`) })));
    const upstreamFailures = results.filter((result) => result.status === 'rejected' && !(result.reason instanceof UnknownSymbolError));
    const unknown = results.filter((result) => result.status === 'rejected' && result.reason instanceof UnknownSymbolError).length;
    if (unknown === companies.length) return undefined;
    if (upstreamFailures.length > 0 && upstreamFailures.length + unknown === companies.length) {
      throw new Error(`no company news for ${sector}: ${errorText((upstreamFailures[0] as PromiseRejectedResult).reason)}`);
    }
    const seen = new Set<string>();
    const items: StoredSectorNews[] = [];
    for (const result of results) {
      if (result.status !== 'fulfilled') continue;
      for (const article of result.value.news) {
        const key = article.url || article.headline;
        if (article.datetime * 1000 > nowMs || seen.has(key)) continue;
        seen.add(key);
        items.push(toStoredNews(article, result.value.company.symbol));
      }
    }
    return items.sort((a, b) => b.datetime - a.datetime).slice(0, SECTOR_NEWS_KEPT);
  }

  async function refreshSectors(options: TickOptions = {}): Promise<RunOutcome> {
    return run('sector-sentiment', options, async (slot, nowMs) => {
      const done = await repo.sectorsDone(slot);
      const failures: string[] = [];
      for (const sector of GICS_SECTORS) {
        if (done.has(sector)) continue;
        try {
          const news = await sectorNews(sector, nowMs);
          if (!news) continue;
          const items = news.map((item) => ({ headline: item.title, summary: item.summary }));
          const summary =
            news.length === 0 ? `No ${sector} company news in the last ${SECTOR_NEWS_DAYS} days.` : await analyst.summarizeNews({ scope: 'sector', subject: sector, items });
          await repo.addSector({ sector, slot, gptSummary: summary, news, ...toneOf(items), analyst: analyst.kind, lastUpdatedUtc: new Date(nowMs) });
        } catch (error) {
          failures.push(`${sector}: ${errorText(error)}`);
        }
      }
      return failures;
    });
  }

  async function refreshIndicators(options: TickOptions = {}): Promise<RunOutcome> {
    return run('economic-indicators', options, async (slot, nowMs) => {
      const done = await repo.indicatorsDone(slot);
      const failures: string[] = [];
      for (const code of DASHBOARD_INDICATORS) {
        if (done.has(code)) continue;
        try {
          const series = fresh(await market.getEconomicSeries(code), code);
          const observations = series.observations.slice(0, INDICATOR_OBSERVATIONS_KEPT).map(({ date, value }) => ({ date, value }));
          if (observations.length === 0) continue;
          const summary = await analyst.explainIndicator({ name: series.name, code: series.id, unit: series.unit, interval: series.frequency, values: observations });
          await repo.addIndicator({
            indicatorCode: series.id,
            indicatorName: series.name,
            interval: series.frequency,
            unit: series.unit,
            slot,
            observations,
            gptSummary: summary,
            analyst: analyst.kind,
            lastUpdatedUtc: new Date(nowMs),
          });
        } catch (error) {
          // A source without the series (FRED has no PMI, a dataset may hold only some) is not a failure.
          if (error instanceof UnknownSymbolError) continue;
          failures.push(`${code}: ${errorText(error)}`);
        }
      }
      return failures;
    });
  }

  /** Runs every job whose slot is due; concurrent calls share one pass (`queued`: see TickOptions). */
  const tick = sharedPass(async (options): Promise<Record<DashboardJob, RunOutcome>> => {
    const [overall, sectors, indicators] = await Promise.all([refreshOverall(options), refreshSectors(options), refreshIndicators(options)]);
    return { 'overall-sentiment': overall, 'sector-sentiment': sectors, 'economic-indicators': indicators };
  });

  return {
    refreshOverall,
    refreshSectors,
    refreshIndicators,
    tick,
    /**
     * For a read that found its part empty: waits for the pass under way, or runs one, so a new
     * installation's first dashboard is filled rather than empty. Never rejects.
     */
    async fillIfEmpty(): Promise<void> {
      await tick().catch((error: unknown) => log.warn(`Dashboard fill failed: ${errorText(error)}`));
    },
  };
}

export type DashboardJobs = ReturnType<typeof createDashboardJobs>;
