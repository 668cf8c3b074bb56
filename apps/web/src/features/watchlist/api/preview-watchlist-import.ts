import { watchlistEndpoints } from '@signalboard/core';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/watchlist/import_preview: the text read and each entry looked up; nothing is saved. */
export const previewWatchlistImport = (text: string) => apiCall(watchlistEndpoints.previewWatchlistImport, { body: { text } });

/** A mutation (the user asks for it with Preview), not a query: the same text may be asked again. */
export const usePreviewWatchlistImport = () => useMutation({ mutationFn: previewWatchlistImport });
