import type { DropItem } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { openOnly } from '../../kit/lifecycle';
import { paramHash } from '../../kit/param-hash';
import { viewThrough } from '../../kit/series';
import type { DailySeries, EngineDefinition, IdeaEvent, SessionInput } from '../../types';
import type { DropExtras } from './extras';
import type { DropOptionPricer } from './option';
import { dropOptionPricer } from './option-pricer';
import { DROP_PARAMS, DROP_RULE_VERSION, type DropParams } from './params';
import { dropOutcome, foldDropRow } from './row';
import { dropIdeaId, dropKey, dropOpenedData, dropSignals, dropTriggerAt, openedEvent, typeOfIdeaId, type DropCandidate } from './signals';
import { applyDropEvent, foldDrop, type DropOptionContract, type DropState, type DropType } from './state';
import { sessionEvents } from './update';

/**
 * Engine `drop@1.1.0` (docs/rules/drop-items.md §5): the drop items of screen drop. S (short-term) and L
 * (long-term, contrarian) on the day's "Best of S&P 500", O (a CALL) on the OPTION_ALERT
 * underlyings. Items are independent of the swing and option engines; O's contract comes from the
 * option engine's pricing, passed in as `optionPricer` (no pricer: no O items).
 *
 * The parts: params.ts (the parameters and the rule version), signals.ts (ids, "Best of S&P 500", the
 * triggers, the day's candidates and the `opened` data), update.ts (one session of an open item),
 * state.ts (the events), row.ts (the API row), option.ts / option-pricer.ts (O's contract).
 */

function runDropSession(pricer: DropOptionPricer | null, input: SessionInput<DropParams, DropState, DropExtras>): IdeaEvent[] {
  const { params, session, bars, openIdeas, extras } = input;
  const day = dayNumber(session.date);
  const events: IdeaEvent[] = [];
  for (const idea of openIdeas) {
    const series = bars.get(idea.symbol);
    if (!series || series.day[series.day.length - 1] !== day) continue;
    const state: DropState = { ...idea.state };
    const removed = state.stockType !== 'O' && (extras.removals?.has(idea.symbol) ?? false);
    events.push(...sessionEvents(params, pricer, state, idea.ideaId, series, removed, extras));
  }
  const picks = dropSignals(input, pricer !== null);
  const open = (pick: DropCandidate, option: DropOptionContract | null) => {
    const t = pick.series.close.length - 1;
    const data = dropOpenedData(params, pick.series, t, pick.trigger, { now: session.now, extras, member: pick.member, option });
    events.push(openedEvent(pick.series, t, dropIdeaId(pick.symbol, pick.trigger.type, session.date), data));
  };
  for (const pick of picks.S) open(pick, null);
  for (const pick of picks.L) open(pick, null);
  if (pricer) {
    let created = 0;
    for (const pick of picks.O) {
      if (created >= params.capacityPerType) break;
      const contract = pricer.chooseCall({ series: pick.series, sessionDate: session.date, extras });
      if (!contract) continue;
      open(pick, contract);
      created += 1;
    }
  }
  return events;
}

/** docs/rules/track-record.md §6.4 b: an item of type `variant` ('S' by default) forced open at `signalIndex`, run through the same update code. */
function simulateDrop(pricer: DropOptionPricer | null, input: { params: DropParams; series: DailySeries; signalIndex: number; ideaId: string; variant?: string }): IdeaEvent[] {
  const { params, series, signalIndex, ideaId } = input;
  const type: DropType = input.variant === 'L' || input.variant === 'O' ? input.variant : 'S';
  if (type === 'O' && !pricer) return [];
  const signalView = viewThrough(series, signalIndex);
  const trigger = dropTriggerAt(params, type, signalView, signalIndex, true);
  if (!trigger) return [];
  const date = isoFromDayNumber(series.day[signalIndex]!);
  const option = type === 'O' ? pricer!.chooseCall({ series: signalView, sessionDate: date, extras: {} }) : null;
  if (type === 'O' && !option) return [];
  const data = dropOpenedData(params, signalView, signalIndex, trigger, { now: '', extras: {}, member: null, option });
  const opened = openedEvent(signalView, signalIndex, ideaId, data);
  const events: IdeaEvent[] = [opened];
  const state = applyDropEvent(null, opened)!;
  for (let end = signalIndex + 1; end < series.close.length && !state.closed; end += 1) {
    events.push(...sessionEvents(params, pricer, state, ideaId, viewThrough(series, end), false, {}));
  }
  return events;
}

export interface DropEngineOptions {
  params?: DropParams;
  /** The option engine's contract choice and pricing (type O); null: no O items. */
  optionPricer?: DropOptionPricer | null;
}

export function createDropEngine(options: DropEngineOptions = {}): EngineDefinition<DropParams, DropState, DropItem, DropExtras> {
  const params = options.params ?? DROP_PARAMS;
  const pricer = options.optionPricer ?? null;
  return {
    id: 'drop',
    calendar: 'us',
    ruleVersion: DROP_RULE_VERSION,
    params,
    paramHash: paramHash(params),
    warmupBars: params.warmupBars,
    maxHoldSessions: Math.max(params.sTimeStopSessions, params.lTimeStopSessions, params.oTimeStopSessions),
    maxHoldSessionsOf: (type) => (type === 'S' ? params.sTimeStopSessions : type === 'L' ? params.lTimeStopSessions : type === 'O' ? params.oTimeStopSessions : Math.max(params.sTimeStopSessions, params.lTimeStopSessions, params.oTimeStopSessions)),
    runSession: (input) => runDropSession(pricer, input),
    openState: (events) => openOnly(foldDrop(events)),
    fold: (events, mark, now) => foldDropRow(events, mark, now, params),
    cooldownKey: (event) => dropKey(event.symbol, typeOfIdeaId(event.ideaId)),
    simulate: (input) => simulateDrop(pricer, input),
    outcome: dropOutcome,
  };
}

/** The registered engine: O items choose and price their CALL with the options engine's code (option-pricer.ts). */
export const dropEngine = createDropEngine({ optionPricer: dropOptionPricer });
