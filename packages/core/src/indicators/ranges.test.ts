import { describe, expect, it } from 'vitest';
import { highestHigh, lowestLow } from './ranges';

describe('highestHigh and lowestLow', () => {
  const high = [10, 30, 12, 11, 15];

  it('covers the last N bars, today included, and tells which bar', () => {
    expect(highestHigh(high, 1)).toEqual({ value: 15, index: 4 });
    expect(highestHigh(high, 3)).toEqual({ value: 15, index: 4 });
    expect(highestHigh(high, 4)).toEqual({ value: 30, index: 1 });
    expect(lowestLow([5, 3, 4, 2.5, 6], 2)).toEqual({ value: 2.5, index: 3 });
    expect(lowestLow([1, 3, 4, 2.5, 6], 4)).toEqual({ value: 2.5, index: 3 });
  });

  it('uses all available bars when there are fewer than the window', () => {
    expect(highestHigh(high, 100)).toEqual({ value: 30, index: 1 });
    expect(lowestLow(high, 100)).toEqual({ value: 10, index: 0 });
  });

  it('answers the latest bar on ties and skips missing bars', () => {
    expect(lowestLow([5, 3, 4, 3, 6], 5)).toEqual({ value: 3, index: 3 });
    expect(highestHigh([9, 9, 2], 3)).toEqual({ value: 9, index: 1 });
    expect(highestHigh([NaN, 7, NaN], 3)).toEqual({ value: 7, index: 1 });
  });

  it('answers null without bars and rejects windows below 1', () => {
    expect(highestHigh([], 5)).toBeNull();
    expect(lowestLow([NaN], 5)).toBeNull();
    expect(() => highestHigh(high, 0)).toThrow(/highestHigh: window must be an integer of at least 1/);
    expect(() => lowestLow(high, 2.5)).toThrow(RangeError);
  });
});
