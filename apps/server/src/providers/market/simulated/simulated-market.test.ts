import { describe, expect, it } from 'vitest';
import { latestRsi, marketSession } from '@signalboard/core';
import { FakeClock } from '../../../../test/helpers';
import type { UniverseEntry } from '../universe/types';
import { UnknownSymbolError } from '../types';
import { blackScholes, normalCdf } from './options';
import { createSimulatedMarket } from './simulated-market';

const UNIVERSE: UniverseEntry[] = [
  { symbol: 'AAPL', name: 'Apple Inc.', exchange: 'NASDAQ', sector: 'Information Technology', industry: 'Consumer Electronics', basePrice: 230, avgVolume: 55_000_000, volatility: 0.27 },
  { symbol: 'MSFT', name: 'Microsoft Corporation', exchange: 'NASDAQ', sector: 'Information Technology', industry: 'Software', basePrice: 480, avgVolume: 20_000_000, volatility: 0.24 },
  { symbol: 'XOM', name: 'Exxon Mobil Corporation', exchange: 'NYSE', sector: 'Energy', industry: 'Oil & Gas', basePrice: 110, avgVolume: 15_000_000, volatility: 0.25 },
  { symbol: 'RY.TO', name: 'Royal Bank of Canada', exchange: 'TSX', sector: 'Financials', industry: 'Banks', basePrice: 170, avgVolume: 4_000_000, volatility: 0.18 },
  { symbol: 'SPY', name: 'SPDR S&P 500 ETF Trust', exchange: 'NYSE Arca', basePrice: 640, avgVolume: 70_000_000, volatility: 0.17 },
  { symbol: 'BTC', name: 'Bitcoin', exchange: 'Crypto', basePrice: 95_000, avgVolume: 30_000, volatility: 0.55 },
];

// Friday 2026-11-20, 11:00 New York (16:00 UTC): the session is open.
const OPEN_MS = Date.UTC(2026, 10, 20, 16, 0);

function market(ms = OPEN_MS) {
  const clock = new FakeClock(ms);
  return { clock, market: createSimulatedMarket({ clock, universe: UNIVERSE }) };
}

describe('simulated market', () => {
  it('is a pure function of symbol and time: two instances agree', async () => {
    const a = market().market;
    const b = market().market;
    expect(await a.getQuote('AAPL')).toEqual(await b.getQuote('AAPL'));
    const from = OPEN_MS / 1000 - 730 * 86_400;
    const barsA = await a.getDailyBars('MSFT', from, OPEN_MS / 1000);
    const barsB = await b.getDailyBars('MSFT', from, OPEN_MS / 1000);
    expect(Array.from(barsA.close)).toEqual(Array.from(barsB.close));
  });

  it('has two years of consistent daily bars ending today', async () => {
    const { market: m } = market();
    const bars = await m.getDailyBars('AAPL', OPEN_MS / 1000 - 731 * 86_400, OPEN_MS / 1000);
    expect(bars.close.length).toBeGreaterThan(495);
    expect(new Date(bars.time[bars.time.length - 1]! * 1000).toISOString().slice(0, 10)).toBe('2026-11-20');
    for (let i = 0; i < bars.close.length; i += 1) {
      expect(bars.high[i]!).toBeGreaterThanOrEqual(Math.max(bars.open[i]!, bars.close[i]!));
      expect(bars.low[i]!).toBeLessThanOrEqual(Math.min(bars.open[i]!, bars.close[i]!));
      expect(bars.volume[i]!).toBeGreaterThan(0);
    }
    // Weekends and holidays have no bars: Thanksgiving 2025 is missing.
    const days = Array.from(bars.time, (t) => new Date(t * 1000).toISOString().slice(0, 10));
    expect(days).not.toContain('2025-11-27');
    expect(days).not.toContain('2026-11-14');
  });

  it('moves the price during the session and freezes it after the close', async () => {
    const { clock, market: m } = market();
    const first = await m.getQuote('AAPL');
    clock.advance(37 * 60_000);
    const later = await m.getQuote('AAPL');
    expect(later.price).not.toBe(first.price);
    expect(later.previousClose).toBe(first.previousClose);
    expect(later.high).toBeGreaterThanOrEqual(first.high);

    const close = market(Date.UTC(2026, 10, 20, 21, 30)).market;
    const weekend = market(Date.UTC(2026, 10, 22, 12, 0)).market;
    const atClose = await close.getQuote('AAPL');
    expect(await weekend.getQuote('AAPL')).toMatchObject({ price: atClose.price, previousClose: atClose.previousClose });
    const bars = await close.getDailyBars('AAPL', OPEN_MS / 1000 - 86_400 * 3, OPEN_MS / 1000);
    expect(bars.close[bars.close.length - 1]).toBe(atClose.price);
  });

  it('gives intraday bars up to now, inside the day range', async () => {
    const { market: m } = market();
    const bars = await m.getIntradayBars('AAPL');
    expect(bars.close.length).toBe(18); // 90 minutes in, five-minute bars
    const quote = await m.getQuote('AAPL');
    for (let i = 0; i < bars.close.length; i += 1) {
      expect(bars.high[i]!).toBeLessThanOrEqual(quote.high + 1e-9);
      expect(bars.low[i]!).toBeGreaterThanOrEqual(quote.low - 1e-9);
    }
    expect(new Date(bars.time[0]! * 1000).toISOString()).toBe('2026-11-20T14:30:00.000Z');
    // Before the open: the last complete session (Thursday), all 78 bars.
    const before = await market(Date.UTC(2026, 10, 20, 13, 0)).market.getIntradayBars('AAPL');
    expect(before.close.length).toBe(78);
    expect(new Date(before.time[0]! * 1000).toISOString()).toBe('2026-11-19T14:30:00.000Z');
  });

  it('puts the previous session first while today has fewer than 15 intraday bars, so dailyrsi is defined from the open', async () => {
    // 09:45 New York (14:45 UTC): three five-minute bars today, after Thursday's 78.
    const early = await market(Date.UTC(2026, 10, 20, 14, 45)).market.getIntradayBars('AAPL');
    expect(early.close.length).toBe(78 + 3);
    expect(new Date(early.time[0]! * 1000).toISOString()).toBe('2026-11-19T14:30:00.000Z');
    expect(new Date(early.time[78]! * 1000).toISOString()).toBe('2026-11-20T14:30:00.000Z');
    for (let i = 1; i < early.time.length; i += 1) expect(early.time[i]!).toBeGreaterThan(early.time[i - 1]!);
    expect(latestRsi(early.close, 14)).not.toBeNull();
    // The session's own bars are the same whether or not the previous session comes first.
    const later = await market(Date.UTC(2026, 10, 20, 16, 0)).market.getIntradayBars('AAPL');
    expect(Array.from(early.close.subarray(78))).toEqual(Array.from(later.close.subarray(0, 3)));
    // At the open exactly: the previous session alone; from the 15th bar (10:45): today's alone.
    expect((await market(Date.UTC(2026, 10, 20, 14, 30)).market.getIntradayBars('AAPL')).close.length).toBe(78);
    expect((await market(Date.UTC(2026, 10, 20, 15, 40)).market.getIntradayBars('AAPL')).close.length).toBe(78 + 14);
    expect((await market(Date.UTC(2026, 10, 20, 15, 45)).market.getIntradayBars('AAPL')).close.length).toBe(15);
  });

  it('trades crypto every day', async () => {
    const { market: m } = market(Date.UTC(2026, 10, 22, 12, 0));
    const bars = await m.getDailyBars('BTC', Date.UTC(2026, 10, 14) / 1000, Date.UTC(2026, 10, 22) / 1000);
    expect(bars.close.length).toBe(9);
    expect(marketSession(Date.UTC(2026, 10, 22, 12, 0)).phase).toBe('closed');
    const intraday = await m.getIntradayBars('BTC');
    expect(intraday.close.length).toBe(144);
  });

  it('looks symbols up by market and searches all', async () => {
    const { market: m } = market();
    expect((await m.lookupSymbols('ap', 'US')).map((s) => s.symbol)).toEqual(['AAPL']);
    expect((await m.lookupSymbols('RY', 'TO')).map((s) => s.symbol)).toEqual(['RY.TO']);
    expect(await m.lookupSymbols('RY', 'US')).toEqual([]);
    const search = await m.searchSymbols('royal');
    expect(search[0]).toMatchObject({ symbol: 'RY.TO', country: 'Canada', currency: 'CAD' });
    await expect(m.getQuote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('reports earnings with estimates, and actuals only once reported', async () => {
    const { market: m } = market();
    const events = await m.getEarningsCalendar('2026-07-01', '2026-12-31');
    const apple = events.filter((event) => event.symbol === 'AAPL');
    expect(apple.length).toBe(2);
    for (const event of apple) {
      expect(['bmo', 'amc', '']).toContain(event.hour);
      expect(event.epsEstimate).toBeGreaterThan(0);
      const reported = Date.parse(`${event.date}T23:00:00Z`) < OPEN_MS;
      if (!reported) expect(event.epsActual).toBeNull();
    }
    expect(events.some((event) => event.symbol === 'SPY' || event.symbol === 'BTC')).toBe(false);
  });

  it('writes news that matches the prices, and sentiment from it', async () => {
    const { market: m } = market();
    const news = await m.getCompanyNews('AAPL', '2026-08-01', '2026-11-20');
    expect(news.length).toBeGreaterThan(10);
    expect(news.every((article) => article.datetime <= OPEN_MS / 1000)).toBe(true);
    expect([...news].sort((a, b) => b.datetime - a.datetime)).toEqual(news);
    expect(news.every((article) => article.url.startsWith('/simulated-news/'))).toBe(true);
    const market_ = await m.getMarketNews();
    expect(market_.some((article) => /trump/i.test(article.headline + article.summary))).toBe(true);
    expect(market_.some((article) => /fed|tariff/i.test(article.headline))).toBe(true);
    const sentiment = await m.getNewsSentiment('AAPL');
    expect(sentiment.bullishPercent + sentiment.bearishPercent).toBeCloseTo(1, 6);
    expect(sentiment.sectorAverageBullishPercent).toBeGreaterThanOrEqual(0);
    expect(sentiment.sectorAverageBullishPercent).toBeLessThanOrEqual(1);
  });

  it('prices option chains with Black-Scholes', async () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
    // Hull's example: S=42, K=40, r=10%, sigma=20%, T=0.5 → call 4.76, put 0.81.
    expect(blackScholes('call', 42, 40, 0.5, 0.2, 0.1)).toBeCloseTo(4.76, 2);
    expect(blackScholes('put', 42, 40, 0.5, 0.2, 0.1)).toBeCloseTo(0.81, 2);
    const { market: m } = market();
    const chain = await m.getOptionChain('AAPL');
    expect(chain.expirations.length).toBeGreaterThanOrEqual(8);
    expect(chain.expirations[0]! > '2026-11-20').toBe(true);
    const call = chain.contracts.find((c) => c.type === 'call' && c.expiration === chain.expirations[2]);
    expect(call?.contractSymbol).toMatch(/^AAPL\d{6}C\d{8}$/);
    expect(call!.ask).toBeGreaterThanOrEqual(call!.bid);
  });

  it('prices the chain of any past session as it was quoted then: from that close, no later data', async () => {
    // Wednesday 2026-06-10, 16:30 New York: after that session's close.
    const then = market(Date.UTC(2026, 5, 10, 20, 30)).market;
    const quotedThen = await then.getOptionChain('AAPL');
    const { market: m } = market();
    const asOf = await m.getOptionChainAsOf!('AAPL', '2026-06-10');
    expect(asOf).toEqual(quotedThen);
    const close = (await m.getDailyBars('AAPL', Date.UTC(2026, 5, 10) / 1000, Date.UTC(2026, 5, 10) / 1000)).close[0];
    expect(asOf!.underlyingPrice).toBe(close);
    expect(asOf!.expirations[0]! > '2026-06-10').toBe(true);
    // Of one expiry; the same instant later gives the same chain (a pure function of symbol and time).
    const june = await m.getOptionChainAsOf!('AAPL', '2026-06-10', asOf!.expirations[1]);
    expect(june!.contracts).toEqual(asOf!.contracts.filter((c) => c.expiration === asOf!.expirations[1]));
    expect(await market(Date.UTC(2027, 0, 4, 16, 0)).market.getOptionChainAsOf!('AAPL', '2026-06-10')).toEqual(asOf);
    // Today's session while it runs: the chain now; no chain for a weekend, a holiday or after now.
    expect(await m.getOptionChainAsOf!('AAPL', '2026-11-20')).toEqual(await m.getOptionChain('AAPL'));
    expect(await m.getOptionChainAsOf!('AAPL', '2026-06-13')).toBeNull();
    expect(await m.getOptionChainAsOf!('AAPL', '2026-07-03')).toBeNull();
    expect(await m.getOptionChainAsOf!('AAPL', '2026-11-23')).toBeNull();
    await expect(m.getOptionChainAsOf!('BTC', '2026-06-10')).rejects.toThrow(/option chains for BTC/);
  });

  it('publishes economic series newest first', async () => {
    const { market: m } = market();
    const cpi = await m.getEconomicSeries('CPIAUCSL');
    expect(cpi.observations.length).toBeGreaterThan(12);
    expect(cpi.observations[0]!.date > cpi.observations[1]!.date).toBe(true);
    expect(cpi.observations[0]!.date).toBe('2026-10-01'); // October's CPI, published mid-November
    const rate = await m.getEconomicSeries('FEDFUNDS');
    expect(rate.observations[0]!.value).toBeGreaterThan(2);
    await expect(m.getEconomicSeries('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });
});
