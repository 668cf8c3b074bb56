import { adminEndpoints, PRICE_IMPORT_MAX_BYTES, type ImportedSymbol, type MsgBody, type PriceFileFormatBody, type PriceImportResponse } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiCall } from '../../../lib/client';

/** GET api/admin/prices: every imported symbol with its range, rows, last close and source file. */
export const importedPricesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'prices'],
    queryFn: async ({ signal }): Promise<ImportedSymbol[]> => (await apiCall(adminEndpoints.adminImportedPrices, { signal })).symbols,
    retry: false,
    staleTime: 5_000,
  });

/** What an import sends beside the file: the preview's choices. */
export interface PriceImportChoices {
  /** The format chosen in the preview; detected by the server when absent. */
  format?: PriceFileFormatBody | null;
  /** The symbol of a file without a symbol column; empty: from the file's name. */
  symbol?: string;
  /** The dates of the splits whose earlier bars are adjusted. */
  adjustSplits?: readonly string[];
  /** The listings of the symbols new to the installation, by symbol (at most PRICE_IMPORT_MAX_LISTINGS). */
  listings?: Readonly<Record<string, { description: string; exchange: string; sector: string }>>;
}

/**
 * The server runs one import (or preview) at a time and answers another 409: this tab's calls wait
 * for each other, so previews of several chosen files follow one another.
 */
let queue: Promise<unknown> = Promise.resolve();
function inTurn<T>(call: () => Promise<T>): Promise<T> {
  const next = queue.then(call, call);
  queue = next.catch(() => undefined);
  return next;
}

/** POST api/admin/prices/import with the file as the body: a preview (`dryRun`) or the import itself. */
export async function sendPriceFile(file: File, choices: PriceImportChoices, dryRun: boolean, signal?: AbortSignal): Promise<PriceImportResponse> {
  // The server's limit, told before the upload rather than after it (its own 413 says the same).
  if (file.size > PRICE_IMPORT_MAX_BYTES) throw new ApiError(`${file.name} is larger than ${PRICE_IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files.`, 413);
  // An empty field is left out: the server takes an earlier import's, the source's, or the symbol.
  const listings = Object.entries(choices.listings ?? {})
    .map(([symbol, listing]) => [symbol, Object.fromEntries(Object.entries(listing).flatMap(([field, value]) => (value.trim() ? [[field, value.trim()]] : [])))] as const)
    .filter(([, fields]) => Object.keys(fields).length > 0);
  const query = {
    name: file.name,
    dry_run: dryRun ? 'true' : 'false',
    ...(choices.format ? { format: JSON.stringify(choices.format) } : {}),
    ...(choices.symbol ? { symbol: choices.symbol } : {}),
    ...(choices.adjustSplits?.length ? { adjust_splits: choices.adjustSplits.join(',') } : {}),
    ...(listings.length > 0 ? { listings: JSON.stringify(Object.fromEntries(listings)) } : {}),
  } as const;
  return inTurn(() => apiCall(adminEndpoints.adminImportPrices, { query, body: file, signal }));
}

/** POST api/admin/prices/remove {symbol}; the list and the audit log are read again after it. */
export function useRemoveImportedPrices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (symbol: string): Promise<MsgBody> => apiCall(adminEndpoints.adminRemoveImportedPrices, { body: { symbol } }),
    // The top bar's "Imported prices" badge counts the imported symbols (api/health).
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: ['admin'] }), client.invalidateQueries({ queryKey: ['health'] })]),
  });
}
