/** The favourites (watchlist) and their quotes. */
import {
  batchUpdateFavoriteStocksRequest,
  batchUpdateFavoriteStocksResponse,
  deleteFavoriteStocksRequest,
  deleteFavoriteStocksResponse,
  favoriteQuotesResponse,
  getFavoriteStocksResponse,
} from '../contract/index';
import { defineEndpoint, endpointGroup } from './define';

export const watchlistEndpoints = endpointGroup({
  getFavoriteStocks: defineEndpoint({ operationId: 'getFavoriteStocks', method: 'get', path: '/api/get_favorite_stocks', summary: 'Favourites, oldest first', response: getFavoriteStocksResponse }),
  deleteFavoriteStocks: defineEndpoint({ operationId: 'deleteFavoriteStocks', method: 'post', path: '/api/delete_favorite_stocks', summary: 'Remove favourites', body: deleteFavoriteStocksRequest, response: deleteFavoriteStocksResponse }),
  batchUpdateFavoriteStocks: defineEndpoint({ operationId: 'batchUpdateFavoriteStocks', method: 'post', path: '/api/batch_update_favorite_stocks', summary: 'Add or update favourites (upsert by symbol)', body: batchUpdateFavoriteStocksRequest, response: batchUpdateFavoriteStocksResponse }),
  getFavoriteQuotes: defineEndpoint({ operationId: 'getFavoriteQuotes', method: 'get', path: '/api/favorites/quotes', summary: 'Last price and day change of each favourite', response: favoriteQuotesResponse }),
});
