/**
 * Whether a figure comes from an imported price file (docs/data-in-and-out.md, "Where imported figures
 * are labelled"): daily bars served from an import carry `candles.provider: 'imported'`
 * (imported-market.ts), and a quote made of the last imported bar carries `lastBar: true`.
 */
import type { Bars, Quote } from '../types';

export const IMPORTED_CANDLES_PROVIDER = 'imported';

export const barsAreImported = (bars: Pick<Bars, 'candles'>): boolean => bars.candles?.provider === IMPORTED_CANDLES_PROVIDER;

export const quoteIsImported = (quote: Pick<Quote, 'lastBar'>): boolean => quote.lastBar === true;
