import type { BatchUpdateFavoriteStocksRequest } from '@signalboard/core';
import { apiRequest } from './client';

export const batchUpdateFavoriteStocks = (body: BatchUpdateFavoriteStocksRequest) =>
  apiRequest<{ msg: string; saved: number }>('batch_update_favorite_stocks', { json: body });
