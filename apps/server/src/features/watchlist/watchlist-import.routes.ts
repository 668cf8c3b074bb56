import type { FastifyInstance } from 'fastify';
import { watchlistEndpoints, WATCHLIST_IMPORT_MAX_BYTES } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import type { UserLimit } from '../../lib/user-limit';
import type { WatchlistImportService } from './watchlist-import.service';

/**
 * The WatchList's Import preview and Export (docs/data-in-and-out.md "Watchlist import and export").
 * `limit`: previews per user (WATCHLIST_IMPORT_MAX_PER_USER every WATCHLIST_IMPORT_WINDOW_SECONDS, the
 * container's userLimits.watchlistImport); each well-formed call counts (a 413 too), 429 past it before any lookup.
 */
export async function watchlistImportRoutes(app: FastifyInstance, options: { service: WatchlistImportService; limit: UserLimit }) {
  const { service, limit } = options;

  route(app, watchlistEndpoints.previewWatchlistImport, async (request, _reply, { text }) => {
    await limit.hit(request.user.id);
    if (Buffer.byteLength(text, 'utf8') > WATCHLIST_IMPORT_MAX_BYTES) {
      throw new HttpError(413, `The watchlist is larger than 1 MB (${WATCHLIST_IMPORT_MAX_BYTES.toLocaleString('en-US')} bytes). Split it into smaller files.`);
    }
    return service.preview(request.user.id, text);
  });

  route(app, watchlistEndpoints.exportWatchlist, async (request) => service.export(request.user.id));
}
