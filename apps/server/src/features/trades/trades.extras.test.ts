/**
 * The engines' extras (trades.extras.ts) from a scripted market and store: the rate and IV indexes
 * as of the session, chains only on the live session, the drop engine's index, underlyings,
 * sectors, linked swing trades and news (only for the day's candidates, ≤ 30 symbols), and the
 * engines' universes.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber, dropEngine, isoFromDayNumber, optionsEngine, swingEngine, type DailySeries, type SessionInput, type UniverseMember } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { EarningsEvent, EconomicSeries, NewsArticle, OptionChain } from '../../providers/market/types';
import { UnknownSymbolError } from '../../providers/market/types';
import { OPTION_ALERT_TICKERS } from '../../providers/market/universe';
import { createExtrasFor, DROP_NEWS_PER_DAY, EARNINGS_LOOKAHEAD_DAYS, engineUniverse, valueAsOf } from './trades.extras';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.runner';

const cached = <T>(value: T) => ({ value, stale: false, fetchedAt: 0 });
const series = (id: string, observations: Array<[string, number]>): EconomicSeries => ({ id, name: id, unit: 'Percent', frequency: 'Daily', observations: observations.map(([date, value]) => ({ date, value })) });

interface Calls {
  news: Array<[string, string, string]>;
  chains: string[];
}

function fakeMarket(calls: Calls, economic: Record<string, EconomicSeries>): CachedMarket {
  const market = {
    source: 'simulated',
    async getEconomicSeries(id: string) {
      const found = economic[id];
      if (!found) throw new UnknownSymbolError(id);
      return cached(found);
    },
    async getOptionChain(symbol: string) {
      calls.chains.push(symbol);
      const chain: OptionChain = {
        symbol,
        underlyingPrice: 100,
        expirations: ['2026-03-20'],
        contracts: [{ contractSymbol: `${symbol}260320C00100000`, type: 'call', strike: 100, expiration: '2026-03-20', lastPrice: 3, bid: 2.9, ask: 3.1, volume: 10, openInterest: 900, impliedVolatility: 0.3 }],
      };
      return cached(chain);
    },
    async getCompanyNews(symbol: string, from: string, to: string) {
      calls.news.push([symbol, from, to]);
      const article: NewsArticle = { id: `${symbol}-1`, headline: `${symbol} shares fall after guidance cut`, summary: 'The company lowered its outlook.', source: 'Wire', category: 'company', datetime: Date.parse(`${to}T14:00:00Z`) / 1000, url: `https://example.com/${symbol}`, image: '', related: symbol };
      return cached([article]);
    },
    async getProfile(symbol: string) {
      return cached({ symbol, description: symbol, market: 'US', exchange: 'NYSE Arca', country: 'United States', currency: 'USD', assetClass: 'etf', sector: 'Financials' });
    },
  };
  return market as unknown as CachedMarket;
}

function fakeRepo(swing: Array<{ id: string; symbol: string; signalDate: string; closedBarDate: string | null; isVoided?: boolean }>): TradesRepo {
  return { ideasOf: async () => ({ rows: swing.map((row) => ({ isVoided: false, ...row })), lastSequence: 0 }) } as unknown as TradesRepo;
}

/** 300 sessions rising 100 → 250, the last one closing 10 % under the prior high: an S and an O drop. */
function dropping(symbol: string): DailySeries {
  const n = 300;
  const day = new Int32Array(n);
  let d = dayNumber('2024-01-02');
  for (let i = 0; i < n; i += 1) {
    while ([0, 6].includes(new Date(d * 86_400_000).getUTCDay())) d += 1;
    day[i] = d;
    d += 1;
  }
  const close = Float64Array.from({ length: n }, (_, i) => 100 + (150 * i) / (n - 1));
  close[n - 1] = close[n - 2]! * 0.9;
  const open = Float64Array.from(close, (c, i) => (i === 0 ? c : close[i - 1]!));
  return { symbol, market: 'US', day, open, high: Float64Array.from(close, (c, i) => Math.max(c, open[i]!) + 0.2), low: Float64Array.from(close, (c, i) => Math.min(c, open[i]!) - 0.2), close, volume: new Float64Array(n).fill(1e6) };
}

function sessionInput(engine: AnyEngine, symbols: readonly string[]): SessionInput<unknown, unknown> {
  const bars = new Map(symbols.map((symbol) => [symbol, dropping(symbol)]));
  const last = bars.get(symbols[0]!)!;
  const date = isoFromDayNumber(last.day[last.day.length - 1]!);
  const universe: UniverseMember[] = symbols.map((symbol) => ({ symbol, market: 'US', survivorshipBiased: false }));
  return { params: engine.params, session: { date, now: `${date}T21:30:00.000Z` }, bars, universe, openIdeas: [], cooldowns: new Map(), extras: {} };
}

const log = { warn: () => undefined };

describe('options extras', () => {
  const economic = { DTB3: series('DTB3', [['2025-03-10', 4.2], ['2025-03-03', 4.5]]), VIXCLS: series('VIXCLS', [['2025-03-07', 21.5], ['2025-03-06', 19]]) };
  const engine = optionsEngine as unknown as AnyEngine;

  it('the rate (DTB3 / 100) and the IV indexes as of the session; none the source lacks (VXN)', async () => {
    const calls: Calls = { news: [], chains: [] };
    const extrasFor = await createExtrasFor(engine, [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], { market: fakeMarket(calls, economic), repo: fakeRepo([]), log });
    const input = { ...sessionInput(engine, ['SPY']), session: { date: '2025-03-07', now: '2025-03-07T21:30:00.000Z' } };
    const extras = await extrasFor(input, { live: false });
    expect(extras.riskFreeRate).toBeCloseTo(0.045, 12);
    expect([...extras.ivIndexes!]).toEqual([['VIX', 21.5]]);
    expect(extras.optionChains).toBeUndefined();
    expect(calls.chains).toEqual([]);
    const before = await extrasFor({ ...input, session: { date: '2025-03-01', now: '2025-03-01T21:30:00.000Z' } }, { live: false });
    expect(before).toEqual({});
  });

  it('option chains only for the live session, as snapshots', async () => {
    const calls: Calls = { news: [], chains: [] };
    const extrasFor = await createExtrasFor(engine, [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], { market: fakeMarket(calls, {}), repo: fakeRepo([]), log });
    const extras = await extrasFor(sessionInput(engine, ['SPY']), { live: true });
    expect(extras.riskFreeRate).toBeUndefined();
    expect(extras.optionChains?.get('SPY')?.contracts).toEqual([{ expiry: '2026-03-20', strike: 100, side: 'CALL', bid: 2.9, ask: 3.1, iv: 0.3, openInterest: 900 }]);
    expect(calls.chains).toEqual(['SPY']);
  });

  it('valueAsOf reads the newest observation on or before the date', () => {
    expect(valueAsOf(economic.DTB3, '2025-03-09')).toBe(4.5);
    expect(valueAsOf(economic.DTB3, '2025-03-02')).toBeUndefined();
    expect(valueAsOf(null, '2025-03-09')).toBeUndefined();
  });
});

describe('drop extras', () => {
  const engine = dropEngine as unknown as AnyEngine;

  it('index members, OPTION_ALERT underlyings, sectors, the open swing trade, and news of the candidates only', async () => {
    const symbols = ['AAPL', 'ZZZ1', 'ZZZ2'];
    const calls: Calls = { news: [], chains: [] };
    const input = sessionInput(engine, symbols);
    const date = input.session.date;
    const universe: UniverseMember[] = [{ symbol: 'AAPL', market: 'US', sector: 'Information Technology', survivorshipBiased: false }, { symbol: 'ZZZ1', market: 'US', survivorshipBiased: false }, { symbol: 'ZZZ2', market: 'US', survivorshipBiased: false }];
    const swing = [
      { id: 'swing.AAPL.2024-01-02@1.0.0', symbol: 'AAPL', signalDate: '2024-01-02', closedBarDate: null },
      { id: 'swing.ZZZ1.2024-01-02@1.0.0', symbol: 'ZZZ1', signalDate: '2024-01-02', closedBarDate: '2024-02-01' },
    ];
    const extrasFor = await createExtrasFor(engine, universe, { market: fakeMarket(calls, {}), repo: fakeRepo(swing), log, indexMembers: async () => universe });
    // Best of S&P 500 is the top ⌈3 / 2⌉ (equal momentum: by ticker), AAPL and ZZZ1; ZZZ2 is no underlying: no candidate, no news.
    const extras = await extrasFor({ ...input, universe }, { live: false });
    expect([...extras.dropIndexMembers!]).toEqual(['AAPL', 'ZZZ1', 'ZZZ2']);
    expect([...extras.dropOptionUnderlyings!]).toEqual(['AAPL']);
    expect(extras.sectors?.get('AAPL')).toBe('Information Technology');
    expect([...extras.swingTradeIds!]).toEqual([['AAPL', 'swing.AAPL.2024-01-02@1.0.0']]);
    expect(calls.news.map(([symbol, , to]) => [symbol, to]).sort()).toEqual([
      ['AAPL', date],
      ['ZZZ1', date],
    ]);
    // From the reference high (the session before the drop).
    const series = input.bars.get('AAPL')!;
    expect(calls.news.find(([symbol]) => symbol === 'AAPL')![1]).toBe(isoFromDayNumber(series.day[series.day.length - 2]!));
    expect(extras.dropNews?.get('AAPL')?.[0]).toMatchObject({ headline: 'AAPL shares fall after guidance cut', url: 'https://example.com/AAPL' });
    expect(extras.optionChains).toBeUndefined();
    // The engine reads them: the S item carries the headline and the linked swing trade.
    const events = engine.runSession({ ...input, universe, extras });
    const opened = events.filter((event) => event.type === 'opened');
    expect(opened.map((event) => [event.symbol, event.data.stockType]).sort()).toEqual([
      ['AAPL', 'O'],
      ['AAPL', 'S'],
      ['ZZZ1', 'S'],
    ]);
    expect(opened.find((event) => event.symbol === 'AAPL' && event.data.stockType === 'S')!.data).toMatchObject({ linkedSwingTradeId: 'swing.AAPL.2024-01-02@1.0.0', stockNews: expect.stringContaining('guidance cut'), sectorName: 'Information Technology' });
  });

  it(`fetches news for at most ${DROP_NEWS_PER_DAY} symbols a day, chains on the live session for O candidates`, async () => {
    const symbols = OPTION_ALERT_TICKERS.slice(0, 40);
    const calls: Calls = { news: [], chains: [] };
    const input = sessionInput(engine, symbols);
    const extrasFor = await createExtrasFor(engine, input.universe, { market: fakeMarket(calls, {}), repo: fakeRepo([]), log, indexMembers: async () => [...input.universe] });
    const extras = await extrasFor(input, { live: true });
    expect(calls.news.length).toBe(DROP_NEWS_PER_DAY);
    expect(extras.dropNews?.size).toBe(DROP_NEWS_PER_DAY);
    expect(calls.chains.length).toBe(40);
    expect(extras.optionChains?.size).toBe(40);
  });
});

describe('swing extras', () => {
  const release = (symbol: string, date: string): EarningsEvent => ({ symbol, date, hour: 'amc', epsActual: null, epsEstimate: 1, revenueActual: null, revenueEstimate: null, quarter: 1, year: 2026 }) as unknown as EarningsEvent;
  const calendar: EarningsEvent[] = [release('AAPL', '2026-03-05'), release('AAPL', '2026-06-04'), release('MSFT', '2026-02-20'), release('NVDA', '2026-04-30'), release('TSLA', '2026-02-27')];
  function earningsMarket(requests: Array<[string, string]>, failing = new Set<string>()): CachedMarket {
    return {
      source: 'simulated',
      async getEarningsCalendar(from: string, to: string) {
        requests.push([from, to]);
        if (failing.has(from.slice(0, 7))) throw new Error('earnings calendar down');
        return cached(calendar.filter((event) => event.date >= from && event.date <= to));
      },
    } as unknown as CachedMarket;
  }
  const input = (date: string) => ({ ...sessionInput(swingEngine as unknown as AnyEngine, ['AAPL']), session: { date, now: `${date}T21:30:00.000Z` } });

  it(`each symbol's next release within ${EARNINGS_LOOKAHEAD_DAYS} days, read a calendar month at a time, once per run`, async () => {
    const requests: Array<[string, string]> = [];
    const extrasFor = await createExtrasFor(swingEngine as unknown as AnyEngine, [], { market: earningsMarket(requests), repo: fakeRepo([]), log });
    const first = await extrasFor(input('2026-02-20'), { live: false });
    // MSFT reports that day (still ahead of its close), TSLA and AAPL within the window, NVDA 69 days out.
    expect(Object.fromEntries(first.earnings ?? [])).toEqual({ MSFT: '2026-02-20', TSLA: '2026-02-27', AAPL: '2026-03-05' });
    expect(requests).toEqual([['2026-02-01', '2026-02-28'], ['2026-03-01', '2026-03-31'], ['2026-04-01', '2026-04-30']]);
    const later = await extrasFor(input('2026-03-20'), { live: false });
    // AAPL's March release is past and its June one beyond the window; NVDA's April one is in it.
    expect(Object.fromEntries(later.earnings ?? [])).toEqual({ NVDA: '2026-04-30' });
    // March and April were read already: only May is new.
    expect(requests.slice(3)).toEqual([['2026-05-01', '2026-05-31']]);
  });

  it('a month the source cannot answer counts as no earnings, not as a failed pass', async () => {
    const extrasFor = await createExtrasFor(swingEngine as unknown as AnyEngine, [], { market: earningsMarket([], new Set(['2026-03'])), repo: fakeRepo([]), log });
    expect(Object.fromEntries((await extrasFor(input('2026-02-20'), { live: false })).earnings ?? [])).toEqual({ MSFT: '2026-02-20', TSLA: '2026-02-27' });
  });
});

describe('engine universes', () => {
  it('options: the OPTION_ALERT tickers the source knows; drop: the S&P members and those', async () => {
    const market = { source: 'simulated' } as unknown as CachedMarket;
    const options = await engineUniverse(market, 'options', true);
    expect(options.map((member) => member.symbol)).toEqual([...OPTION_ALERT_TICKERS]);
    expect(options.every((member) => member.survivorshipBiased)).toBe(true);
    const stocks = await engineUniverse(market, 'layered', false);
    const drop = await engineUniverse(market, 'drop', false);
    expect(drop.length).toBe(new Set([...stocks.map((member) => member.symbol), ...OPTION_ALERT_TICKERS]).size);
    expect(drop.map((member) => member.symbol)).toEqual(expect.arrayContaining(['SPY', 'QQQ', 'AAPL']));
  });
});
