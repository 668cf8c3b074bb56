/**
 * The market benchmark (docs/rules/track-record.md §6.4 a): SPY (BTC for crypto) over each idea's own window, at
 * the same price points — bought at the open of the entry session, sold at the exit session's open
 * or close, whichever the idea exited at. No costs are charged to the benchmark.
 *
 * Layered plans use the same cash flows: SPY is bought with each tranche's dollars on its fill date
 * and sold in the same proportions on the exit dates. A buy on the entry session uses SPY's open
 * (the first tranche is market-on-open), later buys the fill session's close (a limit fill has no
 * matching SPY price, the close is the session's own); a sell on the exit session uses the exit's
 * price point, earlier sells the close. The flows carry dollars, not shares, so each sale sells
 * the share of the SPY position that its dollars are of the plan's proceeds.
 */
import { dayNumber } from '../../market/trading-calendar';
import { type DailySeries, type IdeaOutcome } from '../types';
import { mean } from './stats';

/** A benchmark series with a day → bar index lookup. */
export interface BenchmarkIndex {
  symbol: string;
  openOn(date: string): number | null;
  closeOn(date: string): number | null;
}

export function indexBenchmark(series: DailySeries): BenchmarkIndex {
  const byDay = new Map<number, number>();
  for (let i = 0; i < series.day.length; i += 1) byDay.set(series.day[i]!, i);
  const price = (column: Float64Array) => (date: string) => {
    const i = byDay.get(dayNumber(date));
    const value = i === undefined ? Number.NaN : column[i]!;
    return Number.isFinite(value) && value > 0 ? value : null;
  };
  return { symbol: series.symbol, openOn: price(series.open), closeOn: price(series.close) };
}

/** The benchmark's return over a closed idea's window (fraction); null when a price point is missing. */
export function benchmarkReturn(idea: IdeaOutcome, bench: BenchmarkIndex): number | null {
  if (!idea.closed || idea.exitDate === null) return null;
  const exitPrice = (date: string) => (date === idea.exitDate && idea.exitAt === 'open' ? bench.openOn(date) : bench.closeOn(date));
  if (idea.cashFlows && idea.cashFlows.length > 0) {
    let shares = 0;
    let deployed = 0;
    let proceeds = 0;
    const sells: { price: number; amount: number }[] = [];
    for (const flow of idea.cashFlows) {
      if (flow.amount < 0) {
        const price = flow.date === idea.entryDate ? bench.openOn(flow.date) : bench.closeOn(flow.date);
        if (price === null) return null;
        shares += -flow.amount / price;
        deployed += -flow.amount;
      } else if (flow.amount > 0) {
        const price = exitPrice(flow.date);
        if (price === null) return null;
        sells.push({ price, amount: flow.amount });
        proceeds += flow.amount;
      }
    }
    if (deployed === 0 || proceeds === 0) return null;
    let value = 0;
    for (const sell of sells) value += (sell.amount / proceeds) * shares * sell.price;
    return value / deployed - 1;
  }
  const entry = bench.openOn(idea.entryDate);
  const exit = exitPrice(idea.exitDate);
  return entry === null || exit === null ? null : exit / entry - 1;
}

/** Mean benchmark return and mean excess (idea − benchmark) over the closed ideas the benchmark covers. */
export function benchmarkSummary(ideas: readonly IdeaOutcome[], bench: BenchmarkIndex): { symbol: string; meanReturn: number | null; meanExcess: number | null } {
  const returns: number[] = [];
  const excess: number[] = [];
  for (const idea of ideas) {
    const r = benchmarkReturn(idea, bench);
    if (r === null) continue;
    returns.push(r);
    excess.push(idea.returnPct - r);
  }
  return { symbol: bench.symbol, meanReturn: mean(returns), meanExcess: mean(excess) };
}
