import type { LayeredStatus, LayeredTrade, PlanLevel } from '../../../contract/trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { COST_RATE, roundTo } from '../../kit/prices';
import { closeTimeOfDay } from '../../kit/times';
import { foldLayered, LEVEL_COUNT, type LayeredState, type PlanLevelState } from './state';
import type { IdeaOutcome, Mark, StoredIdeaEvent } from '../../types';
import { rowStamps, sessionsBetween } from '../../kit/row-stamps';

/** The row fields the derived fields are computed from (spec §3 plus the added money fields). */
export type LayeredPlanFields = Pick<
  LayeredTrade,
  'IsActive' | 'CurrentPrice' | 'ThirtyDayHigh' | 'OriginalEntryPrice' | 'CreatedAt' | 'SharesHeld' | 'CapitalDeployed' | 'Proceeds' | 'EntryPending'
> &
  Record<string, unknown>;

export interface LayeredDerived {
  entryPlan: PlanLevel[];
  exitPlan: PlanLevel[];
  entriesHit: string;
  exitsHit: string;
  latestExitLevel: number;
  CurrentProfit: number;
  PotentialProfit: number;
  IsTarget: boolean;
  IsNewTrade: boolean;
  Status: LayeredStatus;
}

const DAY_MS = 86_400_000;

function planOf(row: LayeredPlanFields, prefix: 'ENL' | 'EXL'): PlanLevel[] {
  const levels: Omit<PlanLevel, 'allocation'>[] = [];
  for (let n = 1; n <= LEVEL_COUNT; n += 1) {
    const price = row[`${prefix}${n}`];
    if (typeof price !== 'number') continue;
    const count = Number(row[`${prefix}${n}_Count`] ?? 0);
    levels.push({ name: `${prefix}${n}`, price, hit: count >= 1, count, lastReached: (row[`${prefix}${n}_LastReached`] as string | null) ?? null });
  }
  levels.sort((a, b) => a.price - b.price);
  const allocation = levels.length > 0 ? roundTo(100 / levels.length, 1) : 100;
  return levels.map((level) => ({ ...level, allocation }));
}

/**
 * The layered plan's derived fields (docs/rules/long-term.md §1.5), the one function the API and the web app
 * both use: the plans, the n/total counts, the latest exit level, the dollar-weighted CurrentProfit,
 * the potential profit, IsTarget, IsNewTrade (now − CreatedAt < 24 h) and the Status.
 */
export function layeredDerivedFields(row: LayeredPlanFields, now: string): LayeredDerived {
  const entries = planOf(row, 'ENL');
  const exits = planOf(row, 'EXL');
  const entryPlan = entries.length > 0 ? entries : [{ name: 'CURRENT', price: row.CurrentPrice, allocation: 100, hit: false, count: 0, lastReached: null }];
  const exitPlan = exits.length > 0 ? exits : [{ name: 'HIGH', price: row.ThirtyDayHigh, allocation: 100, hit: false, count: 0, lastReached: null }];
  const hitExits = exits.filter((level) => level.hit);
  const latestExitLevel = hitExits.length > 0 ? hitExits[hitExits.length - 1]!.price : exits.length > 0 ? exits[0]!.price : row.ThirtyDayHigh;
  const deployed = row.CapitalDeployed;
  const CurrentProfit = row.EntryPending || deployed <= 0 ? 0 : roundTo(((row.Proceeds + row.SharesHeld * row.CurrentPrice - deployed) / deployed) * 100, 2);
  const PotentialProfit = row.OriginalEntryPrice > 0 ? roundTo((latestExitLevel / row.OriginalEntryPrice - 1) * 100, 2) : 0;
  const IsTarget = !row.IsActive && [...entries, ...exits].every((level) => level.hit);
  const Status: LayeredStatus = row.IsActive ? 'Active' : IsTarget ? 'Successful' : 'Failed';
  return {
    entryPlan,
    exitPlan,
    entriesHit: `${entries.filter((level) => level.hit).length}/${entries.length}`,
    exitsHit: `${hitExits.length}/${exits.length}`,
    latestExitLevel,
    CurrentProfit,
    PotentialProfit,
    IsTarget,
    IsNewTrade: Date.parse(now) - Date.parse(row.CreatedAt) < DAY_MS,
    Status,
  };
}

function levelFields(prefix: 'ENL' | 'EXL', levels: readonly PlanLevelState[], pendingEntry: number | null): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  levels.forEach((level, k) => {
    const name = `${prefix}${k + 1}`;
    // ENL1 is the open of t+1: while the entry is pending it shows the signal price.
    fields[name] = k === 0 && pendingEntry !== null ? pendingEntry : level.price;
    fields[`Is${name}`] = level.count >= 1;
    fields[`${name}_Count`] = level.count;
    fields[`${name}_LastReached`] = level.lastDay === null ? null : closeTimeOfDay(level.lastDay);
  });
  return fields;
}

function latestInstant(a: string, b: string | undefined): string {
  return b !== undefined && Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * The API row of a layered idea: the fold of its events (oldest first), marked at `mark` when given
 * (CurrentPrice and UpdatedAt; the money fields follow). Without a mark, CurrentPrice is the exit
 * price once closed, else the latest price in the log.
 */
export function foldLayeredRow(events: readonly StoredIdeaEvent[], mark: Mark | null, now: string): LayeredTrade {
  const opened = events[0];
  const state = foldLayered(events);
  if (!opened || !state) throw new Error('layered fold: the first event must be `opened`');
  const last = events[events.length - 1]!;
  const closing = state.closed ? last : null;
  const lastPrice = [...events].reverse().find((event) => event.price !== null)?.price ?? state.signalPrice;
  const currentPrice = mark?.price ?? (state.closed && state.exitPrice !== null ? state.exitPrice : lastPrice);
  const base = {
    Symbol: opened.symbol,
    CreatedAt: state.createdAt,
    UpdatedAt: latestInstant(last.recordedAt, mark?.at),
    IsActive: !state.closed,
    OriginalEntryPrice: state.entries[0]!.price ?? state.signalPrice,
    CurrentPrice: currentPrice,
    ThirtyDayHigh: state.anchorHigh,
    ...levelFields('ENL', state.entries, state.entryPending ? state.signalPrice : null),
    ...levelFields('EXL', state.exits, null),
    Budget: state.budget,
    SharesHeld: state.shares,
    CapitalDeployed: state.deployed,
    Proceeds: state.proceeds,
    StepPct: state.step,
    StopPrice: state.stop,
    ...rowStamps(opened, closing ?? null, state, state.exitPrice),
  };
  return { ...base, ...layeredDerivedFields(base, now) } as LayeredTrade;
}

/**
 * The track record's view of a layered idea (docs/rules/track-record.md §6.1): the dollar-weighted plan return
 * net of 5 bps per side, its dated cash flows (buys negative; an open plan adds its mark at the
 * row's update date), null while pending or voided.
 */
export function layeredOutcome(events: readonly StoredIdeaEvent[], row: LayeredTrade): IdeaOutcome | null {
  const state: LayeredState | null = foldLayered(events);
  if (!state || state.entryDay === null) return null;
  const cashFlows: { date: string; amount: number }[] = [];
  let deployed = 0;
  let received = 0;
  for (const fill of state.fills) {
    const date = isoFromDayNumber(fill.day);
    if (fill.shares > 0) {
      const paid = fill.amount * (1 + COST_RATE);
      deployed += paid;
      cashFlows.push({ date, amount: -paid });
    } else {
      const got = fill.amount * (1 - COST_RATE);
      received += got;
      cashFlows.push({ date, amount: got });
    }
  }
  if (!state.closed && state.shares > 0) {
    const value = state.shares * row.CurrentPrice * (1 - COST_RATE);
    received += value;
    cashFlows.push({ date: row.UpdatedAt.slice(0, 10), amount: value });
  }
  const pnl = received - deployed;
  const returnPct = deployed > 0 ? pnl / deployed : 0;
  const opened = events[0]!;
  const lastDay = state.closedDay ?? dayNumber(row.UpdatedAt.slice(0, 10));
  return {
    ideaId: opened.ideaId,
    symbol: opened.symbol,
    origin: opened.origin,
    ruleVersion: opened.ruleVersion,
    types: ['All'],
    createdAt: state.signalDate,
    entryDate: isoFromDayNumber(state.entryDay),
    closed: state.closed,
    exitDate: state.closedDay === null ? null : isoFromDayNumber(state.closedDay),
    exitAt: state.exitAt,
    returnPct,
    deployed,
    pnl,
    cashFlows,
    holdingSessions: state.sessionsHeld ?? sessionsBetween(state.entryDay, lastDay),
    maxAdverseExcursion: Math.min(state.maxAdverseExcursion ?? 0, returnPct, 0),
    status: row.Status,
    closeReason: state.closeReason,
    atrPct: state.atrPct,
  };
}
