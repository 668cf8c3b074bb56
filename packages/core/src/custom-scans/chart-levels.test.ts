import { describe, expect, it } from 'vitest';
import { volumeProfileLevels } from '../indicators/volume-profile';
import { randomBars } from '../indicators/test-series';
import { fieldsOf } from './ast';
import { scanChartLevels } from './chart-levels';
import { compileScan } from './evaluate';
import { parseFormula } from './formula';

// docs/custom-scans.md, "Running a scan": the levels of a result row's Details chart, from the row's
// own values, checked here against the bars they come from.

const bars = randomBars(26, 300);
const last = bars.close.length - 1;
const close = bars.close[last]!;
const mean = (values: Float64Array) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The levels of `formula` for these bars, through the evaluator as a run computes the row. */
function levelsOf(formula: string) {
  const expr = parseFormula(formula);
  const { values } = compileScan(expr).evaluateSymbol(bars, {});
  return scanChartLevels({ expr, columns: fieldsOf(expr), values, close, bars });
}
const priceOf = (levels: ReturnType<typeof levelsOf>, title: string) => levels.find((level) => level.title === title)?.price;

describe('scanChartLevels', () => {
  it('draws the averages and the highs and lows a scan reads at their values as of the run date', () => {
    const levels = levelsOf('close > sma(50) and pct_below_high(21) >= 0 and pct_above_low(252) >= 0 and ema(20) > 0');
    expect(priceOf(levels, 'SMA(50)')).toBeCloseTo(mean(bars.close.subarray(-50)), 8);
    expect(priceOf(levels, '21-session high')).toBeCloseTo(Math.max(...bars.high.subarray(-21)), 8);
    expect(priceOf(levels, '52-week low')).toBeCloseTo(Math.min(...bars.low.subarray(-252)), 8);
    expect(priceOf(levels, 'EMA(20)')).toBeGreaterThan(0);
    // `close` is the last candle itself, not a line; `ema(20) > 0` compares a price with 0, which is no level.
    expect(levels.map((level) => level.title)).toEqual(['SMA(50)', '21-session high', '52-week low', 'EMA(20)']);
  });

  it('gives the average back from a % distance, once when the scan reads both', () => {
    const levels = levelsOf('pct_from_sma(50) > -100 and sma(50) > 0');
    expect(levels.filter((level) => level.title === 'SMA(50)')).toHaveLength(1);
    expect(priceOf(levels, 'SMA(50)')).toBeCloseTo(mean(bars.close.subarray(-50)), 8);
  });

  it('draws the numbers a price is compared with, titled with the condition', () => {
    const levels = levelsOf('close > 1 and sma(200) between 1 and 100000 and rsi(14) < 101 and close crosses above 2 within 250');
    expect(levels.filter((level) => level.kind === 'threshold')).toEqual([
      { title: 'close > 1', price: 1, kind: 'threshold' },
      { title: 'sma(200) between 1 and 100000 (low)', price: 1, kind: 'threshold' },
      { title: 'sma(200) between 1 and 100000 (high)', price: 100000, kind: 'threshold' },
      { title: 'close crosses above 2 within 250', price: 2, kind: 'threshold' },
    ]);
  });

  it("draws the nearest volume-profile level of the chart's last 120 bars", () => {
    const levels = levelsOf('vp_distance_pct >= 0');
    const window = (values: Float64Array) => values.subarray(-120);
    const profile = volumeProfileLevels(window(bars.high), window(bars.low), window(bars.close), window(bars.volume));
    const nearest = profile.reduce((best, level) => (Math.abs(level - close) < Math.abs(best - close) ? level : best));
    expect(priceOf(levels, 'Volume-profile level')).toBe(nearest);
  });

  it('leaves out what is not a level: ATR, a missing value, a row without a price', () => {
    const expr = parseFormula('atr(14) > 0 and sma(50) > 0');
    const columns = fieldsOf(expr);
    expect(scanChartLevels({ expr, columns, values: [1.5, null], close })).toEqual([]);
    expect(scanChartLevels({ expr, columns, values: [1.5, 20], close: null })).toEqual([]);
    expect(scanChartLevels({ expr: parseFormula('vp_distance_pct < 5'), columns: [{ field: 'vp_distance_pct', params: [] }], values: [2], close })).toEqual([]);
  });
});
