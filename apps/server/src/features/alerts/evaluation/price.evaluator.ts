/**
 * Price rules (issue 15; docs/rules/alerts.md): PERCENT_DROP, CURRENT_PRICE, BITCOIN targets,
 * LEVEL_SYSTEM. The quote poller reads every symbol an active rule watches through the market cache
 * (simulated/file: every 15 s; live: within the provider limits), then evaluates only the watches of
 * each symbol with core's evaluatePriceWatch: edge not level, re-arm margin, once per session or a
 * 15-minute cooldown, regular US hours for stocks, never on a stale quote. Each state change is
 * written with the alert it causes (alert-store.ts) in one transaction, with a version check.
 */
import { TransactionRollbackError } from 'drizzle-orm';
import {
  ALERT_CRYPTO_SYMBOLS,
  atr,
  createWatchIndex,
  importedSourceLabel,
  evaluatePriceWatch,
  initialWatchState,
  marketSession,
  newYorkTime,
  supportResistance,
  volumeProfileLevels,
  watchKey,
  type AlertQuote,
  type AlertType,
  type EvaluationContext,
  type PriceAlertType,
  type PriceWatch,
  type WatchState,
} from '@signalboard/core';
import { metrics } from '../../../lib/metrics';
import { barsAreImported, quoteIsImported } from '../../../providers/market/imported/imported-figures';
import { autoPauseIfRunaway } from '../delivery/auto-pause';
import { insertAlert, resetState, writeState, type NewAlert, type StateRow } from './alert-store';
import { activePriceRules, deleteStatesOutside, PRICE_ALERT_TYPES, priceStatesOf, ruleOf, type RuleRow } from './evaluation.repo';
import type { EvaluatorDeps, PollReport, PollShare } from './evaluation.types';
import { channelsOf, ruleSnapshot } from './rule-snapshot';

const PRICE_TYPE_SET = new Set<string>(PRICE_ALERT_TYPES);

/** How long an alert stays worth sending (docs/rules/alerts.md §4.5 "Retries": 15 minutes for price alerts). */
export const PRICE_ALERT_FRESH_MS = 15 * 60_000;

const isCrypto = (symbol: string) => ALERT_CRYPTO_SYMBOLS.includes(symbol);

const stateOf = (row: StateRow): WatchState => ({
  ruleStamp: row.ruleStamp.getTime(),
  armed: row.armed,
  triggerPrice: row.triggerPrice,
  lastFiredAtMs: row.lastFiredAt?.getTime() ?? null,
  lastFiredSession: row.lastFiredSession,
  lastPrice: row.lastPrice,
});

/** Whether two states differ in what the evaluation decides (the last price alone is not worth a write). */
const sameDecision = (a: WatchState, b: WatchState) =>
  a.ruleStamp === b.ruleStamp && a.armed === b.armed && a.triggerPrice === b.triggerPrice && a.lastFiredAtMs === b.lastFiredAtMs && a.lastFiredSession === b.lastFiredSession;

/** The watches of one rule row (one per symbol); LEVEL_SYSTEM levels come from `levelsOf`. */
function watchesOf(rule: RuleRow, extras: Map<string, SymbolExtras>): PriceWatch[] {
  const type = rule.alertType as PriceAlertType;
  const stamp = rule.updatedAt.getTime();
  return rule.symbols.map((symbol) => {
    const watch: PriceWatch = { userId: rule.userId, alertType: type, symbol, ruleStamp: stamp };
    if (type === 'PERCENT_DROP') watch.threshold = rule.thresholdValue ?? 5;
    if (type === 'CURRENT_PRICE' || type === 'BITCOIN') {
      const target = rule.targets.find((candidate) => candidate.symbol === symbol);
      if (target) watch.target = { price: target.price, direction: target.direction };
    }
    if (type === 'LEVEL_SYSTEM') watch.levels = extras.get(symbol)?.levels ?? [];
    return watch;
  });
}

interface SymbolExtras {
  atr14?: number;
  levels: NonNullable<PriceWatch['levels']>;
  /** The ATR and levels come from an imported price file's bars: the alert's source says so. */
  imported?: true;
}

/** The quote with what its extras add: the ATR, and 'imported prices' in the source when they come from an imported file. */
function withExtras(quote: AlertQuote, extras: SymbolExtras | undefined): AlertQuote {
  if (!extras) return quote;
  return { ...quote, ...(extras.atr14 !== undefined ? { atr14: extras.atr14 } : {}), ...(extras.imported ? { source: importedSourceLabel(quote.source ?? '') } : {}) };
}

export interface PriceEvaluator {
  /** The symbols the active price rules watch (sorted). */
  watchedSymbols(): Promise<string[]>;
  /** One quote poll: all the watched symbols, or one worker's share of them. */
  pollQuotesOnce(part?: PollShare): Promise<PollReport>;
  evaluateQuotes(quotes: readonly AlertQuote[]): Promise<PollReport>;
  ruleSaved(userId: number, type: AlertType): Promise<string[]>;
  /** When the last quote poll finished (wall clock ms), null before the first. */
  lastEvaluatedAtMs(): number | null;
}

export function createPriceEvaluator(deps: EvaluatorDeps & { pollIntervalMs(symbolCount: number): number }): PriceEvaluator {
  const { db, market, marketClock, clock, log, source, pollIntervalMs } = deps;
  let lastEvaluatedAt: number | null = null;

  /** ATR14 and support/resistance levels of a stock from its daily bars (cached by the market). */
  const extrasOf = async (symbol: string, withLevels: boolean): Promise<SymbolExtras> => {
    try {
      const bars = (await market.getRecentDailyBars(symbol, 400)).value;
      const n = bars.close.length;
      if (n < 15) return { levels: [] };
      const atrSeries = atr(bars.high, bars.low, bars.close, 14);
      const atr14 = atrSeries[n - 1];
      const last = bars.close[n - 1]!;
      const levels: Array<SymbolExtras['levels'][number]> = [];
      if (withLevels) {
        for (const price of volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume)) {
          levels.push({ price, kind: price <= last ? 'support' : 'resistance', source: 'volume level' });
        }
        for (const price of supportResistance(bars.high, bars.low, bars.close)) {
          levels.push({ price, kind: price <= last ? 'support' : 'resistance', source: 'swing level' });
        }
      }
      return { ...(atr14 !== undefined && Number.isFinite(atr14) ? { atr14 } : {}), levels, ...(barsAreImported(bars) ? { imported: true as const } : {}) };
    } catch {
      return { levels: [] };
    }
  };

  const quoteOf = async (symbol: string): Promise<AlertQuote> => {
    const cached = await market.getQuote(symbol);
    const quote = cached.value;
    return {
      symbol,
      price: quote.price,
      previousClose: quote.previousClose,
      asOfMs: quote.timestamp > 0 ? quote.timestamp * 1000 : cached.fetchedAtMs,
      // A price that is an imported file's last close (the source does not quote the symbol).
      source: quoteIsImported(quote) ? importedSourceLabel(source) : source,
      market: isCrypto(symbol) ? 'crypto' : 'stock',
    };
  };

  const contextOf = (symbol: string, refreshMs: number): EvaluationContext => {
    const nowMs = marketClock.nowMs();
    const session = marketSession(nowMs);
    return {
      nowMs,
      refreshMs,
      marketOpen: isCrypto(symbol) || session.phase === 'open',
      session: newYorkTime(nowMs).isoDate,
    };
  };

  /** Evaluates `quotes` for `rules`; writes each change (and alert) in a transaction of its own. */
  const evaluate = async (rules: readonly RuleRow[], quotes: readonly AlertQuote[], extras: Map<string, SymbolExtras>, refreshMs: number): Promise<PollReport> => {
    const report: PollReport = { symbols: quotes.length, evaluated: 0, fired: 0, stale: 0, failed: [] };
    if (rules.length === 0 || quotes.length === 0) return report;
    const ruleByKey = new Map(rules.map((rule) => [`${rule.userId}|${rule.alertType}`, rule]));
    const watches = rules.flatMap((rule) => watchesOf(rule, extras));
    const index = createWatchIndex(watches);
    const stateRows = await priceStatesOf(db, quotes.map((quote) => quote.symbol));
    const states = new Map(stateRows.map((row) => [watchKey(row.userId, row.alertType as PriceAlertType, row.symbol), row]));
    let queued = false;
    for (const quote of quotes) {
      const withAtr = withExtras(quote, extras.get(quote.symbol));
      const context = contextOf(quote.symbol, refreshMs);
      for (const watch of index.watchesOf(quote.symbol)) {
        const row = states.get(watchKey(watch.userId, watch.alertType, watch.symbol));
        const before = row ? stateOf(row) : null;
        const result = evaluatePriceWatch(watch, before, withAtr, context);
        report.evaluated += 1;
        if (result.skipped === 'stale') report.stale += 1;
        if (!result.fired && before && sameDecision(before, result.state)) continue;
        if (!result.fired && !result.changed) continue;
        const rule = ruleByKey.get(`${watch.userId}|${watch.alertType}`)!;
        const now = new Date(clock.nowMs());
        const fired = result.fired;
        let committed: NewAlert | undefined;
        try {
          const wrote = await db.transaction(async (tx) => {
            const ok = await writeState(
              tx,
              {
                userId: watch.userId,
                alertType: watch.alertType,
                symbol: watch.symbol,
                ruleStamp: new Date(result.state.ruleStamp),
                armed: result.state.armed,
                triggerPrice: result.state.triggerPrice,
                lastFiredAt: result.state.lastFiredAtMs === null ? null : new Date(result.state.lastFiredAtMs),
                lastFiredSession: result.state.lastFiredSession,
                lastPrice: result.state.lastPrice,
                evaluatedAt: now,
              },
              row ? row.version : null,
            );
            if (!ok) {
              // Another evaluation changed the state first: its decision stands; roll this one back.
              tx.rollback();
            }
            if (!fired) return false;
            const alert: NewAlert = {
              userId: watch.userId,
              alertType: watch.alertType,
              symbol: watch.symbol,
              triggerKey: fired.triggerKey,
              rule: ruleSnapshot(rule),
              data: fired.data,
              smsText: fired.smsText,
              emailSubject: fired.emailSubject,
              emailText: fired.emailText,
              channels: channelsOf(rule),
              firedAt: now,
              expiresAt: new Date(now.getTime() + PRICE_ALERT_FRESH_MS),
            };
            const inserted = (await insertAlert(tx, alert)) !== null;
            if (inserted) committed = alert;
            return inserted ? (alert.channels.length > 0 ? 'queued' : 'recorded') : false;
          });
          if (fired) report.fired += 1;
          if (wrote === 'queued') queued = true;
          if (wrote && committed) deps.alertCommitted?.(committed);
          // A rule that fires more than 15 times in 3 minutes is paused, and its card says so.
          if (wrote && (await autoPauseIfRunaway(db, watch.userId, watch.alertType, now))) log.warn(`Alert rule ${watch.alertType} of user ${watch.userId} paused: it fired more than 15 times in 3 minutes`);
        } catch (error) {
          if (error instanceof TransactionRollbackError) continue;
          throw error;
        }
      }
    }
    if (queued) deps.delivery?.kick();
    return report;
  };

  const extrasFor = async (rules: readonly RuleRow[], only?: ReadonlySet<string>): Promise<Map<string, SymbolExtras>> => {
    const needs = new Map<string, boolean>();
    for (const rule of rules) {
      for (const symbol of rule.symbols) {
        if (only && !only.has(symbol)) continue;
        if (isCrypto(symbol) && rule.alertType === 'BITCOIN') continue;
        needs.set(symbol, (needs.get(symbol) ?? false) || rule.alertType === 'LEVEL_SYSTEM');
      }
    }
    const extras = new Map<string, SymbolExtras>();
    await Promise.all([...needs].map(async ([symbol, withLevels]) => extras.set(symbol, await extrasOf(symbol, withLevels))));
    return extras;
  };

  const pollQuotesOnce = async (part?: PollShare): Promise<PollReport> => {
    const rules = await activePriceRules(db, part?.symbols);
    const share = part ? new Set(part.symbols) : undefined;
    const symbols = [...new Set(rules.flatMap((rule) => rule.symbols))].filter((symbol) => !share || share.has(symbol));
    const failed: string[] = [];
    const quotes: AlertQuote[] = [];
    await Promise.all(
      symbols.map(async (symbol) => {
        try {
          quotes.push(await quoteOf(symbol));
        } catch (error) {
          failed.push(`${symbol}: ${(error as Error).message}`);
        }
      }),
    );
    const extras = await extrasFor(rules, share);
    const report = await evaluate(rules, quotes, extras, pollIntervalMs(part?.watched ?? symbols.length));
    lastEvaluatedAt = clock.nowMs();
    // The lag: from the freshest quote this pass read (market time) to the end of the pass.
    if (quotes.length > 0) metrics.alertEvaluationLag.set(Math.max(0, marketClock.nowMs() - Math.max(...quotes.map((quote) => quote.asOfMs))) / 1000);
    return { ...report, symbols: symbols.length, failed: failed.sort() };
  };

  return {
    pollQuotesOnce,
    lastEvaluatedAtMs: () => lastEvaluatedAt,
    async watchedSymbols() {
      const rules = await activePriceRules(db);
      return [...new Set(rules.flatMap((rule) => rule.symbols))].sort();
    },
    async evaluateQuotes(quotes) {
      const rules = await activePriceRules(db, quotes.map((quote) => quote.symbol));
      return evaluate(rules, quotes, await extrasFor(rules), pollIntervalMs(quotes.length));
    },
    async ruleSaved(userId, type) {
      const rule = await ruleOf(db, userId, type);
      // Symbols no longer in the rule leave their state behind.
      if (!rule || !PRICE_TYPE_SET.has(type)) return [];
      await deleteStatesOutside(db, userId, type, rule.symbols);
      const extras = await extrasFor([rule]);
      const notices: string[] = [];
      const now = new Date(clock.nowMs());
      for (const watch of watchesOf(rule, extras)) {
        let quote: AlertQuote | null = null;
        try {
          quote = withExtras(await quoteOf(watch.symbol), extras.get(watch.symbol));
        } catch {
          quote = null; // no quote now: the first evaluation starts the state (already true → waits)
        }
        const { state, alreadyTrue } = initialWatchState(watch, quote, marketClock.nowMs());
        if (alreadyTrue && rule.isActive) notices.push(alreadyTrue);
        await resetState(db, {
          userId,
          alertType: type,
          symbol: watch.symbol,
          ruleStamp: new Date(state.ruleStamp),
          armed: state.armed,
          triggerPrice: state.triggerPrice,
          lastFiredAt: state.lastFiredAtMs === null ? null : new Date(state.lastFiredAtMs),
          lastFiredSession: state.lastFiredSession,
          lastPrice: state.lastPrice,
          evaluatedAt: now,
        });
      }
      return notices;
    },
  };
}
