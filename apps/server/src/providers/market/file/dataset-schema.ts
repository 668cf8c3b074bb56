/**
 * The dataset's JSON files as MARKET_DATA=file reads them (docs/market-data.md): each schema says
 * what a valid file holds, and its messages name the problem a bad file is refused for.
 */
import { isIsoDate } from '@signalboard/core';
import { z } from 'zod';

export const isoDate = z.string().refine(isIsoDate, { message: 'must be a date as YYYY-MM-DD' });
export const fraction = z.number().min(0, 'must be a fraction 0–1').max(1, 'must be a fraction 0–1');

export const symbolInfo = z.object({
  symbol: z.string().trim().min(1),
  description: z.string(),
  market: z.enum(['US', 'TO', 'CRYPTO']),
  exchange: z.string(),
  country: z.string(),
  currency: z.enum(['USD', 'CAD']).default('USD'),
  assetClass: z.enum(['stock', 'etf', 'crypto']).default('stock'),
  sector: z.string().optional(),
  industry: z.string().optional(),
});
export const article = z.object({
  id: z.string(),
  headline: z.string(),
  summary: z.string().default(''),
  source: z.string().default(''),
  category: z.string().default('general'),
  datetime: z.number(),
  url: z.string().default(''),
  image: z.string().default(''),
  related: z.string().default(''),
});
export const sentiment = z.object({
  bullishPercent: fraction,
  bearishPercent: fraction,
  sectorAverageBullishPercent: fraction,
  sectorAverageNewsScore: fraction.default(0.5),
  companyNewsScore: fraction.default(0.5),
  articlesInLastWeek: z.number().min(0).default(0),
  weeklyAverage: z.number().min(0).default(0),
});
export const earnings = z.object({
  symbol: z.string(),
  date: isoDate,
  hour: z.enum(['bmo', 'amc', 'dmh', '']).default(''),
  epsActual: z.number().nullable().default(null),
  epsEstimate: z.number().nullable().default(null),
  revenueActual: z.number().nullable().default(null),
  revenueEstimate: z.number().nullable().default(null),
  quarter: z.number().default(0),
  year: z.number().default(0),
  exchange: z.string().optional(),
  country: z.string().optional(),
});
export const quote = z.object({
  price: z.number().positive(),
  previousClose: z.number().positive(),
  open: z.number().positive().optional(),
  high: z.number().positive().optional(),
  low: z.number().positive().optional(),
  volume: z.number().min(0).optional(),
  timestamp: z.number().optional(),
});
export const optionChain = z.object({
  symbol: z.string(),
  /** The session whose quotes the chain holds (at its close, or so far while it runs); none: the chain now. */
  asOf: isoDate.optional(),
  underlyingPrice: z.number().min(0),
  expirations: z.array(isoDate),
  contracts: z.array(
    z.object({
      contractSymbol: z.string(),
      type: z.enum(['call', 'put']),
      strike: z.number().positive(),
      expiration: isoDate,
      lastPrice: z.number().min(0),
      bid: z.number().min(0),
      ask: z.number().min(0),
      volume: z.number().min(0),
      openInterest: z.number().min(0),
      impliedVolatility: z.number().min(0),
    }),
  ),
});
export const economicSeries = z.object({
  id: z.string(),
  name: z.string(),
  unit: z.string(),
  frequency: z.enum(['Daily', 'Weekly', 'Monthly', 'Quarterly']),
  observations: z.array(z.object({ date: isoDate, value: z.number() })),
});
