/**
 * Alert evaluation (issue 15; docs/rules/alerts.md): turns what arrives — quotes from the poller, the
 * trade engines' events — into alerts, only for the rules that watch it.
 *
 * - Price rules (PERCENT_DROP, CURRENT_PRICE, BITCOIN targets, LEVEL_SYSTEM): the quote poller reads
 *   every symbol an active rule watches through the market cache (simulated/file: every 15 s; live:
 *   within the provider limits), then evaluates only the watches of each symbol with core's
 *   evaluatePriceWatch: edge not level, re-arm margin, once per session or a 15-minute cooldown,
 *   regular US hours for stocks, never on a stale quote.
 * - Idea events (OPTION_ALERT, STOCK_DROP_ALERTS, ALLSTOCKS_PROGRESS_ALERT, BITCOIN label changes,
 *   and the alerts users saved on the trade screens): read from the append-only idea_events log after
 *   the last sequence handled (alert_cursors), live events only.
 * Every state change is written with the alert it causes (alert-store.ts) in one transaction, with a
 * version check, so a restart or a second process evaluating the same tick changes nothing. The
 * delivery worker is kicked after a commit that queued deliveries.
 */
import { and, asc, eq, inArray, notInArray, sql, TransactionRollbackError } from 'drizzle-orm';
import {
  ALERT_CRYPTO_SYMBOLS,
  ALERT_TYPE_NAMES,
  atr,
  createWatchIndex,
  cryptoLabelChangeMessage,
  dropItemsMessage,
  evaluatePriceWatch,
  initialWatchState,
  marketSession,
  newsBatchMessage,
  newYorkTime,
  optionTradeOpenedMessage,
  savedIdeaEventMessage,
  supportResistance,
  swingProgressMessage,
  volumeProfileLevels,
  watchKey,
  type AlertChannel,
  type AlertQuote,
  type AlertType,
  type EvaluationContext,
  type PriceAlertType,
  type PriceWatch,
  type WatchState,
} from '@signalboard/core';
import type { Database } from '../../db/client';
import { alertCursors, alertRules, alertSymbolState, ideaEvents, ideas, userOptionAlerts, users, userStockScannerAlerts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import { autoPauseIfRunaway } from '../alert-delivery/auto-pause';
import { newsCategoriesOf, newsGist, newsKeywordsOf } from './news-alerts';
import { hasSmsNumber, insertAlert, resetState, SAVED_OPTION_TRADE, SAVED_STOCK_SCANNER, writeState, type NewAlert, type StateRow } from './alert-store';
import { metrics } from '../../lib/metrics';

export const PRICE_ALERT_TYPES: readonly PriceAlertType[] = ['PERCENT_DROP', 'CURRENT_PRICE', 'BITCOIN', 'LEVEL_SYSTEM'];
const PRICE_TYPE_SET = new Set<string>(PRICE_ALERT_TYPES);

/** How long an alert stays worth sending (docs/rules/alerts.md §4.5 "Retries": 15 minutes for price alerts). */
export const PRICE_ALERT_FRESH_MS = 15 * 60_000;
/** An engine's idea event is news for the rest of the day; sent later it would mislead. */
export const IDEA_ALERT_FRESH_MS = 6 * 60 * 60_000;
/** The simulated and file sources refresh quotes every 15 s (the cache's quote TTL). */
export const LOCAL_POLL_MS = 15_000;
/** Live data: at most this many quote calls a minute for alerts (Finnhub allows 60, shared with users' requests). */
export const LIVE_QUOTE_CALLS_PER_MINUTE = 30;
/** Idea events read per pass. */
const IDEA_EVENT_BATCH = 500;
const IDEA_CURSOR = 'idea_events';
const NEWS_CURSOR = 'market_news';
/** A news batch is stale after two hours. */
export const NEWS_ALERT_FRESH_MS = 2 * 60 * 60_000;

const SOURCE_LABELS: Record<CachedMarket['source'], string> = { simulated: 'Simulated market', file: 'Dataset', live: 'Live market data' };

export interface AlertEvaluationDeps {
  db: Database;
  market: CachedMarket;
  /** The market clock: sessions, market hours, quote freshness. */
  marketClock: Clock;
  /** Wall time: when alerts fired, when deliveries expire. */
  clock: Clock;
  /** Told after a commit that queued deliveries. */
  delivery?: { kick(): void };
  /** Told of each alert after its transaction committed (the live updates tell the user's screens). */
  alertCommitted?: (alert: NewAlert) => void;
  /** ALERT_POLL_SECONDS, when set. */
  pollSeconds?: number;
  log: { info(message: string): void; warn(message: string): void };
}

export interface PollReport {
  symbols: number;
  evaluated: number;
  fired: number;
  stale: number;
  /** Symbols whose quote could not be read. */
  failed: string[];
}

export interface PollShare {
  symbols: readonly string[];
  /** How many symbols the whole pass watches (it sets the poll interval the freshness rules use). */
  watched: number;
}

export interface AlertEvaluation {
  /** The poll interval for the current source and number of watched symbols. */
  pollIntervalMs(symbolCount: number): number;
  /** The symbols the active price rules watch (sorted). */
  watchedSymbols(): Promise<string[]>;
  /**
   * Reads the quote of every watched symbol and evaluates the watches of each; with `share`, only
   * those symbols (one worker's part of a pass over `watched` symbols in all).
   */
  pollQuotes(share?: PollShare): Promise<PollReport>;
  /** Evaluates `quotes` against the watches of their symbols (what pollQuotes does after reading). */
  evaluateQuotes(quotes: readonly AlertQuote[]): Promise<PollReport>;
  /** Turns the live idea events after the cursor into alerts; answers how many events were read. */
  consumeIdeaEvents(): Promise<number>;
  /** Turns the market news that arrived since the last batch into the news types' alerts; answers how many articles were new. */
  consumeNews(): Promise<number>;
  /**
   * After a rule was saved: each symbol's state starts from its current quote (a condition already
   * true waits for a new crossing); answers the screen's notices for those already true.
   */
  ruleSaved(userId: number, type: AlertType): Promise<string[]>;
  /** When the last quote poll finished (wall clock ms), null before the first. */
  lastEvaluatedAtMs(): number | null;
  /** Polls on a timer (and consumes idea events) until stop(). */
  start(): void;
  stop(): Promise<void>;
}

interface RuleRow {
  userId: number;
  alertType: string;
  symbols: string[];
  thresholdValue: number | null;
  targets: Array<{ symbol: string; price: number; direction: 'above' | 'below' }>;
  enableSms: boolean;
  enableEmail: boolean;
  isActive: boolean;
  updatedAt: Date;
}

/** The columns of a rule the evaluation reads. */
const RULE_COLUMNS = {
  userId: alertRules.userId,
  alertType: alertRules.alertType,
  symbols: alertRules.symbols,
  thresholdValue: alertRules.thresholdValue,
  targets: alertRules.targets,
  enableSms: alertRules.enableSms,
  enableEmail: alertRules.enableEmail,
  isActive: alertRules.isActive,
  updatedAt: alertRules.updatedAt,
};

const ruleSnapshot = (rule: RuleRow): Record<string, unknown> => ({
  alert_type: rule.alertType,
  type_name: ALERT_TYPE_NAMES[rule.alertType as AlertType] ?? rule.alertType,
  stock_symbols: rule.symbols,
  threshold_value: rule.thresholdValue,
  targets: rule.targets,
  enable_sms: rule.enableSms,
  enable_email: rule.enableEmail,
  is_active: rule.isActive,
  saved_at: rule.updatedAt.toISOString(),
});

const channelsOf = (rule: Pick<RuleRow, 'enableSms' | 'enableEmail'>): AlertChannel[] => [
  ...(rule.enableSms ? (['sms'] as const) : []),
  ...(rule.enableEmail ? (['email'] as const) : []),
];

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
}

export function createAlertEvaluation(deps: AlertEvaluationDeps): AlertEvaluation {
  const { db, market, marketClock, clock, log } = deps;
  const source = SOURCE_LABELS[market.source];
  let polling: Promise<PollReport> | undefined;
  let consuming: Promise<number> | undefined;
  let newsing: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let loop: Promise<void> | undefined;
  let lastEvaluatedAt: number | null = null;
  let lastFailed = '';

  const pollIntervalMs = (symbolCount: number) => {
    if (deps.pollSeconds) return deps.pollSeconds * 1000;
    if (market.source !== 'live') return LOCAL_POLL_MS;
    return Math.max(LOCAL_POLL_MS, Math.ceil((symbolCount / LIVE_QUOTE_CALLS_PER_MINUTE) * 60_000));
  };

  /** The active price rules of active users. */
  const activePriceRules = async (symbols?: readonly string[]): Promise<RuleRow[]> => {
    const rows = await db
      .select(RULE_COLUMNS)
      .from(alertRules)
      .innerJoin(users, eq(users.id, alertRules.userId))
      .where(and(eq(alertRules.isActive, true), eq(users.isActive, true), inArray(alertRules.alertType, [...PRICE_ALERT_TYPES])));
    if (!symbols) return rows;
    const wanted = new Set(symbols);
    return rows.filter((row) => row.symbols.some((symbol) => wanted.has(symbol)));
  };

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
      return { ...(atr14 !== undefined && Number.isFinite(atr14) ? { atr14 } : {}), levels };
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
      source,
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
    const stateRows = await db
      .select()
      .from(alertSymbolState)
      .where(and(inArray(alertSymbolState.alertType, [...PRICE_ALERT_TYPES]), inArray(alertSymbolState.symbol, quotes.map((quote) => quote.symbol))));
    const states = new Map(stateRows.map((row) => [watchKey(row.userId, row.alertType as PriceAlertType, row.symbol), row]));
    let queued = false;
    for (const quote of quotes) {
      const withAtr: AlertQuote = extras.get(quote.symbol)?.atr14 !== undefined ? { ...quote, atr14: extras.get(quote.symbol)!.atr14! } : quote;
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
    const rules = await activePriceRules(part?.symbols);
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

  // ---- idea events -------------------------------------------------------------------------------

  interface EventRow {
    sequence: number;
    ideaId: string;
    engine: string;
    symbol: string;
    type: string;
    level: string;
    barDate: string;
    price: number | null;
    data: unknown;
    /** When the engine's pass recorded it (market clock): the alert's "as of". */
    recordedAt: Date;
  }

  /** The active rules of `type` of active users. */
  const rulesOfType = (type: AlertType) =>
    db
      .select(RULE_COLUMNS)
      .from(alertRules)
      .innerJoin(users, eq(users.id, alertRules.userId))
      .where(and(eq(alertRules.alertType, type), eq(alertRules.isActive, true), eq(users.isActive, true)));

  const ideaAlertBase = (now: Date) => ({ firedAt: now, expiresAt: new Date(now.getTime() + IDEA_ALERT_FRESH_MS) });

  /** The alerts a batch of events makes (pure but for the rule and saved-alert reads). */
  const alertsOfEvents = async (events: readonly EventRow[], now: Date): Promise<NewAlert[]> => {
    const alerts: NewAlert[] = [];
    const data = (event: EventRow) => (event.data ?? {}) as Record<string, unknown>;
    const recordedAs = (event: EventRow) => ({ engine: event.engine, idea_id: event.ideaId, event: event.type, level: event.level, bar_date: event.barDate, price: event.price, sequence: event.sequence, source, asOf: event.recordedAt.toISOString() });
    const sourceOf = (event: EventRow) => ({ source, asOfMs: event.recordedAt.getTime() });

    // OPTION_ALERT: a new option trade on a chosen ticker.
    const optionOpens = events.filter((event) => event.engine === 'options' && event.type === 'opened');
    if (optionOpens.length > 0) {
      for (const rule of await rulesOfType('OPTION_ALERT')) {
        for (const event of optionOpens) {
          if (!rule.symbols.includes(event.symbol)) continue;
          const opened = data(event);
          const message = optionTradeOpenedMessage({
            symbol: event.symbol,
            type: String(opened.side).toUpperCase() === 'PUT' ? 'PUT' : 'CALL',
            expiration: String(opened.expiry ?? ''),
            strike: Number(opened.strike ?? 0),
            entry: Number(opened.signalValue ?? 0),
            strength: Number(opened.strengthScore ?? 0),
            ...sourceOf(event),
          });
          alerts.push({ userId: rule.userId, alertType: 'OPTION_ALERT', symbol: event.symbol, triggerKey: `idea:${event.sequence}`, rule: ruleSnapshot(rule), data: recordedAs(event), ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // STOCK_DROP_ALERTS: the drop engine's new items, one message per pass (per bar date in the batch).
    const dropOpens = events.filter((event) => event.engine === 'drop' && event.type === 'opened');
    if (dropOpens.length > 0) {
      const byDate = groupBy(dropOpens, (event) => event.barDate);
      const rules = await rulesOfType('STOCK_DROP_ALERTS');
      for (const [barDate, group] of byDate) {
        const message = dropItemsMessage(group.map((event) => ({ symbol: event.symbol, tradeType: String(data(event).stockType ?? ''), ...(event.price !== null ? { entry: event.price } : {}) })), sourceOf(group[0]!));
        for (const rule of rules) {
          alerts.push({ userId: rule.userId, alertType: 'STOCK_DROP_ALERTS', symbol: '*', triggerKey: `drop:${barDate}:${group[0]!.sequence}`, rule: ruleSnapshot(rule), data: { engine: 'drop', bar_date: barDate, items: group.map(recordedAs), source, asOf: group[0]!.recordedAt.toISOString() }, ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // ALLSTOCKS_PROGRESS_ALERT: the swing engine opens trades or one hits a target, one message per pass.
    const swingProgress = events.filter((event) => event.engine === 'swing' && (event.type === 'opened' || event.type === 'target_hit'));
    if (swingProgress.length > 0) {
      const byDate = groupBy(swingProgress, (event) => event.barDate);
      const rules = await rulesOfType('ALLSTOCKS_PROGRESS_ALERT');
      for (const [barDate, group] of byDate) {
        const message = swingProgressMessage(group.map((event) => ({ symbol: event.symbol, kind: event.type === 'opened' ? ('opened' as const) : ('target' as const), price: event.price ?? 0 })), sourceOf(group[0]!));
        for (const rule of rules) {
          alerts.push({ userId: rule.userId, alertType: 'ALLSTOCKS_PROGRESS_ALERT', symbol: '*', triggerKey: `swing:${barDate}:${group[0]!.sequence}`, rule: ruleSnapshot(rule), data: { engine: 'swing', bar_date: barDate, items: group.map(recordedAs), source, asOf: group[0]!.recordedAt.toISOString() }, ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // BITCOIN: a chosen coin's crypto-scanner signal changed label.
    const labelChanges = events.filter((event) => event.engine === 'crypto' && event.type === 'signal_changed');
    if (labelChanges.length > 0) {
      for (const rule of await rulesOfType('BITCOIN')) {
        for (const event of labelChanges) {
          if (!rule.symbols.includes(event.symbol)) continue;
          const changed = data(event);
          const message = cryptoLabelChangeMessage({
            symbol: event.symbol,
            horizon: String(changed.horizon ?? event.level ?? ''),
            from: String(changed.from ?? changed.previous ?? ''),
            to: String(changed.to ?? changed.label ?? ''),
            price: event.price ?? 0,
            ...sourceOf(event),
          });
          alerts.push({ userId: rule.userId, alertType: 'BITCOIN', symbol: event.symbol, triggerKey: `idea:${event.sequence}`, rule: ruleSnapshot(rule), data: recordedAs(event), ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // Saved alerts of the trade screens: their idea's target, stop, time exit or deactivation.
    const closing = events.filter((event) => savedEventKind(event) !== null && (event.engine === 'options' || event.engine === 'drop'));
    if (closing.length > 0) {
      const ids = [...new Set(closing.map((event) => event.ideaId))];
      const optionSaves = await db.select({ userId: userOptionAlerts.userId, ideaId: userOptionAlerts.ideaId }).from(userOptionAlerts).innerJoin(users, eq(users.id, userOptionAlerts.userId)).where(and(inArray(userOptionAlerts.ideaId, ids), eq(users.isActive, true)));
      const dropSaves = await db.select({ userId: userStockScannerAlerts.userId, ideaId: userStockScannerAlerts.ideaId, tradeType: userStockScannerAlerts.tradeType }).from(userStockScannerAlerts).innerJoin(users, eq(users.id, userStockScannerAlerts.userId)).where(and(inArray(userStockScannerAlerts.ideaId, ids), eq(users.isActive, true)));
      const labels = new Map((await db.select({ id: ideas.id, row: ideas.row }).from(ideas).where(inArray(ideas.id, ids))).map((idea) => [idea.id, idea.row as Record<string, unknown>]));
      const smsUsers = new Map<number, boolean>();
      const channelsFor = async (userId: number): Promise<AlertChannel[]> => {
        if (!smsUsers.has(userId)) smsUsers.set(userId, await hasSmsNumber(db, userId));
        return smsUsers.get(userId) ? ['sms', 'email'] : ['email'];
      };
      for (const event of closing) {
        const kind = savedEventKind(event)!;
        const row = labels.get(event.ideaId) ?? {};
        const saves = event.engine === 'options' ? optionSaves.filter((save) => save.ideaId === event.ideaId).map((save) => ({ ...save, tradeType: null as string | null })) : dropSaves.filter((save) => save.ideaId === event.ideaId);
        for (const save of saves) {
          const screen = event.engine === 'options' ? ('option' as const) : ('drop' as const);
          const label = String(row.ContractName ?? row.Contract ?? row.Type ?? save.tradeType ?? event.symbol);
          const message = savedIdeaEventMessage({ kind, screen, symbol: event.symbol, label, price: event.price ?? 0, ...sourceOf(event) });
          alerts.push({
            userId: save.userId,
            alertType: event.engine === 'options' ? SAVED_OPTION_TRADE : SAVED_STOCK_SCANNER,
            symbol: event.symbol,
            triggerKey: `idea:${event.sequence}`,
            rule: { saved: screen === 'option' ? 'option trade' : 'drop item', idea_id: event.ideaId, ...(save.tradeType ? { trade_type: save.tradeType } : {}) },
            data: recordedAs(event),
            ...message,
            channels: await channelsFor(save.userId),
            ...ideaAlertBase(now),
          });
        }
      }
    }
    return alerts;
  };

  /**
   * One pass over the idea events by transaction (idea_events.tx_id): the cursor is a transaction id
   * such that every transaction below it has been handled. A pass reads only transactions older than
   * every one still running (pg_snapshot_xmin), whole, oldest first, about IDEA_EVENT_BATCH events
   * at a time: an engine's transaction that commits after a later one was read is still ahead of the
   * cursor, so no event is skipped. Answers the events read and whether more are waiting.
   */
  const consumeOnce = async (): Promise<{ read: number; more: boolean }> => {
    const now = new Date(clock.nowMs());
    // The cursor row is locked for the pass: two processes read and advance it one after the other.
    const { read, more, queued, inserted } = await db.transaction(async (tx) => {
      const horizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;
      // A new installation starts after the events already there (the replay's history alerts nobody).
      const [start] = (await tx.execute<{ xmin: string }>(sql`select (${horizon})::text as xmin`)).rows;
      await tx.insert(alertCursors).values({ name: IDEA_CURSOR, position: Number(start!.xmin), updatedAt: now }).onConflictDoNothing();
      const [cursor] = await tx.select().from(alertCursors).where(eq(alertCursors.name, IDEA_CURSOR)).for('update');
      const from = sql`(${String(cursor!.position)})::xid8`;
      // Replayed history is the record, never news. A new trade alerts only when it was opened live
      // (origin); a later event of any trade (a trade opened during the install replay keeps origin
      // 'replayed' for life) alerts when a pass recorded it lately — a replay records its sessions'
      // nominal pass times, long past. Only those rows are read: a replay's thousands are skipped.
      const recentFrom = new Date(marketClock.nowMs() - IDEA_ALERT_FRESH_MS);
      const alerting = sql`((${ideaEvents.type} = 'opened' and ${ideaEvents.origin} = 'live') or (${ideaEvents.type} <> 'opened' and ${ideaEvents.recordedAt} >= ${recentFrom}))`;
      const transactions = (
        await tx.execute<{ tx: string; n: number }>(
          sql`select tx_id::text as tx, count(*)::int as n from ${ideaEvents} where tx_id >= ${from} and tx_id < ${horizon} and ${alerting} group by tx_id order by tx_id limit 1000`,
        )
      ).rows;
      if (transactions.length === 0) {
        // Nothing finished since the cursor: move it up to the horizon (every transaction below is done).
        const [now_] = (await tx.execute<{ xmin: string }>(sql`select (${horizon})::text as xmin`)).rows;
        if (Number(now_!.xmin) > cursor!.position) await tx.update(alertCursors).set({ position: Number(now_!.xmin), updatedAt: now }).where(eq(alertCursors.name, IDEA_CURSOR));
        return { read: 0, more: false, queued: false, inserted: [] as NewAlert[] };
      }
      let taken = 0;
      let last = transactions[0]!.tx;
      for (const row of transactions) {
        if (taken > 0 && taken + row.n > IDEA_EVENT_BATCH) break;
        taken += row.n;
        last = row.tx;
      }
      const events = await tx
        .select({
          sequence: ideaEvents.sequence,
          ideaId: ideaEvents.ideaId,
          engine: ideaEvents.engine,
          symbol: ideaEvents.symbol,
          type: ideaEvents.type,
          level: ideaEvents.level,
          barDate: ideaEvents.barDate,
          price: ideaEvents.price,
          data: ideaEvents.data,
          origin: ideaEvents.origin,
          recordedAt: ideaEvents.recordedAt,
        })
        .from(ideaEvents)
        .where(sql`${ideaEvents.txId} >= ${from} and ${ideaEvents.txId} <= (${last})::xid8 and ${alerting}`)
        .orderBy(asc(ideaEvents.txId), asc(ideaEvents.sequence));
      let queuedAny = false;
      const inserted: NewAlert[] = [];
      for (const alert of await alertsOfEvents(events, now)) {
        if ((await insertAlert(tx, alert)) === null) continue;
        inserted.push(alert);
        if (alert.channels.length > 0) queuedAny = true;
      }
      await tx.update(alertCursors).set({ position: Number(last) + 1, updatedAt: now }).where(eq(alertCursors.name, IDEA_CURSOR));
      return { read: events.length, more: last !== transactions[transactions.length - 1]!.tx || transactions.length === 1000, queued: queuedAny, inserted };
    });
    for (const alert of inserted) deps.alertCommitted?.(alert);
    if (queued) deps.delivery?.kick();
    return { read, more };
  };

  // ---- news batches ------------------------------------------------------------------------------

  const consumeNewsOnce = async (): Promise<number> => {
    const articles = (await market.getMarketNews()).value;
    const now = new Date(clock.nowMs());
    const newest = articles.reduce((max, article) => Math.max(max, article.datetime), 0);
    const { fresh, queued, inserted } = await db.transaction(async (tx) => {
      // A new installation starts after the news already there (old news alerts nobody).
      await tx.insert(alertCursors).values({ name: NEWS_CURSOR, position: newest, updatedAt: now }).onConflictDoNothing();
      const [cursor] = await tx.select().from(alertCursors).where(eq(alertCursors.name, NEWS_CURSOR)).for('update');
      const arrived = articles.filter((article) => article.datetime > cursor!.position).sort((a, b) => b.datetime - a.datetime);
      if (arrived.length === 0) return { fresh: 0, queued: false, inserted: [] as NewAlert[] };
      const batchKey = `news:${newest}`;
      const expiresAt = new Date(now.getTime() + NEWS_ALERT_FRESH_MS);
      const alerts: NewAlert[] = [];
      const batchAlert = (rule: RuleRow, matched: typeof arrived, note: string | null): NewAlert => {
        const message = newsBatchMessage({ count: matched.length, headlines: matched.slice(0, 3).map((article) => article.headline), gist: newsGist(matched) });
        return {
          userId: rule.userId,
          alertType: rule.alertType,
          symbol: '*',
          triggerKey: batchKey,
          rule: ruleSnapshot(rule),
          data: { count: matched.length, headlines: matched.slice(0, 3).map((article) => ({ headline: article.headline, source: article.source, url: article.url, datetime: new Date(article.datetime * 1000).toISOString() })), source: `${source} news`, asOf: new Date(newest * 1000).toISOString(), ...(note ? { note } : {}) },
          smsText: message.smsText,
          emailSubject: message.emailSubject,
          emailText: note ? `${message.emailText}\n\n${note}` : message.emailText,
          channels: channelsOf(rule),
          firedAt: now,
          expiresAt,
        };
      };
      for (const rule of await rulesOfType('GENERAL_NEWS')) {
        const matched = arrived.filter((article) => newsCategoriesOf(article).some((category) => rule.symbols.includes(category)));
        if (matched.length > 0) alerts.push(batchAlert(rule, matched, null));
      }
      for (const type of ['NEWS+TRUMP+MAG7+ALPHA', 'NEWS+TRUMP+MAG7+GNEWS'] as const) {
        const provider = type === 'NEWS+TRUMP+MAG7+ALPHA' ? 'Alpha Vantage' : 'GNews';
        const note = `${provider} is not configured on this installation: these headlines come from ${source} news.`;
        for (const rule of await rulesOfType(type)) {
          const matched = arrived.filter((article) => newsKeywordsOf(article, rule.symbols).length > 0);
          if (matched.length > 0) alerts.push(batchAlert(rule, matched, note));
        }
      }
      let queuedAny = false;
      const inserted: NewAlert[] = [];
      for (const alert of alerts) {
        if ((await insertAlert(tx, alert)) === null) continue;
        inserted.push(alert);
        if (alert.channels.length > 0) queuedAny = true;
      }
      await tx.update(alertCursors).set({ position: newest, updatedAt: now }).where(eq(alertCursors.name, NEWS_CURSOR));
      return { fresh: arrived.length, queued: queuedAny, inserted };
    });
    for (const alert of inserted) deps.alertCommitted?.(alert);
    if (queued) deps.delivery?.kick();
    return fresh;
  };

  const service: AlertEvaluation = {
    pollIntervalMs,
    lastEvaluatedAtMs: () => lastEvaluatedAt,
    async watchedSymbols() {
      const rules = await activePriceRules();
      return [...new Set(rules.flatMap((rule) => rule.symbols))].sort();
    },
    pollQuotes(share) {
      if (share) return pollQuotesOnce(share);
      polling ??= pollQuotesOnce().finally(() => {
        polling = undefined;
      });
      return polling;
    },
    async evaluateQuotes(quotes) {
      const rules = await activePriceRules(quotes.map((quote) => quote.symbol));
      return evaluate(rules, quotes, await extrasFor(rules), pollIntervalMs(quotes.length));
    },
    consumeIdeaEvents() {
      consuming ??= (async () => {
        let total = 0;
        for (;;) {
          const { read, more } = await consumeOnce();
          total += read;
          if (!more) return total;
        }
      })().finally(() => {
        consuming = undefined;
      });
      return consuming;
    },
    consumeNews() {
      newsing ??= consumeNewsOnce().finally(() => {
        newsing = undefined;
      });
      return newsing;
    },
    async ruleSaved(userId, type) {
      const [rule] = await db.select().from(alertRules).where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, type)));
      // Symbols no longer in the rule leave their state behind.
      if (!rule || !PRICE_TYPE_SET.has(type)) return [];
      const kept = rule.symbols.length > 0 ? [notInArray(alertSymbolState.symbol, rule.symbols)] : [];
      await db.delete(alertSymbolState).where(and(eq(alertSymbolState.userId, userId), eq(alertSymbolState.alertType, type), ...kept));
      const extras = await extrasFor([rule]);
      const notices: string[] = [];
      const now = new Date(clock.nowMs());
      for (const watch of watchesOf(rule, extras)) {
        let quote: AlertQuote | null = null;
        try {
          quote = await quoteOf(watch.symbol);
          const atr14 = extras.get(watch.symbol)?.atr14;
          if (atr14 !== undefined) quote = { ...quote, atr14 };
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

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/** What a saved alert says of an event: target, stop, time exit, deactivated (null: no alert). */
function savedEventKind(event: { type: string; data: unknown }): 'target' | 'stop' | 'time_exit' | 'deactivated' | null {
  switch (event.type) {
    case 'target_hit':
      return 'target';
    case 'stop_hit':
      return 'stop';
    case 'time_stop':
      return 'time_exit';
    case 'voided':
      return 'deactivated';
    case 'closed': {
      const reason = (event.data as { reason?: string } | null)?.reason;
      return reason === 'target' || reason === 'stop' || reason === 'time' ? null : 'deactivated';
    }
    default:
      return null;
  }
}

