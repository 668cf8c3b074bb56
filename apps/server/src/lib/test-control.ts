/**
 * TEST_CONTROL_FILE (a test setting; the server refuses it unless NODE_ENV=test, so a normal
 * installation can never reach it): a JSON file the browser tests and demos write to move the
 * market and the clock of a running server.
 *
 *   { "quotes": { "AAPL": { "price": 200.5, "previousClose": 212.3 } }, "clockOffsetMs": 660000 }
 *
 * - `quotes`: the price (and optionally the previous close) a symbol's quote answers from now on, in
 *   front of the market cache, so a change is seen at the next read; symbols not named keep the
 *   source's quote.
 * - `clockOffsetMs`: added to the server's wall clock (limits, expiry of codes, delivery times);
 *   the market clock (MARKET_NOW) is not moved by it.
 * - `marketNow`: the market clock's time instead of MARKET_NOW (or the wall clock): a test moves the
 *   pinned market to the next session, whose bars the dataset held back until then, and the
 *   scheduler runs that session's passes live.
 * - `holdJobs`: registry jobs (names, or a prefix ending in ':' such as "trades-marks:") whose run
 *   waits, once claimed, until the file no longer names them: a test catches a worker holding a
 *   claim (e2e/scale-out.spec.ts kills it there).
 * The file is read again whenever its modification time or size changes (checked at most every
 * 100 ms); a missing or malformed file counts as empty and is reported once per change.
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import type { Clock } from './clock';

const controlSchema = z.object({
  quotes: z.record(z.string(), z.object({ price: z.number().positive(), previousClose: z.number().positive().optional() })).default({}),
  clockOffsetMs: z.number().finite().default(0),
  /** Moves the market clock (MARKET_NOW) to this time, e.g. to the next session: its daily passes run live. */
  marketNow: z.iso.datetime().optional(),
  /** Registry jobs held after their claim (names, or prefixes ending in ':'). */
  holdJobs: z.array(z.string()).optional(),
});
export type TestControlValues = z.infer<typeof controlSchema>;

export interface TestControl {
  readonly file: string;
  values(): TestControlValues;
}

const EMPTY: TestControlValues = { quotes: {}, clockOffsetMs: 0 };
const CHECK_EVERY_MS = 100;

export function createTestControl(file: string, warn: (message: string) => void = () => undefined): TestControl {
  let stamp = '';
  let current = EMPTY;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const read = () => {
    let nextStamp: string;
    try {
      const stat = statSync(file);
      nextStamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      nextStamp = 'missing';
    }
    if (nextStamp === stamp) return;
    stamp = nextStamp;
    if (nextStamp === 'missing') {
      current = EMPTY;
      return;
    }
    try {
      const parsed = controlSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) {
        current = { ...parsed.data, quotes: Object.fromEntries(Object.entries(parsed.data.quotes).map(([symbol, quote]) => [symbol.toUpperCase(), quote])) };
      } else {
        current = EMPTY;
        warn(`TEST_CONTROL_FILE ${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
      }
    } catch (error) {
      current = EMPTY;
      warn(`TEST_CONTROL_FILE ${file}: ${(error as Error).message}`);
    }
  };
  return {
    file,
    values() {
      const now = Date.now();
      if (now - checkedAt >= CHECK_EVERY_MS) {
        checkedAt = now;
        read();
      }
      return current;
    },
  };
}

/** The market clock `base`, or the control's marketNow when it names one. */
export function controlledMarketClock(base: Clock, control: TestControl): Clock {
  return {
    nowMs: () => {
      const pinned = control.values().marketNow;
      return pinned === undefined ? base.nowMs() : Date.parse(pinned);
    },
  };
}

/** `base` moved by the control's clockOffsetMs. */
export function offsetClock(base: Clock, control: TestControl): Clock {
  return { nowMs: () => base.nowMs() + control.values().clockOffsetMs };
}

/** How often a held job looks at the control file again. */
const HOLD_CHECK_MS = 100;

/** The registry's test hold (JobRunnerDeps.hold): waits while the control's holdJobs names `job`. */
export function holdWhileControlled(control: TestControl): (job: string) => Promise<void> {
  const held = (job: string) => (control.values().holdJobs ?? []).some((entry) => entry === job || (entry.endsWith(':') && job.startsWith(entry)));
  return async (job) => {
    while (held(job)) await new Promise((resolve) => setTimeout(resolve, HOLD_CHECK_MS));
  };
}
