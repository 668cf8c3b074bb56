/**
 * The backtests one process runs at once (SCAN_BACKTEST_MAX_CONCURRENT; docs/custom-scans.md
 * "Backtest jobs"). A start past them waits for a slot, first come first served, its row still
 * queued at 0 of 0; it is never dropped: it runs once a slot frees, unless its wait is given up
 * (its start was cancelled or replaced) or the process stops.
 */

/** A slot's release: frees it for the next start waiting (once; later calls do nothing). */
export type Release = () => void;

export interface SlotWait {
  /** The slot (its release), or null when the wait was given up or ended by `closeAll`. */
  slot: Promise<Release | null>;
  /** Gives the wait up (nothing once the slot was given). */
  abandon(): void;
}

export interface BacktestSlots {
  /** Asks for a slot: given at once while fewer than `max` are taken, else after the waits before it. */
  take(): SlotWait;
  /** How many starts wait for a slot now. */
  readonly waiting: number;
  /** How many slots are taken now. */
  readonly running: number;
  /** Ends every wait (the process stops): each answers null. */
  closeAll(): void;
}

export function createBacktestSlots(max: number): BacktestSlots {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`createBacktestSlots: max must be a whole number of 1 or more (got ${max})`);
  let running = 0;
  const queue: Array<(release: Release | null) => void> = [];

  const release = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      grant();
    };
  };
  const grant = () => {
    while (running < max && queue.length > 0) {
      running += 1;
      queue.shift()!(release());
    }
  };

  return {
    take() {
      let resolve!: (release: Release | null) => void;
      const slot = new Promise<Release | null>((done) => (resolve = done));
      queue.push(resolve);
      grant();
      return {
        slot,
        abandon() {
          const at = queue.indexOf(resolve);
          if (at < 0) return;
          queue.splice(at, 1);
          resolve(null);
        },
      };
    },
    get waiting() {
      return queue.length;
    },
    get running() {
      return running;
    },
    closeAll() {
      for (const resolve of queue.splice(0)) resolve(null);
    },
  };
}
