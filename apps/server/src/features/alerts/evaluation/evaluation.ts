/**
 * Alert evaluation (issue 15; docs/rules/alerts.md): turns what arrives — quotes from the poller, the
 * trade engines' events — into alerts, only for the rules that watch it.
 *
 * - Price rules (PERCENT_DROP, CURRENT_PRICE, BITCOIN targets, LEVEL_SYSTEM): the quote poller reads
 *   every symbol an active rule watches through the market cache (simulated/file: every 15 s; live:
 *   within the provider limits), then evaluates only the watches of each symbol with core's
 *   evaluatePriceWatch: edge not level, re-arm margin, once per session or a 15-minute cooldown,
 *   regular US hours for stocks, never on a stale quote (price.evaluator.ts).
 * - Idea events (OPTION_ALERT, STOCK_DROP_ALERTS, ALLSTOCKS_PROGRESS_ALERT, BITCOIN label changes,
 *   and the alerts users saved on the trade screens): read from the append-only idea_events log after
 *   the last sequence handled (alert_cursors), live events only (ideas.evaluator.ts).
 * - News batches (GENERAL_NEWS and the two keyword types): the market news since the last batch
 *   (news.evaluator.ts).
 * - Custom Scans on price only (CUSTOM_SCAN), on the same cadence while the session is open: the
 *   symbols that enter a watched scan's results on their quotes (scan-intraday.evaluator.ts; the
 *   daily pass is scan.evaluator.ts, a job of the registry).
 * Every state change is written with the alert it causes (alert-store.ts) in one transaction, with a
 * version check, so a restart or a second process evaluating the same tick changes nothing. The
 * delivery worker is kicked after a commit that queued deliveries. The reads are evaluation.repo.ts;
 * this file is the lifecycle: one pass of each kind at a time, and the timer of start()/stop().
 */
import { MARKET_SOURCE_LABELS } from '@signalboard/core';
import type { CachedMarket } from '../../../providers/market/cached-market';
import { PRICE_ALERT_TYPES } from './evaluation.repo';
import type { AlertEvaluation, AlertEvaluationDeps, PollReport } from './evaluation.types';
import type { IntradayScanReport } from './scan-intraday.evaluator';
import { createIdeaEvaluator, IDEA_ALERT_FRESH_MS } from './ideas.evaluator';
import { createNewsEvaluator, NEWS_ALERT_FRESH_MS } from './news.evaluator';
import { createPriceEvaluator, PRICE_ALERT_FRESH_MS } from './price.evaluator';

export type { AlertEvaluation, AlertEvaluationDeps, PollReport, PollShare } from './evaluation.types';
export { IDEA_ALERT_FRESH_MS, NEWS_ALERT_FRESH_MS, PRICE_ALERT_FRESH_MS, PRICE_ALERT_TYPES };

/** The simulated and file sources refresh quotes every 15 s (the cache's quote TTL). */
export const LOCAL_POLL_MS = 15_000;
/** Live data: at most this many quote calls a minute for alerts (Finnhub allows 60, shared with users' requests). */
export const LIVE_QUOTE_CALLS_PER_MINUTE = 30;

/**
 * How alert messages name the market-data source (core's MARKET_SOURCE_LABELS, as the screens do). A
 * message whose figures come from an imported price file says so: 'Simulated market, imported prices'
 * (core's importedSourceLabel; docs/data-in-and-out.md "Where imported figures are labelled").
 */
export const SOURCE_LABELS: Readonly<Record<CachedMarket['source'], string>> = MARKET_SOURCE_LABELS;

export function createAlertEvaluation(deps: AlertEvaluationDeps): AlertEvaluation {
  const { market, log } = deps;
  const source = SOURCE_LABELS[market.source];
  let polling: Promise<PollReport> | undefined;
  let consuming: Promise<number> | undefined;
  let newsing: Promise<number> | undefined;
  let scanning: Promise<IntradayScanReport> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loop: Promise<void> | undefined;
  let lastFailed = '';
  let lastScanFailed = '';

  const pollIntervalMs = (symbolCount: number) => {
    if (deps.pollSeconds) return deps.pollSeconds * 1000;
    if (market.source !== 'live') return LOCAL_POLL_MS;
    return Math.max(LOCAL_POLL_MS, Math.ceil((symbolCount / LIVE_QUOTE_CALLS_PER_MINUTE) * 60_000));
  };

  const prices = createPriceEvaluator({ ...deps, source, pollIntervalMs });
  const ideas = createIdeaEvaluator({ ...deps, source });
  const news = createNewsEvaluator({ ...deps, source });

  const service: AlertEvaluation = {
    pollIntervalMs,
    lastEvaluatedAtMs: () => prices.lastEvaluatedAtMs(),
    watchedSymbols: () => prices.watchedSymbols(),
    pollQuotes(share) {
      if (share) return prices.pollQuotesOnce(share);
      polling ??= prices.pollQuotesOnce().finally(() => {
        polling = undefined;
      });
      return polling;
    },
    evaluateQuotes: (quotes) => prices.evaluateQuotes(quotes),
    consumeIdeaEvents() {
      consuming ??= (async () => {
        let total = 0;
        for (;;) {
          const { read, more } = await ideas.consumeOnce();
          total += read;
          if (!more) return total;
        }
      })().finally(() => {
        consuming = undefined;
      });
      return consuming;
    },
    consumeNews() {
      newsing ??= news.consumeNewsOnce().finally(() => {
        newsing = undefined;
      });
      return newsing;
    },
    scanIntraday() {
      scanning ??= (deps.intradayScans ? deps.intradayScans.passOnce() : Promise.resolve<IntradayScanReport>({ scans: 0, symbols: 0, fired: 0, failed: [] })).finally(() => {
        scanning = undefined;
      });
      return scanning;
    },
    ruleSaved: (userId, type) => prices.ruleSaved(userId, type),
    start() {
      stopped = false;
      const cycle = async () => {
        if (stopped) return;
        let symbols = 0;
        try {
          const report = await service.pollQuotes();
          symbols = report.symbols;
          if (report.fired > 0) log.info(`Alerts: ${report.fired} fired from ${report.symbols} symbols`);
          // The same failures pass after pass are said once (until they change).
          const failed = report.failed.slice(0, 5).join('; ');
          if (failed !== lastFailed && failed !== '') log.warn(`Alert quotes failed: ${failed}`);
          lastFailed = failed;
        } catch (error) {
          log.warn(`Alert evaluation failed: ${(error as Error).message}`);
        }
        try {
          await service.consumeIdeaEvents();
        } catch (error) {
          log.warn(`Alert idea events failed: ${(error as Error).message}`);
        }
        try {
          await service.consumeNews();
        } catch (error) {
          log.warn(`Alert news failed: ${(error as Error).message}`);
        }
        try {
          const report = await service.scanIntraday();
          if (report.fired > 0) log.info(`Custom Scan alerts: ${report.fired} fired during the session from ${report.symbols} symbols`);
          const failed = report.failed.slice(0, 5).join('; ');
          if (failed !== lastScanFailed && failed !== '') log.warn(`Custom Scan intraday: ${failed}`);
          lastScanFailed = failed;
        } catch (error) {
          log.warn(`Custom Scan intraday failed: ${(error as Error).message}`);
        }
        if (!stopped) timer = setTimeout(() => (loop = cycle()), pollIntervalMs(symbols));
      };
      loop = cycle();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await loop?.catch(() => undefined);
    },
  };
  return service;
}
