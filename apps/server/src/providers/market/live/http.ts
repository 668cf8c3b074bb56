/**
 * The HTTP side of every live adapter: JSON over fetch with a timeout, a token bucket per provider
 * at its free-tier rate, retries with jittered exponential backoff for retryable failures, and one
 * mapping of failures to ProviderError / CapabilityUnavailableError. API keys never reach messages.
 */
import type { CacheStore } from '../../../lib/cache-store';
import type { Clock } from '../../../lib/clock';
import { metrics } from '../../../lib/metrics';
import { CapabilityUnavailableError, ProviderError } from '../types';

export type FetchImpl = (input: string, init?: RequestInit) => Promise<Response>;

/** Our own limiter said no (as opposed to the provider answering 429). */
export class LocalRateLimitError extends ProviderError {}

/** The provider sent no (complete) answer within the adapter's timeout. Retryable. */
export class ProviderTimeoutError extends ProviderError {
  constructor(
    provider: string,
    readonly timeoutMs: number,
  ) {
    super(provider, `timed out: no answer within ${timeoutMs} ms`, { retryable: true });
  }
}

/** First retry waits RETRY_BASE_MS × [0.5, 1.5), the second twice that: exponential, jittered. */
export const RETRY_BASE_MS = 250;
/** Longest Retry-After the client waits for; a longer one fails at once, carrying the hint. */
export const MAX_RETRY_AFTER_MS = 5_000;

/** The wait before retry number `retry` (0-based): RETRY_BASE_MS · 2^retry · (0.5 + random()). */
export function backoffMs(retry: number, random: () => number): number {
  const base = RETRY_BASE_MS * 2 ** retry;
  return base / 2 + random() * base;
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or undefined when absent or past. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) > 0 ? Number(trimmed) : undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  const seconds = Math.ceil((at - nowMs) / 1000);
  return seconds > 0 ? seconds : undefined;
}

/** Token bucket: `capacity` calls at once, refilled at `perMinute` a minute. */
export class TokenBucket {
  private tokens: number;
  private updatedMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly capacity: number,
    private readonly clock: Clock,
  ) {
    this.tokens = capacity;
    this.updatedMs = clock.nowMs();
  }

  /** Takes a token, or answers how many ms until one is free. */
  take(): number {
    const now = this.clock.nowMs();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedMs) * this.perMinute) / 60_000);
    this.updatedMs = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 60_000) / this.perMinute);
  }
}

/** Takes a token, or answers how many ms until one is free. */
export interface RateGate {
  take(): number | Promise<number>;
}

/**
 * The provider's bucket in a shared store (Redis): one bucket for every process of the installation,
 * so a free-tier limit is the installation's limit. Run on `clock`; if the store fails (Redis
 * down) the process falls back to a bucket of its own rather than failing the request.
 */
export function sharedTokenBucket(store: CacheStore, provider: string, perMinute: number, capacity: number, clock: Clock): RateGate {
  const local = new TokenBucket(perMinute, capacity, clock);
  return {
    take: () => store.take(`bucket:${provider}`, perMinute, capacity, clock.nowMs()).catch(() => local.take()),
  };
}

/** The metrics kind of a failed provider call (signalboard_provider_errors_total). */
export function providerErrorKind(error: unknown): 'timeout' | 'rate_limit' | 'http' | 'shape' | 'network' {
  if (error instanceof ProviderTimeoutError) return 'timeout';
  if (error instanceof LocalRateLimitError) return 'rate_limit';
  if (error instanceof ProviderError) {
    if (error.options.status === 429) return 'rate_limit';
    if (error.options.status !== undefined) return 'http';
    if (/: network error/.test(error.message)) return 'network';
    return 'shape';
  }
  if (error instanceof CapabilityUnavailableError) return 'http';
  return 'network';
}

export interface HttpClientOptions {
  provider: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  /** Free-tier rate: calls a minute, and the burst allowed. */
  ratePerMinute: number;
  burst?: number;
  /** Time for the token bucket (and Retry-After dates): the process clock in production. */
  clock: Clock;
  /** Retries after the first attempt, for retryable failures only (default 2). */
  retries?: number;
  /** Every wait (backoff, Retry-After, rate-limit tokens) goes through it; tests pass a recording one. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Longest the client waits for a rate-limit token before failing fast. */
  maxQueueMs?: number;
  /** Longest Retry-After honoured (default MAX_RETRY_AFTER_MS); a longer one is not retried. */
  maxRetryAfterMs?: number;
  /** A shared store (Redis): the provider's token bucket is the installation's (sharedTokenBucket). */
  store?: CacheStore;
}

export interface HttpClient {
  getJson(url: string, init?: { headers?: Record<string, string> }): Promise<unknown>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Removes secrets from a URL before it appears in an error. */
function redact(url: string): string {
  return url.replace(/([?&](?:token|apikey|api_key|x_cg_demo_api_key)=)[^&]*/gi, '$1***');
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const burst = options.burst ?? Math.max(1, Math.ceil(options.ratePerMinute / 6));
  const bucket: RateGate = options.store?.shared
    ? sharedTokenBucket(options.store, options.provider, options.ratePerMinute, burst, options.clock)
    : new TokenBucket(options.ratePerMinute, burst, options.clock);
  const retries = options.retries ?? 2;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxQueueMs = options.maxQueueMs ?? 5_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  const { provider } = options;
  const isTimeout = (error: unknown) => {
    const name = (error as Error | undefined)?.name;
    return name === 'TimeoutError' || name === 'AbortError';
  };

  async function attempt(url: string, headers: Record<string, string>): Promise<unknown> {
    let waitMs = await bucket.take();
    let waited = 0;
    while (waitMs > 0) {
      if (waited + waitMs > maxQueueMs) {
        throw new LocalRateLimitError(provider, 'rate limit reached', { status: 429, retryable: false, retryAfterSeconds: Math.ceil(waitMs / 1000) });
      }
      const before = options.clock.nowMs();
      await sleep(waitMs);
      // A clock that did not move while we slept (a frozen or pinned one) never refills the bucket.
      if (options.clock.nowMs() === before) {
        throw new LocalRateLimitError(provider, 'rate limit reached (the rate-limit clock is not advancing)', { status: 429, retryable: false });
      }
      waited += waitMs;
      waitMs = await bucket.take();
    }
    let response: Response;
    let text: string;
    // One deadline for the whole exchange: headers and body.
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      response = await fetchImpl(url, { headers: { accept: 'application/json', ...headers }, signal });
    } catch (error) {
      if (isTimeout(error) || signal.aborted) throw new ProviderTimeoutError(provider, timeoutMs);
      throw new ProviderError(provider, `network error (${(error as Error).message})`, { retryable: true });
    }
    try {
      text = await response.text();
    } catch (error) {
      // A body that stalls past the deadline is a timeout, not malformed JSON.
      if (isTimeout(error) || signal.aborted) throw new ProviderTimeoutError(provider, timeoutMs);
      throw new ProviderError(provider, `network error (${(error as Error).message})`, { retryable: true });
    }
    if (!response.ok) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'), options.clock.nowMs());
      const status = response.status;
      if (status === 403 || status === 451) throw new CapabilityUnavailableError(provider, `${redact(url.split('?')[0]!)} (HTTP ${status}: not available on this plan or from this location)`);
      if (status === 401) throw new ProviderError(provider, 'the API key was refused (HTTP 401)', { status, retryable: false });
      if (status === 429) throw new ProviderError(provider, 'rate limit reached (HTTP 429)', { status, retryable: true, retryAfterSeconds: retryAfter });
      if (status >= 500) throw new ProviderError(provider, `server error (HTTP ${status})`, { status, retryable: true, retryAfterSeconds: retryAfter });
      throw new ProviderError(provider, `HTTP ${status} for ${redact(url.split('?')[0]!)}`, { status, retryable: false });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(provider, 'the answer was not valid JSON', { retryable: false });
    }
  }

  return {
    async getJson(url, init = {}) {
      let lastFailure: unknown;
      for (let attemptNumber = 0; ; attemptNumber += 1) {
        try {
          return await attempt(url, init.headers ?? {});
        } catch (error) {
          metrics.providerErrors.inc({ provider, kind: providerErrorKind(error) });
          // A retry our own limiter refuses reports the failure that made us retry.
          if (error instanceof LocalRateLimitError && lastFailure) throw lastFailure;
          lastFailure = error;
          const retryable = error instanceof ProviderError && error.options.retryable === true;
          if (!retryable || attemptNumber >= retries) throw error;
          const hinted = (error.options.retryAfterSeconds ?? 0) * 1000;
          // Asked to wait longer than a caller should: fail now with the hint (retryAfterSeconds);
          // the cache serves its last good value meanwhile, if it has one.
          if (hinted > maxRetryAfterMs) throw error;
          await sleep(Math.max(hinted, backoffMs(attemptNumber, random)));
        }
      }
    },
  };
}

/** Parses `value` with a zod-like schema; a mismatch is the provider's malformed answer. */
export function expectShape<T>(provider: string, what: string, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: Array<{ path: PropertyKey[]; message: string }> } } }, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    metrics.providerErrors.inc({ provider, kind: 'shape' });
    throw new ProviderError(provider, `unexpected ${what} (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'shape'})`, { retryable: false });
  }
  return result.data;
}
