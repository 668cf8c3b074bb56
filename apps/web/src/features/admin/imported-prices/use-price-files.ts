import type { PriceFileFormatBody, PriceImportResponse } from '@signalboard/core';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { messageOf } from '../../../lib/client';
import { sendPriceFile } from '../api/prices';
import type { Listing } from './price-series-report';

/** A file the admin chose, with the choices made in its preview. */
export interface ChosenFile {
  id: number;
  file: File;
  /** The format chosen in the preview; null: the server's detection. */
  format: PriceFileFormatBody | null;
  /** The dates of the splits to adjust. */
  adjust: string[];
  /** The listing given for a new symbol; null: the preview's. */
  listing: Listing | null;
}

/** What one file's import did: its report, or why it failed. */
export type ImportOutcome = { file: string; report: PriceImportResponse } | { file: string; failure: string };

/**
 * The chosen files, each previewed (a dry run, read again when its format changes), and their
 * import one after another; the imported list and the audit log are read again after it.
 */
export function usePriceFiles() {
  const client = useQueryClient();
  const nextId = useRef(1);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  const [importing, setImporting] = useState(false);
  const [outcomes, setOutcomes] = useState<ImportOutcome[]>([]);

  const previews = useQueries({
    queries: files.map((chosen) => ({
      queryKey: ['price-file-preview', chosen.id, chosen.format] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) => sendPriceFile(chosen.file, { format: chosen.format }, true, signal),
      retry: false,
      staleTime: Infinity,
      gcTime: 60_000,
      refetchOnWindowFocus: false,
    })),
  });

  function choose(list: FileList | readonly File[]) {
    const added = Array.from(list, (file) => ({ id: nextId.current++, file, format: null, adjust: [], listing: null }));
    setFiles((current) => [...current, ...added]);
    setOutcomes([]);
  }
  const change = (id: number, next: Partial<Omit<ChosenFile, 'id' | 'file'>>) => setFiles((current) => current.map((chosen) => (chosen.id === id ? { ...chosen, ...next } : chosen)));
  const drop = (id: number) => setFiles((current) => current.filter((chosen) => chosen.id !== id));

  /** Why Import cannot run yet; null when it can. */
  function blocker(): string | null {
    if (files.length === 0) return null;
    const checking = files.filter((_, index) => previews[index]?.isPending || previews[index]?.isFetching);
    if (checking.length > 0) return 'Wait until every file is checked.';
    const failed = files.find((_, index) => previews[index]?.isError);
    if (failed) return `${failed.file.name} could not be checked: check it again, or don't import it.`;
    const refused = files.find((_, index) => (previews[index]?.data?.error_count ?? 0) > 0);
    if (refused) return `${refused.file.name} has errors: fix the file or its columns, or don't import it.`;
    return null;
  }

  async function importAll() {
    setImporting(true);
    const done: ImportOutcome[] = [];
    const stored: number[] = [];
    for (const [index, chosen] of files.entries()) {
      const series = previews[index]?.data?.series ?? [];
      const listing = chosen.listing ?? undefined;
      try {
        const report = await sendPriceFile(chosen.file, { format: chosen.format, adjustSplits: chosen.adjust, ...(listing && series.length === 1 ? { listing } : {}) }, false);
        done.push({ file: chosen.file.name, report });
        if (report.stored) stored.push(chosen.id);
      } catch (error) {
        done.push({ file: chosen.file.name, failure: messageOf(error) });
      }
    }
    setOutcomes(done);
    setFiles((current) => current.filter((chosen) => !stored.includes(chosen.id)));
    setImporting(false);
    await client.invalidateQueries({ queryKey: ['admin'] });
  }

  return { files, previews, choose, change, drop, blocker: blocker(), importing, importAll, outcomes };
}
