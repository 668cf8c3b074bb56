import { describe, expect, it } from 'vitest';
import { atr } from '../../indicators/atr';
import { sma } from '../../indicators/moving-averages';
import { rsi } from '../../indicators/rsi';
import { dayNumber } from '../../market/trading-calendar';
import { roundCentDown, roundCentUp, roundTo } from './prices';
import { cooldownAllows, rankAndCap } from './selection';
import {
  averageBefore,
  averageDollarVolumeBefore,
  highestOver,
  highestPrior,
  highestSwingLowAtMost,
  indexOnOrBefore,
  indicatorsOf,
  lowestOver,
  viewThrough,
} from './series';
import { flatBars, randomUniverse, seriesOf, truncatedCopy, type Bar } from './test-bars';
import { closeTimeOf, cryptoPassTimeOf, passTimeOf, passTimeOn } from './times';

describe('cent rounding', () => {
  it('rounds entries and stops down, exits and targets up, and leaves exact cents alone', () => {
    expect(roundCentDown(86.9325)).toBe(86.93);
    expect(roundCentUp(86.9325)).toBe(86.94);
    expect(roundCentDown(10.15)).toBe(10.15);
    expect(roundCentUp(10.15)).toBe(10.15);
    expect(roundCentUp(100.5 * 0.94)).toBe(94.47);
    expect(roundCentDown(100.5 * 0.94)).toBe(94.47);
    expect(roundTo(33.333, 1)).toBe(33.3);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
  });
});

describe('pass times (America/New_York, daylight time included)', () => {
  it('answers 16:30 and 16:00 New York as UTC', () => {
    expect(passTimeOf('2024-01-02')).toBe('2024-01-02T21:30:00.000Z');
    expect(passTimeOf('2024-07-01')).toBe('2024-07-01T20:30:00.000Z');
    expect(closeTimeOf('2024-03-08')).toBe('2024-03-08T21:00:00.000Z');
    expect(closeTimeOf('2024-03-11')).toBe('2024-03-11T20:00:00.000Z');
    expect(closeTimeOf('2024-11-04')).toBe('2024-11-04T21:00:00.000Z');
  });

  it('crypto: the pass deciding UTC day D runs at D + 1, 00:05 UTC (month and year ends too)', () => {
    expect(cryptoPassTimeOf('2024-01-02')).toBe('2024-01-03T00:05:00.000Z');
    expect(cryptoPassTimeOf('2024-02-29')).toBe('2024-03-01T00:05:00.000Z');
    expect(cryptoPassTimeOf('2024-12-31')).toBe('2025-01-01T00:05:00.000Z');
    expect(passTimeOn('utc', '2024-07-01')).toBe('2024-07-02T00:05:00.000Z');
    expect(passTimeOn('us', '2024-07-01')).toBe(passTimeOf('2024-07-01'));
  });
});

describe('windows (docs/rules/conventions.md §0.2)', () => {
  const values = Float64Array.from([5, 1, 7, 3, 9, 2]);
  it('N-session high/low include bar t; prior N excludes it; average volume is the N before t', () => {
    expect(highestOver(values, 3, 3)).toBe(7);
    expect(highestOver(values, 4, 2)).toBe(9);
    expect(lowestOver(values, 3, 3)).toBe(1);
    expect(highestPrior(values, 4, 3)).toBe(7);
    expect(highestOver(values, 1, 3)).toBeNaN();
    expect(averageBefore(values, 3, 3)).toBeCloseTo((5 + 1 + 7) / 3, 12);
    expect(averageBefore(values, 2, 3)).toBeNaN();
  });

  it('dollar volume averages close × volume of the N sessions before t', () => {
    const series = seriesOf('A', [
      { o: 1, h: 1, l: 1, c: 10, v: 1 },
      { o: 1, h: 1, l: 1, c: 20, v: 2 },
      { o: 1, h: 1, l: 1, c: 30, v: 1000 },
    ]);
    expect(averageDollarVolumeBefore(series, 2, 2)).toBe((10 + 40) / 2);
  });

  it('finds bars by day', () => {
    const series = seriesOf('A', flatBars(5), '2024-01-02');
    expect(indexOnOrBefore(series.day, dayNumber('2024-01-06'))).toBe(3);
    expect(indexOnOrBefore(series.day, dayNumber('2024-01-01'))).toBe(-1);
  });
});

describe('swing points (5-bar fractals)', () => {
  // Lows: bar 4 is strictly below bars 2, 3, 5 and 6.
  const lows = [10, 10, 9, 8, 7, 8, 9, 9, 9];
  const bars: Bar[] = lows.map((l) => ({ o: l + 1, h: l + 2, l, c: l + 1 }));
  const series = seriesOf('A', bars);
  it('is usable only from bar i + 2 (a fractal at i changes nothing before)', () => {
    const ind = indicatorsOf(series);
    expect(highestSwingLowAtMost(viewThrough(series, 5), ind, 5, 120, 100)).toBeNull();
    expect(highestSwingLowAtMost(viewThrough(series, 6), ind, 6, 120, 100)).toBe(7);
    // Below the ceiling only, within the window only.
    expect(highestSwingLowAtMost(series, ind, 8, 120, 6.99)).toBeNull();
    expect(highestSwingLowAtMost(series, ind, 8, 4, 100)).toBeNull();
  });

  it('needs strictly lower lows: a tie is no fractal', () => {
    const tie = seriesOf('B', [10, 9, 7, 7, 9, 10, 10].map((l) => ({ o: l, h: l + 1, l, c: l })));
    expect([...indicatorsOf(tie).swingLow]).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('indicator cache', () => {
  it('answers over a view exactly what a computation over a truncated copy answers (no look-ahead)', () => {
    const full = randomUniverse(3, 1, 400).get('S000')!;
    for (const cut of [30, 199, 200, 250, 399]) {
      const view = viewThrough(full, cut);
      const copy = truncatedCopy(full, cut + 1);
      const cached = indicatorsOf(view);
      const t = cut;
      expect(cached.sma200[t]).toBe(sma(copy.close, 200)[t]);
      expect(cached.sma20[t]).toBe(sma(copy.close, 20)[t]);
      expect(cached.atr14[t]).toBe(atr(copy.high, copy.low, copy.close, 14)[t]);
      expect(cached.rsi2[t]).toBe(rsi(copy.close, 2)[t]);
      expect(cached.atr14[t]).toBe(indicatorsOf(copy).atr14[t]);
    }
  });
});

describe('ranking and cooldown (docs/rules/conventions.md §0.3)', () => {
  it('ranks by score descending, then ticker by code point, and caps', () => {
    const { kept, dropped } = rankAndCap(
      [
        { symbol: 'b', score: [1] },
        { symbol: 'B', score: [1] },
        { symbol: 'A', score: [0.5] },
        { symbol: 'C', score: [1, 2] },
      ],
      3,
    );
    expect(kept.map((c) => c.symbol)).toEqual(['C', 'B', 'b']);
    expect(dropped).toBe(1);
  });

  it('allows a new signal from the close bar index + cooldown on', () => {
    const series = seriesOf('A', flatBars(200), '2024-01-02');
    const closedOn = new Map([['A', '2024-01-10']]);
    const closeIndex = indexOnOrBefore(series.day, dayNumber('2024-01-10'));
    expect(cooldownAllows(series, closeIndex + 9, closedOn, 'A', 10)).toBe(false);
    expect(cooldownAllows(series, closeIndex + 10, closedOn, 'A', 10)).toBe(true);
    expect(cooldownAllows(series, 0, new Map(), 'A', 10)).toBe(true);
  });
});
