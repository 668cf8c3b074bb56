import { tradesEndpoints, type CryptoScorecard, type CryptoTrade } from '@signalboard/core';
import { apiCall } from '../../../lib/client';

/**
 * The Crypto Scanner's calls (issue 13; core contract/crypto-trades.ts). Every answer is parsed with
 * the contract's schema: an answer of the wrong shape rejects with an UnexpectedAnswerError. The coin's detail is
 * the generic idea detail (`getIdeaDetail('crypto', id)`).
 */

/** GET api/all_crypto_scanner: one row per coin, numbers rounded to the spec §9 formats. */
export async function getCryptoTrades(signal?: AbortSignal): Promise<CryptoTrade[]> {
  return apiCall(tradesEndpoints.getCryptoScanner, { signal });
}

export interface CryptoScorecardScope {
  /** YYYY-MM-DD, the window's first day (none: from the first signal). */
  from?: string;
  /** YYYY-MM-DD, the window's last day (none: the last completed candle). */
  to?: string;
  /** Coins whose symbol contains this (case-insensitive). */
  symbol?: string;
}

/** GET api/crypto_scorecard?from&to&symbol: the signal scorecard (docs/rules/crypto.md §3.4). */
export async function getCryptoScorecard(scope: CryptoScorecardScope, signal?: AbortSignal): Promise<CryptoScorecard> {
  const query: CryptoScorecardScope = {};
  for (const key of Object.keys(scope) as (keyof CryptoScorecardScope)[]) if (scope[key]) query[key] = scope[key];
  return apiCall(tradesEndpoints.getCryptoScorecard, { query, signal });
}
