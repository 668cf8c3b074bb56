/**
 * What the workers run on BullMQ (queue.ts), by job name: the periodic tasks (one scheduler each) and
 * the jobs other jobs or API requests enqueue. Without REDIS_URL the same work runs in the server
 * process (server.ts: croner over the job registry, the evaluator's and the delivery's timers).
 *
 * - `jobs-tick` (every minute): the job registry (dashboard refreshes, engine passes, marks; replays
 *   start from it). Its jobs claim their slots in job_runs as this job's; the same job started again
 *   after its worker died takes over every claim its earlier start left running (or failed), so its
 *   jobs run at once, not after the claims' 15 minutes; another tick leaves them alone.
 * - `alert-poll` (every poll interval): reads the watched symbols and enqueues `alert-evaluate` jobs
 *   over chunks of them, with jobIds per poll slot and chunk, so workers share the quotes and a
 *   retried poll adds nothing twice. Evaluation stays idempotent on the per-symbol state.
 * - `alert-idea-events`, `alert-news`: the engines' events and the market news into alerts (cursors).
 * - `alert-custom-scans` (every poll interval): the price-only Custom Scans on live quotes while the
 *   session is open (features/alerts/evaluation/scan-intraday.evaluator.ts); each entry is written
 *   once per symbol, scan and session whichever worker sees it.
 * - `alert-delivery` (every 2 s, and kicked after a commit that queued deliveries: jobId
 *   `alert-delivery-kick`, so a burst of kicks is one pass). Deliveries are leased rows.
 * - `alert-webhooks`: the same for the webhook lane (issue 27), a job of its own so that a slow
 *   receiver never holds up an SMS (kicked with `alert-delivery`).
 * - `live-quotes` (every 5 s): the quotes of the symbols the open live streams show, published on the
 *   Redis bus to every API replica (features/live/live-quotes.ts).
 * - `trades-replay` (a long job, enqueued by the engines' tick: jobId per rule version): an engine's
 *   history replay, minutes long, in the workers' long-job slots. A worker that dies holding it loses
 *   its lock; another takes it up (redelivered) and the job_runs claim over, and goes on from the last
 *   stored session. A failed attempt is retried by BullMQ (REPLAY_ATTEMPTS, from 30 s, doubling).
 * - `scan-backtest` (enqueued by POST api/scans/{id}/backtest: jobId per scan, version and start): a
 *   saved scan's backtest (features/custom-scans/backtest.job.ts), seconds long, on the backtests'
 *   queue (SCAN_BACKTEST_MAX_CONCURRENT at once per worker). Not retried: a failure is in the
 *   backtest's row; one redelivered after its worker died starts again.
 * One more periodic task: its service in TaskDeps and taskDepsOf, and one entry in `periodicTasks`.
 */
import type { FastifyInstance } from 'fastify';
import type { AlertEvaluation } from '../features/alerts/evaluation/evaluation';
import { DEFAULT_POLL_MS, DELIVERY_BATCH, type AlertDelivery } from '../features/alerts/delivery/delivery';
import { LIVE_QUOTES_INTERVAL_MS, type LiveQuotes } from '../features/live/live-quotes';
import type { BacktestJob, ScanBacktests } from '../features/custom-scans/backtest.job';
import type { TradeJobs } from '../features/trades/trades.jobs';
import type { Clock } from '../lib/clock';
import type { JobQueue, PeriodicTask, TaskContext, TaskHandler } from './queue';
import type { JobRegistry } from './registry';

export const TASKS = {
  jobsTick: 'jobs-tick',
  alertPoll: 'alert-poll',
  alertEvaluate: 'alert-evaluate',
  ideaEvents: 'alert-idea-events',
  news: 'alert-news',
  scanIntraday: 'alert-custom-scans',
  delivery: 'alert-delivery',
  webhooks: 'alert-webhooks',
  liveQuotes: 'live-quotes',
  replay: 'trades-replay',
  scanBacktest: 'scan-backtest',
} as const;

/** A replay's attempts before the job is dropped (the next tick enqueues it again), and the first retry's delay. */
export const REPLAY_ATTEMPTS = 5;
export const REPLAY_RETRY_MS = 30_000;

/** Symbols per evaluation job. */
export const EVALUATION_CHUNK = 25;
/** A full delivery batch means more may be due; a pass goes on at most this many batches. */
const DELIVERY_BATCHES_PER_PASS = 20;

export interface TaskDeps {
  jobs: Pick<JobRegistry, 'tick'>;
  alertEvaluation: Pick<AlertEvaluation, 'pollIntervalMs' | 'watchedSymbols' | 'pollQuotes' | 'consumeIdeaEvents' | 'consumeNews' | 'scanIntraday'>;
  alertDelivery: Pick<AlertDelivery, 'runLane'>;
  /** The live-quote publisher: the quotes of the symbols open streams show, to every API replica. */
  liveQuotes: Pick<LiveQuotes, 'runOnce'>;
  /** The engines' replays (the `trades-replay` jobs). */
  trades: Pick<TradeJobs, 'runReplay'>;
  /** The saved scans' backtests (the `scan-backtest` jobs). */
  scanBacktests: Pick<ScanBacktests, 'run'>;
  /** Wall time: the poll slots. */
  clock: Clock;
}

/** The tasks' dependencies from the built app (server.ts) or the container (worker.ts); a new task's service is one more line here. */
export function taskDepsOf(app: Pick<FastifyInstance, 'jobs' | 'alertEvaluation' | 'alertDelivery' | 'liveQuotes' | 'tradeJobs' | 'scanBacktests'>, clock: Clock): TaskDeps {
  return { jobs: app.jobs, alertEvaluation: app.alertEvaluation, alertDelivery: app.alertDelivery, liveQuotes: app.liveQuotes, trades: app.tradeJobs, scanBacktests: app.scanBacktests, clock };
}

export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** The schedule: every process upserts the same list (queue.upsertSchedules). */
export function periodicTasks(deps: TaskDeps): PeriodicTask[] {
  const { alertEvaluation } = deps;
  // The evaluator's shortest interval; a live source with many symbols polls less often (see alertPoll).
  const alertEveryMs = alertEvaluation.pollIntervalMs(0);
  const tasks: PeriodicTask[] = [
    { name: TASKS.jobsTick, pattern: '* * * * *', run: (context) => tickJobs(deps, context) },
    { name: TASKS.alertPoll, everyMs: alertEveryMs, run: (context) => fanOutPoll(deps, context) },
    { name: TASKS.ideaEvents, everyMs: alertEveryMs, run: () => alertEvaluation.consumeIdeaEvents() },
    { name: TASKS.news, everyMs: alertEveryMs, run: () => alertEvaluation.consumeNews() },
    { name: TASKS.scanIntraday, everyMs: alertEveryMs, run: () => alertEvaluation.scanIntraday() },
    { name: TASKS.delivery, everyMs: DEFAULT_POLL_MS, run: () => deliveryPass(deps) },
    // Webhooks in a job of their own: a slow receiver never holds up the SMS and e-mail pass.
    { name: TASKS.webhooks, everyMs: DEFAULT_POLL_MS, run: () => deps.alertDelivery.runLane('webhook') },
    { name: TASKS.liveQuotes, everyMs: LIVE_QUOTES_INTERVAL_MS, run: () => deps.liveQuotes.runOnce() },
  ];
  return tasks.map((task) => ({ ...task, run: notOverlapped(task.run) }));
}

/** What a periodic job answers when the previous one still runs in this process. */
export const STILL_RUNNING = 'skipped: the previous run is still under way in this worker';

/**
 * A periodic job that finds the previous one still running in this process (a long dashboard
 * refresh past the next minute) ends at once instead of holding a worker slot while it waits, as the
 * in-process scheduler's `protect` does; a job with `data.wait` (a dashboard fill) waits for it. A
 * job started again (`redelivered`: its first worker died) runs after it instead: it has claims to
 * take over, which the pass under way skipped.
 */
function notOverlapped(run: TaskHandler): TaskHandler {
  let running: Promise<unknown> | undefined;
  return (context) => {
    if (running && !context.redelivered) return context.data.wait === true ? running : Promise.resolve(STILL_RUNNING);
    const current = (running ? running.catch(() => undefined).then(() => run(context)) : run(context)).finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
}

/** Every job a worker runs, by name: the periodic tasks and the enqueued ones. */
export function taskHandlers(deps: TaskDeps): Record<string, TaskHandler> {
  const handlers: Record<string, TaskHandler> = Object.fromEntries(periodicTasks(deps).map((task) => [task.name, task.run]));
  handlers[TASKS.alertEvaluate] = (context) => evaluateShare(deps, context);
  handlers[TASKS.replay] = (context) => replayJob(deps, context);
  handlers[TASKS.scanBacktest] = (context) => scanBacktestJob(deps, context);
  return handlers;
}

/** An engine's replay, enqueued by its tick: one job per rule version while one waits, runs or awaits a retry. */
export function enqueueReplay(queue: Pick<JobQueue, 'enqueue'>, ruleVersion: string): Promise<void> {
  return queue.enqueue(TASKS.replay, { ruleVersion }, { jobId: `${TASKS.replay}-${ruleVersion}`, long: true, removeWhenDone: true, attempts: REPLAY_ATTEMPTS, backoffMs: REPLAY_RETRY_MS });
}

async function replayJob(deps: TaskDeps, { data, redelivered, jobId, attempt, log }: TaskContext) {
  const ruleVersion = typeof data.ruleVersion === 'string' ? data.ruleVersion : '';
  const outcome = await deps.trades.runReplay(ruleVersion, { queued: { jobId, attempt } });
  // A failed replay (its error is in replay_status) fails the job: BullMQ retries it, taking the claim over.
  if (outcome === 'failed') throw new Error(`the ${ruleVersion} replay failed; retried`);
  if (outcome === 'done') log.info(`Trade ideas: ${ruleVersion} replayed${redelivered ? ' (taken over from an earlier start)' : ''}`);
  return outcome;
}

/** A saved scan's backtest, started by a call: one job per start (a start is one version's, its attempt unique). */
export function enqueueScanBacktest(queue: Pick<JobQueue, 'enqueue'>, job: BacktestJob): Promise<void> {
  const jobId = `${TASKS.scanBacktest}-${job.scanId}-${job.version}-${job.attempt}`;
  return queue.enqueue(TASKS.scanBacktest, { scanId: job.scanId, version: job.version, attempt: job.attempt }, { jobId, backtest: true, removeWhenDone: true });
}

async function scanBacktestJob(deps: TaskDeps, { data }: TaskContext) {
  const [scanId, version, attempt] = [data.scanId, data.version, data.attempt];
  if (typeof scanId !== 'number' || typeof version !== 'number' || typeof attempt !== 'number') return 'skipped';
  // Its outcome is in the backtest's row (and logged by the job); a failed backtest is no failed job.
  return deps.scanBacktests.run({ scanId, version, attempt });
}

/** The delivery kick (after an alert commit): one waiting pass however many kicks. */
export async function kickDelivery(queue: Pick<JobQueue, 'enqueue'>, requestId?: string): Promise<void> {
  for (const task of [TASKS.delivery, TASKS.webhooks]) await queue.enqueue(task, {}, { jobId: `${task}-kick`, removeWhenDone: true, ...(requestId ? { requestId } : {}) });
}

/** How long a dashboard read that found its part empty waits for the fill on a worker. */
export const DASHBOARD_FILL_WAIT_MS = 120_000;

/** What the API (and a worker's own services) hand to the queue instead of running in-process (buildApp's `queued`). */
export interface QueuedWork {
  /** After an alert commit that queued deliveries. */
  kickDelivery(): void;
  /** A dashboard read found its part empty: a registry pass on a worker (one a minute however many reads), waited for. Never rejects. */
  fillDashboard(requestId?: string): Promise<void>;
  /** An engine's replay is due (a worker's tick): one long job per rule version. */
  replay(ruleVersion: string): Promise<void>;
  /** A saved scan's backtest was started: one long job per start (rejects when Redis does not take it within ENQUEUE_TIMEOUT_MS). */
  backtest(job: BacktestJob): Promise<void>;
  /** When a worker last finished an alert evaluation (wall ms; refreshed every few seconds), null before the first. */
  alertsEvaluatedAtMs(): number | null;
  /** Stops refreshing it. */
  close(): void;
}

/** How often an API process reads when alerts were last evaluated. */
const EVALUATED_AT_REFRESH_MS = 5_000;

export function queuedWork(queue: Pick<JobQueue, 'enqueue' | 'waitFor' | 'note'>, log: { warn(message: string): void }, clock: Clock, fillWaitMs = DASHBOARD_FILL_WAIT_MS): QueuedWork {
  let evaluatedAtMs: number | null = null;
  const refresh = () =>
    queue
      .note(EVALUATED_AT_NOTE)
      .then((value) => (evaluatedAtMs = value === null ? null : Number(value)))
      .catch(() => undefined);
  void refresh();
  const timer = setInterval(() => void refresh(), EVALUATED_AT_REFRESH_MS);
  timer.unref();
  return {
    alertsEvaluatedAtMs: () => evaluatedAtMs,
    close: () => clearInterval(timer),
    kickDelivery() {
      kickDelivery(queue).catch((error: unknown) => log.warn(`Delivery kick failed: ${errorText(error)}`));
    },
    replay: (ruleVersion) => enqueueReplay(queue, ruleVersion),
    backtest: (job) => withTimeout(enqueueScanBacktest(queue, job), ENQUEUE_TIMEOUT_MS, 'Redis did not answer'),
    async fillDashboard(requestId) {
      const jobId = `${TASKS.jobsTick}-fill-${Math.floor(clock.nowMs() / 60_000)}`;
      try {
        // BullMQ waits for a connection that is down: the read gives up on the fill after a while.
        await withTimeout(queue.enqueue(TASKS.jobsTick, { wait: true }, { jobId, ...(requestId ? { requestId } : {}) }), ENQUEUE_TIMEOUT_MS, 'Redis did not answer');
        await queue.waitFor(jobId, fillWaitMs);
      } catch (error) {
        log.warn(`Dashboard fill failed: ${errorText(error)}`);
      }
    },
  };
}

/** How long a request waits for Redis to take a job. */
export const ENQUEUE_TIMEOUT_MS = 3_000;

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A first registry pass at start (as the in-process scheduler does): one per minute however many processes start. */
export function enqueueFirstTick(queue: Pick<JobQueue, 'enqueue'>, nowMs: number): Promise<void> {
  return queue.enqueue(TASKS.jobsTick, {}, { jobId: `${TASKS.jobsTick}-start-${Math.floor(nowMs / 60_000)}` });
}

/** Upserts the schedule and enqueues the first registry pass (server and worker entries, at start). */
export async function scheduleTasks(queue: Pick<JobQueue, 'enqueue' | 'upsertSchedules'>, deps: TaskDeps): Promise<void> {
  await queue.upsertSchedules(periodicTasks(deps));
  await enqueueFirstTick(queue, deps.clock.nowMs());
}

/** A registry pass; started again after its worker died, it takes over the claims its earlier start left (TickOptions). */
async function tickJobs(deps: TaskDeps, { log, redelivered, jobId, attempt }: TaskContext) {
  const outcome = await deps.jobs.tick({ queued: { jobId, attempt } });
  const ran = Object.entries(outcome).filter(([, result]) => result !== 'skipped');
  if (ran.length > 0) log.info(`Jobs${redelivered ? ' (started again: claims taken over)' : ''}: ${ran.map(([job, result]) => `${job} ${result}`).join(', ')}`);
  return outcome;
}

async function fanOutPoll(deps: TaskDeps, { enqueue, data, note }: TaskContext) {
  const symbols = await deps.alertEvaluation.watchedSymbols();
  if (symbols.length === 0) {
    // Nothing to evaluate: the pass is done as it is.
    await note(EVALUATED_AT_NOTE, String(deps.clock.nowMs()));
    return { symbols: 0, chunks: 0 };
  }
  const intervalMs = deps.alertEvaluation.pollIntervalMs(symbols.length);
  // Polls in one interval share a slot: a live source with many symbols (a longer interval than the
  // schedule's) and a retried poll add the slot's chunks once.
  const slot = Math.floor(deps.clock.nowMs() / intervalMs);
  const chunks = chunksOf(symbols, EVALUATION_CHUNK);
  await Promise.all(
    chunks.map((part, index) =>
      enqueue(TASKS.alertEvaluate, { symbols: part, watched: symbols.length }, { jobId: `${TASKS.alertEvaluate}-${intervalMs}-${slot}-${index}`, ...(data.requestId ? { requestId: data.requestId } : {}) }),
    ),
  );
  return { symbols: symbols.length, chunks: chunks.length, slot };
}

/** The note the evaluation jobs leave for the API's health answer (alerts_evaluated_at). */
export const EVALUATED_AT_NOTE = 'alerts-evaluated-at';

async function evaluateShare(deps: TaskDeps, { data, log, note }: TaskContext) {
  const symbols = Array.isArray(data.symbols) ? data.symbols.filter((symbol): symbol is string => typeof symbol === 'string') : [];
  const watched = typeof data.watched === 'number' ? data.watched : symbols.length;
  const report = await deps.alertEvaluation.pollQuotes({ symbols, watched });
  await note(EVALUATED_AT_NOTE, String(deps.clock.nowMs()));
  if (report.fired > 0) log.info(`Alerts: ${report.fired} fired from ${report.symbols} symbols`);
  if (report.failed.length > 0) log.warn(`Alert quotes failed: ${report.failed.slice(0, 5).join('; ')}`);
  return report;
}

async function deliveryPass(deps: TaskDeps) {
  let handled = 0;
  for (let batch = 0; batch < DELIVERY_BATCHES_PER_PASS; batch += 1) {
    const count = await deps.alertDelivery.runLane('messages');
    handled += count;
    if (count < DELIVERY_BATCH) break;
  }
  return handled;
}
