/**
 * Jobs on BullMQ (REDIS_URL is set). One queue, `jobs` under REDIS_PREFIX (keys
 * `<prefix>:jobs:…`). Periodic tasks are job schedulers (upsertJobScheduler): any number of processes
 * upsert the same ids, so there is one schedule per task and each iteration is one job (BullMQ names
 * it `repeat:<scheduler>:<time>`). On-demand jobs carry a fixed jobId so bursts collapse, or a
 * deterministic one per slot so a retried producer does not add them twice. Workers (`npm run worker`)
 * run them; a job whose worker dies loses its lock and another worker's stalled check takes it up.
 * The database claims (job_runs, delivery leases, alert state) stay the second line of defence.
 */
import { hostname } from 'node:os';
import { Queue, Worker, type Job as BullJob, type JobsOptions } from 'bullmq';
import { metrics } from '../lib/metrics';
import { closeRedis, createRedisConnection, outageLogger, redisKey, type RedisSettings } from '../lib/redis';

export const JOBS_QUEUE = 'jobs';
/**
 * Long jobs (the engines' replays: minutes each) have a queue and worker slots of their own, so they
 * never hold up the minute's ticks, the alert evaluations or the deliveries (enqueue with `long`).
 */
export const LONG_JOBS_QUEUE = 'long-jobs';
/** A worker process runs at most this many long jobs at once (each is CPU-bound in bursts). */
export const LONG_WORKER_CONCURRENCY = 2;
/**
 * The saved scans' backtests (seconds each, CPU-bound, started by users) have a queue of their own:
 * a worker process runs SCAN_BACKTEST_MAX_CONCURRENT of them at once (`backtestConcurrency`), the
 * rest wait in the queue for any worker, and they never take the engines' replays' slots.
 */
export const BACKTEST_JOBS_QUEUE = 'backtest-jobs';
/** A worker's backtest slots unless told (SCAN_BACKTEST_MAX_CONCURRENT's default). */
export const BACKTEST_WORKER_CONCURRENCY = 1;

/** A killed worker's job is taken up by another within about lockDuration + stalledInterval (~30 s). */
export const WORKER_LOCK_MS = 20_000;
export const WORKER_STALLED_INTERVAL_MS = 10_000;
/** Two cores: a few jobs at once (most wait on the database, the market or an SMS/e-mail provider). */
export const WORKER_CONCURRENCY = 4;
/** Finished jobs are kept an hour: a deterministic jobId added again in that time is ignored. */
export const KEEP_DONE_SECONDS = 60 * 60;
export const KEEP_FAILED_SECONDS = 24 * 60 * 60;

export interface JobData {
  /** The id of the API request that enqueued the job, when one did: the worker logs with it. */
  requestId?: string;
  [key: string]: unknown;
}

export interface JobLog {
  info(message: string): void;
  warn(message: string): void;
}

export interface TaskContext {
  data: JobData;
  jobId: string;
  /**
   * True when this job was started before (its worker died or lost the lock, or an attempt failed):
   * a database claim its earlier start holds may be taken over (jobs/job-runs.ts).
   */
  redelivered: boolean;
  /** Which start of this job this is (1: the first; BullMQ's attemptsStarted): with jobId, a claim's holder. */
  attempt: number;
  /** Logs with the job's name, id and request id. */
  log: JobLog;
  /** Adds more jobs (a fan-out). */
  enqueue: JobQueue['enqueue'];
  /** Leaves a value the API processes read (JobQueue.note). */
  note: JobQueue['note'];
}

export type TaskHandler = (context: TaskContext) => Promise<unknown>;

/** A task the schedule runs: every `everyMs`, or on a cron `pattern` (UTC). Its name is the scheduler id and the job name. */
export interface PeriodicTask {
  name: string;
  everyMs?: number;
  pattern?: string;
  run: TaskHandler;
}

export interface EnqueueOptions {
  /** A fixed id collapses a burst (while the job waits) or makes a retried producer add it once. */
  jobId?: string;
  requestId?: string;
  /** Drop the job as soon as it finished (a kick: the next kick adds it again). */
  removeWhenDone?: boolean;
  attempts?: number;
  /** First retry after this long (doubling; default 1 s). */
  backoffMs?: number;
  /** A long job (LONG_JOBS_QUEUE): run in the workers' long-job slots. */
  long?: boolean;
  /** A saved scan's backtest (BACKTEST_JOBS_QUEUE): run in the workers' backtest slots. */
  backtest?: boolean;
}

/** How often waitFor looks at a job's state. */
const WAIT_POLL_MS = 250;

// One retention for every job: BullMQ trims the whole finished set by age and count when any job
// finishes, and the deterministic jobIds (evaluation chunks, dashboard fills) rely on an hour of it.
const RETENTION: Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> = {
  removeOnComplete: { age: KEEP_DONE_SECONDS, count: 5_000 },
  removeOnFail: { age: KEEP_FAILED_SECONDS, count: 5_000 },
};

export interface JobQueue {
  /** The queue of the periodic and short jobs. */
  queue: Queue;
  /** Every queue (the short jobs', the long jobs', the backtests'): readiness and depth. */
  queues: readonly Queue[];
  /** Creates or updates one scheduler per task (idempotent) and removes schedulers of tasks no longer listed. */
  upsertSchedules(tasks: readonly Pick<PeriodicTask, 'name' | 'everyMs' | 'pattern'>[]): Promise<void>;
  enqueue(name: string, data?: JobData, options?: EnqueueOptions): Promise<void>;
  /** A small shared value under `<prefix>:jobs-note:<name>` (e.g. when alerts were last evaluated); null: none. */
  note(name: string, value?: string): Promise<string | null>;
  /** Waits (at most `waitMs`) until the (short) job finished or is gone; answers its last state. */
  waitFor(jobId: string, waitMs: number): Promise<string>;
  /** Jobs per state of the short jobs' queue; every queue's counts are recorded as metrics.queueDepth. */
  depth(): Promise<Record<string, number>>;
  close(): Promise<void>;
}

export function createJobQueue(settings: RedisSettings, options: { log?: JobLog } = {}): JobQueue {
  // Not blocking: an add from a request (a dashboard fill) fails after a few tries while Redis is
  // down instead of holding the request; only the workers' connection waits for Redis forever.
  const connection = createRedisConnection(settings, { name: 'bullmq-queue' });
  const queue = new Queue(JOBS_QUEUE, { connection, prefix: settings.prefix, defaultJobOptions: { ...RETENTION, attempts: 1 } });
  const longQueue = new Queue(LONG_JOBS_QUEUE, { connection, prefix: settings.prefix, defaultJobOptions: { ...RETENTION, attempts: 1 } });
  const backtestQueue = new Queue(BACKTEST_JOBS_QUEUE, { connection, prefix: settings.prefix, defaultJobOptions: { ...RETENTION, attempts: 1 } });
  for (const each of [queue, longQueue, backtestQueue]) {
    const errors = outageLogger((message) => options.log?.warn(`Job queue ${each.name}: ${message}`));
    each.on('error', errors.onError);
    connection.on('ready', errors.reset);
  }
  // The schedules live in Redis: a Redis that comes back empty (restarted without persistence) has
  // lost them, so they are upserted again on every reconnect (idempotent).
  let scheduled: readonly Pick<PeriodicTask, 'name' | 'everyMs' | 'pattern'>[] | undefined;
  let connectedOnce = false;
  connection.on('ready', () => {
    if (connectedOnce && scheduled) {
      upsertSchedules(scheduled).catch((error: unknown) => options.log?.warn(`Job queue: restoring the schedules after a reconnect failed: ${String(error)}`));
    }
    connectedOnce = true;
  });
  async function upsertSchedules(tasks: readonly Pick<PeriodicTask, 'name' | 'everyMs' | 'pattern'>[]): Promise<void> {
    scheduled = tasks;
    const names = new Set(tasks.map((task) => task.name));
    for (const task of tasks) {
      const repeat = task.pattern ? { pattern: task.pattern, tz: 'UTC' } : { every: task.everyMs ?? 60_000 };
      await queue.upsertJobScheduler(task.name, repeat, { name: task.name, data: {}, opts: RETENTION });
    }
    for (const scheduler of await queue.getJobSchedulers(0, -1)) {
      if (!names.has(scheduler.key)) await queue.removeJobScheduler(scheduler.key);
    }
  }
  return {
    queue,
    queues: [queue, longQueue, backtestQueue],
    upsertSchedules,
    async enqueue(name, data = {}, enqueueOptions = {}) {
      const { jobId, requestId, removeWhenDone, attempts, backoffMs, long, backtest } = enqueueOptions;
      await (backtest ? backtestQueue : long ? longQueue : queue).add(name, requestId ? { ...data, requestId } : data, {
        ...(jobId ? { jobId } : {}),
        ...(removeWhenDone ? { removeOnComplete: true, removeOnFail: true } : {}),
        ...(attempts ? { attempts, backoff: { type: 'exponential', delay: backoffMs ?? 1_000 } } : {}),
      });
    },
    async note(name, value) {
      const key = redisKey(settings.prefix, 'jobs-note', name);
      if (value === undefined) return connection.get(key);
      await connection.set(key, value);
      return value;
    },
    async waitFor(jobId, waitMs) {
      const until = Date.now() + waitMs;
      for (;;) {
        const state = await queue.getJobState(jobId);
        if (state === 'completed' || state === 'failed' || state === 'unknown' || Date.now() >= until) return state;
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
    },
    async depth() {
      const [counts] = await Promise.all([recordDepth(queue), recordDepth(longQueue), recordDepth(backtestQueue)]);
      return counts;
    },
    async close() {
      // A connection that never came up is dropped first: BullMQ's close would wait for it.
      if (connection.status !== 'ready') connection.disconnect();
      await Promise.all([queue, longQueue, backtestQueue].map((each) => each.close().catch(() => undefined)));
      await closeRedis(connection);
    },
  };
}

const DEPTH_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

async function recordDepth(queue: Queue): Promise<Record<string, number>> {
  const counts = await queue.getJobCounts(...DEPTH_STATES);
  for (const state of DEPTH_STATES) metrics.queueDepth.set({ queue: queue.name, state }, counts[state] ?? 0);
  return counts;
}

export interface JobWorkers {
  /** Stops taking jobs and waits (at most `waitMs`) for the jobs under way. */
  close(waitMs?: number): Promise<void>;
}

export interface JobWorkersOptions {
  /** Runs a job of this name. A name without a handler fails the job (a newer API than this worker). */
  handlers: Readonly<Record<string, TaskHandler>>;
  queue: JobQueue;
  log: JobLog & { child(bindings: Record<string, unknown>): JobLog };
  concurrency?: number;
  /** Backtests run at once (SCAN_BACKTEST_MAX_CONCURRENT; default BACKTEST_WORKER_CONCURRENCY). */
  backtestConcurrency?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** How often the queue depth metric is refreshed (default 15 s; 0: never). */
  depthEveryMs?: number;
}

/**
 * Runs the queues' jobs in this process until close(): the short ones `concurrency` at a time, the
 * long ones LONG_WORKER_CONCURRENCY at a time, the backtests `backtestConcurrency` at a time.
 */
export function startJobWorkers(settings: RedisSettings, options: JobWorkersOptions): JobWorkers {
  const { handlers, log } = options;
  const processor = async (job: BullJob<JobData>) => {
    const handler = handlers[job.name];
    const requestId = typeof job.data?.requestId === 'string' ? job.data.requestId : undefined;
    const jobLog = log.child({ job: job.name, jobId: job.id, ...(requestId ? { requestId } : {}) });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      const context: TaskContext = {
        data: job.data ?? {},
        jobId: job.id ?? '',
        // BullMQ counts each start (a stalled job's restart and a retry included).
        redelivered: job.attemptsStarted > 1,
        attempt: Math.max(1, job.attemptsStarted),
        log: jobLog,
        enqueue: options.queue.enqueue,
        note: options.queue.note,
      };
      const result = await handler(context);
      metrics.jobDuration.observe({ job: job.name, outcome: 'done' }, seconds());
      return result;
    } catch (error) {
      metrics.jobDuration.observe({ job: job.name, outcome: 'failed' }, seconds());
      metrics.jobFailures.inc({ job: job.name });
      jobLog.warn(`Job ${job.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  };
  const workerOn = (queueName: string, concurrency: number) => {
    const connection = createRedisConnection(settings, { name: `bullmq-worker-${queueName}`, blocking: true });
    const worker = new Worker<JobData>(queueName, processor, {
      connection,
      prefix: settings.prefix,
      // Shown as each job's processedBy: which worker process runs it (operators; the scale-out test).
      name: `${hostname()}:${process.pid}`,
      concurrency,
      lockDuration: options.lockDurationMs ?? WORKER_LOCK_MS,
      stalledInterval: options.stalledIntervalMs ?? WORKER_STALLED_INTERVAL_MS,
      // A job cut short twice by dying workers still runs a third time before it counts as failed.
      maxStalledCount: 2,
    });
    // Each distinct error once per outage; the worker reconnects and takes jobs again by itself.
    const errors = outageLogger((message) => log.warn(`Job worker (${queueName}): ${message}`));
    worker.on('error', errors.onError);
    connection.on('ready', errors.reset);
    worker.on('stalled', (jobId) => log.warn(`Job ${jobId} stalled (its worker stopped); it runs again`));
    return { worker, connection };
  };
  const workers = [
    workerOn(JOBS_QUEUE, options.concurrency ?? WORKER_CONCURRENCY),
    workerOn(LONG_JOBS_QUEUE, LONG_WORKER_CONCURRENCY),
    workerOn(BACKTEST_JOBS_QUEUE, options.backtestConcurrency ?? BACKTEST_WORKER_CONCURRENCY),
  ];
  const depthEveryMs = options.depthEveryMs ?? 15_000;
  const depthTimer = depthEveryMs > 0 ? setInterval(() => void options.queue.depth().catch(() => undefined), depthEveryMs) : undefined;
  depthTimer?.unref();
  return {
    async close(waitMs = 15_000) {
      clearInterval(depthTimer);
      let timer: NodeJS.Timeout | undefined;
      // close() waits for the jobs under way; past the limit they are left to the stalled check of another worker.
      const closed = Promise.all(workers.map(({ worker }) => worker.close())).then(() => true);
      const finished = await Promise.race([closed, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
      clearTimeout(timer);
      if (!finished) {
        log.warn('Job worker: jobs still running at shutdown; another worker takes them up');
        await Promise.all(workers.map(({ worker }) => worker.close(true).catch(() => undefined)));
      }
      await Promise.all(workers.map(({ connection }) => closeRedis(connection)));
    },
  };
}
