/**
 * A small engine for the platform's tests, written against the fixed EngineDefinition interface
 * (packages/core/src/trades/types.ts). Rules: a close more than DROP below the previous close opens
 * an idea (one open idea per symbol, a cooldown of 3 sessions); it enters at the next open, takes
 * its target at +3 % or its stop at −3 % on a close, else closes after 5 sessions. Its rows carry
 * every field of the contract's row of its engine (layeredTrade or swingTrade).
 */
import { ideaIdOf, isoFromDayNumber, type DailySeries, type EngineDefinition, type IdeaEvent, type Mark, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { US_STOCKS } from '../src/providers/market/universe';

/** A small universe for the platform's tests: the replay and the lists stay quick. */
export const TEST_UNIVERSE = US_STOCKS.slice(0, 12).map((entry) => entry.symbol);
export const testUniverse = async (survivorshipBiased: boolean): Promise<UniverseMember[]> => TEST_UNIVERSE.map((symbol) => ({ symbol, market: 'US', survivorshipBiased }));

export interface FakeState {
  signalDate: string;
  signalPrice: number;
  entryPrice: number | null;
  entryDate: string | null;
}
type Row = Record<string, unknown>;

const DROP = 0.02;
const TARGET = 0.03;
const HOLD_SESSIONS = 5;
const COOLDOWN_SESSIONS = 3;

export interface FakeEngineOptions {
  id?: 'layered' | 'swing';
  ruleVersion?: string;
  warmupBars?: number;
  /** The fall from the previous close that opens an idea (default DROP, 2 %): smaller, an idea most sessions. */
  drop?: number;
  /** Throws when asked to run this session (YYYY-MM-DD): a failing pass. */
  failOn?: { date: string | undefined };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function stateOf(events: readonly StoredIdeaEvent[]): FakeState | null {
  const opened = events.find((event) => event.type === 'opened');
  if (!opened || events.some((event) => event.type === 'closed' || event.type === 'voided')) return null;
  const entry = events.find((event) => event.type === 'entry_filled');
  return { signalDate: opened.barDate, signalPrice: opened.price ?? 0, entryPrice: entry?.price ?? null, entryDate: entry?.barDate ?? null };
}

function levelFields(prefix: 'ENL' | 'EXL', prices: number[], hit: boolean[]): Row {
  const row: Row = {};
  for (let n = 1; n <= 5; n += 1) {
    row[`${prefix}${n}`] = prices[n - 1] ?? null;
    row[`Is${prefix}${n}`] = hit[n - 1] ?? false;
    row[`${prefix}${n}_Count`] = hit[n - 1] ? 1 : 0;
    row[`${prefix}${n}_LastReached`] = null;
  }
  return row;
}

export function createFakeEngine(options: FakeEngineOptions = {}): EngineDefinition<{ drop: number }, FakeState, Row> {
  const id = options.id ?? 'swing';
  const ruleVersion = options.ruleVersion ?? `${id}@1.0.0`;

  const fold = (events: readonly StoredIdeaEvent[], mark: Mark | null, now: string): Row => {
    const opened = events.find((event) => event.type === 'opened')!;
    const entry = events.find((event) => event.type === 'entry_filled');
    const closed = events.find((event) => event.type === 'closed');
    const last = events[events.length - 1]!;
    const signalPrice = opened.price ?? 0;
    const entryPrice = entry?.price ?? signalPrice;
    const current = closed?.price ?? mark?.price ?? last.price ?? signalPrice;
    const profit = entry ? round2((current / entryPrice - 1) * 100) : 0;
    const reason = (closed?.data.reason as 'target' | 'stop' | 'time' | undefined) ?? null;
    const status = !closed ? 'Active' : reason === 'target' ? 'Successful' : 'Failed';
    const createdAt = opened.recordedAt;
    const updatedAt = mark?.at && mark.at > last.recordedAt ? mark.at : last.recordedAt;
    const stamps = {
      Id: opened.ideaId,
      Market: opened.market,
      CloseReason: reason,
      ClosedAt: closed?.recordedAt ?? null,
      ExitPrice: closed?.price ?? null,
      SignalPrice: signalPrice,
      EntryPending: !entry,
      RuleVersion: opened.ruleVersion,
      ParamHash: opened.paramHash,
      Origin: opened.origin,
      SurvivorshipBiased: opened.data.survivorshipBiased === true,
    };
    if (id === 'layered') {
      const levels = [0.98, 0.96].map((f) => round2(signalPrice * f));
      const exits = [1.03].map((f) => round2(signalPrice * f));
      return {
        Symbol: opened.symbol,
        CreatedAt: createdAt,
        UpdatedAt: updatedAt,
        IsActive: !closed,
        OriginalEntryPrice: entryPrice,
        CurrentPrice: current,
        ThirtyDayHigh: round2(signalPrice * 1.05),
        ...levelFields('ENL', levels, [false, false]),
        ...levelFields('EXL', exits, [reason === 'target']),
        CurrentProfit: profit,
        IsTarget: reason === 'target',
        IsNewTrade: Date.parse(now) - Date.parse(createdAt) < 86_400_000,
        entriesHit: '0/2',
        exitsHit: reason === 'target' ? '1/1' : '0/1',
        entryPlan: levels.map((price, index) => ({ name: `ENL${index + 1}`, price, allocation: 50, hit: false, count: 0, lastReached: null })),
        exitPlan: exits.map((price) => ({ name: 'EXL1', price, allocation: 100, hit: reason === 'target', count: reason === 'target' ? 1 : 0, lastReached: null })),
        latestExitLevel: exits[0]!,
        Status: status,
        PotentialProfit: round2((exits[0]! / entryPrice - 1) * 100),
        Budget: 10_000,
        SharesHeld: closed ? 0 : 10,
        CapitalDeployed: entry ? entryPrice * 10 : 0,
        Proceeds: closed?.price ? closed.price * 10 : 0,
        StepPct: 2,
        StopPrice: round2(entryPrice * (1 - TARGET)),
        ...stamps,
      };
    }
    return {
      Symbol: opened.symbol,
      EntryPrice: entryPrice,
      CurrentPrice: current,
      PercentProfitTarget1: 3,
      PercentProfitTarget2: 6,
      IsProfit1: reason === 'target',
      IsProfit2: false,
      IsActive: !closed,
      IsDrop: true,
      NearSupport: opened.symbol.length <= 3,
      CurrentProfit: profit,
      DateCreated: createdAt,
      DateUpdated: updatedAt,
      TradeType: 'Price Drop',
      Status: status,
      Target1Price: round2(entryPrice * (1 + TARGET)),
      Target2Price: round2(entryPrice * (1 + 2 * TARGET)),
      StopPrice: round2(entryPrice * (1 - TARGET)),
      ATRAtSignal: 1,
      RSI2: null,
      DropATR: null,
      VolumeRatio: null,
      SupportLevel: null,
      EarningsSoon: false,
      ...stamps,
    };
  };

  return {
    id,
    ruleVersion,
    params: { drop: options.drop ?? DROP },
    paramHash: '0123456789abcdef',
    warmupBars: options.warmupBars ?? 260,
    maxHoldSessions: HOLD_SESSIONS,
    runSession(input) {
      if (options.failOn?.date === input.session.date) throw new Error(`fake engine: ${input.session.date} fails`);
      const events: IdeaEvent[] = [];
      const base = (series: DailySeries) => ({ engine: id, market: series.market, symbol: series.symbol, level: '', data: {} as Record<string, unknown> });
      const openSymbols = new Set<string>();
      for (const idea of input.openIdeas) {
        openSymbols.add(idea.symbol);
        const series = input.bars.get(idea.symbol);
        const i = (series?.day.length ?? 0) - 1;
        if (!series || i < 0 || isoFromDayNumber(series.day[i]!) !== input.session.date) continue;
        const state = idea.state as FakeState;
        const at = { ...base(series), ideaId: idea.ideaId, barDate: input.session.date };
        if (state.entryPrice === null) {
          events.push({ ...at, type: 'entry_filled', price: series.open[i]! });
          continue;
        }
        const close = series.close[i]!;
        let held = 0;
        for (let k = i; k >= 0 && isoFromDayNumber(series.day[k]!) >= state.entryDate!; k -= 1) held += 1;
        const reason = close >= state.entryPrice * (1 + TARGET) ? 'target' : close <= state.entryPrice * (1 - TARGET) ? 'stop' : held >= HOLD_SESSIONS ? 'time' : null;
        if (reason) events.push({ ...at, type: 'closed', price: close, data: { reason } });
      }
      for (const member of input.universe) {
        const series = input.bars.get(member.symbol);
        const i = (series?.day.length ?? 0) - 1;
        if (!series || i < 1 || openSymbols.has(member.symbol) || isoFromDayNumber(series.day[i]!) !== input.session.date) continue;
        const cooldownFrom = input.cooldowns.get(member.symbol);
        if (cooldownFrom !== undefined) {
          let since = 0;
          for (let k = i; k >= 0 && isoFromDayNumber(series.day[k]!) > cooldownFrom; k -= 1) since += 1;
          if (since < COOLDOWN_SESSIONS) continue;
        }
        if (series.close[i]! >= series.close[i - 1]! * (1 - (options.drop ?? DROP))) continue;
        events.push({
          ...base(series),
          ideaId: ideaIdOf(id, member.symbol, input.session.date),
          type: 'opened',
          barDate: input.session.date,
          price: series.close[i]!,
          data: { survivorshipBiased: member.survivorshipBiased },
        });
      }
      return events;
    },
    openState: stateOf,
    fold,
    cooldownKey: (event) => event.symbol,
    /** A forced signal at `signalIndex`, then the same entry and close rules as runSession. */
    simulate({ series, signalIndex, ideaId }) {
      const at = (index: number) => ({ ideaId, engine: id, market: series.market, symbol: series.symbol, level: '', barDate: isoFromDayNumber(series.day[index]!) });
      const events: IdeaEvent[] = [{ ...at(signalIndex), type: 'opened', price: series.close[signalIndex]!, data: {} }];
      const entryIndex = signalIndex + 1;
      if (entryIndex >= series.day.length) return events;
      const entry = series.open[entryIndex]!;
      events.push({ ...at(entryIndex), type: 'entry_filled', price: entry, data: {} });
      for (let index = entryIndex; index < series.day.length; index += 1) {
        const close = series.close[index]!;
        const held = index - entryIndex + 1;
        const reason = close >= entry * (1 + TARGET) ? 'target' : close <= entry * (1 - TARGET) ? 'stop' : held >= HOLD_SESSIONS ? 'time' : null;
        if (reason) {
          events.push({ ...at(index), type: 'closed', price: close, data: { reason } });
          break;
        }
      }
      return events;
    },
    outcome(events, row) {
      const opened = events.find((event) => event.type === 'opened');
      const entry = events.find((event) => event.type === 'entry_filled');
      if (!opened || !entry || entry.price === null) return null;
      const closed = events.find((event) => event.type === 'closed');
      const exit = closed?.price ?? (row.CurrentPrice as number | undefined) ?? entry.price;
      const returnPct = exit / entry.price - 1;
      const held = closed ? Math.max(1, Math.round((Date.parse(closed.barDate) - Date.parse(entry.barDate)) / 86_400_000 * (5 / 7)) + 1) : 1;
      return {
        ideaId: opened.ideaId,
        symbol: opened.symbol,
        origin: opened.origin,
        ruleVersion: opened.ruleVersion,
        types: id === 'swing' ? ['Price Drop', ...(row.NearSupport === true ? ['Level System'] : [])] : ['All'],
        createdAt: opened.recordedAt,
        entryDate: entry.barDate,
        closed: Boolean(closed),
        exitDate: closed?.barDate ?? null,
        exitAt: closed ? 'close' : null,
        returnPct,
        deployed: null,
        pnl: null,
        cashFlows: null,
        holdingSessions: held,
        maxAdverseExcursion: Math.min(0, returnPct),
        status: String(row.Status),
        closeReason: (closed?.data.reason as 'target' | 'stop' | 'time' | undefined) ?? null,
        atrPct: 0.02,
      };
    },
  };
}
