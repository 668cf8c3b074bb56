/** What GET/POST api/scans/{id}/backtest answer in the backtest panel's tests: saved scan 7 ("Oversold"). */
import type { BacktestResultBody, BacktestStats, ScanBacktestResponse } from '@signalboard/core';

const stats = (n: number, mean: number, low: number, high: number, median: number, positive: [number, number, number]): BacktestStats => ({
  n,
  mean,
  mean_low: low,
  mean_high: high,
  median,
  positive: { rate: positive[0], low: positive[1], high: positive[2] },
});

export const RESULT: BacktestResultBody = {
  from: '2024-11-21',
  to: '2026-11-20',
  sessions: 501,
  symbols: 503,
  entries: 143,
  benchmark: 'SPY',
  survivorship: "The universe is the US stocks the source lists today, with today's sector and exchange: symbols that left it in the last two years are not replayed, which flatters the results (survivorship: today's members).",
  horizons: [
    // Above: the scan's interval clears the random entries'.
    { horizon: 5, scan: stats(140, 0.021, 0.012, 0.03, 0.018, [0.62, 0.54, 0.7]), random: stats(2800, 0.002, -0.001, 0.005, 0.001, [0.51, 0.49, 0.53]), benchmark_mean: 0.003, excess_mean: 0.018, immature: 3 },
    // Overlapping.
    { horizon: 21, scan: stats(131, 0.011, -0.004, 0.026, 0.009, [0.55, 0.46, 0.63]), random: stats(2620, 0.008, 0.004, 0.012, 0.007, [0.53, 0.51, 0.55]), benchmark_mean: 0.009, excess_mean: -0.0015, immature: 12 },
    // Below.
    { horizon: 63, scan: stats(96, -0.041, -0.07, -0.012, -0.035, [0.38, 0.29, 0.48]), random: stats(1920, 0.024, 0.016, 0.032, 0.02, [0.58, 0.56, 0.6]), benchmark_mean: 0.027, excess_mean: -0.068, immature: 47 },
  ],
  equity: [
    { date: '2024-11-21', value: 1 },
    { date: '2024-11-22', value: 1.1 },
    { date: '2024-11-25', value: 0.99 },
    { date: '2024-11-26', value: 1.05 },
  ],
  worst: [
    { symbol: 'INTC', date: '2025-04-03', return_21: -0.2512 },
    { symbol: 'BA', date: '2025-03-10', return_21: -0.1804 },
  ],
};

export const DONE: ScanBacktestResponse = {
  scan_id: 7,
  version: 1,
  current: true,
  status: 'done',
  done: 501,
  total: 501,
  started_at: '2026-11-20T15:00:00.000Z',
  finished_at: '2026-11-20T15:00:04.000Z',
  error: null,
  result: RESULT,
  data_version: '',
  data_changed: false,
};

export const QUEUED: ScanBacktestResponse = { ...DONE, status: 'queued', done: 0, total: 0, finished_at: null, result: null, data_version: null };
export const RUNNING: ScanBacktestResponse = { ...QUEUED, status: 'running', done: 120, total: 501 };
export const CANCELLED_BACKTEST: ScanBacktestResponse = { ...RUNNING, status: 'cancelled', finished_at: '2026-11-20T15:00:02.000Z' };
export const FAILED: ScanBacktestResponse = { ...QUEUED, status: 'failed', finished_at: '2026-11-20T15:00:01.000Z', error: 'Market data is unavailable right now (the file source has no bars).' };
