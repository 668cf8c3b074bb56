import { describe, expect, it } from 'vitest';
import { intradayWindowStart, MIN_INTRADAY_BARS } from './intraday-window';

const sessions = (...counts: number[]) => counts.flatMap((count, day) => Array.from({ length: count }, () => 100 + day));

describe('intradayWindowStart', () => {
  it('serves the last session alone once it has 15 bars', () => {
    expect(MIN_INTRADAY_BARS).toBe(15);
    expect(intradayWindowStart(sessions(78, 78, 15))).toBe(156);
    expect(intradayWindowStart(sessions(78, 20))).toBe(78);
  });
  it('puts the session before first while the last has fewer than 15', () => {
    expect(intradayWindowStart(sessions(78, 78, 14))).toBe(78);
    expect(intradayWindowStart(sessions(78, 78, 1))).toBe(78);
    expect(intradayWindowStart(sessions(3, 5))).toBe(0);
  });
  it('a single short session, or none', () => {
    expect(intradayWindowStart(sessions(5))).toBe(0);
    expect(intradayWindowStart([])).toBe(0);
  });
});
