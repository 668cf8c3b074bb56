import { describe, expect, it } from 'vitest';
import { assertFraction, assertPeriod, assertSameLength } from './validate';

describe('argument checks', () => {
  it('accepts integer periods at or above the minimum', () => {
    expect(() => assertPeriod('sma', 1)).not.toThrow();
    expect(() => assertPeriod('rsi', 2, 2)).not.toThrow();
  });

  it('rejects other periods with a RangeError naming the function and argument', () => {
    expect(() => assertPeriod('sma', 0)).toThrow(new RangeError('sma: period must be an integer of at least 1, got 0'));
    expect(() => assertPeriod('rsi', 1, 2)).toThrow(RangeError);
    expect(() => assertPeriod('ema', 2.5)).toThrow(RangeError);
    expect(() => assertPeriod('ema', Number.NaN)).toThrow(RangeError);
    expect(() => assertPeriod('highestHigh', 0, 1, 'window')).toThrow(/highestHigh: window must be/);
  });

  it('checks fractions and series lengths', () => {
    expect(() => assertFraction('x', 0.05)).not.toThrow();
    expect(() => assertFraction('x', -0.1)).toThrow(RangeError);
    expect(() => assertFraction('x', Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => assertSameLength('atr', [1, 2], [1, 2], [3, 4])).not.toThrow();
    expect(() => assertSameLength('atr', [1, 2], [1], [1, 2])).toThrow(new RangeError('atr: inputs must have the same length, got 2, 1, 2'));
  });
});
