import { describe, expect, it } from 'vitest';
import { fakeDeps, metricsOf, NOW_SECONDS, quoteOf, tick } from '../../../test/scan-fakes';
import { SCAN_CONCURRENCY } from '../../lib/favorites-scan';
import { createDropScannerService } from './drop-scanner.service';

describe('the drop scanner service', () => {
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
    const answer = await createDropScannerService(deps).dropScan(1, { threshold: 15, selection: '30DayHigh' });
    expect(most).toBe(SCAN_CONCURRENCY);
    expect(answer.scanned).toBe(20);
    // S7 (11.1 %) stays under 15 %; the rest (20 %) flag, ties in the favourites' order.
    expect(answer.results.map((flag) => flag.symbol)).toEqual(symbols.filter((symbol) => symbol !== 'S7'));
    expect([answer.stale, answer.as_of]).toEqual([true, NOW_SECONDS - 30]);
  });
});
