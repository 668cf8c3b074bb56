import type { OptionScanEvent } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { fakeDeps, metricsOf, NOW_SECONDS, quoteOf } from '../../../test/scan-fakes';
import { ProviderError, UnknownSymbolError } from '../../providers/market/types';
import { createOptionSignalsService } from './option-signals.service';

async function collect(events: AsyncIterable<OptionScanEvent>): Promise<OptionScanEvent[]> {
  const out: OptionScanEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('the option signals service', () => {
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
    const events = await collect(createOptionSignalsService(deps).optionScan(['GOOD', 'GONE', 'DOWN', 'BUG']));
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
    const events = await collect(createOptionSignalsService(deps).optionScan(['DOWN', 'LATER']));
    expect(events[0]).toEqual({ type: 'start', total: 2 });
    expect(events.at(-1)).toMatchObject({ type: 'end' });
    expect(deps.log.error).toHaveBeenCalledWith(expect.objectContaining({ err: new Error('log transport down') }), 'option scan stopped unexpectedly');
  });

  it('answers as_of from the clock when nothing was read', async () => {
    const deps = fakeDeps([], { quote: async () => quoteOf('X', 1), metrics: async () => metricsOf('X', 1) });
    expect(await collect(createOptionSignalsService(deps).optionScan([]))).toEqual([
      { type: 'start', total: 0 },
      { type: 'end', scanned: 0, failed: [], as_of: NOW_SECONDS + 500 },
    ]);
  });
});
