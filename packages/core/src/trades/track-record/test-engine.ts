/**
 * A toy engine for the track record's tests and bench (not exported from the package; no production
 * code uses it): the signal bar is forced, the entry fills at the next open, and the idea exits at
 * the close of its `holdSessions`-th session (entry bar = session 1), less `costBps` per side.
 * With `dollars`, it reports layered-style dollars: 2,000 deployed at entry, the proceeds at exit.
 */
import { atr } from '../../indicators/atr';
import { dayNumber, isTradingDayNumber, isoFromDayNumber } from '../../market/trading-calendar';
import { type DailySeries, type EngineDefinition, type IdeaEvent, type IdeaOutcome, type StoredIdeaEvent } from '../types';

export interface ToyParams {
  holdSessions: number;
  costBps: number;
  dollars: boolean;
}

export interface ToyRow {
  Id: string;
  Symbol: string;
  signalDate: string;
  atrPct: number;
  entryDate: string | null;
  entryPrice: number | null;
  exitDate: string | null;
  exitPrice: number | null;
  worstLow: number | null;
  heldSessions: number;
}

export const TOY_DEPLOYED = 2000;

export function toyEngine(params: Partial<ToyParams> = {}, ruleVersion = 'swing@1.0.0'): EngineDefinition<ToyParams, ToyRow, ToyRow> {
  const full: ToyParams = { holdSessions: 5, costBps: 5, dollars: false, ...params };
  const fold = (events: readonly StoredIdeaEvent[]): ToyRow => {
    const opened = events.find((e) => e.type === 'opened')!;
    const filled = events.find((e) => e.type === 'entry_filled');
    const closed = events.find((e) => e.type === 'closed');
    return {
      Id: opened.ideaId,
      Symbol: opened.symbol,
      signalDate: opened.barDate,
      atrPct: opened.data.atrPct as number,
      entryDate: filled?.barDate ?? null,
      entryPrice: filled?.price ?? null,
      exitDate: closed?.barDate ?? null,
      exitPrice: closed?.price ?? null,
      worstLow: (closed?.data.worstLow as number | undefined) ?? null,
      heldSessions: (closed?.data.held as number | undefined) ?? 0,
    };
  };
  return {
    id: 'swing',
    ruleVersion,
    params: full,
    paramHash: '0123456789abcdef',
    warmupBars: 30,
    maxHoldSessions: full.holdSessions,
    runSession: () => [],
    openState: (events) => {
      const row = fold(events);
      return row.exitDate === null ? row : null;
    },
    fold: (events) => fold(events),
    cooldownKey: (event) => event.symbol,
    simulate: ({ params: p, series, signalIndex, ideaId }) => simulateToy(p, series, signalIndex, ideaId),
    outcome: (events, row) => {
      if (row.entryDate === null || row.entryPrice === null) return null;
      const first = events[0]!;
      const cost = (2 * full.costBps) / 10_000;
      const closed = row.exitPrice !== null;
      const returnPct = closed ? row.exitPrice! / row.entryPrice - 1 - cost : 0;
      const out: IdeaOutcome = {
        ideaId: row.Id,
        symbol: row.Symbol,
        origin: first.origin,
        ruleVersion: first.ruleVersion,
        types: ['Toy'],
        createdAt: row.signalDate,
        entryDate: row.entryDate,
        closed,
        exitDate: row.exitDate,
        exitAt: closed ? 'close' : null,
        returnPct,
        deployed: full.dollars ? TOY_DEPLOYED : null,
        pnl: full.dollars ? TOY_DEPLOYED * returnPct : null,
        cashFlows: full.dollars
          ? [
              { date: row.entryDate, amount: -TOY_DEPLOYED },
              ...(closed ? [{ date: row.exitDate!, amount: TOY_DEPLOYED * (1 + returnPct) }] : []),
            ]
          : null,
        holdingSessions: row.heldSessions,
        maxAdverseExcursion: row.worstLow === null ? 0 : Math.min(0, row.worstLow / row.entryPrice - 1),
        status: closed ? (returnPct > 0 ? 'Successful' : 'Failed') : 'Active',
        closeReason: closed ? 'time' : null,
        atrPct: row.atrPct,
      };
      return out;
    },
  };
}

function simulateToy(params: ToyParams, series: DailySeries, signalIndex: number, ideaId: string): IdeaEvent[] {
  const base = { ideaId, engine: 'swing' as const, market: series.market, symbol: series.symbol, level: '' };
  const date = (i: number) => isoFromDayNumber(series.day[i]!);
  // ATR14 of the bars through the signal bar only: the draw sees nothing after it.
  const from = Math.max(0, signalIndex - 60);
  const a = atr(series.high.subarray(from, signalIndex + 1), series.low.subarray(from, signalIndex + 1), series.close.subarray(from, signalIndex + 1), 14);
  const events: IdeaEvent[] = [
    { ...base, type: 'opened', barDate: date(signalIndex), price: series.close[signalIndex]!, data: { atrPct: a[a.length - 1]! / series.close[signalIndex]! } },
  ];
  const entry = signalIndex + 1;
  if (entry >= series.day.length) return events;
  events.push({ ...base, type: 'entry_filled', barDate: date(entry), price: series.open[entry]!, data: {} });
  const exit = signalIndex + params.holdSessions;
  if (exit >= series.day.length) return events;
  let worstLow = Number.POSITIVE_INFINITY;
  for (let i = entry; i <= exit; i += 1) worstLow = Math.min(worstLow, series.low[i]!);
  events.push({ ...base, type: 'closed', barDate: date(exit), price: series.close[exit]!, data: { worstLow, held: params.holdSessions } });
  return events;
}

/** A seeded random-walk series over the given sessions (day numbers, ascending). */
export function toySeries(symbol: string, seed: number, sessions: readonly number[], volatility = 0.02): DailySeries {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
  const n = sessions.length;
  const s: DailySeries = {
    symbol,
    market: 'US',
    day: Int32Array.from(sessions),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n).fill(1e6),
  };
  let price = 50 + next() * 100;
  for (let i = 0; i < n; i += 1) {
    const open = price * (1 + (next() - 0.5) * volatility);
    const close = open * (1 + (next() - 0.5) * 2 * volatility);
    s.open[i] = open;
    s.close[i] = close;
    s.high[i] = Math.max(open, close) * (1 + next() * volatility);
    s.low[i] = Math.min(open, close) * (1 - next() * volatility);
    price = close;
  }
  return s;
}

/** A closed outcome with defaults; override what the test is about. */
export function outcome(overrides: Partial<IdeaOutcome> = {}): IdeaOutcome {
  return {
    ideaId: 'toy.AAA.2024-01-02',
    symbol: 'AAA',
    origin: 'replayed',
    ruleVersion: 'swing@1.0.0',
    types: ['Trend'],
    createdAt: '2024-01-02',
    entryDate: '2024-01-03',
    closed: true,
    exitDate: '2024-01-10',
    exitAt: 'close',
    returnPct: 0.01,
    deployed: null,
    pnl: null,
    cashFlows: null,
    holdingSessions: 5,
    maxAdverseExcursion: -0.01,
    status: 'Successful',
    closeReason: 'target',
    atrPct: 0.02,
    ...overrides,
  };
}

/** The first `n` NYSE sessions from `from` (day numbers). */
export function nyseSessions(n: number, from = '2023-01-03'): number[] {
  const out: number[] = [];
  for (let day = dayNumber(from); out.length < n; day += 1) if (isTradingDayNumber(day)) out.push(day);
  return out;
}
