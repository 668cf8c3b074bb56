import type { EarningsRow } from '@signalboard/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { ApiError } from '../../lib/client';
import {
  earningsOfDayQuery,
  economicIndicatorsQuery,
  MARKET_OVERVIEW_LIVE_REFRESH_MS,
  MARKET_OVERVIEW_REFRESH_MS,
  marketOverviewQuery,
  overallSentimentQuery,
  sectorSentimentsQuery,
} from './api/dashboard';
import { usePollingWhileDown } from '../../components/live/use-live';
import { favoritesQuery } from '../../lib/api/favorites';
import { localIsoDay } from './dashboard-format';
import {
  EARNINGS_FAILED_LOG,
  FAVORITES_FAILED_LOG,
  INDICATORS_FAILED,
  OVERALL_FAILED,
  OVERVIEW_FAILED,
  SECTORS_FAILED,
  SOME_DATA_FAILED,
  UNEXPECTED_ERROR,
} from './dashboard-messages';
import { favoriteEarnings } from './todays-earnings';

/** One part of the dashboard as its section sees it. */
export interface DashboardPart<T> {
  /** The loaded data (undefined while loading or when the load failed). */
  data: T | undefined;
  loading: boolean;
  failed: boolean;
  /** A failure that is not an API/HTTP error (an unexpected exception while processing an answer). */
  unexpected: boolean;
  /** The server's message for an API failure, to show under the spec's sentence. */
  detail: string | null;
  retrying: boolean;
  retry: () => void;
  /** When the data was last loaded (epoch ms), 0 before. */
  updatedAt: number;
}

const isUnexpected = (error: unknown) => error !== null && error !== undefined && !(error instanceof ApiError);
const detailOf = (errors: unknown[]) => {
  const apiError = errors.find((error): error is ApiError => error instanceof ApiError);
  return apiError ? apiError.message : null;
};

/**
 * A query as a part. A load that fails is a failed part (spec §8); a background refresh that fails
 * while good data is shown keeps that data (its "as of" time tells its age) rather than blanking it.
 * The overview (`keepData`) shows its last data even when its first load is retried after a failure.
 * The part is the same object until one of its fields changes, so a section that did not change is
 * not drawn again when another part's answer arrives (the sections are memo components).
 */
function usePart<T>(query: UseQueryResult<T>, keepData = false): DashboardPart<T> {
  const failed = query.isError && query.data === undefined;
  const { refetch, data, isPending, error, isFetching, dataUpdatedAt } = query;
  const retry = useCallback(() => void refetch(), [refetch]);
  return useMemo(
    () => ({
      data: failed && !keepData ? undefined : data,
      loading: isPending,
      failed,
      unexpected: failed && isUnexpected(error),
      detail: failed ? detailOf([error]) : null,
      retrying: failed && isFetching,
      retry,
      updatedAt: dataUpdatedAt,
    }),
    [failed, keepData, data, isPending, error, isFetching, retry, dataUpdatedAt],
  );
}

/** Spec §8: every failure is logged to the console (and shown, below). */
function useLogFailure(error: unknown, label: string) {
  useEffect(() => {
    if (error) console.error(label, error);
  }, [error, label]);
}

/**
 * Spec §4 "Dashboard loading": indicators, sectors, overall sentiment, favourites and earnings (and,
 * beyond the spec, the market overview) load in parallel, each on its own; a part that fails shows
 * its own message and no items while the others show their data.
 */
export function useDashboardData(now: Date = new Date()) {
  const today = localIsoDay(now);
  const indicatorsQuery = useQuery(economicIndicatorsQuery());
  const sectorsQuery = useQuery(sectorSentimentsQuery());
  const overallQuery = useQuery(overallSentimentQuery());
  const favorites = useQuery(favoritesQuery());
  const earnings = useQuery(earningsOfDayQuery(today));
  // Live updates move the index strip's and the heatmap's prices (MarketOverviewPanel); the whole
  // overview (the market's phase, a symbol that failed) is re-read slowly meanwhile, at its pace when the stream is down.
  const overviewRefetchMs = usePollingWhileDown(MARKET_OVERVIEW_REFRESH_MS) || MARKET_OVERVIEW_LIVE_REFRESH_MS;
  const overviewQuery = useQuery({ ...marketOverviewQuery(), refetchInterval: overviewRefetchMs });

  useLogFailure(indicatorsQuery.error, INDICATORS_FAILED);
  useLogFailure(sectorsQuery.error, SECTORS_FAILED);
  useLogFailure(overallQuery.error, OVERALL_FAILED);
  useLogFailure(favorites.error, FAVORITES_FAILED_LOG);
  useLogFailure(earnings.error, EARNINGS_FAILED_LOG);
  useLogFailure(overviewQuery.error, OVERVIEW_FAILED);

  const todaysEarnings = useMemo(() => {
    if (!favorites.isSuccess || !earnings.isSuccess) return undefined;
    const symbols = Array.isArray(favorites.data) ? favorites.data.map((favorite) => favorite.symbol) : [];
    return favoriteEarnings(earnings.data, symbols);
  }, [favorites.isSuccess, favorites.data, earnings.isSuccess, earnings.data]);

  const earningsFailed = favorites.isError || earnings.isError;
  const { refetch: refetchFavorites, isError: favoritesFailed } = favorites;
  const { refetch: refetchEarnings, isError: earningsOfDayFailed } = earnings;
  const retryEarnings = useCallback(() => {
    if (favoritesFailed) void refetchFavorites();
    if (earningsOfDayFailed) void refetchEarnings();
  }, [favoritesFailed, earningsOfDayFailed, refetchFavorites, refetchEarnings]);
  const favoritesError = favorites.isError ? favorites.error : null;
  const earningsError = earnings.isError ? earnings.error : null;
  const earningsPart: DashboardPart<EarningsRow[]> = useMemo(
    () => ({
      data: earningsFailed ? undefined : todaysEarnings,
      loading: !earningsFailed && (favorites.isPending || earnings.isPending),
      failed: earningsFailed,
      unexpected: [favoritesError, earningsError].some(isUnexpected),
      detail: earningsFailed ? detailOf([favoritesError, earningsError]) : null,
      retrying: (favorites.isError && favorites.isFetching) || (earnings.isError && earnings.isFetching),
      retry: retryEarnings,
      updatedAt: Math.max(favorites.dataUpdatedAt, earnings.dataUpdatedAt),
    }),
    [
      earningsFailed,
      todaysEarnings,
      favorites.isPending,
      earnings.isPending,
      favoritesError,
      earningsError,
      favorites.isError,
      favorites.isFetching,
      earnings.isError,
      earnings.isFetching,
      retryEarnings,
      favorites.dataUpdatedAt,
      earnings.dataUpdatedAt,
    ],
  );

  const overall = usePart(overallQuery);
  const sectors = usePart(sectorsQuery);
  const indicators = usePart(indicatorsQuery);
  // The overview refreshes itself: a failed refresh keeps showing the last prices.
  const overview = usePart(overviewQuery, true);
  const specParts = [overall, earningsPart, sectors, indicators];

  return {
    today,
    overall,
    earnings: earningsPart,
    sectors,
    indicators,
    overview,
    overviewStale: overviewQuery.isError && overviewQuery.data !== undefined,
    /** Spec §8's alert over the whole screen when a spec part failed, or null. */
    alert: dashboardAlert(specParts),
    retryFailed: () => specParts.filter((part) => part.failed).forEach((part) => part.retry()),
    retrying: specParts.some((part) => part.retrying),
  };
}

/** 'Some data failed to load…' when a part failed; the unexpected-error sentence when a failure was not an API error. */
export function dashboardAlert(parts: ReadonlyArray<Pick<DashboardPart<unknown>, 'failed' | 'unexpected'>>): string | null {
  const failed = parts.filter((part) => part.failed);
  if (failed.length === 0) return null;
  return failed.some((part) => part.unexpected) ? UNEXPECTED_ERROR : SOME_DATA_FAILED;
}
