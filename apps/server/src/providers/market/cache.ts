/**
 * One cache in front of every market-data source: a TTL per kind of data, single-flight (concurrent
 * requests for one key share one upstream call), stale-on-error (the last good value is served,
 * marked stale, when the upstream fails) and a bounded size (least recently used out first).
 * Memory only for now; the scale-out work moves it to Redis.
 */
import type { Clock } from '../../lib/clock';

export interface Cached<T> {
  value: T;
  /** True when the upstream failed and this is the last good value. */
  stale: boolean;
  /** When the value was fetched, epoch ms. */
  fetchedAtMs: number;
}

interface Entry {
  value: unknown;
  fetchedAtMs: number;
  expiresAtMs: number;
  /** After a failure, when the upstream may be asked again (the stale value is served until then). */
  retryAtMs: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  upstreamCalls: number;
  staleServed: number;
  entries: number;
}

export class MarketCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Cached<unknown>>>();
  private readonly stats = { hits: 0, misses: 0, upstreamCalls: 0, staleServed: 0 };

  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 20_000,
    /** How long a failed key waits before the upstream is asked again. */
    private readonly failureBackoffMs = 30_000,
  ) {}

  async get<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<Cached<T>> {
    const now = this.clock.nowMs();
    const entry = this.entries.get(key);
    if (entry && (now < entry.expiresAtMs || now < entry.retryAtMs)) {
      this.touch(key, entry);
      this.stats.hits += 1;
      const stale = now >= entry.expiresAtMs;
      if (stale) this.stats.staleServed += 1;
      return { value: entry.value as T, stale, fetchedAtMs: entry.fetchedAtMs };
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<Cached<T>>;
    this.stats.misses += 1;
    const request = this.load(key, ttlMs, load).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  private async load<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<Cached<T>> {
    this.stats.upstreamCalls += 1;
    try {
      const value = await load();
      const fetchedAtMs = this.clock.nowMs();
      this.set(key, { value, fetchedAtMs, expiresAtMs: fetchedAtMs + ttlMs, retryAtMs: 0 });
      return { value, stale: false, fetchedAtMs };
    } catch (error) {
      const previous = this.entries.get(key);
      if (previous && isServeStaleError(error)) {
        previous.retryAtMs = this.clock.nowMs() + this.failureBackoffMs;
        this.stats.staleServed += 1;
        return { value: previous.value as T, stale: true, fetchedAtMs: previous.fetchedAtMs };
      }
      throw error;
    }
  }

  private set(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  private touch(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  snapshot(): CacheStats {
    return { ...this.stats, entries: this.entries.size };
  }
}

/** Unknown symbols and bad requests are answers, not outages: they never fall back to stale data. */
function isServeStaleError(error: unknown): boolean {
  const name = (error as Error | undefined)?.constructor?.name;
  return name !== 'UnknownSymbolError';
}
