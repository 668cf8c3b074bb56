import { describe, expect, it } from 'vitest';
import { CRYPTO_VIEW } from './crypto-view';

describe('crypto engine view', () => {
  // Its label-change markers are the shared chart model's: components/trade-ideas/chart-model.test.ts.
  it('draws a coin’s swing level and highs in their spec §9 formats', () => {
    const lines = CRYPTO_VIEW.chartLines({ SwingLevel: 0.123456, SwingKind: 'high', OneMonthHigh: 0.2, SixMonthHigh: null });
    expect(lines.map((line) => `${line.title} ${line.text} ${line.tone}`)).toEqual(['Swing high 0.1235 entry', '1M high 0.20000000 neutral']);
  });

  it('shows a coin in its spec §9 price format, on a scale with the decimals its prices need, and re-reads the crypto screen’s queries live', () => {
    expect(CRYPTO_VIEW.noun).toBe('coin');
    expect(CRYPTO_VIEW.formatPrice(0.08)).toBe('0.08000000');
    expect(CRYPTO_VIEW.chartPrecision([0.08, 0.09])).toBe(6);
    expect(CRYPTO_VIEW.chartLabel('DOGE')).toBe('DOGE daily (UTC) candles with the swing level, highs and signal changes');
    expect(CRYPTO_VIEW.liveQueryKeys).toEqual([['crypto'], ['trade-ideas', 'crypto']]);
  });
});
