import type { FastifyInstance } from 'fastify';
import { watchlistEndpoints, WATCHLIST_IMPORT_MAX_BYTES } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import type { WatchlistImportService } from './watchlist-import.service';

/** The WatchList's Import preview and Export (docs/data-in-and-out.md "Watchlist import and export"). */
export async function watchlistImportRoutes(app: FastifyInstance, options: { service: WatchlistImportService }) {
  const { service } = options;

  route(app, watchlistEndpoints.previewWatchlistImport, async (request, _reply, { text }) => {
    if (Buffer.byteLength(text, 'utf8') > WATCHLIST_IMPORT_MAX_BYTES) {
      throw new HttpError(413, `The watchlist is larger than 1 MB (${WATCHLIST_IMPORT_MAX_BYTES.toLocaleString('en-US')} bytes). Split it into smaller files.`);
    }
    return service.preview(request.user.id, text);
  });

  route(app, watchlistEndpoints.exportWatchlist, async (request) => service.export(request.user.id));
}
