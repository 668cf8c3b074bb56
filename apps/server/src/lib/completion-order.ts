/** One item's outcome: its result, or the error its work threw (never thrown on). */
export type Settled<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

/**
 * Runs `work` over `items` with at most `limit` running at once and yields each outcome as soon as
 * it settles (completion order, not input order), so a caller can stream results while the rest
 * run. The next item starts as soon as one settles, before its outcome is yielded, so a slow
 * consumer never idles the pool. A rejection becomes an `ok: false` outcome; it never stops the
 * others. Once `signal` is aborted no further item starts (those already running settle and are
 * still yielded); after the consumer stops (`return`, a `break`), nothing new starts either.
 */
export async function* settleInCompletionOrder<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
  signal?: AbortSignal,
): AsyncGenerator<Settled<T, R>, void, undefined> {
  const running = new Map<number, Promise<{ index: number; outcome: Settled<T, R> }>>();
  let next = 0;
  let stopped = false;
  const launch = () => {
    while (!stopped && !signal?.aborted && running.size < Math.max(1, limit) && next < items.length) {
      const index = next;
      const item = items[index]!;
      next += 1;
      const settled = (async (): Promise<Settled<T, R>> => {
        try {
          return { item, ok: true, value: await work(item) };
        } catch (error) {
          return { item, ok: false, error };
        }
      })();
      running.set(index, settled.then((outcome) => ({ index, outcome })));
    }
  };
  try {
    launch();
    while (running.size > 0) {
      const { index, outcome } = await Promise.race(running.values());
      running.delete(index);
      launch();
      yield outcome;
    }
  } finally {
    stopped = true;
  }
}
