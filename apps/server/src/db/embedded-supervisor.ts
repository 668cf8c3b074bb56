/**
 * Keeps the embedded PostgreSQL server up under a running server (`npm start`): when its postmaster
 * is gone (killed, crashed, stopped by hand), it is started again on the same data directory within
 * about a second — on the same port when that is still free, so the pool's connections simply
 * succeed again; on another port otherwise, and then the pool follows it. Meanwhile requests answer
 * 503 (app.ts) and readiness says the database is down. Nothing committed is lost: PostgreSQL
 * replays its write-ahead log on start.
 */
import type pg from 'pg';
import { embeddedPostgresRunning, ensureEmbeddedPostgres, type EmbeddedPostgres, type Logger } from './embedded-postgres';

/** How often the postmaster is looked at (a pid check and a /proc read: next to nothing). */
export const SUPERVISE_EVERY_MS = 1_000;

export interface EmbeddedSupervisor {
  /** The server now running (a new one after each restart). */
  current(): EmbeddedPostgres;
  /**
   * Stops watching (before a deliberate stop of the server): no restart starts any more, and one
   * under way starts no server past this call (it gives up before its next start); waits for it.
   */
  stop(): Promise<void>;
}

export function superviseEmbeddedPostgres(options: {
  dataDir: string;
  embedded: EmbeddedPostgres;
  pool: pg.Pool;
  log: Logger;
  everyMs?: number;
}): EmbeddedSupervisor {
  const { dataDir, pool, log } = options;
  let current = options.embedded;
  let restarting: Promise<void> | undefined;
  let stopped = false;
  let failures = 0;
  const stopping = new AbortController();

  const restart = async () => {
    if (failures === 0) log.warn(`The embedded PostgreSQL server (port ${current.port}) stopped; starting it again`);
    try {
      const next = await ensureEmbeddedPostgres(dataDir, log, { port: current.port, signal: stopping.signal });
      if (next.url !== current.url) {
        // New clients take the pool's options: the next connection goes to the new port.
        (pool.options as pg.PoolConfig).connectionString = next.url;
        log.warn(`The embedded PostgreSQL server is back on another port (${next.port}); the connections follow it`);
      }
      current = next;
      failures = 0;
    } catch (error) {
      if (stopping.signal.aborted) return;
      // E.g. the killed server's last processes still hold its shared memory: the next tick tries again.
      failures += 1;
      if (failures === 1 || failures % 30 === 0) log.warn(`Starting the embedded PostgreSQL server again failed (${failures}x): ${(error as Error).message}`);
    }
  };

  const timer = setInterval(() => {
    if (stopped || restarting || embeddedPostgresRunning(dataDir)) return;
    // Assigned before the restart's first step runs: a stop() from then on waits for it.
    restarting = Promise.resolve()
      .then(restart)
      .finally(() => (restarting = undefined));
  }, options.everyMs ?? SUPERVISE_EVERY_MS);
  timer.unref();

  return {
    current: () => current,
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(timer);
      await restarting;
    },
  };
}
