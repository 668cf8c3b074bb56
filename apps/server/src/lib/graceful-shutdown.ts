/**
 * The pieces of a graceful shutdown (server.ts, worker.ts): the jobs under way get a bounded time
 * (SHUTDOWN_DRAIN_SECONDS) to finish and record their job_runs rows before anything they use is
 * closed, the HTTP server stops accepting and gives the requests in flight the same time, and only
 * then are Redis/BullMQ, the pool and the embedded PostgreSQL closed.
 */
import type { FastifyInstance } from 'fastify';

/** Waits until every promise settled, or `ms` passed: true when they all settled in time. Never rejects. */
export async function settledWithin(ms: number, work: ReadonlyArray<Promise<unknown> | undefined>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const settled = Promise.allSettled(work.filter((each) => each !== undefined)).then(() => true);
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Closes the app's HTTP side: Fastify stops accepting (a request on a kept-alive connection answers
 * 503), the live streams end (its preClose hook), and the requests in flight get `drainMs` to finish;
 * past it their connections are closed. Then the app's onClose hooks run (its services stop).
 */
export async function closeHttp(app: FastifyInstance, drainMs: number): Promise<'drained' | 'cut'> {
  const closing = app.close();
  if (await settledWithin(drainMs, [closing])) {
    await closing;
    return 'drained';
  }
  app.server.closeAllConnections();
  await closing;
  return 'cut';
}
