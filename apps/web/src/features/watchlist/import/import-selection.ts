/**
 * What the import preview lets the user add (docs/data-in-and-out.md "Watchlist import and export"):
 * a found entry is ticked by default unless it is already in the list being edited or repeats an
 * earlier entry; an ambiguous entry adds nothing until a listing is picked; an unknown one never adds.
 */
import type { WatchlistImportEntryResult, WatchlistImportPreviewResponse } from '@signalboard/core';
import { sameSymbol, type FavoriteRow } from '../favorites-editing';

/** Per entry (by index): the symbol it adds, or null. */
export type ImportSelection = ReadonlyArray<string | null>;

/** Why a found entry cannot be ticked, or null when it can. */
export function blockedReason(entry: WatchlistImportEntryResult, favorites: readonly FavoriteRow[]): string | null {
  if (entry.duplicateOfLine !== undefined) return `Same as line ${entry.duplicateOfLine}`;
  if (entry.status === 'found' && favorites.some((row) => sameSymbol(row.symbol, entry.symbol))) return 'Already in your favorites';
  return null;
}

export function initialSelection(preview: WatchlistImportPreviewResponse, favorites: readonly FavoriteRow[]): ImportSelection {
  return preview.entries.map((entry) => (entry.status === 'found' && blockedReason(entry, favorites) === null ? entry.symbol : null));
}

/** The stocks the selection adds, in the file's order, each once and none already in the list. */
export function selectedStocks(preview: WatchlistImportPreviewResponse, selection: ImportSelection, favorites: readonly FavoriteRow[]): FavoriteRow[] {
  const out: FavoriteRow[] = [];
  preview.entries.forEach((entry, index) => {
    const symbol = selection[index];
    if (!symbol) return;
    const listing = entry.status === 'found' ? entry : entry.status === 'ambiguous' ? entry.candidates.find((candidate) => candidate.symbol === symbol) : undefined;
    if (!listing) return;
    if ([...favorites, ...out].some((row) => sameSymbol(row.symbol, listing.symbol))) return;
    out.push({ symbol: listing.symbol, description: listing.description });
  });
  return out;
}

/** "6 found · 1 to pick · 2 unknown · 1 unreadable line" */
export function previewSummary(preview: WatchlistImportPreviewResponse): string {
  const count = (status: WatchlistImportEntryResult['status']) => preview.entries.filter((entry) => entry.status === status).length;
  const parts = [`${count('found')} found`, `${count('ambiguous')} to pick`, `${count('unknown')} unknown`];
  const bad = preview.problems.length;
  if (bad > 0) parts.push(`${bad} unreadable ${bad === 1 ? 'line' : 'lines'}`);
  return parts.join(' · ');
}

export const FORMAT_NAMES: Record<NonNullable<WatchlistImportPreviewResponse['format']>, string> = {
  tradingview: 'a TradingView list',
  csv: 'a CSV with a symbol column',
  lines: 'one symbol per line',
};
