import type { PriceFileFormatBody, PriceImportResponse } from '@signalboard/core';
import { keepPreviousData, useQueries, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageOf } from '../../../lib/client';
import { sendPriceFile } from '../api/prices';
import type { Listing } from './price-series-report';

/** A file the admin chose, with the choices made in its preview. */
export interface ChosenFile {
  id: number;
  file: File;
  /** The format shown in the preview (perhaps not readable yet: two roles on one column); null: the server's detection. */
  format: PriceFileFormatBody | null;
  /** The format the preview and the import send: the last one shown that can be read; null: the server's detection. */
  sentFormat: PriceFileFormatBody | null;
  /** The symbol given for a file without a symbol column; empty: from the file's name. */
  symbol: string;
  /** The dates of the splits to adjust. */
  adjust: string[];
  /** The listings given for the file's new symbols, by symbol (a symbol not here: the preview's). */
  listings: Readonly<Record<string, Listing>>;
}

/** What one file's import did: its report, or why it failed. */
export type ImportOutcome = { file: string; report: PriceImportResponse } | { file: string; failure: string };

/** Why the parser could not read a file with `format` (it would refuse it); null when it can. */
export function formatProblemOf(format: PriceFileFormatBody | null): string | null {
  if (!format) return null;
  if (format.decimal_comma && format.separator === ',') return 'A decimal comma needs another separator than the comma.';
  const columns = Object.values(format.mapping).filter((column): column is number => column !== null);
  const twice = columns.find((column, index) => columns.indexOf(column) !== index);
  return twice === undefined ? null : `Column ${twice + 1} is chosen for two roles: give each role its own column.`;
}

/** What the preview and the import send for a file. */
const choicesOf = (chosen: ChosenFile) => ({ format: chosen.sentFormat, symbol: chosen.symbol.trim() });

/** Why `report` cannot be imported as it is; null when it can. */
export function refusalOf(name: string, report: PriceImportResponse): string | null {
  if (report.error_count > 0) return `${name} has errors: fix the file or its columns, or don't import it.`;
  if (!report.format) return `Choose how ${name} is read: its columns could not be recognised.`;
  if (report.series.length === 0) return `${name} has no bars to import.`;
  return null;
}

/**
 * The chosen files, each previewed (a dry run, read again when its format or symbol changes; the
 * last answer stays shown meanwhile), and their import one after another; the imported list and
 * the audit log are read again after it.
 */
export function usePriceFiles() {
  const client = useQueryClient();
  const nextId = useRef(1);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  const [importing, setImporting] = useState(false);
  const [outcomes, setOutcomes] = useState<ImportOutcome[]>([]);

  const previews = useQueries({
    queries: files.map((chosen) => {
      const choices = choicesOf(chosen);
      return {
        queryKey: ['price-file-preview', chosen.id, choices] as const,
        queryFn: ({ signal }: { signal: AbortSignal }) => sendPriceFile(chosen.file, choices, true, signal),
        placeholderData: keepPreviousData,
        retry: false,
        staleTime: Infinity,
        gcTime: 60_000,
        refetchOnWindowFocus: false,
      };
    }),
  });

  function choose(list: FileList | readonly File[]) {
    const added = Array.from(list, (file): ChosenFile => ({ id: nextId.current++, file, format: null, sentFormat: null, symbol: '', adjust: [], listings: {} }));
    setFiles((current) => [...current, ...added]);
    setOutcomes([]);
  }
  /** A choice made in a file's preview; a format is sent only once it can be read. */
  function change(id: number, next: Partial<Omit<ChosenFile, 'id' | 'file' | 'sentFormat'>>) {
    const sent = next.format && !formatProblemOf(next.format) ? { sentFormat: next.format } : {};
    setFiles((current) => current.map((chosen) => (chosen.id === id ? { ...chosen, ...next, ...sent } : chosen)));
  }
  const drop = (id: number) => setFiles((current) => current.filter((chosen) => chosen.id !== id));

  /** Why Import cannot run yet; null when it can. */
  function blocker(): string | null {
    for (const [index, chosen] of files.entries()) {
      const preview = previews[index];
      const problem = formatProblemOf(chosen.format);
      if (problem) return `${chosen.file.name}: ${problem}`;
      if (!preview || preview.isFetching) return 'Wait until every file is checked.';
      if (preview.isError) return `${chosen.file.name} could not be checked: check it again, or don't import it.`;
      const refusal = preview.data && refusalOf(chosen.file.name, preview.data);
      if (refusal) return refusal;
    }
    return null;
  }

  async function importAll() {
    setImporting(true);
    const done: ImportOutcome[] = [];
    const stored: number[] = [];
    for (const [index, chosen] of files.entries()) {
      // The listings of the symbols this file still has (a symbol given, then changed, is not sent).
      const symbols = new Set((previews[index]?.data?.series ?? []).map((series) => series.symbol));
      const listings = Object.fromEntries(Object.entries(chosen.listings).filter(([symbol]) => symbols.has(symbol)));
      try {
        const report = await sendPriceFile(chosen.file, { ...choicesOf(chosen), adjustSplits: chosen.adjust, listings }, false);
        done.push({ file: chosen.file.name, report });
        if (report.stored) stored.push(chosen.id);
      } catch (error) {
        done.push({ file: chosen.file.name, failure: messageOf(error) });
      }
    }
    setOutcomes(done);
    setFiles((current) => current.filter((chosen) => !stored.includes(chosen.id)));
    setImporting(false);
    // The top bar's "Imported prices" badge counts the imported symbols (api/health).
    await Promise.all([client.invalidateQueries({ queryKey: ['admin'] }), client.invalidateQueries({ queryKey: ['health'] })]);
  }

  return { files, previews, choose, change, drop, blocker: blocker(), importing, importAll, outcomes };
}
