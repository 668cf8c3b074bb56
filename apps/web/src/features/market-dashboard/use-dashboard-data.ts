import type { EarningsRow } from '@signalboard/core';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ApiError } from '../../api/client';
import { earningsOfDayQuery, economicIndicatorsQuery, marketOverviewQuery, overallSentimentQuery, sectorSentimentsQuery } from '../../api/dashboard';
import { favoritesQuery } from '../../api/favorites';
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
 */
function partOf<T>(query: UseQueryResult<T>): DashboardPart<T> {
  const failed = query.isError && query.data === undefined;
  return {
    data: failed ? undefined : query.data,
    loading: query.isPending,
    failed,
    unexpected: failed && isUnexpected(query.error),
    detail: failed ? detailOf([query.error]) : null,
    retrying: failed && query.isFetching,
    retry: () => void query.refetch(),
    updatedAt: query.dataUpdatedAt,
  };
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
  const overviewQuery = useQuery(marketOverviewQuery());

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
  const earningsErrors = [favorites.isError ? favorites.error : null, earnings.isError ? earnings.error : null];
  const earningsPart: DashboardPart<EarningsRow[]> = {
    data: earningsFailed ? undefined : todaysEarnings,
    loading: !earningsFailed && (favorites.isPending || earnings.isPending),
    failed: earningsFailed,
    unexpected: earningsErrors.some(isUnexpected),
    detail: earningsFailed ? detailOf(earningsErrors) : null,
    retrying: (favorites.isError && favorites.isFetching) || (earnings.isError && earnings.isFetching),
    retry: () => {
      if (favorites.isError) void favorites.refetch();
      if (earnings.isError) void earnings.refetch();
    },
    updatedAt: Math.max(favorites.dataUpdatedAt, earnings.dataUpdatedAt),
  };

  const overall = partOf(overallQuery);
  const sectors = partOf(sectorsQuery);
  const indicators = partOf(indicatorsQuery);
  // The overview refreshes itself: a failed refresh keeps showing the last prices.
  const overview = { ...partOf(overviewQuery), data: overviewQuery.data, failed: overviewQuery.isError && overviewQuery.data === undefined };
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
