/**
 * The price-alert evaluator (docs/rules/alerts.md §1 "Semantics shared by every type", "The eleven types"):
 * PERCENT_DROP, CURRENT_PRICE, BITCOIN and LEVEL_SYSTEM, one (rule, symbol) watch at a time. Pure.
 *
 * The rules, and what this file decided where docs/rules/alerts.md is silent:
 * - Edge, not level: a watch fires when armed and its condition is true, and is then disarmed with
 *   `triggerPrice` = the level crossed (the Percent Drop threshold price previousClose × (1 − t/100),
 *   the target, or the touched support/resistance). It re-arms only once the price is back from that
 *   level by max(0.5% of it, 0.25 × ATR14) (0.5% when ATR14 is unknown), so a price oscillating
 *   around a level fires once. Re-arming never fires in the same evaluation.
 * - Percent Drop re-arms against the threshold price of the quote's own previous close, so on a new
 *   session the reference moves with the new previous close. A watch still armed fires on a gap
 *   through the threshold; a disarmed one (it fired yesterday, or was created already true) waits
 *   until the price is back above the new threshold by the margin, then fires on the next drop.
 * - Level System: touch = |price − level| ≤ 0.5 × ATR14 for any level (the nearest wins). Without
 *   ATR14 there is no touch distance: the watch never fires (and never counts as already true). It
 *   re-arms once the price is 0.5 × ATR14 + the margin away from the level it touched.
 * - Frequency: Percent Drop and Level System fire at most once per symbol per session
 *   (`lastFiredSession`); targets at most once per 15 minutes (`ALERT_TARGET_COOLDOWN_MS`, on the
 *   context's clock). A crossing inside that window is consumed: the watch disarms without firing,
 *   so it is not sent late when the window ends while the price still sits past the level.
 * - Created already true: a new watch (no state, or a state of another rule stamp) takes its state
 *   from the quote at hand without firing: disarmed when the condition is already true, armed
 *   otherwise. This happens even on a stale quote or a closed market (the last price is the best
 *   knowledge there is; a fire still needs a fresh quote in an open market). A Percent Drop quote of
 *   an earlier New York date than the session is not "already true": the previous close it compares
 *   with is no longer the session's.
 * - A quote without a usable price (not finite, ≤ 0) or as-of time evaluates nothing
 *   (`skipped: 'invalid_quote'`).
 * - `lastPrice` is the price of the last evaluation that changed the state (arm, disarm, fire,
 *   start), not of every quote: an evaluation that changes nothing writes nothing.
 */
import { ALERT_TYPE_NAMES } from '../contract/alert-rules';
import { newYorkTime } from '../market/trading-calendar';
import { asOfLine, fitSms, formatAlertMagnitude, formatAlertPercent, formatAlertPrice, sourceSuffix } from './format';
import type { AlertQuote, EvaluationContext, EvaluationResult, FiredAlert, PriceWatch, WatchState } from './types';

/** Targets (CURRENT_PRICE, BITCOIN) fire at most once per 15 minutes per symbol. */
export const ALERT_TARGET_COOLDOWN_MS = 15 * 60_000;
/** The re-arm margin: max(this fraction of the trigger price, ALERT_REARM_ATR_FRACTION × ATR14). */
export const ALERT_REARM_FRACTION = 0.005;
export const ALERT_REARM_ATR_FRACTION = 0.25;
/** Level System: a level is touched within this many ATR14 of the price. */
export const ALERT_LEVEL_TOUCH_ATR = 0.5;
/** A quote older than this many refresh intervals is stale. */
export const ALERT_STALE_REFRESHES = 2;

/** The re-arm margin around `triggerPrice`: max(0.5% of it, 0.25 × ATR14); 0.5% when ATR14 is unknown. */
export function rearmMargin(triggerPrice: number, atr14: number | undefined): number {
  const byPrice = ALERT_REARM_FRACTION * Math.abs(triggerPrice);
  return atr14 !== undefined && atr14 > 0 ? Math.max(byPrice, ALERT_REARM_ATR_FRACTION * atr14) : byPrice;
}

/** The Percent Drop threshold price: previousClose × (1 − threshold/100); NaN without a usable previous close. */
export function percentDropThresholdPrice(previousClose: number, threshold: number): number {
  return previousClose > 0 && Number.isFinite(previousClose) ? previousClose * (1 - threshold / 100) : Number.NaN;
}

/** The default Percent Drop threshold when a watch carries none (docs/rules/alerts.md: default 5). */
const DEFAULT_THRESHOLD = 5;

const thresholdOf = (watch: PriceWatch) => watch.threshold ?? DEFAULT_THRESHOLD;

/** The index of the level touched by `price` (nearest within 0.5 × ATR14), or −1. */
function touchedLevel(watch: PriceWatch, price: number, atr14: number | undefined): number {
  const levels = watch.levels;
  if (levels === undefined || atr14 === undefined || !(atr14 > 0)) return -1;
  const reach = ALERT_LEVEL_TOUCH_ATR * atr14;
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = 0; i < levels.length; i += 1) {
    const distance = Math.abs(price - levels[i]!.price);
    if (distance <= reach && distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * The level this quote's condition is about, when the condition is true; NaN when it is false.
 * (PERCENT_DROP: the threshold price; targets: the target; LEVEL_SYSTEM: the touched level.)
 */
function crossedLevel(watch: PriceWatch, quote: AlertQuote): number {
  const price = quote.price;
  switch (watch.alertType) {
    case 'PERCENT_DROP': {
      const threshold = percentDropThresholdPrice(quote.previousClose, thresholdOf(watch));
      return price <= threshold ? threshold : Number.NaN;
    }
    case 'CURRENT_PRICE':
    case 'BITCOIN': {
      const target = watch.target;
      if (target === undefined) return Number.NaN;
      const hit = target.direction === 'above' ? price >= target.price : price <= target.price;
      return hit ? target.price : Number.NaN;
    }
    case 'LEVEL_SYSTEM': {
      const index = touchedLevel(watch, price, quote.atr14);
      return index < 0 ? Number.NaN : watch.levels![index]!.price;
    }
  }
}

/** Whether a disarmed watch may re-arm on this quote (its condition false by the margin). */
function backByMargin(watch: PriceWatch, state: WatchState, quote: AlertQuote): boolean {
  const price = quote.price;
  switch (watch.alertType) {
    case 'PERCENT_DROP': {
      const threshold = percentDropThresholdPrice(quote.previousClose, thresholdOf(watch));
      if (Number.isNaN(threshold)) return false;
      return price >= threshold + rearmMargin(threshold, quote.atr14);
    }
    case 'CURRENT_PRICE':
    case 'BITCOIN': {
      const target = watch.target;
      if (target === undefined) return false;
      const margin = rearmMargin(target.price, quote.atr14);
      return target.direction === 'above' ? price <= target.price - margin : price >= target.price + margin;
    }
    case 'LEVEL_SYSTEM': {
      const level = state.triggerPrice;
      if (level === null) return true;
      const atr = quote.atr14 !== undefined && quote.atr14 > 0 ? quote.atr14 : 0;
      return Math.abs(price - level) >= ALERT_LEVEL_TOUCH_ATR * atr + rearmMargin(level, quote.atr14);
    }
  }
}

/** Whether the frequency limit lets a crossing fire now. */
function frequencyAllows(watch: PriceWatch, state: WatchState, context: EvaluationContext): boolean {
  if (watch.alertType === 'PERCENT_DROP' || watch.alertType === 'LEVEL_SYSTEM') return state.lastFiredSession !== context.session;
  return state.lastFiredAtMs === null || context.nowMs - state.lastFiredAtMs >= ALERT_TARGET_COOLDOWN_MS;
}

/** Whether the quote can be evaluated at all: a finite positive price and a finite as-of time. */
export function quoteIsUsable(quote: AlertQuote): boolean {
  return Number.isFinite(quote.price) && quote.price > 0 && Number.isFinite(quote.asOfMs);
}

const newYorkDate = (utcMs: number) => newYorkTime(utcMs).isoDate;

/** A new watch's state from the quote at hand (`session`: the New York date the watch starts in). */
function startState(watch: PriceWatch, quote: AlertQuote | null, session: string): { state: WatchState; alreadyTrue: string | null } {
  const fresh = (armed: boolean, triggerPrice: number | null): WatchState => ({
    ruleStamp: watch.ruleStamp,
    armed,
    triggerPrice,
    lastFiredAtMs: null,
    lastFiredSession: null,
    lastPrice: quote !== null && quoteIsUsable(quote) ? quote.price : null,
  });
  if (quote === null || !quoteIsUsable(quote)) return { state: fresh(true, null), alreadyTrue: null };
  if (watch.alertType === 'PERCENT_DROP' && newYorkDate(quote.asOfMs) !== session) return { state: fresh(true, null), alreadyTrue: null };
  const level = crossedLevel(watch, quote);
  if (Number.isNaN(level)) return { state: fresh(true, null), alreadyTrue: null };
  return { state: fresh(false, level), alreadyTrue: alreadyTrueNotice(watch, quote, level) };
}

/** The screen's notice for a rule saved while its condition is already true. */
function alreadyTrueNotice(watch: PriceWatch, quote: AlertQuote, level: number): string {
  switch (watch.alertType) {
    case 'PERCENT_DROP': {
      const below = (1 - quote.price / quote.previousClose) * 100;
      return `${watch.symbol} is already ${formatAlertMagnitude(below)} below the previous close: the alert fires on the next drop`;
    }
    case 'CURRENT_PRICE':
    case 'BITCOIN':
      return `${watch.symbol} is already ${watch.target!.direction} ${formatAlertPrice(level)} (now ${formatAlertPrice(quote.price)}): the alert fires on the next crossing`;
    case 'LEVEL_SYSTEM': {
      const found = watch.levels!.find((l) => l.price === level)!;
      return `${watch.symbol} is already at ${found.kind} ${formatAlertPrice(level)}: the alert fires on the next touch`;
    }
  }
}

/**
 * The state of a rule's watch when the rule is saved, and the screen's notice when its condition is
 * already true then ("AAPL is already 6.2% below the previous close: the alert fires on the next
 * drop"): such a watch starts disarmed and waits for a new crossing. No quote → armed, no notice.
 * `nowMs` fixes the session the rule starts in: a Percent Drop quote of an earlier New York date does
 * not make it already true (the session's previous close will be another).
 */
export function initialWatchState(watch: PriceWatch, quote: AlertQuote | null, nowMs: number): { state: WatchState; alreadyTrue: string | null } {
  return startState(watch, quote, newYorkDate(nowMs));
}

const SKIPPED_CLOSED = 'market_closed' as const;
const SKIPPED_STALE = 'stale' as const;
const SKIPPED_INVALID = 'invalid_quote' as const;

/**
 * One evaluation step; null when nothing changed, nothing fired and nothing was skipped (the common
 * case, answered without allocating). `evaluatePriceWatch` and `evaluateTick` share it.
 */
export function stepPriceWatch(watch: PriceWatch, state: WatchState | null, quote: AlertQuote, context: EvaluationContext): EvaluationResult | null {
  if (state === null || state.ruleStamp !== watch.ruleStamp) {
    const started = startState(watch, quote, context.session).state;
    return quoteIsUsable(quote) ? { state: started, changed: true, fired: null } : { state: started, changed: true, fired: null, skipped: SKIPPED_INVALID };
  }
  if (!context.marketOpen) return { state, changed: false, fired: null, skipped: SKIPPED_CLOSED };
  if (!quoteIsUsable(quote)) return { state, changed: false, fired: null, skipped: SKIPPED_INVALID };
  if (quoteIsStale(quote, context)) return { state, changed: false, fired: null, skipped: SKIPPED_STALE };
  return evaluateFresh(watch, state, quote, context);
}

/** Whether `quote` is older than twice its source's refresh interval. */
export function quoteIsStale(quote: AlertQuote, context: EvaluationContext): boolean {
  return quote.asOfMs < context.nowMs - ALERT_STALE_REFRESHES * context.refreshMs;
}

/**
 * The evaluation proper, for a state of the watch's stamp and a usable, fresh quote in an open
 * market (the caller checked all three): null when nothing changed.
 */
export function evaluateFresh(watch: PriceWatch, state: WatchState, quote: AlertQuote, context: EvaluationContext): EvaluationResult | null {
  const level = crossedLevel(watch, quote);
  if (state.armed) {
    if (Number.isNaN(level)) return null;
    const fires = frequencyAllows(watch, state, context);
    const next: WatchState = {
      ruleStamp: state.ruleStamp,
      armed: false,
      triggerPrice: level,
      lastFiredAtMs: fires ? context.nowMs : state.lastFiredAtMs,
      lastFiredSession: fires ? context.session : state.lastFiredSession,
      lastPrice: quote.price,
    };
    return { state: next, changed: true, fired: fires ? firedAlert(watch, quote, level, context) : null };
  }
  if (!Number.isNaN(level) || !backByMargin(watch, state, quote)) return null;
  return { state: { ...state, armed: true, lastPrice: quote.price }, changed: true, fired: null };
}

/**
 * Evaluates one price watch on one quote (see the file's comment for the rules). Answers the state to
 * store (the input object itself when nothing changed), whether it changed, and the alert when one
 * fires; `skipped` says why nothing was evaluated (closed market, stale or unusable quote).
 */
export function evaluatePriceWatch(watch: PriceWatch, state: WatchState | null, quote: AlertQuote, context: EvaluationContext): EvaluationResult {
  return stepPriceWatch(watch, state, quote, context) ?? { state: state!, changed: false, fired: null };
}

/** The trigger window of the event's unique key: the session (and level) or the fire's as-of minute. */
function triggerKeyOf(watch: PriceWatch, quote: AlertQuote, level: number, context: EvaluationContext): string {
  switch (watch.alertType) {
    case 'PERCENT_DROP':
      return context.session;
    case 'LEVEL_SYSTEM':
      return `${context.session}:${level}`;
    default:
      // A target fires at most once per 15 minutes, so the as-of minute is unique per fire, and two
      // processes evaluating the same quote agree on it.
      return `${new Date(quote.asOfMs).toISOString().slice(0, 16)}Z`;
  }
}

/** The content of a fired price alert: its data, SMS, e-mail subject and text. */
function firedAlert(watch: PriceWatch, quote: AlertQuote, level: number, context: EvaluationContext): FiredAlert {
  const { symbol } = watch;
  const typeName = ALERT_TYPE_NAMES[watch.alertType];
  const price = formatAlertPrice(quote.price);
  const hasClose = quote.previousClose > 0 && Number.isFinite(quote.previousClose);
  const changePercent = hasClose ? (quote.price / quote.previousClose - 1) * 100 : null;
  const asOf = new Date(quote.asOfMs).toISOString();
  const suffix = sourceSuffix(quote.source, quote.asOfMs);
  const data: Record<string, unknown> = {
    alertType: watch.alertType,
    symbol,
    price: quote.price,
    previousClose: hasClose ? quote.previousClose : null,
    changePercent: changePercent === null ? null : Math.round(changePercent * 100) / 100,
    source: quote.source,
    asOf,
    session: context.session,
  };
  if (quote.atr14 !== undefined) data.atr14 = quote.atr14;
  const common = [
    `Price: ${price}`,
    ...(hasClose ? [`Previous close: ${formatAlertPrice(quote.previousClose)} (${formatAlertPercent(changePercent!)})`] : []),
    `Source: ${quote.source}`,
    `As of: ${asOfLine(quote.asOfMs)}`,
  ];
  let main: string;
  let headline: string;
  let detail: string[];
  switch (watch.alertType) {
    case 'PERCENT_DROP': {
      const threshold = thresholdOf(watch);
      data.threshold = threshold;
      data.thresholdPrice = level;
      const change = formatAlertPercent(changePercent!);
      main = `${symbol} ${change} to ${price} (prev close ${formatAlertPrice(quote.previousClose)})`;
      headline = `${symbol} ${change}`;
      detail = [`${symbol} fell ${formatAlertMagnitude(changePercent!)} below the previous close, to ${price}.`, '', `Rule: ${typeName}, threshold ${threshold}% (at or below ${formatAlertPrice(level)})`];
      break;
    }
    case 'CURRENT_PRICE':
    case 'BITCOIN': {
      const direction = watch.target!.direction;
      data.target = level;
      data.direction = direction;
      main = `${symbol} crossed ${direction} ${formatAlertPrice(level)} (now ${price})`;
      headline = `${symbol} crossed ${direction} ${formatAlertPrice(level)}`;
      detail = [`${main}.`, '', `Rule: ${typeName}, target ${direction} ${formatAlertPrice(level)}`];
      break;
    }
    case 'LEVEL_SYSTEM': {
      const found = watch.levels!.find((l) => l.price === level)!;
      data.level = level;
      data.levelKind = found.kind;
      data.levelSource = found.source;
      main = `${symbol} at ${found.kind} ${formatAlertPrice(level)} (${found.source} level), now ${price}`;
      headline = `${symbol} at ${found.kind} ${formatAlertPrice(level)}`;
      detail = [
        `${main}.`,
        '',
        `Rule: ${typeName}, a touch within 0.5 × ATR14 (ATR14 ${formatAlertPrice(quote.atr14!)}, so within ${formatAlertPrice(ALERT_LEVEL_TOUCH_ATR * quote.atr14!)})`,
        `Level: ${found.kind} ${formatAlertPrice(level)} (${found.source} level)`,
      ];
      break;
    }
  }
  return {
    triggerKey: triggerKeyOf(watch, quote, level, context),
    data,
    smsText: fitSms(main, suffix),
    emailSubject: `Signalboard alert: ${headline} (${typeName})`,
    emailText: [...detail, ...common].join('\n'),
  };
}
