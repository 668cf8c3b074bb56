import { latestRsi } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/helpers';
import type { Cached } from '../../providers/market/cache';
import type { CachedMarket } from '../../providers/market/cached-market';
import { ProviderError, type Bars, type ProviderRsi } from '../../providers/market/types';
import { createMarketService } from './market.service';

const clock = new FakeClock(Date.parse('2026-11-20T16:00:00Z'));
const fresh = <T>(value: T): Cached<T> => ({ value, stale: false, fetchedAtMs: clock.nowMs() });

/** 40 daily closes that zig-zag upward, so RSI(14) is a definite number. */
const closes = Float64Array.from({ length: 40 }, (_, i) => 100 + i * 0.5 + (i % 3 === 0 ? -1.2 : 0.7));
const bars = (symbol: string): Bars => ({
  symbol,
  time: Float64Array.from(closes, (_, i) => 1_780_000_000 + i * 86_400),
  open: closes,
  high: closes,
  low: closes,
  close: closes,
  volume: closes.map(() => 1_000),
});
const noIntraday: Bars = { symbol: 'AAPL', time: new Float64Array(), open: new Float64Array(), high: new Float64Array(), low: new Float64Array(), close: new Float64Array(), volume: new Float64Array() };

function market(provider?: (symbol: string) => Promise<Cached<ProviderRsi>>): CachedMarket {
  const stub: Partial<CachedMarket> = {
    getRecentDailyBars: async (symbol) => fresh(bars(symbol)),
    getIntradayBars: async () => fresh(noIntraday),
    ...(provider && { getProviderDailyRsi: provider }),
  };
  return stub as CachedMarket;
}

const fromBars = Math.round(latestRsi(closes, 14)! * 100) / 100;

describe('api/rsi_td (MarketService.rsiTd)', () => {
  it("answers the provider's own RSI when the source has one", async () => {
    const service = createMarketService(market(async (symbol) => fresh({ symbol, provider: 'Twelve Data', time: 0, rsi: 58.2147 })), clock);
    expect(await service.rsiTd('AAPL')).toMatchObject({ symbol: 'AAPL', latest_rsi: 58.21, daily_rsi: null, stale: false });
  });

  it('answers exactly as api/rsi when the source has no RSI of its own', async () => {
    const service = createMarketService(market(), clock);
    const td = await service.rsiTd('AAPL');
    expect(td.latest_rsi).toBe(fromBars);
    expect(td).toEqual(await service.rsi('AAPL'));
  });

  it('falls back to the RSI of the bars when the provider fails', async () => {
    const service = createMarketService(
      market(async () => {
        throw new ProviderError('Twelve Data', 'You have run out of API credits for the current minute.', { status: 429, retryable: true });
      }),
      clock,
    );
    expect((await service.rsiTd('AAPL')).latest_rsi).toBe(fromBars);
  });

  it('does not hide a bug behind the fallback', async () => {
    const service = createMarketService(
      market(async () => {
        throw new TypeError('boom');
      }),
      clock,
    );
    await expect(service.rsiTd('AAPL')).rejects.toThrow('boom');
  });
});
