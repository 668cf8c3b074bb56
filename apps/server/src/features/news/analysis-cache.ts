import type { Clock } from '../../lib/clock';

/**
 * A bounded LRU of answers that expire after `ttlMs`, with single flight: while one computation
 * for a key runs, callers of the same key share it. Failures are not kept.
 */
export class AnalysisCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(
    private readonly options: { ttlMs: number; maxEntries: number; clock: Clock },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async getOrCompute(key: string, compute: () => Promise<V>): Promise<V> {
    const now = this.options.clock.nowMs();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAtMs > now) {
      this.entries.delete(key);
      this.entries.set(key, hit); // most recently used last
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    const running = this.inFlight.get(key);
    if (running) return running;
    const promise = compute()
      .then((value) => {
        this.store(key, value);
        return value;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise;
  }

  private store(key: string, value: V): void {
    this.entries.set(key, { value, expiresAtMs: this.options.clock.nowMs() + this.options.ttlMs });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }
}
