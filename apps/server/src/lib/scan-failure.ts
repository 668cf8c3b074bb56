import type { ScanFailure } from '@signalboard/core';
import { NoPriceHistoryError } from '../providers/market/types';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError } from '../providers/market/types';

/**
 * What a scan says about a symbol it had to skip, and how loudly to log it: not at all for the
 * user's own data (an unknown or history-less favourite), `warn` for a provider problem an operator
 * may act on, `error` for anything unexpected (a bug).
 */
export interface FailureReason {
  msg: string;
  log: 'none' | 'warn' | 'error';
}

/** The same wording as the single-symbol calls answer (app.ts error handler), for the `failed` lists. */
export function failureReason(error: unknown): FailureReason {
  if (error instanceof UnknownSymbolError) return { msg: `Unknown symbol: ${error.symbol}`, log: 'none' };
  if (error instanceof NoPriceHistoryError) return { msg: error.message, log: 'none' };
  if (error instanceof CapabilityUnavailableError) return { msg: error.message, log: 'warn' };
  if (error instanceof ProviderError) return { msg: `Market data is unavailable right now (${error.message}). Please try again shortly.`, log: 'warn' };
  return { msg: 'Could not read market data for this symbol. Please try again.', log: 'error' };
}

/** Where a scan reports skipped symbols and unexpected errors (the app's pino logger). */
export interface ScanLog {
  warn(context: object, msg: string): void;
  error(context: object, msg: string): void;
}

/** The `failed` entry of a symbol whose work threw; provider problems and bugs are logged too. */
export function scanFailure(log: ScanLog, symbol: string, error: unknown): ScanFailure {
  const reason = failureReason(error);
  if (reason.log === 'warn') log.warn({ symbol, err: error }, 'scan skipped a symbol: market data unavailable');
  if (reason.log === 'error') log.error({ symbol, err: error }, 'scan failed unexpectedly on a symbol');
  return { symbol, msg: reason.msg };
}
