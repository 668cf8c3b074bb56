/** The favourites (watchlist) and their quotes. */
import {
  batchUpdateFavoriteStocksRequest,
  batchUpdateFavoriteStocksResponse,
  deleteFavoriteStocksRequest,
  deleteFavoriteStocksResponse,
  favoriteQuotesResponse,
  getFavoriteStocksResponse,
  watchlistExportResponse,
  watchlistImportPreviewRequest,
  watchlistImportPreviewResponse,
} from '../contract/index';
import { defineEndpoint, endpointGroup, MARKET_DATA } from './define';

export const watchlistEndpoints = endpointGroup({
  getFavoriteStocks: defineEndpoint({ operationId: 'getFavoriteStocks', method: 'get', path: '/api/get_favorite_stocks', summary: 'Favourites, oldest first', response: getFavoriteStocksResponse }),
  deleteFavoriteStocks: defineEndpoint({ operationId: 'deleteFavoriteStocks', method: 'post', path: '/api/delete_favorite_stocks', summary: 'Remove favourites', body: deleteFavoriteStocksRequest, response: deleteFavoriteStocksResponse }),
  batchUpdateFavoriteStocks: defineEndpoint({ operationId: 'batchUpdateFavoriteStocks', method: 'post', path: '/api/batch_update_favorite_stocks', summary: 'Add or update favourites (upsert by symbol)', body: batchUpdateFavoriteStocksRequest, response: batchUpdateFavoriteStocksResponse }),
  previewWatchlistImport: defineEndpoint({ operationId: 'previewWatchlistImport', method: 'post', path: '/api/watchlist/import_preview', summary: 'Read a watchlist (TradingView list, CSV with a symbol column, or one symbol a line; 1 MB, 2,000 lines) and look up each entry\'s US or Canadian listing; nothing is saved', body: watchlistImportPreviewRequest, response: watchlistImportPreviewResponse, errors: MARKET_DATA }),
  exportWatchlist: defineEndpoint({ operationId: 'exportWatchlist', method: 'get', path: '/api/watchlist/export', summary: 'The saved favourites with their exchange, for the CSV and TradingView downloads', response: watchlistExportResponse, errors: MARKET_DATA }),
  getFavoriteQuotes: defineEndpoint({ operationId: 'getFavoriteQuotes', method: 'get', path: '/api/favorites/quotes', summary: 'Last price and day change of each favourite', response: favoriteQuotesResponse }),
});
