import type { OptionSide, OptionTrade } from '../../../contract/option-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { openOnly } from '../../kit/lifecycle';
import { paramHash } from '../../kit/param-hash';
import { rankAndCap } from '../../kit/selection';
import { viewThrough } from '../../kit/series';
import { ideaIdOf, type DailySeries, type EngineDefinition, type IdeaEvent, type SessionInput } from '../../types';
import { contextAt, firingSide, openedData, openedEvent, optionAlertsAt, sessionAlerts, type BarContext } from './alerts';
import type { OptionsExtras } from './extras';
import { OPTIONS_PARAMS, OPTIONS_RULE_VERSION, type OptionsParams } from './params';
import { bidOf, modelValue } from './pricing';
import { foldOptionRow, optionOutcome } from './row';
import { applyOptionEvent, foldOptions, type OptionOpenedData, type OptionRepeatData, type OptionState } from './state';
import { quoteOf, sessionEvents, sigmaToday } from './update';

/**
 * Engine `options@1.1.0` (docs/rules/option-trades.md §4, spec §3–§5): option trades of screen options2 on the
 * OPTION_ALERT underlyings. An alert on bar t (CALL breakout / bounce, PUT breakdown / rejection)
 * picks a ~35-DTE, |Δ| ≈ 0.45 contract after the close, enters at the t + 1 open, and exits at
 * +30 % (target), −50 % (stop, checked first) or by time (session 10, or DTE ≤ 7).
 *
 * Prices: the bars the engine is given are the only bars we have. Signals use them as the adjusted
 * bars and pricing uses them as the raw underlying (docs/rules/conventions.md §0.2 asks for raw prices for
 * strikes and pricing; with no split in the window the two are the same, and a split closes the
 * trade through `corporateActions`).
 *
 * The parts: params.ts (the parameters and the rule version), alerts.ts (the §4.1 alerts, strength
 * inputs and the `opened` data), contract-choice.ts (§4.2 contract selection and the fallback σ),
 * update.ts (one session of an open trade), state.ts (the events), row.ts (the API row), pricing.ts,
 * contracts.ts and strength.ts.
 */

interface Candidate {
  symbol: string;
  score: number[];
  data: OptionOpenedData;
  ctx: BarContext;
}

/**
 * The underlyings whose option chain the session reads (`extras.optionChains`), each with the one
 * expiry it needs or null for every expiry: an open chain-priced trade with a bar on the session
 * past its entry bar (its contract's quote marks it; the entry bar is valued at the entry's σ), and
 * each new alert (its contract is chosen from the chain). The runner asks the source for these
 * chains only (a chain request per open contract and per new signal).
 */
export function optionChainNeeds(input: SessionInput<OptionsParams, OptionState, OptionsExtras>): Map<string, string | null> {
  const day = dayNumber(input.session.date);
  const needs = new Map<string, string | null>();
  for (const idea of input.openIdeas) {
    const series = input.bars.get(idea.symbol);
    if (idea.state.priceSource !== 'chain' || idea.state.entryPending || !series || series.day[series.day.length - 1] !== day) continue;
    needs.set(idea.symbol, needs.has(idea.symbol) && needs.get(idea.symbol) !== idea.state.expiry ? null : idea.state.expiry);
  }
  for (const alert of sessionAlerts(input)) needs.set(alert.member.symbol, null);
  return needs;
}

function runOptionsSession(input: SessionInput<OptionsParams, OptionState, OptionsExtras>): IdeaEvent[] {
  const { params, session, bars, openIdeas, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  for (const idea of openIdeas) {
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const state: OptionState = { ...idea.state, lastMark: { ...idea.state.lastMark } };
    const entryBar = state.entryPending;
    events.push(...sessionEvents(params, state, idea.ideaId, series, extras));
    const t = series.close.length - 1;
    if (state.closed || t + 1 < params.warmupBars) continue;
    // A repeat of the trade's side while it is open.
    const fired = firingSide(optionAlertsAt(params, contextAt(params, series, t)));
    if (fired === null || fired.side !== state.side) continue;
    const quote = quoteOf(state, extras, entryBar);
    const sigma = sigmaToday(state, quote, extras, entryBar);
    const close = series.close[t]!;
    const markValue = quote && quote.bid > 0 ? quote.bid : bidOf(modelValue(state, close, day, sigma), state.halfSpread);
    const data: OptionRepeatData = { alertKind: fired.kind, markValue, stockClose: close, sigma };
    const event: IdeaEvent = { ideaId: idea.ideaId, engine: 'options', market: series.market, symbol: series.symbol, type: 'alert_repeat', level: '', barDate: session.date, price: null, data };
    events.push(event);
  }
  const candidates: Candidate[] = [];
  for (const alert of sessionAlerts(input)) {
    const data = openedData(params, alert.ctx, alert.side, alert.kind, extras, session, alert.member.survivorshipBiased);
    if (data === null) continue;
    candidates.push({ symbol: alert.member.symbol, score: [data.strengthScore], data, ctx: alert.ctx });
  }
  for (const pick of rankAndCap(candidates, params.capacityPerDay).kept) {
    events.push(openedEvent(pick.ctx.series, pick.ctx.t, ideaIdOf('options', pick.symbol, session.date), pick.data));
  }
  return events;
}

/**
 * docs/rules/track-record.md §6.4 b: a trade of side `variant` ('CALL' by default) forced open at `signalIndex`
 * (the alert conditions skipped; the kind is the side's alert when it fired, else breakout /
 * breakdown), its contract chosen by the model, run through the same update code. [] when no
 * contract qualifies.
 */
function simulateOptions(input: { params: OptionsParams; series: DailySeries; signalIndex: number; ideaId: string; variant?: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const side: OptionSide = input.variant === 'PUT' ? 'PUT' : 'CALL';
  const view = viewThrough(series, signalIndex);
  const ctx = contextAt(params, view, signalIndex);
  const kind = optionAlertsAt(params, ctx)[side] ?? (side === 'CALL' ? 'breakout' : 'breakdown');
  const date = isoFromDayNumber(view.day[signalIndex]!);
  const data = openedData(params, ctx, side, kind, {}, { date, now: '' }, false);
  if (data === null) return [];
  const opened = openedEvent(view, signalIndex, ideaId, data);
  const events: IdeaEvent[] = [opened];
  const state = applyOptionEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, state, ideaId, viewThrough(series, end), {}));
  }
  return events;
}

export function createOptionsEngine(params: OptionsParams = OPTIONS_PARAMS): EngineDefinition<OptionsParams, OptionState, OptionTrade, OptionsExtras> {
  return {
    id: 'options',
    calendar: 'us',
    ruleVersion: OPTIONS_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: params.timeStopSessions,
    runSession: runOptionsSession,
    openState: (events) => openOnly(foldOptions(events)),
    fold: (events, mark, now) => foldOptionRow(events, mark, now, params),
    cooldownKey: (event) => event.symbol,
    simulate: simulateOptions,
    outcome: optionOutcome,
  };
}

export const optionsEngine = createOptionsEngine();
