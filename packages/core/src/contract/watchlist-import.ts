import { z } from 'zod';
import { multiLineText } from '../validation/text';

/**
 * POST api/watchlist/import_preview: a pasted or uploaded watchlist, read and looked up
 * (docs/data-in-and-out.md "Watchlist import and export"). The size limit (1 MB of UTF-8) is checked
 * by the route, which answers 413 with a `msg`; lines and entries past their limits are problems.
 */
export const watchlistImportPreviewRequest = z.object({
  text: multiLineText('The watchlist text', { typeError: 'text must be the watchlist as text', examples: ['NASDAQ:AAPL,###Canada,TSX:RY,T'] }),
});
export type WatchlistImportPreviewRequest = z.input<typeof watchlistImportPreviewRequest>;

const listing = z.object({ symbol: z.string(), description: z.string(), exchange: z.string() });
export type WatchlistListing = z.infer<typeof listing>;

const entryBase = {
  /** The 1-based line of the text the entry is on. */
  line: z.number().int(),
  /** The entry as written. */
  raw: z.string(),
  /** An earlier entry (its line) resolved to the same listing: this one adds nothing. */
  duplicateOfLine: z.number().int().optional(),
};

export const watchlistImportEntry = z.discriminatedUnion('status', [
  /** One US or Canadian listing: the symbol to store (`RY.TO` for Toronto), its description and exchange. */
  z.object({ ...entryBase, status: z.literal('found'), ...listing.shape, inFavorites: z.boolean() }),
  /** A bare symbol listed in both the US and Toronto: the user picks one of `candidates`. */
  z.object({ ...entryBase, status: z.literal('ambiguous'), candidates: z.array(listing.extend({ inFavorites: z.boolean() })) }),
  /** No US or Canadian listing: why. */
  z.object({ ...entryBase, status: z.literal('unknown'), reason: z.string() }),
]);
export type WatchlistImportEntryResult = z.infer<typeof watchlistImportEntry>;

export const watchlistImportPreviewResponse = z.object({
  /** How the text was read; null when it was empty or refused whole. */
  format: z.enum(['tradingview', 'csv', 'lines']).nullable(),
  entries: z.array(watchlistImportEntry),
  /** Lines that could not be read, each with why. */
  problems: z.array(z.object({ line: z.number().int(), message: z.string() })),
});
export type WatchlistImportPreviewResponse = z.infer<typeof watchlistImportPreviewResponse>;

/** GET api/watchlist/export: the saved favourites with their exchange ('' when the market data does not know it). */
export const watchlistExportResponse = z.object({ stocks: z.array(listing) });
export type WatchlistExportResponse = z.infer<typeof watchlistExportResponse>;
