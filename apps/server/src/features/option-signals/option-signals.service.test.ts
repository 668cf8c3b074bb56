import type { MetricsResponse, OptionScanEvent, QuoteResponse } from '@signalboard/core';
import { describe, expect, it, vi } from 'vitest';
import type { Cached } from '../../providers/market/cache';
import { ProviderError, UnknownSymbolError, type NewsSentiment } from '../../providers/market/types';
import { settleInCompletionOrder } from './completion-order';
import { createScansService, SCAN_CONCURRENCY, type ScanLog, type ScansDeps } from './scans.service';

const NOW_SECONDS = 1_795_208_400;

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}
const tick = () => new Promise((resume) => setImmediate(resume));

describe('settleInCompletionOrder', () => {
  it('runs at most `limit` at once and yields outcomes as they settle, rejections included', async () => {
    const pending = Array.from({ length: 5 }, () => deferred<number>());
    const started: number[] = [];
    const outcomes = settleInCompletionOrder([0, 1, 2, 3, 4], 2, (index) => {
      started.push(index);
      return pending[index]!.promise;
    });
    const first = outcomes.next();
    await tick();
    expect(started).toEqual([0, 1]);
    pending[1]!.resolve(10);
    expect(await first).toEqual({ done: false, value: { item: 1, ok: true, value: 10 } });
    await tick();
    expect(started).toEqual([0, 1, 2]);
    pending[2]!.reject(new Error('down'));
    expect((await outcomes.next()).value).toMatchObject({ item: 2, ok: false, error: new Error('down') });
    pending[0]!.resolve(0);
    pending[3]!.resolve(3);
    pending[4]!.resolve(4);
    const rest: number[] = [];
    for await (const outcome of outcomes) rest.push(outcome.item);
    expect(rest.sort()).toEqual([0, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('starts nothing new once the signal aborts, and yields what was running', async () => {
    const stop = new AbortController();
    const started: number[] = [];
    const seen: number[] = [];
    const work = async (index: number) => {
      started.push(index);
      if (index === 1) stop.abort();
    };
    for await (const outcome of settleInCompletionOrder([0, 1, 2, 3, 4, 5], 2, work, stop.signal)) seen.push(outcome.item);
    expect(started).toEqual([0, 1]);
    expect(seen).toEqual([0, 1]);
  });

  it('keeps the pipeline full (the next item starts before an outcome is yielded) and starts nothing after the consumer stops', async () => {
    const started: number[] = [];
    for await (const outcome of settleInCompletionOrder([0, 1, 2, 3], 1, async (index) => started.push(index))) {
      expect(outcome.item).toBe(0);
      break;
    }
    await tick();
    expect(started).toEqual([0, 1]);
  });
});

const quoteOf = (symbol: string, price: number): QuoteResponse => ({
  symbol,
  current_price: price,
  change: 0,
  percent_change: 0,
  previous_close: price,
  open: price,
  high: price,
  low: price,
  volume: 0,
  timestamp: NOW_SECONDS,
  stale: false,
  as_of: NOW_SECONDS,
});
const metricsOf = (symbol: string, high: number, as_of = NOW_SECONDS, stale = false): MetricsResponse => ({
  symbol,
  '1MonthHigh': high,
  '1MonthLow': 50,
  '6MonthHigh': high,
  '6MonthLow': 50,
  '14DayRSI': 20,
  dailyrsi: 20,
  bullishPercent: 0.5,
  bearishPercent: 0.5,
  volumeProfileLevels: [],
  stale,
  as_of,
});
const sentimentOf = (symbol: string): Cached<NewsSentiment> => ({
  value: { symbol, bullishPercent: 0.5, bearishPercent: 0.5, sectorAverageBullishPercent: 0.9, sectorAverageNewsScore: 0.5, companyNewsScore: 0.5, articlesInLastWeek: 0, weeklyAverage: 0 },
  stale: false,
  fetchedAtMs: NOW_SECONDS * 1000,
});

/** A fake market from quote and metrics; the range metrics are the metrics' highs and lows, as in MarketService. */
function fakeDeps(symbols: string[], fake: Pick<ScansDeps['market'], 'quote' | 'metrics'>) {
  const market: ScansDeps['market'] = {
    ...fake,
    rangeMetrics: async (symbol) => {
      const metrics = await fake.metrics(symbol);
      return {
        symbol: metrics.symbol,
        '1MonthHigh': metrics['1MonthHigh'],
        '1MonthLow': metrics['1MonthLow'],
        '6MonthHigh': metrics['6MonthHigh'],
        '6MonthLow': metrics['6MonthLow'],
        stale: metrics.stale,
        as_of: metrics.as_of,
      };
    },
  };
  return {
    favorites: { list: async () => symbols.map((symbol) => ({ symbol, description: symbol })) },
    market,
    sentiment: { getNewsSentiment: async (symbol) => sentimentOf(symbol) },
    clock: { nowMs: () => (NOW_SECONDS + 500) * 1000 },
    log: { warn: vi.fn<ScanLog['warn']>(), error: vi.fn<ScanLog['error']>() },
  } satisfies ScansDeps;
}

async function collect(events: AsyncIterable<OptionScanEvent>): Promise<OptionScanEvent[]> {
  const out: OptionScanEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('the scans service', () => {
  it(`reads at most ${SCAN_CONCURRENCY} favourites at once and keeps the oldest as_of and any staleness`, async () => {
    const symbols = Array.from({ length: 20 }, (_, i) => `S${i}`);
    let running = 0;
    let most = 0;
    const deps = fakeDeps(symbols, {
      quote: async (symbol) => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        running -= 1;
        return quoteOf(symbol, 80);
      },
      metrics: async (symbol) => metricsOf(symbol, symbol === 'S7' ? 90 : 100, symbol === 'S3' ? NOW_SECONDS - 30 : NOW_SECONDS, symbol === 'S5'),
    });
    const answer = await createScansService(deps).dropScan(1, { threshold: 15, selection: '30DayHigh' });
    expect(most).toBe(SCAN_CONCURRENCY);
    expect(answer.scanned).toBe(20);
    // S7 (11.1 %) stays under 15 %; the rest (20 %) flag, ties in the favourites' order.
    expect(answer.results.map((flag) => flag.symbol)).toEqual(symbols.filter((symbol) => symbol !== 'S7'));
    expect([answer.stale, answer.as_of]).toEqual([true, NOW_SECONDS - 30]);
  });

  it('skips a symbol whose read fails in any way, logging unexpected errors, and still ends the stream', async () => {
    const deps = fakeDeps(['GOOD', 'GONE', 'DOWN', 'BUG'], {
      quote: async (symbol) => {
        if (symbol === 'GONE') throw new UnknownSymbolError(symbol);
        if (symbol === 'DOWN') throw new ProviderError('finnhub', 'HTTP 500');
        return quoteOf(symbol, 80);
      },
      metrics: async (symbol) => {
        if (symbol === 'BUG') throw new TypeError("Cannot read properties of undefined (reading 'high')");
        return metricsOf(symbol, 100);
      },
    });
    const events = await collect(createScansService(deps).optionScan(['GOOD', 'GONE', 'DOWN', 'BUG']));
    const failed = [
      { symbol: 'GONE', msg: 'Unknown symbol: GONE' },
      { symbol: 'DOWN', msg: 'Market data is unavailable right now (finnhub: HTTP 500). Please try again shortly.' },
      { symbol: 'BUG', msg: 'Could not read market data for this symbol. Please try again.' },
    ];
    expect(events.filter((event) => event.type === 'skip').map(({ type: _type, ...rest }) => rest).sort((a, b) => a.symbol.localeCompare(b.symbol))).toEqual(
      [...failed].sort((a, b) => a.symbol.localeCompare(b.symbol)),
    );
    expect(events.at(-1)).toEqual({ type: 'end', scanned: 1, failed, as_of: NOW_SECONDS });
    // The bug is logged as an error, the provider problem as a warning; an unknown favourite is the user's data, not logged.
    expect(deps.log.error).toHaveBeenCalledTimes(1);
    expect(deps.log.error).toHaveBeenCalledWith(expect.objectContaining({ symbol: 'BUG' }), 'scan failed unexpectedly on a symbol');
    expect(deps.log.warn).toHaveBeenCalledTimes(1);
    expect(deps.log.warn).toHaveBeenCalledWith(expect.objectContaining({ symbol: 'DOWN' }), expect.any(String));
  });

  it('ends the stream with `end` when something unexpected breaks the loop itself', async () => {
    const deps = fakeDeps([], {
      quote: async (symbol) => {
        if (symbol === 'DOWN') throw new ProviderError('finnhub', 'HTTP 500');
        return quoteOf(symbol, 80);
      },
      metrics: async (symbol) => metricsOf(symbol, 100),
    });
    deps.log.warn.mockImplementation(() => {
      throw new Error('log transport down');
    });
    const events = await collect(createScansService(deps).optionScan(['DOWN', 'LATER']));
    expect(events[0]).toEqual({ type: 'start', total: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'end' });
    expect(deps.log.error).toHaveBeenCalledWith(expect.objectContaining({ err: new Error('log transport down') }), 'option scan stopped unexpectedly');
  });

  it('answers as_of from the clock when nothing was read', async () => {
    const deps = fakeDeps([], { quote: async () => quoteOf('X', 1), metrics: async () => metricsOf('X', 1) });
    expect(await collect(createScansService(deps).optionScan([]))).toEqual([
      { type: 'start', total: 0 },
      { type: 'end', scanned: 0, failed: [], as_of: NOW_SECONDS + 500 },
    ]);
  });
});
