/**
 * Requests first, background work after (issue 24: a user's first screen must not wait for the
 * engines' first replay). The HTTP layer marks each request as it starts and ends; background work
 * that runs in slices (a replay, session by session) calls `turn()` between slices, which answers
 * once no request has been under way for QUIET_MS — or after MAX_WAIT_MS at most, so a server
 * under constant load still makes progress on its background work.
 */

import type { FastifyInstance } from 'fastify';

/** No request for this long: the reads of a screen (issued one after the other) are over. */
export const QUIET_MS = 15;
/** Background work waits at most this long per slice for requests to finish. */
export const MAX_WAIT_MS = 250;

export interface Foreground {
  /** A request began; the answer ends it (call once). */
  begin(): () => void;
  /** Waits until no request has been under way for `quietMs` (at most `maxWaitMs`, or the given wait); always yields once. */
  turn(maxWaitMs?: number): Promise<void>;
}

export function createForeground(options: { quietMs?: number; maxWaitMs?: number; now?: () => number } = {}): Foreground {
  return countedForeground(options).foreground;
}

/** A Foreground and its raw counter: `enter` at a request's start, `leave` exactly once at its end. */
function countedForeground(options: { quietMs?: number; maxWaitMs?: number; now?: () => number } = {}) {
  const quietMs = options.quietMs ?? QUIET_MS;
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const now = options.now ?? (() => performance.now());
  let active = 0;
  let lastEnd = -Infinity;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  const enter = () => {
    active += 1;
  };
  const leave = () => {
    active -= 1;
    lastEnd = now();
  };
  const foreground: Foreground = {
    begin() {
      enter();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        leave();
      };
    },
    async turn(wait = maxWaitMs) {
      // setImmediate runs after the pending I/O callbacks: requests already arrived start first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const deadline = now() + wait;
      for (;;) {
        const idleFor = now() - lastEnd;
        if ((active === 0 && idleFor >= quietMs) || now() >= deadline) return;
        await sleep(active > 0 ? 2 : Math.max(1, Math.ceil(quietMs - idleFor)));
      }
    },
  };
  return { foreground, enter, leave };
}

/** A slice of background work runs at most about this long before it gives way (issue 24: a request waits for one slice at most). */
export const SLICE_MS = 10;
/**
 * A paced turn waits at most this long for requests: under requests without pause, background work
 * still gets SLICE_MS of every SLICE_MS + PACED_MAX_WAIT_MS (a fifth of the loop), where waiting
 * MAX_WAIT_MS after each 10 ms slice would leave it 4 % and a replay would crawl.
 */
export const PACED_MAX_WAIT_MS = 40;

/**
 * Cuts synchronous background work into slices: call the answer between small pieces of work (a
 * symbol, an idea, a chunk of rows); once the current slice has run for `sliceMs`, it takes a
 * foreground turn (the requests under way finish first), else it answers at once; `fresh`: a turn
 * now, before a piece that cannot be cut (it then has a slice of its own). A replay session
 * of a whole universe ran as a few slices of tens to hundreds of ms; a request arriving waited for them.
 */
export function createPacer(foreground: Foreground, options: { sliceMs?: number; maxWaitMs?: number; now?: () => number } = {}): (fresh?: boolean) => Promise<void> {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  const maxWaitMs = options.maxWaitMs ?? PACED_MAX_WAIT_MS;
  const now = options.now ?? (() => performance.now());
  let sliceStart = now();
  return async (fresh = false) => {
    if (!fresh && now() - sliceStart < sliceMs) return;
    await foreground.turn(maxWaitMs);
    sliceStart = now();
  };
}

/** Background work with no requests to give way to (a worker process, tests): one yield per slice. */
export const NO_FOREGROUND: Foreground = {
  begin: () => () => undefined,
  turn: () => new Promise<void>((resolve) => setImmediate(resolve)),
};

/**
 * A Foreground fed by `app`'s requests: each counts from its arrival until its answer's `close`,
 * which Node emits exactly once per response: after its last byte, or when its client goes. One
 * hook and one shared listener, nothing allocated per request: this runs on every call, and the
 * authenticated read's budget is counted in microseconds (`npm run bench -- getemail`).
 */
export function trackForeground(app: FastifyInstance): Foreground {
  const { foreground, enter, leave } = countedForeground();
  app.addHook('onRequest', (_request, reply, done) => {
    enter();
    reply.raw.on('close', leave);
    done();
  });
  return foreground;
}
