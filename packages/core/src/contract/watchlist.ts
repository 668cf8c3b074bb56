import { z } from 'zod';
import { FAVORITES_BATCH_MAX } from '../constants';
import { singleLineText, type TextOptions } from '../validation/text';

/** Symbols are trimmed and upper-cased; letters, digits and . - ^ = : are allowed (BRK.B, RY.TO, ^GSPC). */
export const symbolText = (typeError: TextOptions['typeError']) =>
  singleLineText('Symbol', { typeError, examples: ['AAPL', 'RY.TO', 'BTC'] })
    .transform((value) => value.toUpperCase())
    .refine((value) => value.length > 0, { message: 'Symbol is required' })
    .refine((value) => value.length <= 20, { message: 'Symbol must be at most 20 characters' })
    .refine((value) => /^[A-Z0-9.\-^=:]+$/.test(value), {
      message: 'Symbol may hold only letters, digits and . - ^ = :',
    });

export const stockSymbol = symbolText('symbol must be text');

export const favoriteStock = z.object({
  symbol: stockSymbol,
  description: singleLineText('Description', { typeError: 'description must be text', examples: ['Apple Inc.'] })
    .refine((value) => value.length <= 200, { message: 'Description must be at most 200 characters' })
    .default(''),
});
export type FavoriteStock = z.output<typeof favoriteStock>;

/** GET api/get_favorite_stocks: the user's favourites, oldest first. */
export const getFavoriteStocksResponse = z.array(
  z.object({ symbol: z.string(), description: z.string() }),
);
export type GetFavoriteStocksResponse = z.infer<typeof getFavoriteStocksResponse>;

/** POST api/delete_favorite_stocks */
export const deleteFavoriteStocksRequest = z.object({
  symbols: z
    .array(stockSymbol, { error: 'symbols must be a list of stock symbols' })
    .min(1, 'symbols must name at least one symbol')
    .max(FAVORITES_BATCH_MAX, `symbols may name at most ${FAVORITES_BATCH_MAX} symbols`),
});
export type DeleteFavoriteStocksRequest = z.input<typeof deleteFavoriteStocksRequest>;
export const deleteFavoriteStocksResponse = z.object({ msg: z.string(), deleted: z.number() });

/** POST api/batch_update_favorite_stocks: upsert by symbol. */
export const batchUpdateFavoriteStocksRequest = z.object({
  stocks: z
    .array(favoriteStock, { error: 'stocks must be a list of {symbol, description}' })
    .min(1, 'stocks must hold at least one stock')
    .max(FAVORITES_BATCH_MAX, `stocks may hold at most ${FAVORITES_BATCH_MAX} stocks`),
});
export type BatchUpdateFavoriteStocksRequest = z.input<typeof batchUpdateFavoriteStocksRequest>;
export const batchUpdateFavoriteStocksResponse = z.object({ msg: z.string(), saved: z.number() });
