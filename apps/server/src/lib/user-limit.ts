import type { Config } from '../config';
import type { CacheStore } from './cache-store';
import type { Clock } from './clock';
import { HttpError } from './errors';
import { RateLimiter } from './rate-limiter';

/** A per-user limit on a costly call: `hit` counts one call, or throws 429 with a `msg` and `retry-after`. */
export interface UserLimit {
  hit(userId: number): Promise<void>;
}

/** '10 minutes', 'hour', '90 seconds': the window as the message says it ("at most 5 every hour"). */
export function windowText(seconds: number): string {
  if (seconds === 3600) return 'hour';
  if (seconds % 3600 === 0) return `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** How long to wait, like the sign-in limits say it: seconds under 90, else minutes. */
export function waitText(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * A fixed window per user id on the app's CacheStore (memory, or Redis: every API process counts
 * together), on the app's clock. `what` names the calls in the message, e.g. 'news analyses'.
 */
export function createUserLimit(options: { name: string; what: string; max: number; windowSeconds: number; clock: Clock; store: CacheStore }): UserLimit {
  const limiter = new RateLimiter(options.max, options.windowSeconds * 1000, options.clock, { store: options.store, name: options.name });
  const limitText = `at most ${options.max} every ${windowText(options.windowSeconds)}`;
  return {
    async hit(userId) {
      const verdict = await limiter.hit(String(userId));
      if (verdict.allowed) return;
      const msg = `Too many ${options.what} (${limitText}). Please try again in ${waitText(verdict.retryAfterSeconds)}.`;
      throw new HttpError(429, msg, { headers: { 'retry-after': String(verdict.retryAfterSeconds) } });
    },
  };
}

export interface CostlyCallLimits {
  /** News analyses that reach the analyst (an answer from the analysis cache is not counted). */
  analysis: UserLimit;
  /** Support messages received. */
  support: UserLimit;
  /** Password changes (each well-formed attempt). */
  passwordChange: UserLimit;
  /** Custom scan runs (POST api/scans/run, each well-formed call; the Custom Scan alerts' runs are no call and not counted). */
  scanRun: UserLimit;
  /** Watchlist import previews (POST api/watchlist/import_preview, each well-formed call: up to 2,000 symbol lookups). */
  watchlistImport: UserLimit;
}

type LimitSettings = Pick<
  Config,
  | 'ANALYSIS_MAX_PER_USER'
  | 'ANALYSIS_WINDOW_SECONDS'
  | 'SUPPORT_MAX_PER_USER'
  | 'SUPPORT_WINDOW_SECONDS'
  | 'PASSWORD_CHANGE_MAX_PER_USER'
  | 'PASSWORD_CHANGE_WINDOW_SECONDS'
  | 'SCAN_RUN_MAX_PER_USER'
  | 'SCAN_RUN_WINDOW_SECONDS'
  | 'WATCHLIST_IMPORT_MAX_PER_USER'
  | 'WATCHLIST_IMPORT_WINDOW_SECONDS'
>;

/** The per-user limits of the calls that cost money, mail or CPU (README "Configuration"). */
export function createCostlyCallLimits(config: LimitSettings, clock: Clock, store: CacheStore): CostlyCallLimits {
  return {
    analysis: createUserLimit({ name: 'analysis-user', what: 'news analyses', max: config.ANALYSIS_MAX_PER_USER, windowSeconds: config.ANALYSIS_WINDOW_SECONDS, clock, store }),
    support: createUserLimit({ name: 'support-user', what: 'support requests', max: config.SUPPORT_MAX_PER_USER, windowSeconds: config.SUPPORT_WINDOW_SECONDS, clock, store }),
    passwordChange: createUserLimit({
      name: 'password-change-user',
      what: 'password changes',
      max: config.PASSWORD_CHANGE_MAX_PER_USER,
      windowSeconds: config.PASSWORD_CHANGE_WINDOW_SECONDS,
      clock,
      store,
    }),
    scanRun: createUserLimit({ name: 'scan-run-user', what: 'scan runs', max: config.SCAN_RUN_MAX_PER_USER, windowSeconds: config.SCAN_RUN_WINDOW_SECONDS, clock, store }),
    watchlistImport: createUserLimit({
      name: 'watchlist-import-user',
      what: 'watchlist import previews',
      max: config.WATCHLIST_IMPORT_MAX_PER_USER,
      windowSeconds: config.WATCHLIST_IMPORT_WINDOW_SECONDS,
      clock,
      store,
    }),
  };
}
