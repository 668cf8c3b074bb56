import {
  dashboardEndpoints,
  marketEndpoints,
  type EarningsRow,
  type EconomicIndicator,
  type MarketOverview,
  type OverallSentiment,
  type SectorSentiment,
} from '@signalboard/core';
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/**
 * The Market Dashboard's calls (spec §7 "Economic indicators", "Sector sentiment", "Overall
 * sentiment", "Earnings"; api/market_overview beyond the spec). Each answer is checked against the
 * core contract: an answer of the wrong shape rejects with an UnexpectedAnswerError (not an ApiError), which the
 * screen reports as 'An unexpected error occurred while loading dashboard data.'
 */

/** GET api/all_overall_sentiment: the overall summaries, newest first. */
export async function getOverallSentiment(signal?: AbortSignal): Promise<OverallSentiment[]> {
  return apiCall(dashboardEndpoints.getOverallSentiment, { signal });
}

/** GET api/sector_sentiment_scanner: one summary (and its news, as JSON text) per GICS sector. */
export async function getSectorSentiments(signal?: AbortSignal): Promise<SectorSentiment[]> {
  return apiCall(dashboardEndpoints.getSectorSentiment, { signal });
}

/** GET api/top_economic_indicators: the key indicators (values as JSON text, newest first). */
export async function getEconomicIndicators(signal?: AbortSignal): Promise<EconomicIndicator[]> {
  return apiCall(dashboardEndpoints.getEconomicIndicators, { signal });
}

/** GET api/market_overview: market status, the index strip and the sector heatmap. */
export async function getMarketOverview(signal?: AbortSignal): Promise<MarketOverview> {
  return apiCall(dashboardEndpoints.getMarketOverview, { signal });
}

/**
 * POST api/earnings_calendar for one day (spec §7 note: the dashboard sends today's ISO day as both
 * start_date and end_date).
 */
export async function getEarningsOfDay(day: string, signal?: AbortSignal): Promise<EarningsRow[]> {
  return apiCall(marketEndpoints.getEarningsCalendar, { body: { start_date: day, end_date: day }, signal });
}

/** The market overview's prices move through the day: refreshed this often while the screen is open. */
export const MARKET_OVERVIEW_REFRESH_MS = 60_000;
/** While live updates move its prices, the overview is re-read this often (the market phase, a failed symbol). */
export const MARKET_OVERVIEW_LIVE_REFRESH_MS = 10 * 60_000;
/** The summaries are rewritten every 30–60 minutes (server jobs) and the indicators every 6 hours. */
export const SUMMARIES_REFRESH_MS = 5 * 60_000;
export const INDICATORS_REFRESH_MS = 30 * 60_000;

export const overallSentimentQuery = () =>
  queryOptions({ queryKey: ['dashboard', 'overall-sentiment'], queryFn: ({ signal }) => getOverallSentiment(signal), refetchInterval: SUMMARIES_REFRESH_MS });

export const sectorSentimentsQuery = () =>
  queryOptions({ queryKey: ['dashboard', 'sector-sentiments'], queryFn: ({ signal }) => getSectorSentiments(signal), refetchInterval: SUMMARIES_REFRESH_MS });

export const economicIndicatorsQuery = () =>
  queryOptions({ queryKey: ['dashboard', 'economic-indicators'], queryFn: ({ signal }) => getEconomicIndicators(signal), refetchInterval: INDICATORS_REFRESH_MS });

export const marketOverviewQuery = () =>
  queryOptions({
    queryKey: ['dashboard', 'market-overview'],
    queryFn: ({ signal }) => getMarketOverview(signal),
    refetchInterval: MARKET_OVERVIEW_REFRESH_MS,
  });

export const earningsOfDayQuery = (day: string) =>
  queryOptions({ queryKey: ['dashboard', 'earnings', day], queryFn: ({ signal }) => getEarningsOfDay(day, signal) });
