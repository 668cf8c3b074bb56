/**
 * The engines' extras (trades.extras.ts, through each engine's adapter in engines/) from a scripted market and store: the rate and IV indexes
 * as of the session, the chains a session reads (as of the session from a source that keeps them,
 * else only on the live session), the drop engine's index, underlyings, sectors, linked swing
 * trades and news (only for the day's candidates, ≤ 30 symbols), the chains of the marks, and the
 * engines' universes.
 */
import { describe, expect, it } from 'vitest';
import { dayNumber, dropEngine, isoFromDayNumber, optionsEngine, swingEngine, tradingDayOnOrAfter, type DailySeries, type IdeaEvent, type SessionInput, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { EarningsEvent, EconomicSeries, NewsArticle, OptionChain } from '../../providers/market/types';
import { UnknownSymbolError } from '../../providers/market/types';
import { OPTION_ALERT_TICKERS } from '../../providers/market/universe';
import { DROP_NEWS_PER_DAY } from './engines/drop-items.adapter';
import { valueAsOf } from './engines/option-trades.adapter';
import { EARNINGS_LOOKAHEAD_DAYS } from './engines/swing.adapter';
import { createExtrasFor, engineUniverse, markChains, markFor } from './trades.extras';
import { seriesThrough } from './trades.market';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';

const cached = <T>(value: T) => ({ value, stale: false, fetchedAt: 0 });
const series = (id: string, observations: Array<[string, number]>): EconomicSeries => ({ id, name: id, unit: 'Percent', frequency: 'Daily', observations: observations.map(([date, value]) => ({ date, value })) });

interface Calls {
  news: Array<[string, string, string]>;
  chains: string[];
  /** Chains asked as of a session: `SYMBOL date expiry|*`. */
  asOf?: string[];
}

const EXPIRY = '2026-03-20';
const contractOf = (symbol: string, expiration: string, strike: number, bid: number, iv = 0.3): OptionChain['contracts'][number] => ({
  contractSymbol: `${symbol}${expiration.slice(2).replace(/-/g, '')}C${String(strike * 1000).padStart(8, '0')}`,
  type: 'call',
  strike,
  expiration,
  lastPrice: bid,
  bid,
  ask: bid + 0.2,
  volume: 10,
  openInterest: 900,
  impliedVolatility: iv,
});

/**
 * A scripted market. `keeps`: the source also answers chains as of a session (the dates it has one
 * for, each chain's bid its day of the month / 10); `nearestOnly`: the expirations of a chain now
 * that lists the contracts of the nearest one only, as Yahoo's does.
 */
function fakeMarket(calls: Calls, economic: Record<string, EconomicSeries>, options: { keeps?: readonly string[]; nearestOnly?: readonly string[] } = {}): CachedMarket {
  const market = {
    source: 'simulated',
    ...(options.keeps && {
      async getOptionChainAsOf(symbol: string, date: string, expiration?: string) {
        calls.asOf?.push(`${symbol} ${date} ${expiration ?? '*'}`);
        if (!options.keeps!.includes(date)) return cached(null);
        const chain: OptionChain = { symbol, underlyingPrice: 100, expirations: [EXPIRY], contracts: [contractOf(symbol, EXPIRY, 100, Number(date.slice(8)) / 10)] };
        return cached(chain);
      },
    }),
    async getEconomicSeries(id: string) {
      const found = economic[id];
      if (!found) throw new UnknownSymbolError(id);
      return cached(found);
    },
    async getOptionChain(symbol: string, expiration?: string) {
      calls.chains.push(expiration ? `${symbol} ${expiration}` : symbol);
      if (options.nearestOnly) {
        // The nearest expiry quoted unless one is asked for.
        const expirations = [...options.nearestOnly];
        const quoted = expiration ?? expirations[0]!;
        return cached<OptionChain>({ symbol, underlyingPrice: 100, expirations, contracts: [contractOf(symbol, quoted, 100, 2.9)] });
      }
      const chain: OptionChain = { symbol, underlyingPrice: 100, expirations: [EXPIRY], contracts: [contractOf(symbol, EXPIRY, 100, 2.9)] };
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

  it("from a source with today's chains only: on the live session, the chains of the new alerts, as snapshots", async () => {
    const calls: Calls = { news: [], chains: [] };
    const universe: UniverseMember[] = ['SPY', 'QQQ'].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: false }));
    const extrasFor = await createExtrasFor(engine, universe, { market: fakeMarket(calls, {}), repo: fakeRepo([]), log });
    // SPY breaks down on the session (a PUT alert); QQQ has no bars: no alert, no chain.
    const input = { ...sessionInput(engine, ['SPY']), universe };
    expect((await extrasFor(input, { live: false })).optionChains).toBeUndefined();
    expect(calls.chains).toEqual([]);
    const extras = await extrasFor(input, { live: true });
    expect(extras.riskFreeRate).toBeUndefined();
    expect(extras.optionChains?.get('SPY')?.contracts).toEqual([{ expiry: EXPIRY, strike: 100, side: 'CALL', bid: 2.9, ask: 3.1, iv: 0.3, openInterest: 900 }]);
    expect(calls.chains).toEqual(['SPY']);
  });

  it('a chain now that quotes the nearest expiry only: the expiry §4.2 takes from its expirations is read too', async () => {
    const calls: Calls = { news: [], chains: [] };
    const input = sessionInput(engine, ['SPY']);
    // Fridays 1, 3, 5 and 8 weeks after the next session: DTE 35 (within [28, 45]) is the one §4.2 takes.
    const fromDay = tradingDayOnOrAfter(dayNumber(input.session.date) + 1);
    const [nearest, chosen, later, last] = [7, 35, 21 + 35, 56].map((dte) => isoFromDayNumber(fromDay + dte));
    const extrasFor = await createExtrasFor(engine, [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], { market: fakeMarket(calls, {}, { nearestOnly: [nearest!, chosen!, later!, last!] }), repo: fakeRepo([]), log });
    const extras = await extrasFor(input, { live: true });
    expect(calls.chains).toEqual(['SPY', `SPY ${chosen}`]);
    expect([...new Set(extras.optionChains!.get('SPY')!.contracts.map((c) => c.expiry))]).toEqual([nearest, chosen]);
  });

  it('from a source that keeps past chains: as of each session, replay included; none on a session it has no chain for', async () => {
    const calls: Calls = { news: [], chains: [], asOf: [] };
    const input = sessionInput(engine, ['SPY']);
    const date = input.session.date;
    const extrasFor = await createExtrasFor(engine, [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], { market: fakeMarket(calls, {}, { keeps: [date] }), repo: fakeRepo([]), log });
    const extras = await extrasFor(input, { live: false });
    expect(extras.optionChains?.get('SPY')?.contracts).toEqual([{ expiry: EXPIRY, strike: 100, side: 'CALL', bid: Number(date.slice(8)) / 10, ask: Number(date.slice(8)) / 10 + 0.2, iv: 0.3, openInterest: 900 }]);
    expect(calls.asOf).toEqual([`SPY ${date} *`]);
    // The session before (a breakout: a CALL alert) is asked as of its own date; the source has no chain for it: none (the model prices).
    const series = input.bars.get('SPY')!;
    const previous = isoFromDayNumber(series.day[298]!);
    const before = { ...input, bars: new Map([['SPY', seriesThrough(series, series.day[298]!)]]), session: { date: previous, now: `${previous}T21:30:00.000Z` } };
    expect((await extrasFor(before, { live: false })).optionChains).toBeUndefined();
    expect(calls.asOf).toEqual([`SPY ${date} *`, `SPY ${previous} *`]);
    // Even on the live session, a source that keeps past chains is asked as of the session, never for today's chain.
    expect((await extrasFor(before, { live: true })).optionChains).toBeUndefined();
    expect(calls.chains).toEqual([]);
  });

  it('valueAsOf reads the newest observation on or before the date', () => {
    expect(valueAsOf(economic.DTB3, '2025-03-09')).toBe(4.5);
    expect(valueAsOf(economic.DTB3, '2025-03-02')).toBeUndefined();
    expect(valueAsOf(null, '2025-03-09')).toBeUndefined();
  });
});

describe('the marks of contracts chosen from a chain', () => {
  const engine = optionsEngine as unknown as AnyEngine;
  const stamp = (events: readonly IdeaEvent[]): StoredIdeaEvent[] => events.map((event) => ({ ...event, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin: 'replayed', recordedAt: `${event.barDate}T21:30:00.000Z` }));

  it("read today's chain of the contract's expiry; an option trade past its entry bar is marked at its bid, the model marks the rest", async () => {
    const input = sessionInput(engine, ['SPY']);
    const spot = input.bars.get('SPY')!.close.at(-1)!;
    const expiry = isoFromDayNumber(tradingDayOnOrAfter(dayNumber(input.session.date) + 1) + 35);
    // Puts around the close (SPY breaks down: a PUT alert), bid b(K) as of each session asked.
    const asked: string[] = [];
    const puts = (date: string, bidShift: number): OptionChain => ({
      symbol: 'SPY',
      underlyingPrice: spot,
      expirations: [expiry],
      contracts: [-10, -5, 0, 5, 10].map((offset) => {
        const strike = Math.round(spot) + offset;
        return { ...contractOf('SPY', expiry, strike, 6 + offset / 2 + bidShift), type: 'put' as const, contractSymbol: `SPY${date}P${strike}` };
      }),
    });
    const market = {
      source: 'simulated',
      async getEconomicSeries(id: string) {
        throw new UnknownSymbolError(id);
      },
      async getOptionChainAsOf(symbol: string, date: string, expiration?: string) {
        asked.push(`${symbol} ${date} ${expiration ?? '*'}`);
        return cached(date === input.session.date ? puts(date, 0) : date === '2030-01-02' ? puts(date, 1.5) : null);
      },
    } as unknown as CachedMarket;
    const extrasFor = await createExtrasFor(engine, [{ symbol: 'SPY', market: 'US', survivorshipBiased: false }], { market, repo: fakeRepo([]), log });
    const extras = await extrasFor(input, { live: false });
    const chainPriced = stamp(engine.runSession({ ...input, extras }));
    const modelPriced = stamp(engine.runSession(input));
    expect(chainPriced[0]!.data).toMatchObject({ priceSource: 'chain', side: 'PUT', expiry });
    expect(modelPriced[0]!.data).toMatchObject({ priceSource: 'model' });
    const strike = chainPriced[0]!.data.strike as number;
    // The trade entered on the next session (its entry bar).
    const entryDate = isoFromDayNumber(tradingDayOnOrAfter(dayNumber(input.session.date) + 1));
    const filled = { ...chainPriced[0]!, type: 'entry_filled' as const, barDate: entryDate, price: 6.2, recordedAt: `${entryDate}T21:30:00.000Z`, data: { markValue: 5.9, stockClose: spot, stockOpen: spot, sigma: chainPriced[0]!.data.sigma } };
    const entered = [...chainPriced, filled];

    asked.length = 0;
    // Pending, the trade is on its entry bar: valued at the entry's σ, it reads no chain.
    expect(await markChains(engine, market, [chainPriced], '2030-01-02', log)).toEqual(new Map());
    expect(asked).toEqual([]);
    const chains = await markChains(engine, market, [entered, modelPriced.map((event) => ({ ...event, symbol: 'QQQ' }))], '2030-01-02', log);
    // Only the chain-priced trade's underlying, for its expiry.
    expect(asked).toEqual([`SPY 2030-01-02 ${expiry}`]);
    const mark = { price: spot * 0.98, at: '2030-01-02T16:00:00.000Z' };
    const bid = chains.get('SPY')!.contracts.find((c) => c.strike === strike && c.side === 'PUT')!.bid;
    expect(markFor(engine, entered, mark, chains)).toEqual({ ...mark, optionValue: bid });
    expect(engine.fold(entered, markFor(engine, entered, mark, chains), mark.at)).toMatchObject({ Current_Value: bid, PriceSource: 'chain', CurrentPriceStock: mark.price });
    // On its entry bar (pending, or entered that session) the mark is the price alone: the fold values it with the model at the entry's σ.
    expect(markFor(engine, chainPriced, mark, chains)).toEqual(mark);
    expect(markFor(engine, entered, { ...mark, at: `${entryDate}T16:00:00.000Z` }, chains)).toEqual({ ...mark, at: `${entryDate}T16:00:00.000Z` });
    // Without today's chain (or for a model-priced trade) the mark is the price alone: the fold values it with the model.
    expect(markFor(engine, entered, mark, new Map())).toEqual(mark);
    expect(markFor(engine, modelPriced, mark, chains)).toEqual(mark);
    expect(await markChains(swingEngine as unknown as AnyEngine, market, [chainPriced], '2030-01-02', log)).toEqual(new Map());
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
