/**
 * The in-process replays run one at a time (issue 24, light to host). Five engines replaying two
 * years side by side held five universes of series views, five runners' open ideas and five
 * sessions' garbage at once (the heap grew about 4× during a first start), and shared the event loop
 * five ways with the first screens. One lane: a replay claims its job_runs slot as before, then
 * waits its turn here, its claim kept fresh meanwhile (`keepAlive` every KEEP_ALIVE_MS) so that
 * no other process takes a queued replay over as stale (job-runs.ts STALE_RUN_MS).
 */

/** A waiting replay's claim is refreshed this often (well inside STALE_RUN_MS, 15 minutes). */
export const KEEP_ALIVE_MS = 60_000;

export interface ReplayLane {
  /** Waits for the lane (calling `keepAlive` while it waits); answers its release, to call once. */
  enter(keepAlive: () => Promise<void>): Promise<() => void>;
  /** Replays waiting for the lane (not the one in it). */
  waiting(): number;
}

export function createReplayLane(keepAliveMs = KEEP_ALIVE_MS): ReplayLane {
  const queue: Array<() => void> = [];
  let busy = false;

  const release = () => {
    const next = queue.shift();
    if (next) next();
    else busy = false;
  };

  return {
    async enter(keepAlive) {
      if (!busy) {
        busy = true;
        return once(release);
      }
      const timer = setInterval(() => void keepAlive().catch(() => undefined), keepAliveMs);
      try {
        // busy stays true: the lane passes straight from the releasing replay to this one.
        await new Promise<void>((resolve) => queue.push(resolve));
      } finally {
        clearInterval(timer);
      }
      return once(release);
    },
    waiting: () => queue.length,
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
