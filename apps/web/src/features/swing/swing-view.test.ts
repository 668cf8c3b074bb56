import { describe, expect, it } from 'vitest';
import { SWING_VIEW } from './swing-view';

describe('short-term (swing) engine view', () => {
  it('draws a short-term trade’s entry, both targets, stop and support', () => {
    const lines = SWING_VIEW.chartLines({ EntryPrice: 50, Target1Price: 52.5, Target2Price: 55, StopPrice: 46, SupportLevel: null });
    expect(lines.map((line) => line.title)).toEqual(['Entry', 'Target 5%', 'Target 10%', 'Stop']);
  });

  it('shows a stock idea as every stock screen does: an idea, prices to the cent, a two-decimal scale, its trade-idea queries live', () => {
    expect(SWING_VIEW.noun).toBe('idea');
    expect(SWING_VIEW.formatPrice(1234.5)).toBe('1,234.50');
    expect(SWING_VIEW.chartPrecision([0.08, 0.09])).toBe(2);
    expect(SWING_VIEW.chartLabel('AAPL')).toBe("AAPL daily candles with the idea's levels and events");
    expect(SWING_VIEW.levelNotes({ Strike: 150 })).toEqual([]);
    expect(SWING_VIEW.liveQueryKeys).toEqual([['trade-ideas', 'swing']]);
  });
});
