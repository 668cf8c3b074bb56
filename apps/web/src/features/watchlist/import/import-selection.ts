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

/** What an entry adds (its listing, or the pair to pick from), to tell repeats apart. */
function listingKey(entry: WatchlistImportEntryResult): string {
  if (entry.status === 'found') return entry.symbol;
  if (entry.status === 'ambiguous') return entry.candidates.map((candidate) => candidate.symbol).join('|');
  return `?${entry.raw}`;
}

/**
 * Where an entry is, so that each control's name is unique: "line 3"; when the same listing comes
 * more than once on one line (a TradingView list is often one line), "line 1, 2nd time".
 */
export function entryPlace(entries: readonly WatchlistImportEntryResult[], index: number): string {
  const entry = entries[index]!;
  const sameOnLine = entries.map((other, at) => ({ other, at })).filter(({ other }) => other.line === entry.line && listingKey(other) === listingKey(entry));
  if (sameOnLine.length === 1) return `line ${entry.line}`;
  const nth = sameOnLine.findIndex(({ at }) => at === index) + 1;
  return `line ${entry.line}, ${ordinal(nth)} time`;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
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
