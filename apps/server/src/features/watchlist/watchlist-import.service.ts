/**
 * Watchlist import preview and export (docs/data-in-and-out.md "Watchlist import and export"). The
 * text is read by core's parseWatchlistText; each entry's listing is found with the market's symbol
 * lookup (US, and Toronto for `.TO`, `TSX:` or a bare symbol), keeping only exact ticker matches:
 * one listing is found, a bare symbol listed in both markets is ambiguous, none is unknown. Entries
 * resolving to a listing seen earlier are marked duplicates; listings already saved are marked too.
 * Nothing is saved here: the WatchList adds what the user picks to its editing state.
 */
import {
  listingPlan,
  parseWatchlistText,
  stripControlCharacters,
  type WatchlistExportResponse,
  type WatchlistImportEntryResult,
  type WatchlistImportPreviewResponse,
  type WatchlistListing,
} from '@signalboard/core';
import { settleInCompletionOrder } from '../../lib/completion-order';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { FavoritesRepo } from './watchlist.repo';

/** Lookups under way at once (each is one cached provider call). */
const LOOKUP_CONCURRENCY = 8;

export interface WatchlistImportDeps {
  market: Pick<CachedMarket, 'lookupSymbols'>;
  favorites: Pick<FavoritesRepo, 'list'>;
}

type Lookup = { market: 'US' | 'TO'; symbol: string };
const lookupKey = ({ market, symbol }: Lookup) => `${market}:${symbol}`;

export function createWatchlistImportService(deps: WatchlistImportDeps) {
  const { market, favorites } = deps;

  /** The exact listing of each lookup (null: the market has no such ticker), each asked once. */
  async function listingsOf(lookups: readonly Lookup[]): Promise<Map<string, WatchlistListing | null>> {
    const unique = [...new Map(lookups.map((lookup) => [lookupKey(lookup), lookup])).values()];
    const found = new Map<string, WatchlistListing | null>();
    for await (const outcome of settleInCompletionOrder(unique, LOOKUP_CONCURRENCY, async ({ market: where, symbol }) => {
      // Toronto tickers are asked bare (`RY`), as the provider's search takes them, and matched as `RY.TO`.
      const query = where === 'TO' ? symbol.replace(/\.TO$/, '') : symbol;
      const { value } = await market.lookupSymbols(query, where);
      return value.find((info) => info.symbol.toUpperCase() === symbol) ?? null;
    })) {
      // A provider failure fails the preview (502/503 with its msg): a guess would be worse.
      if (!outcome.ok) throw outcome.error;
      const info = outcome.value;
      found.set(lookupKey(outcome.item), info ? { symbol: info.symbol.toUpperCase(), description: stripControlCharacters(info.description, 'single'), exchange: info.exchange } : null);
    }
    return found;
  }

  return {
    async preview(userId: number, text: string): Promise<WatchlistImportPreviewResponse> {
      const parse = parseWatchlistText(text);
      const plans = parse.entries.map((entry) => ({ entry, plan: listingPlan(entry) }));
      const lookups = plans.flatMap(({ plan }): Lookup[] =>
        plan.kind === 'refused' ? [] : [...(plan.us ? [{ market: 'US' as const, symbol: plan.us }] : []), ...(plan.canadian ? [{ market: 'TO' as const, symbol: plan.canadian }] : [])],
      );
      const [listings, saved] = await Promise.all([listingsOf(lookups), favorites.list(userId)]);
      const savedSymbols = new Set(saved.map((favorite) => favorite.symbol.toUpperCase()));
      const firstLineOf = new Map<string, number>();
      const entries = plans.map(({ entry, plan }): WatchlistImportEntryResult => {
        const base = { line: entry.line, raw: entry.raw };
        if (plan.kind === 'refused') return { ...base, status: 'unknown', reason: plan.reason };
        const us = plan.us ? listings.get(lookupKey({ market: 'US', symbol: plan.us })) : null;
        const canadian = plan.canadian ? listings.get(lookupKey({ market: 'TO', symbol: plan.canadian })) : null;
        const candidates = [us, canadian].filter((listing): listing is WatchlistListing => Boolean(listing));
        // Same listing (or the same pair to choose from) as an earlier entry: marked, not repeated.
        const key = candidates.map((listing) => listing.symbol).join('|');
        const earlier = key ? firstLineOf.get(key) : undefined;
        if (key && earlier === undefined) firstLineOf.set(key, entry.line);
        const duplicate = earlier === undefined ? {} : { duplicateOfLine: earlier };
        if (candidates.length === 0) {
          const where = plan.us && plan.canadian ? `${plan.us} is not listed in the US or on the TSX` : plan.us ? `${plan.us} is not listed on a US exchange` : `${plan.canadian} is not listed on the TSX`;
          return { ...base, status: 'unknown', reason: `${where} (no exact match in the symbol lookup).` };
        }
        if (candidates.length === 1) {
          const listing = candidates[0]!;
          return { ...base, ...duplicate, status: 'found', ...listing, inFavorites: savedSymbols.has(listing.symbol) };
        }
        return { ...base, ...duplicate, status: 'ambiguous', candidates: candidates.map((listing) => ({ ...listing, inFavorites: savedSymbols.has(listing.symbol) })) };
      });
      return { format: parse.format, entries, problems: parse.problems };
    },

    /** The saved favourites with their exchange: `TSX` for `.TO`, else the US listing's ('' if unknown). */
    async export(userId: number): Promise<WatchlistExportResponse> {
      const saved = await favorites.list(userId);
      const lookups = saved.filter((favorite) => !favorite.symbol.endsWith('.TO')).map((favorite) => ({ market: 'US' as const, symbol: favorite.symbol.toUpperCase() }));
      const listings = await listingsOf(lookups);
      return {
        stocks: saved.map((favorite) => ({
          symbol: favorite.symbol,
          description: favorite.description,
          exchange: favorite.symbol.endsWith('.TO') ? 'TSX' : (listings.get(lookupKey({ market: 'US', symbol: favorite.symbol.toUpperCase() }))?.exchange ?? ''),
        })),
      };
    },
  };
}

export type WatchlistImportService = ReturnType<typeof createWatchlistImportService>;
