import { describe, expect, it } from 'vitest';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { chooseExpiry, liquidEnough, modelExpiries, occName, occNamePadded, parseOcc, rankStrikes, strikeStep } from './contracts';

const RULE = { targetDte: 35, dteRange: [28, 45] as const, dteFallback: [21, 60] as const };

describe('OCC names (§4.2)', () => {
  it('formats the compact form: root + YYMMDD + C/P + strike × 1000 in 8 digits', () => {
    expect(occName('AAPL', '2026-01-16', 'CALL', 250)).toBe('AAPL260116C00250000');
    expect(occName('SPY', '2024-03-15', 'PUT', 512.5)).toBe('SPY240315P00512500');
    expect(occName('F', '2024-03-15', 'CALL', 12.5)).toBe('F240315C00012500');
    expect(() => occName('X', '2024-3-15', 'CALL', 10)).toThrow(/YYYY-MM-DD/);
  });
  it('formats and parses the padded 21-character form too', () => {
    expect(occNamePadded('AAPL', '2026-01-16', 'CALL', 250)).toBe('AAPL  260116C00250000');
    expect(occNamePadded('AAPL', '2026-01-16', 'CALL', 250)).toHaveLength(21);
    expect(parseOcc('AAPL  260116C00250000')).toEqual({ root: 'AAPL', expiry: '2026-01-16', side: 'CALL', strike: 250 });
    expect(parseOcc('SPY240315P00512500')).toEqual({ root: 'SPY', expiry: '2024-03-15', side: 'PUT', strike: 512.5 });
    expect(parseOcc('AAPL 260116C00250000')).toBeNull();
    expect(parseOcc('AAPL260230C00250000')).toBeNull();
    expect(parseOcc('AAPL260116X00250000')).toBeNull();
  });
});

describe('model expiries and strike grid (§4.2)', () => {
  it('lists every Friday, the Thursday when the Friday is a holiday (Good Friday 2024-03-29)', () => {
    const days = modelExpiries(dayNumber('2024-03-18'), dayNumber('2024-04-12')).map(isoFromDayNumber);
    expect(days).toEqual(['2024-03-22', '2024-03-28', '2024-04-05', '2024-04-12']);
  });
  it('steps 0.5 below $25, 1 up to $200, 5 above; 1 for SPY, QQQ, IWM, DIA', () => {
    const etfs = ['SPY', 'QQQ', 'IWM', 'DIA'];
    expect(strikeStep('F', 24.99, etfs)).toBe(0.5);
    expect(strikeStep('F', 25, etfs)).toBe(1);
    expect(strikeStep('AAPL', 200, etfs)).toBe(1);
    expect(strikeStep('AAPL', 200.01, etfs)).toBe(5);
    expect(strikeStep('SPY', 500, etfs)).toBe(1);
    expect(strikeStep('IWM', 20, etfs)).toBe(1);
  });
});

describe('expiry choice (§4.2)', () => {
  const from = dayNumber('2024-01-02');
  it('takes DTE closest to 35 within [28, 45], the earlier on a tie', () => {
    expect(chooseExpiry([from + 28, from + 45, from + 33], from, RULE)).toBe(from + 33);
    expect(chooseExpiry([from + 38, from + 32], from, RULE)).toBe(from + 32);
    expect(chooseExpiry([from + 27, from + 46], from, RULE)).toBe(from + 27);
  });
  it('falls back to [21, 60], else none', () => {
    expect(chooseExpiry([from + 21, from + 61], from, RULE)).toBe(from + 21);
    expect(chooseExpiry([from + 20, from + 61], from, RULE)).toBeNull();
  });
});

describe('strike choice (§4.2)', () => {
  const rule = { targetDelta: 0.45, deltaRange: [0.35, 0.55] as const };
  it('keeps |Δ| within [0.35, 0.55], closest to 0.45 first, then nearer the close, then lower', () => {
    const ranked = rankStrikes(
      [
        { strike: 95, delta: 0.56 },
        { strike: 98, delta: 0.5 },
        { strike: 100, delta: 0.4 },
        { strike: 104, delta: 0.35 },
        { strike: 106, delta: 0.34 },
      ],
      99,
      rule,
    );
    expect(ranked.map((c) => c.strike)).toEqual([98, 100, 104]);
    // Equal |Δ − 0.45| (0.05): the strike nearer the close (98 vs 100 around 99.4) wins; then the lower.
    expect(rankStrikes([{ strike: 100, delta: 0.4 }, { strike: 98, delta: 0.5 }], 99.4, rule)[0]!.strike).toBe(100);
    expect(rankStrikes([{ strike: 100, delta: 0.4 }, { strike: 98, delta: 0.5 }], 99, rule)[0]!.strike).toBe(98);
  });
  it('liquidity: open interest ≥ 500 and ask − bid ≤ 10 % of mid, each only when the chain gives it', () => {
    expect(liquidEnough({ bid: 1.9, ask: 2.1, openInterest: 500 }, 500, 0.1)).toBe(true);
    expect(liquidEnough({ bid: 1.9, ask: 2.1, openInterest: 499 }, 500, 0.1)).toBe(false);
    expect(liquidEnough({ bid: 1.89, ask: 2.1 }, 500, 0.1)).toBe(false);
    expect(liquidEnough({ bid: 0, ask: 0 }, 500, 0.1)).toBe(false);
  });
});
