/**
 * One cache in front of every market-data source: a TTL per kind of data, single-flight (concurrent
 * requests for one key share one upstream call), stale-on-error (the last good value is served,
 * marked stale, when the upstream fails) and a bounded size. The bound is real memory, not only a
 * count: every entry is charged its approximate size in bytes (typed arrays their byteLength, see
 * `approximateBytes`), and the cache keeps both the entry count and the byte total under their limits
 * (MARKET_CACHE_MAX_MB).
 *
 * Eviction is a segmented LRU: a new entry is on probation until it is read again, and probation is
 * emptied first (its least recently used out first); an entry read again is protected, and the
 * protected part keeps at most PROTECTED_SHARE of the bytes (its least recently used goes back on
 * probation). So a burst of values read once (a trade engine's replay reads each past session's
 * news once) cycles through probation instead of pushing out what every screen reads (the quotes,
 * the daily bars), and the bound can stay small without the screens going back to the source. What
 * is known to be read once (a past session's option chains: 2,800 in a first replay) is not kept at
 * all (`get`'s `keep: false`): cycling through probation, it still filled the bound for good.
 *
 * With a shared store (Redis, REDIS_URL) that in-process LRU is level 1, and the store is level 2,
 * shared by every process: a level-1 miss reads the store, then takes the key's lock there and loads
 * once for the whole installation while the other processes wait for the value (polling with
 * backoff, bounded: past SHARED_WAIT_MS they load themselves). The store keeps the last good value
 * (with its fetchedAt) STALE_KEEP_MS past its TTL, so stale-on-error and the failure backoff work
 * across processes too. A failure other than an outage (an unknown symbol) is not shared: the next
 * waiting process tries itself. A store that fails (Redis down) is skipped: the process loads alone.
 */
import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import { metrics } from '../../lib/metrics';
import { decodeValue, encodeValue } from '../../lib/value-codec';

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
  /** Approximate bytes the entry holds (value and key). */
  bytes: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  upstreamCalls: number;
  staleServed: number;
  entries: number;
  /** Approximate bytes held by the entries (see approximateBytes). */
  bytes: number;
}

export interface MarketCacheOptions {
  /** Most entries kept (default 20,000). */
  maxEntries?: number;
  /**
   * Most approximate bytes kept (default DEFAULT_CACHE_MAX_BYTES). A value larger than this on its
   * own is answered but not kept.
   */
  maxBytes?: number;
  /** How long a failed key waits before the upstream is asked again (default 30 s). */
  failureBackoffMs?: number;
  /** Level 2 when `store.shared` (Redis); a memory store adds nothing to the LRU and is not used. */
  store?: CacheStore;
  /** Longest a process waits for another one's load before loading itself (default SHARED_WAIT_MS). */
  sharedWaitMs?: number;
}

/** A load holds the key's lock at most this long (the adapters' timeouts and retries fit in it). */
export const SHARED_LOCK_TTL_MS = 30_000;
/** Longest a process waits for the value another process is loading. */
export const SHARED_WAIT_MS = 15_000;
/** How long the shared store keeps a value past its TTL, for stale-on-error. */
export const STALE_KEEP_MS = 24 * 60 * 60 * 1000;
const SHARED_POLL_FIRST_MS = 2;
const SHARED_POLL_MAX_MS = 50;

/** A value as the shared store holds it (MessagePack, see value-codec). */
interface SharedEntry {
  value: unknown;
  fetchedAtMs: number;
  expiresAtMs: number;
  retryAtMs: number;
}

export const DEFAULT_CACHE_MAX_ENTRIES = 20_000;
/**
 * 48 MiB: the recent daily bars of the whole simulated universe (~800 symbols, ~20 MB), the quotes,
 * the marks' chains and the news, with room to spare. A dataset of thousands of symbols needs more
 * (about 25 KB a symbol): MARKET_CACHE_MAX_MB.
 */
export const DEFAULT_CACHE_MAX_BYTES = 48 * 1024 * 1024;
/** Share of the bytes the protected segment (entries read more than once) may hold. */
export const PROTECTED_SHARE = 0.8;

/** Bookkeeping per entry beyond its value: the Map slot, the entry object, the key's string header. */
const ENTRY_OVERHEAD_BYTES = 128;

export class MarketCache {
  /** Entries not read since they were stored, least recently used first. */
  private readonly probation = new Map<string, Entry>();
  /** Entries read again since they were stored, least recently used first. */
  private readonly protectedEntries = new Map<string, Entry>();
  private protectedBytes = 0;
  private readonly inFlight = new Map<string, Promise<Cached<unknown>>>();
  private readonly stats = { hits: 0, misses: 0, upstreamCalls: 0, staleServed: 0 };
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly failureBackoffMs: number;
  private readonly store: CacheStore | undefined;
  private readonly sharedWaitMs: number;

  constructor(
    private readonly clock: Clock,
    options: MarketCacheOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES;
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.failureBackoffMs = options.failureBackoffMs ?? 30_000;
    this.store = options.store?.shared ? options.store : undefined;
    this.sharedWaitMs = options.sharedWaitMs ?? SHARED_WAIT_MS;
  }

  /**
   * The value of `key`: cached while fresh, else loaded once however many ask at a time. `keep: false`
   * (a value read once, such as a past session's option chain in a replay): answered and shared with
   * the requests in flight, but neither kept here nor in the shared store, so a burst of such reads
   * leaves the cache as it found it (2,800 chains of a first replay held ~30 MB of the heap for good).
   */
  async get<T>(key: string, ttlMs: number, load: () => Promise<T>, options: { keep?: boolean } = {}): Promise<Cached<T>> {
    const now = this.clock.nowMs();
    const entry = this.find(key);
    if (entry && (now < entry.expiresAtMs || now < entry.retryAtMs)) return this.hit<T>(key, entry, now);
    const pending = this.inFlight.get(key);
    if (pending) {
      metrics.cacheLookups.inc({ cache: 'market', result: 'hit' });
      return pending as Promise<Cached<T>>;
    }
    this.stats.misses += 1;
    const keep = options.keep ?? true;
    const loading = this.store && keep ? this.loadShared(this.store, key, ttlMs, load) : this.load(key, ttlMs, load, keep);
    const request = loading.finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, request);
    return request;
  }

  /**
   * The answer `get(key)` would give without asking the upstream: the fresh (or backing-off stale)
   * value, or the load already in flight for the key; undefined when `get` would have to load. Lets a
   * caller serve a request from a wider value that is already there (daily bars: the whole history
   * covers every recent window). Level 1 only: a shared store is not read here.
   */
  peek<T>(key: string): Promise<Cached<T>> | undefined {
    const now = this.clock.nowMs();
    const entry = this.find(key);
    if (entry && (now < entry.expiresAtMs || now < entry.retryAtMs)) return Promise.resolve(this.hit<T>(key, entry, now));
    return this.inFlight.get(key) as Promise<Cached<T>> | undefined;
  }

  private hit<T>(key: string, entry: Entry, now: number): Cached<T> {
    this.touch(key, entry);
    this.stats.hits += 1;
    const stale = now >= entry.expiresAtMs;
    if (stale) this.stats.staleServed += 1;
    metrics.cacheLookups.inc({ cache: 'market', result: stale ? 'stale' : 'hit' });
    return { value: entry.value as T, stale, fetchedAtMs: entry.fetchedAtMs };
  }

  private async load<T>(key: string, ttlMs: number, load: () => Promise<T>, keep = true): Promise<Cached<T>> {
    this.stats.upstreamCalls += 1;
    metrics.cacheLookups.inc({ cache: 'market', result: 'miss' });
    try {
      const value = await load();
      const fetchedAtMs = this.clock.nowMs();
      if (!keep) return { value, stale: false, fetchedAtMs };
      const bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + approximateBytes(value);
      this.set(key, { value, fetchedAtMs, expiresAtMs: fetchedAtMs + ttlMs, retryAtMs: 0, bytes });
      return { value, stale: false, fetchedAtMs };
    } catch (error) {
      const previous = this.find(key);
      if (previous && isServeStaleError(error)) {
        previous.retryAtMs = this.clock.nowMs() + this.failureBackoffMs;
        this.stats.staleServed += 1;
        metrics.cacheLookups.inc({ cache: 'market', result: 'stale' });
        return { value: previous.value as T, stale: true, fetchedAtMs: previous.fetchedAtMs };
      }
      throw error;
    }
  }

  /** A level-1 miss with a shared store: its value, else one load for the installation (see the top). */
  private async loadShared<T>(store: CacheStore, key: string, ttlMs: number, load: () => Promise<T>): Promise<Cached<T>> {
    const deadline = performance.now() + this.sharedWaitMs;
    let pollMs = SHARED_POLL_FIRST_MS;
    for (;;) {
      const found = await this.readShared(store, key);
      if (found && this.usable(found)) return this.fromShared<T>(key, found);
      const token = await store.tryLock(`market:${key}`, SHARED_LOCK_TTL_MS).catch(() => null);
      if (token !== undefined) {
        try {
          // Another process may have stored the value between our read and our lock.
          const again = token === null ? undefined : await this.readShared(store, key);
          if (again && this.usable(again)) return this.fromShared<T>(key, again);
          return await this.loadAndShare(store, key, ttlMs, load, again ?? found);
        } finally {
          if (token !== null) await store.unlock(`market:${key}`, token).catch(() => undefined);
        }
      }
      // Waited long enough for the process holding the lock: load here.
      if (performance.now() >= deadline) return this.loadAndShare(store, key, ttlMs, load, found);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      pollMs = Math.min(pollMs * 2, SHARED_POLL_MAX_MS);
    }
  }

  private async loadAndShare<T>(store: CacheStore, key: string, ttlMs: number, load: () => Promise<T>, shared: SharedEntry | undefined): Promise<Cached<T>> {
    this.stats.upstreamCalls += 1;
    metrics.cacheLookups.inc({ cache: 'market', result: 'miss' });
    try {
      const value = await load();
      const fetchedAtMs = this.clock.nowMs();
      const entry: SharedEntry = { value, fetchedAtMs, expiresAtMs: fetchedAtMs + ttlMs, retryAtMs: 0 };
      this.setFromShared(key, entry);
      await this.writeShared(store, key, entry, ttlMs + STALE_KEEP_MS);
      return { value, stale: false, fetchedAtMs };
    } catch (error) {
      const local = this.find(key);
      const previous = local && (!shared || local.fetchedAtMs >= shared.fetchedAtMs) ? local : shared;
      if (previous && isServeStaleError(error)) {
        const stale: SharedEntry = { value: previous.value, fetchedAtMs: previous.fetchedAtMs, expiresAtMs: previous.expiresAtMs, retryAtMs: this.clock.nowMs() + this.failureBackoffMs };
        this.setFromShared(key, stale);
        // Every process serves it until the backoff ends, without asking the upstream again.
        await this.writeShared(store, key, stale, this.failureBackoffMs + STALE_KEEP_MS);
        this.stats.staleServed += 1;
        metrics.cacheLookups.inc({ cache: 'market', result: 'stale' });
        return { value: stale.value as T, stale: true, fetchedAtMs: stale.fetchedAtMs };
      }
      throw error;
    }
  }

  private usable(entry: SharedEntry): boolean {
    const now = this.clock.nowMs();
    return now < entry.expiresAtMs || now < entry.retryAtMs;
  }

  private fromShared<T>(key: string, entry: SharedEntry): Cached<T> {
    this.setFromShared(key, entry);
    this.stats.hits += 1;
    const stale = this.clock.nowMs() >= entry.expiresAtMs;
    if (stale) this.stats.staleServed += 1;
    metrics.cacheLookups.inc({ cache: 'market', result: stale ? 'stale' : 'shared' });
    return { value: entry.value as T, stale, fetchedAtMs: entry.fetchedAtMs };
  }

  private setFromShared(key: string, entry: SharedEntry): void {
    const bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + approximateBytes(entry.value);
    this.set(key, { ...entry, bytes });
  }

  /**
   * Drops `keys` here and in the shared store (an import replaced what they hold). Another process's
   * level 1 keeps its copy until it expires (MARKET_TTL_MS).
   */
  async forget(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.remove(key);
    if (this.store) await Promise.all(keys.map((key) => this.store!.deleteBytes(`market:${key}`).catch(() => undefined)));
  }

  private async readShared(store: CacheStore, key: string): Promise<SharedEntry | undefined> {
    try {
      const bytes = await store.getBytes(`market:${key}`);
      return bytes ? decodeValue<SharedEntry>(bytes) : undefined;
    } catch {
      return undefined;
    }
  }

  private async writeShared(store: CacheStore, key: string, entry: SharedEntry, keepMs: number): Promise<void> {
    await store.setBytes(`market:${key}`, encodeValue(entry), keepMs).catch(() => undefined);
  }

  private find(key: string): Entry | undefined {
    return this.protectedEntries.get(key) ?? this.probation.get(key);
  }

  /** Stores a value; a new value of a protected key stays protected (a refresh is no first read). */
  private set(key: string, entry: Entry): void {
    const wasProtected = this.protectedEntries.has(key);
    this.remove(key);
    if (entry.bytes > this.maxBytes) return; // larger than the whole cache: answered, not kept
    if (wasProtected) {
      this.protectedEntries.set(key, entry);
      this.protectedBytes += entry.bytes;
    } else {
      this.probation.set(key, entry);
    }
    this.bytes += entry.bytes;
    this.balance();
  }

  /** Keeps the protected segment within its share, then both within the bounds (probation out first). */
  private balance(): void {
    while (this.protectedBytes > this.maxBytes * PROTECTED_SHARE && this.protectedEntries.size > 0) {
      const [key, entry] = this.protectedEntries.entries().next().value!;
      this.protectedEntries.delete(key);
      this.protectedBytes -= entry.bytes;
      this.probation.set(key, entry);
    }
    while (this.probation.size + this.protectedEntries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const victim = this.probation.size > 0 ? this.probation.keys().next().value! : this.protectedEntries.keys().next().value!;
      this.remove(victim);
    }
  }

  private remove(key: string): void {
    const entry = this.protectedEntries.get(key);
    if (entry) {
      this.protectedEntries.delete(key);
      this.protectedBytes -= entry.bytes;
      this.bytes -= entry.bytes;
      return;
    }
    const onProbation = this.probation.get(key);
    if (!onProbation) return;
    this.probation.delete(key);
    this.bytes -= onProbation.bytes;
  }

  /** A read: the entry becomes the most recently used of the protected segment. */
  private touch(key: string, entry: Entry): void {
    if (this.protectedEntries.delete(key)) {
      this.protectedEntries.set(key, entry);
      return;
    }
    this.probation.delete(key);
    this.protectedEntries.set(key, entry);
    this.protectedBytes += entry.bytes;
    this.balance();
  }

  snapshot(): CacheStats {
    return { ...this.stats, entries: this.probation.size + this.protectedEntries.size, bytes: this.bytes };
  }
}

/**
 * Approximate bytes a value holds in V8, for the cache bound: typed arrays and buffers their
 * byteLength (a view is charged its own length, not its buffer's); strings a header and one byte a
 * character (two when a character is beyond Latin-1, as V8 stores them); a number 12 (a boxed double);
 * arrays and objects a header and a slot per item or property plus their contents (property names
 * are not charged: objects of one shape share them). Walks at most 8 levels deep (market values are
 * 3–4 deep). Checked against V8's own heap (cache.test.ts): an option chain of 122 contracts held
 * 34 KB and was charged 76 KB when names and characters were charged twice over, which let replay
 * reads push the quotes and bars out long before the real memory reached the bound.
 */
export function approximateBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined) return 8;
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return 12;
    case 'boolean':
      return 8;
    case 'string':
      return 16 + (WIDE_CHARACTER.test(value) ? value.length * 2 : value.length);
    case 'object':
      break;
    default:
      return 16;
  }
  if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
  if (value instanceof ArrayBuffer) return 32 + value.byteLength;
  if (depth >= 8) return 64;
  if (Array.isArray(value)) {
    let total = 16 + value.length * 8;
    for (const item of value) total += approximateBytes(item, depth + 1);
    return total;
  }
  let total = 16;
  for (const item of Object.values(value as Record<string, unknown>)) total += 8 + approximateBytes(item, depth + 1);
  return total;
}

/** A character V8 cannot keep in a one-byte string. */
const WIDE_CHARACTER = /[\u0100-\uffff]/;

/** Unknown symbols and bad requests are answers, not outages: they never fall back to stale data. */
function isServeStaleError(error: unknown): boolean {
  const name = (error as Error | undefined)?.constructor?.name;
  return name !== 'UnknownSymbolError';
}
