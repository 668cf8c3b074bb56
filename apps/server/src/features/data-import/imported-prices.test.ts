/**
 * Imported daily bars: the repository (atomic, idempotent upserts) and the market layer that serves
 * them over the simulated source (providers/market/imported/imported-market.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { stockUniverse } from '../trades/trades.market';
import { scanUniverseMembers } from '../custom-scans/scan-universe';
import { createImportedPricesRepo, type ImportedBarColumns, type ImportedListing, type ImportedPricesRepo } from './imported-prices.repo';

let t: TestApp;
let repo: ImportedPricesRepo;
const NOW = new Date('2026-11-20T15:00:00Z');
const FILE = { name: 'zzimp.csv', sha256: 'a'.repeat(64), importedBy: null };
const LISTING: ImportedListing = { symbol: 'ZZIMP', description: 'Imported Widgets Inc', market: 'US', exchange: 'NYSE', sector: 'Industrials' };

/** `n` sessions' bars ending 2026-11-19 (weekdays only; enough for these checks), closes rising by 1. */
function columns(days: string[], closeOf = (index: number) => 100 + index): ImportedBarColumns {
  const close = days.map((_, index) => closeOf(index));
  return { day: days, open: close.map((c) => c - 0.5), high: close.map((c) => c + 1), low: close.map((c) => c - 1), close, adjClose: close.map(() => null), volume: close.map(() => 1_000) };
}
const DAYS = ['2026-11-13', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-23'];

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: NOW.toISOString() });
  repo = createImportedPricesRepo(t.db);
});
afterAll(async () => t.close());

describe('imported prices repository', () => {
  it('stores a file once: the same file again changes nothing, a changed bar is an update', async () => {
    const [first] = await repo.importFile(FILE, [{ listing: LISTING, bars: columns(DAYS) }], NOW);
    expect(first).toEqual({ symbol: 'ZZIMP', inserted: 6, updated: 0, unchanged: 0, listingChanged: true });
    const [again] = await repo.importFile(FILE, [{ listing: LISTING, bars: columns(DAYS) }], new Date(NOW.getTime() + 60_000));
    expect(again).toEqual({ symbol: 'ZZIMP', inserted: 0, updated: 0, unchanged: 6, listingChanged: false });
    const [changed] = await repo.importFile({ ...FILE, sha256: 'b'.repeat(64) }, [{ listing: LISTING, bars: columns(DAYS, (i) => (i === 2 ? 999 : 100 + i)) }], NOW);
    expect(changed).toEqual({ symbol: 'ZZIMP', inserted: 0, updated: 1, unchanged: 5, listingChanged: true });
    await repo.importFile(FILE, [{ listing: LISTING, bars: columns(DAYS) }], NOW);

    const [summary] = await repo.summaries();
    expect(summary).toMatchObject({ symbol: 'ZZIMP', rows: 6, firstDay: '2026-11-13', lastDay: '2026-11-23', lastClose: 105, sourceFile: 'zzimp.csv', importedBy: null });
  });

  it('keeps a digest of each symbol\'s bars: changed by a changed bar, not by the same bars again, read with the bars', async () => {
    const digestOf = async () => (await repo.listings()).find((row) => row.symbol === 'ZZDIG')?.barsDigest;
    const listing = { ...LISTING, symbol: 'ZZDIG' };
    await repo.importFile(FILE, [{ listing, bars: columns(DAYS) }], NOW);
    const first = await digestOf();
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    await repo.importFile({ ...FILE, name: 'renamed.csv' }, [{ listing, bars: columns(DAYS) }], NOW);
    expect(await digestOf()).toBe(first);
    await repo.importFile(FILE, [{ listing, bars: columns(DAYS, (i) => (i === 5 ? 200 : 100 + i)) }], NOW);
    const changed = await digestOf();
    expect(changed).not.toBe(first);
    expect((await repo.bars('ZZDIG')).candles).toEqual({ provider: 'imported', range: 'ohlc', volume: 'aggregate', digest: changed });
    // Back to the first bars: the first digest (it is the content's, not a counter).
    await repo.importFile(FILE, [{ listing, bars: columns(DAYS) }], NOW);
    expect(await digestOf()).toBe(first);
    await repo.remove('ZZDIG');
  });

  it('imports a file whole or not at all', async () => {
    const bad = { ...LISTING, symbol: 'ZZBAD', market: 'XX' as 'US' };
    await expect(repo.importFile(FILE, [{ listing: { ...LISTING, symbol: 'ZZFIRST' }, bars: columns(DAYS) }, { listing: bad, bars: columns(DAYS) }], NOW)).rejects.toThrow();
    expect((await repo.listings()).map((row) => row.symbol)).not.toContain('ZZFIRST');
  });
});

describe('the market with imported prices', () => {
  it('serves a new symbol from its file: bars up to now, a quote from the last bar, listed and searchable', async () => {
    await t.market.importChanged!(['ZZIMP']);
    const bars = (await t.market.getDailyBars('ZZIMP', 0, Date.parse('2027-01-01') / 1000)).value;
    // 2026-11-23 is after the pinned now: not served.
    expect(Array.from(bars.close)).toEqual([100, 101, 102, 103, 104]);
    expect(bars.time[0]).toBe(Date.parse('2026-11-13T00:00:00Z') / 1000);
    const quote = (await t.market.getQuote('zzimp')).value;
    expect(quote).toMatchObject({ symbol: 'ZZIMP', price: 104, previousClose: 103, lastBar: true });
    expect((await t.market.searchSymbols('ZZIM')).value.map((info) => info.symbol)).toContain('ZZIMP');
    expect((await t.market.lookupSymbols('Widgets', 'US')).value.map((info) => info.symbol)).toEqual(['ZZIMP']);
    expect((await t.market.lookupSymbols('Widgets', 'TO')).value).toEqual([]);
    expect((await t.market.getProfile('ZZIMP')).value).toMatchObject({ description: 'Imported Widgets Inc', exchange: 'NYSE', sector: 'Industrials', market: 'US' });
    expect((await stockUniverse(t.market, false)).find((member) => member.symbol === 'ZZIMP')).toEqual({ symbol: 'ZZIMP', market: 'US', sector: 'Industrials', survivorshipBiased: false });
    const us = await scanUniverseMembers('us', { market: t.market, favorites: { list: async () => [] } }, 1);
    expect(us.at(-1)).toEqual({ symbol: 'ZZIMP', name: 'Imported Widgets Inc', sector: 'Industrials', exchange: 'NYSE', listed: true });
  });

  it('takes a known symbol’s history from its file and its quote from the source', async () => {
    const before = (await t.market.getDailyBars('AAPL', 0, NOW.getTime() / 1000)).value;
    expect(before.close.length).toBeGreaterThan(5);
    await repo.importFile({ ...FILE, name: 'AAPL.csv' }, [{ listing: { ...LISTING, symbol: 'AAPL', description: 'Apple Inc' }, bars: columns(DAYS.slice(0, 3)) }], NOW);
    await t.market.importChanged!(['AAPL']);
    const after = (await t.market.getDailyBars('AAPL', 0, NOW.getTime() / 1000)).value;
    expect(Array.from(after.close)).toEqual([100, 101, 102]);
    const quote = (await t.market.getQuote('AAPL')).value;
    expect(quote.lastBar).toBeUndefined();
    expect((await stockUniverse(t.market, false)).filter((member) => member.symbol === 'AAPL')).toHaveLength(1);

    expect(await repo.remove('AAPL')).toBe(true);
    await t.market.importChanged!(['AAPL']);
    expect((await t.market.getDailyBars('AAPL', 0, NOW.getTime() / 1000)).value.close.length).toBe(before.close.length);
    expect(await repo.remove('AAPL')).toBe(false);
  });
});
