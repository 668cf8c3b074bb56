import { describe, expect, it } from 'vitest';
import { checkDrop, sortFlags } from './drop-scanner';
import { scanOptionSignals, type OptionScanInput } from './option-signals';

const metrics = { '1MonthHigh': 200, '1MonthLow': 150, '6MonthHigh': 250, '6MonthLow': 120 };

describe('drop scanner rule (spec §5)', () => {
  it('measures a drop from the 30-day high with the 1-month value', () => {
    // (200 − 180) / 200 × 100 = 10 %: at the threshold, so flagged.
    expect(checkDrop('AAPL', 180, metrics, '30DayHigh', 10)).toEqual({
      symbol: 'AAPL', currentPrice: 180, selectedHigh: 200, selectedLow: null, percentageChange: 10, calculationType: 'drop',
    });
    expect(checkDrop('AAPL', 180.01, metrics, '30DayHigh', 10)).toBeNull();
  });

  it('uses the 6-month values for the 60-day choices', () => {
    expect(checkDrop('AAPL', 200, metrics, '60DayHigh', 10)?.percentageChange).toBe(20);
    expect(checkDrop('AAPL', 180, metrics, '60DayLow', 10)?.percentageChange).toBe(50);
    expect(checkDrop('AAPL', 180, metrics, '60DayLow', 10)?.selectedLow).toBe(120);
  });

  it('measures an increase from the 30-day low', () => {
    // (165 − 150) / 150 × 100 = 10 %.
    expect(checkDrop('AAPL', 165, metrics, '30DayLow', 10)).toMatchObject({ percentageChange: 10, calculationType: 'increase', selectedHigh: null });
  });

  it('skips the check when metrics are missing or the choice is unknown', () => {
    expect(checkDrop('AAPL', 100, { ...metrics, '1MonthHigh': null }, '30DayHigh', 0)).toBeNull();
    expect(checkDrop('AAPL', 100, metrics, '90DayHigh', 0)).toBeNull();
  });

  it('sorts by percentage change, largest first', () => {
    expect(sortFlags([{ percentageChange: 3 }, { percentageChange: 12 }, { percentageChange: 7 }]).map((f) => f.percentageChange)).toEqual([12, 7, 3]);
  });
});

describe('option scanner rule (spec §5)', () => {
  const base: OptionScanInput = {
    symbol: 'NVDA', currentPrice: 90, '1MonthHigh': 100, '1MonthLow': 85, '6MonthHigh': 110, '6MonthLow': 70,
    rsi14: 25, rsiDaily: 35, levels: [88], sectorAverageBullishPercent: 0.6,
  };

  it('flags a CALL on both drop windows that meet their thresholds', () => {
    const flags = scanOptionSignals(base);
    // 1-month: (100 − 90) / 100 = 10 % ≥ 10 %; 6-month: (110 − 90) / 110 = 18.2 % ≥ 15 %.
    expect(flags.map((f) => [f.tag, f.action, f.timeFrame])).toEqual([
      ['1MonthHigh', 'CALL', 'short term'],
      ['6MonthHigh', 'CALL', 'long term'],
    ]);
    expect(flags[0]).toMatchObject({ calculationType: 'drop', percentageChange: 10, high: 100, low: 85, supportTag: 'Near Support' });
  });

  it('needs every CALL condition', () => {
    expect(scanOptionSignals({ ...base, rsi14: 30 })).toEqual([]);
    expect(scanOptionSignals({ ...base, rsiDaily: 40 })).toEqual([]);
    expect(scanOptionSignals({ ...base, levels: [80] })).toEqual([]); // 11 % away
    expect(scanOptionSignals({ ...base, sectorAverageBullishPercent: 0.5 })).toEqual([]); // 50 is not above 50
    expect(scanOptionSignals({ ...base, '1MonthHigh': 99.9 }).map((f) => f.tag)).toEqual(['6MonthHigh']);
  });

  it('flags a PUT on increases with overbought RSIs and a bearish sector', () => {
    const flags = scanOptionSignals({
      ...base, currentPrice: 100, '1MonthLow': 90, '6MonthLow': 85, '1MonthHigh': 101, '6MonthHigh': 101,
      rsi14: 75, rsiDaily: 65, levels: [103], sectorAverageBullishPercent: 0.4,
    });
    // 1-month: (100 − 90) / 90 = 11.1 %; 6-month: (100 − 85) / 85 = 17.6 %.
    expect(flags.map((f) => [f.tag, f.action])).toEqual([
      ['1MonthLow', 'PUT'],
      ['6MonthLow', 'PUT'],
    ]);
    expect(flags[0]!.supportTag).toBe('Near Resistance');
    expect(flags[0]!.percentageChange).toBeCloseTo(11.111, 3);
  });

  it('skips a window whose high or low is missing, and everything without RSI or sentiment', () => {
    expect(scanOptionSignals({ ...base, '6MonthHigh': null }).map((f) => f.tag)).toEqual(['1MonthHigh']);
    expect(scanOptionSignals({ ...base, rsi14: null })).toEqual([]);
    expect(scanOptionSignals({ ...base, sectorAverageBullishPercent: null })).toEqual([]);
  });
});
