/**
 * A finished replay (core's BacktestResult) as the contract's backtestResult: snake_case, with what
 * the replay cannot know said in words (docs/custom-scans.md "Backtest"). Each universe has its
 * sentence in SURVIVORSHIP: a missing one is a type error.
 */
import type { BacktestResult, BacktestResultBody, BacktestStats, HorizonStats, ScanUniverse } from '@signalboard/core';

const SURVIVORSHIP: Readonly<Record<ScanUniverse, string>> = {
  sp500: "The universe is today's S&P 500 members",
  us: "The universe is the US stocks the source lists today",
  tsx: "The universe is the TSX stocks the source lists today",
  crypto: 'The universe is the coins the source lists today',
  favorites: 'The universe is your favourites as they are today',
};

/** What the replay cannot know: today's members and listing data; those that left are not replayed. */
export function survivorshipNote(universe: ScanUniverse): string {
  return (
    `${SURVIVORSHIP[universe]}, with today's sector and exchange: symbols that left it in the last two years are not replayed, ` +
    'which flatters the results (survivorship: today\'s members).'
  );
}

const stats = (of: HorizonStats): BacktestStats => ({
  n: of.n,
  mean: of.mean,
  mean_low: of.meanLow,
  mean_high: of.meanHigh,
  median: of.median,
  positive: of.positive ? { rate: of.positive.rate, low: of.positive.low, high: of.positive.high } : null,
});

export function backtestResultBody(result: BacktestResult, universe: ScanUniverse): BacktestResultBody {
  return {
    from: result.from,
    to: result.to,
    sessions: result.sessions,
    symbols: result.symbols,
    entries: result.entries,
    benchmark: result.benchmark,
    survivorship: survivorshipNote(universe),
    horizons: result.horizons.map((horizon) => ({
      horizon: horizon.horizon,
      scan: stats(horizon.scan),
      random: stats(horizon.random),
      benchmark_mean: horizon.benchmarkMean,
      excess_mean: horizon.excessMean,
      immature: horizon.immature,
    })),
    equity: result.equity.map(({ date, value }) => ({ date, value })),
    worst: result.worst.map((entry) => ({ symbol: entry.symbol, date: entry.date, return_21: entry.return21 })),
  };
}
