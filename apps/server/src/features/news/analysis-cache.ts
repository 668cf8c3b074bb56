import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import { metrics } from '../../lib/metrics';
import { decodeValue, encodeValue } from '../../lib/value-codec';

/** The shared store keeps an answer this long past its TTL before collecting it (freshness is the clock's). */
const SHARED_KEEP_MARGIN_MS = 60_000;

export interface AnalysisCacheOptions {
  ttlMs: number;
  maxEntries: number;
  clock: Clock;
  /** With a shared store (Redis), answers are also kept there, for every process of the installation. */
  store?: CacheStore;
  /** The store's key namespace (default 'analysis'). */
  name?: string;
}

/**
 * A bounded LRU of answers that expire after `ttlMs`, with single flight: while one computation
 * for a key runs, callers of the same key share it. Failures are not kept. With a shared store the
 * LRU is level 1 and the store level 2: a process reuses an answer another process computed.
 */
export class AnalysisCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  private readonly inFlight = new Map<string, Promise<V>>();
  private readonly store: CacheStore | undefined;

  constructor(private readonly options: AnalysisCacheOptions) {
    this.store = options.store?.shared ? options.store : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * True when getOrCompute(key) would not compute now: a fresh answer here or in the shared store,
   * or a computation of the key under way (callers join it).
   */
  async has(key: string): Promise<boolean> {
    const now = this.options.clock.nowMs();
    const hit = this.entries.get(key);
    if ((hit && hit.expiresAtMs > now) || this.inFlight.has(key)) return true;
    if (!this.store) return false;
    const bytes = await this.store.getBytes(this.sharedKey(key)).catch(() => undefined);
    const shared = bytes ? decodeValue<{ value: V; expiresAtMs: number }>(bytes) : undefined;
    return shared !== undefined && shared.expiresAtMs > this.options.clock.nowMs();
  }

  async getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const now = this.options.clock.nowMs();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAtMs > now) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
      metrics.cacheLookups.inc({ cache: 'analysis', result: 'hit' });
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    const running = this.inFlight.get(key);
    if (running) {
      metrics.cacheLookups.inc({ cache: 'analysis', result: 'hit' });
      return running;
    }
    const promise = this.load(key, compute).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private async load(key: string, compute: () => Promise<V>): Promise<V> {
    const sharedKey = this.sharedKey(key);
    if (this.store) {
      const bytes = await this.store.getBytes(sharedKey).catch(() => undefined);
      const shared = bytes ? decodeValue<{ value: V; expiresAtMs: number }>(bytes) : undefined;
      if (shared && shared.expiresAtMs > this.options.clock.nowMs()) {
        this.keep(key, shared);
        metrics.cacheLookups.inc({ cache: 'analysis', result: 'shared' });
        return shared.value;
      }
    }
    metrics.cacheLookups.inc({ cache: 'analysis', result: 'miss' });
    const value = await compute();
    const entry = { value, expiresAtMs: this.options.clock.nowMs() + this.options.ttlMs };
    this.keep(key, entry);
    await this.store?.setBytes(sharedKey, encodeValue(entry), this.options.ttlMs + SHARED_KEEP_MARGIN_MS).catch(() => undefined);
    return value;
  }

  private sharedKey(key: string): string {
    return `${this.options.name ?? 'analysis'}:${key}`;
  }

  private keep(key: string, entry: { value: V; expiresAtMs: number }): void {
    this.entries.set(key, entry);
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
