/**
 * Readiness (GET /api/ready): every dependency named with its state. A list of named checks, each
 * run with a short timeout so readiness never hangs; a required check that is down (the database;
 * Redis when REDIS_URL is set) makes the process not ready (503). Other components add their own
 * check through `AppDeps.readinessChecks` (e.g. the BullMQ queues); a check with the name of a
 * default one replaces it.
 */
import type pg from 'pg';
import type { ReadinessCheckResult, ReadyResponse } from '@signalboard/core';
import type { Config } from '../../config';
import { closeRedis, createRedisConnection } from '../../lib/redis';
import type { Redis } from 'ioredis';

/** How long one check may take before it counts as down. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/** What a check answers when it completes: its state (default `up`) and its own details. */
export type ReadinessDetails = { state?: 'up' | 'not_configured' | 'degraded'; msg?: string } & Record<string, unknown>;

export interface ReadinessCheck {
  /** The dependency's name in the answer: 'database', 'redis', 'queues', … */
  name: string;
  /** A required dependency that is down makes the process not ready (503). */
  required: boolean;
  /** Answers the details, or throws (the error's message becomes `msg`) when the dependency is down. */
  run(signal: AbortSignal): Promise<ReadinessDetails>;
}

export interface Readiness {
  check(): Promise<{ ready: boolean; body: ReadyResponse }>;
  close(): Promise<void>;
}

class CheckTimeoutError extends Error {}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<ReadinessCheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CheckTimeoutError(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const latency = () => Math.round(performance.now() - started);
  try {
    const { state, ...details } = await Promise.race([check.run(controller.signal), timeout]);
    return { ...details, state: state ?? 'up', latency_ms: latency(), required: check.required };
  } catch (error) {
    const msg = error instanceof Error && error.message ? error.message : String(error);
    return { state: 'down', latency_ms: latency(), required: check.required, msg };
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness(checks: readonly ReadinessCheck[], options: { timeoutMs?: number; onClose?: () => Promise<void> } = {}): Readiness {
  const timeoutMs = options.timeoutMs ?? READINESS_CHECK_TIMEOUT_MS;
  return {
    async check() {
      const results = await Promise.all(checks.map(async (check) => [check.name, await runCheck(check, timeoutMs)] as const));
      const ready = results.every(([, result]) => !(result.required && result.state === 'down'));
      return { ready, body: { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) } };
    },
    close: options.onClose ?? (async () => undefined),
  };
}

/** `extra` after `defaults`; a check named like a default one takes its place. */
export function mergeChecks(defaults: readonly ReadinessCheck[], extra: readonly ReadinessCheck[]): ReadinessCheck[] {
  const byName = new Map(defaults.map((check) => [check.name, check]));
  for (const check of extra) byName.set(check.name, check);
  return [...byName.values()];
}

export interface DefaultChecksDeps {
  config: Config;
  pool: Pick<pg.Pool, 'query'>;
  mailKind: 'smtp' | 'outbox';
  smsKind: 'outbox' | 'twilio';
  /** Today's SMS budget (providers/sms/guard.ts): `degraded` while SMS_DAILY_LIMIT is spent. */
  smsBudget?: () => Promise<ReadinessDetails>;
}

/**
 * The database (a `select 1`), Redis (a PING on a connection of its own, opened on the first check),
 * the queues when there is no Redis (jobs run in this process), and the configured providers. The
 * providers are named, not called: a readiness probe every few seconds must not spend the market
 * data providers' request limits (their errors are counted in signalboard_provider_errors_total).
 */
export function defaultReadinessChecks(deps: DefaultChecksDeps): { checks: ReadinessCheck[]; close(): Promise<void> } {
  const { config } = deps;
  let redis: Redis | undefined;
  let redisError: string | undefined;
  const checks: ReadinessCheck[] = [
    {
      name: 'database',
      required: true,
      async run() {
        await deps.pool.query('select 1');
        return { kind: config.isExternalDatabase ? 'external' : 'embedded' };
      },
    },
    {
      name: 'redis',
      required: config.isRedis,
      async run() {
        if (!config.REDIS_URL) return { state: 'not_configured', msg: 'REDIS_URL is not set: caches, rate limits and jobs live in this process' };
        if (!redis) {
          redis = createRedisConnection({ url: config.REDIS_URL, prefix: config.REDIS_PREFIX }, { name: 'readiness' });
          // Errors show up as a failed PING below; without a listener ioredis would print each one.
          redis.on('error', (error: Error) => (redisError = error.message));
        }
        // Down since it was last up: say why (its commands fail at once then, lib/redis.ts).
        const notConnected = () => new Error(`not connected${redisError ? ` (${redisError})` : ''}`);
        if (redis.status === 'reconnecting' || redis.status === 'close') throw notConnected();
        let pong: string;
        try {
          pong = await redis.ping();
        } catch (error) {
          // The connection dropped while the PING waited (ioredis then answers its retry limit): say so.
          if (redis.status !== 'ready') throw notConnected();
          throw error;
        }
        if (pong !== 'PONG') throw new Error(`PING answered ${pong}${redisError ? ` (${redisError})` : ''}`);
        return { prefix: config.REDIS_PREFIX };
      },
    },
    ...(config.isRedis
      ? []
      : [{ name: 'queues', required: false, run: async () => ({ state: 'not_configured' as const, msg: 'no REDIS_URL: jobs run in this process on its scheduler' }) }]),
    {
      name: 'market_data',
      required: false,
      run: async () => ({ source: config.MARKET_DATA, ...(config.MARKET_DATA === 'live' ? { msg: 'live providers are not called by the check' } : {}) }),
    },
    { name: 'mail', required: false, run: async () => ({ kind: deps.mailKind }) },
    { name: 'sms', required: false, run: async () => ({ kind: deps.smsKind, ...(await deps.smsBudget?.()) }) },
  ];
  return {
    checks,
    async close() {
      if (redis) await closeRedis(redis);
    },
  };
}

/** The job states readiness reports per queue. */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * The BullMQ queues' check (for AppDeps.readinessChecks when REDIS_URL is set): each queue's job
 * counts by state. Not required by default: Redis's own check already decides readiness, and the
 * API only adds jobs that the workers run.
 */
export function queuesReadinessCheck(
  queues: ReadonlyArray<{ name: string; getJobCounts(...types: Array<(typeof QUEUE_STATES)[number]>): Promise<Record<string, number>> }>,
  required = false,
): ReadinessCheck {
  return {
    name: 'queues',
    required,
    async run() {
      const counts = await Promise.all(queues.map(async (queue) => [queue.name, await queue.getJobCounts(...QUEUE_STATES)] as const));
      return { counts: Object.fromEntries(counts) };
    },
  };
}
