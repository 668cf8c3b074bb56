import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { metrics } from '../lib/metrics';
import { testRedisSettings, testRedisUrl } from '../../test/redis';
import { createJobQueue, LONG_WORKER_CONCURRENCY, startJobWorkers, type JobQueue, type JobWorkers, type TaskHandler } from './queue';
import { EVALUATION_CHUNK, STILL_RUNNING, TASKS, chunksOf, kickDelivery, periodicTasks, queuedWork, scheduleTasks, taskHandlers, type TaskDeps } from './tasks';
import type { QueuedRun, TickOptions } from './registry';

const WAIT = { timeout: 15_000, interval: 50 };

function fakeDeps(symbols: string[] = [], nowMs = 1_700_000_000_000) {
  const polled: Array<{ symbols: readonly string[]; watched: number }> = [];
  const replays: Array<{ ruleVersion: string; queued?: QueuedRun }> = [];
  let replayOutcome: 'done' | 'skipped' | 'failed' = 'done';
  let deliveryBatches: number[] = [];
  const deps: TaskDeps = {
    jobs: { tick: async () => ({ 'overall-sentiment': 'done' }) },
    alertEvaluation: {
      pollIntervalMs: (count) => (count > 30 ? 60_000 : 15_000),
      watchedSymbols: async () => symbols,
      pollQuotes: async (share) => {
        polled.push(share!);
        return { symbols: share!.symbols.length, evaluated: share!.symbols.length, fired: 0, stale: 0, failed: [] };
      },
      consumeIdeaEvents: async () => 0,
      consumeNews: async () => 0,
      scanIntraday: async () => ({ scans: 0, symbols: 0, fired: 0, failed: [] }),
    },
    alertDelivery: { runLane: async (lane: string) => (lane === 'messages' ? (deliveryBatches.shift() ?? 0) : 0) },
    liveQuotes: { runOnce: async () => ({ symbols: 0, published: 0, failed: [] }) },
    trades: {
      runReplay: async (ruleVersion, { queued } = {}) => {
        replays.push({ ruleVersion, queued });
        return replayOutcome;
      },
    },
    scanBacktests: { run: async () => 'done' },
    clock: { nowMs: () => nowMs },
  };
  return { deps, polled, replays, setReplayOutcome: (outcome: typeof replayOutcome) => (replayOutcome = outcome), setDeliveryBatches: (batches: number[]) => (deliveryBatches = batches) };
}

function recordingLog() {
  const lines: Array<{ bindings: Record<string, unknown>; message: string }> = [];
  const at = (bindings: Record<string, unknown>) => ({
    info: (message: string) => lines.push({ bindings, message }),
    warn: (message: string) => lines.push({ bindings, message }),
  });
  return { lines, log: { ...at({}), child: at } };
}

describe('the tasks', () => {
  it('splits symbols into chunks', () => {
    expect(chunksOf(['A', 'B', 'C', 'D', 'E'], 2)).toEqual([['A', 'B'], ['C', 'D'], ['E']]);
    expect(chunksOf([], 2)).toEqual([]);
  });

  it('schedules the registry every minute, the alert tasks at the poll interval, deliveries every 2 s and live quotes every 5 s', () => {
    const tasks = periodicTasks(fakeDeps().deps);
    expect(tasks.map(({ name, everyMs, pattern }) => ({ name, everyMs, pattern }))).toEqual([
      { name: 'jobs-tick', everyMs: undefined, pattern: '* * * * *' },
      { name: 'alert-poll', everyMs: 15_000, pattern: undefined },
      { name: 'alert-idea-events', everyMs: 15_000, pattern: undefined },
      { name: 'alert-news', everyMs: 15_000, pattern: undefined },
      { name: 'alert-custom-scans', everyMs: 15_000, pattern: undefined },
      { name: 'alert-delivery', everyMs: 2_000, pattern: undefined },
      { name: 'alert-webhooks', everyMs: 2_000, pattern: undefined },
      { name: 'live-quotes', everyMs: 5_000, pattern: undefined },
    ]);
  });

  it('a periodic job never waits on the previous one still running in its worker; a dashboard fill does', async () => {
    const { deps } = fakeDeps();
    let finish = () => undefined as void;
    let passes = 0;
    deps.jobs = {
      tick: () =>
        new Promise((resolve) => {
          passes += 1;
          finish = () => resolve({ 'overall-sentiment': 'done' });
        }),
    };
    const tick = taskHandlers(deps)[TASKS.jobsTick]!;
    const context = (data: Record<string, unknown>) => ({ data, jobId: '1', attempt: 1, redelivered: false, log: recordingLog().log, enqueue: async () => undefined, note: async () => null });
    const first = tick(context({}));
    expect(await tick(context({}))).toBe(STILL_RUNNING);
    const fill = tick(context({ wait: true }));
    finish();
    expect(await first).toEqual({ 'overall-sentiment': 'done' });
    expect(await fill).toEqual({ 'overall-sentiment': 'done' });
    expect(passes).toBe(1);
    // Once it finished, the next one runs.
    const next = tick(context({}));
    finish();
    await next;
    expect(passes).toBe(2);
  });

  it('a minute tick started again (its worker died) takes the claims over, after a pass under way in its worker rather than never', async () => {
    const { deps } = fakeDeps();
    const passes: TickOptions[] = [];
    const finishes: Array<() => void> = [];
    deps.jobs = {
      tick: (options = {}) =>
        new Promise((resolve) => {
          passes.push(options);
          finishes.push(() => resolve({ 'sector-sentiment': (options.queued?.attempt ?? 1) > 1 ? 'done' : 'skipped' }));
        }),
    };
    const tick = taskHandlers(deps)[TASKS.jobsTick]!;
    const context = (jobId: string, attempt: number) => ({ data: {}, jobId, attempt, redelivered: attempt > 1, log: recordingLog().log, enqueue: async () => undefined, note: async () => null });
    // A first start: its claims name it as their holder.
    const first = tick(context('repeat:jobs-tick:1', 1));
    // Started again while that pass still runs here: it waits for it, then runs its own pass taking its earlier start's claims over.
    const again = tick(context('repeat:jobs-tick:1', 2));
    expect(await tick(context('repeat:jobs-tick:2', 1))).toBe(STILL_RUNNING);
    expect(passes).toEqual([{ queued: { jobId: 'repeat:jobs-tick:1', attempt: 1 } }]);
    finishes[0]!();
    expect(await first).toEqual({ 'sector-sentiment': 'skipped' });
    await vi.waitFor(() => expect(passes).toEqual([{ queued: { jobId: 'repeat:jobs-tick:1', attempt: 1 } }, { queued: { jobId: 'repeat:jobs-tick:1', attempt: 2 } }]), WAIT);
    finishes[1]!();
    expect(await again).toEqual({ 'sector-sentiment': 'done' });
  });

  it('a dashboard read while Redis is down answers after a warning, never waits for Redis', async () => {
    const down = createJobQueue({ url: 'redis://127.0.0.1:1', prefix: 'sbt-down' });
    const warnings: string[] = [];
    const work = queuedWork(down, { warn: (message) => warnings.push(message) }, { nowMs: () => 0 });
    const started = Date.now();
    await work.fillDashboard('req-x');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(warnings).toEqual(['Dashboard fill failed: Redis did not answer']);
    work.close();
    await down.close(); // without waiting for Redis either
  });

  it('an alert poll with no watched symbols enqueues nothing and counts as an evaluation', async () => {
    const { deps } = fakeDeps([]);
    const notes: Array<[string, string | undefined]> = [];
    const enqueued: string[] = [];
    const context = { data: {}, jobId: '1', attempt: 1, redelivered: false, log: recordingLog().log, enqueue: async (name: string) => void enqueued.push(name), note: async (name: string, value?: string) => (notes.push([name, value]), null) };
    expect(await taskHandlers(deps)[TASKS.alertPoll]!(context)).toEqual({ symbols: 0, chunks: 0 });
    expect(enqueued).toEqual([]);
    expect(notes).toEqual([['alerts-evaluated-at', '1700000000000']]);
  });

  it('a delivery pass goes on while batches are full', async () => {
    const { deps, setDeliveryBatches } = fakeDeps();
    setDeliveryBatches([25, 25, 3, 25]);
    const { log } = recordingLog();
    const handled = await taskHandlers(deps)[TASKS.delivery]!({ data: {}, jobId: '1', attempt: 1, redelivered: false, log, enqueue: async () => undefined, note: async () => null });
    expect(handled).toBe(53);
  });

  it('an evaluation job polls its share of the symbols with the whole pass size', async () => {
    const { deps, polled } = fakeDeps();
    const { log } = recordingLog();
    const notes: Array<[string, string | undefined]> = [];
    const note = async (name: string, value?: string) => (notes.push([name, value]), value ?? null);
    await taskHandlers(deps)[TASKS.alertEvaluate]!({ data: { symbols: ['AAPL', 'MSFT'], watched: 60 }, jobId: '1', attempt: 1, redelivered: false, log, enqueue: async () => undefined, note });
    expect(polled).toEqual([{ symbols: ['AAPL', 'MSFT'], watched: 60 }]);
    // When it finished, for the API processes' health answer.
    expect(notes).toEqual([['alerts-evaluated-at', '1700000000000']]);
  });
  it('a replay job runs its rule version, taking the claim over only when it was started before; a failed replay fails the job', async () => {
    const { deps, replays, setReplayOutcome } = fakeDeps();
    const replay = taskHandlers(deps)[TASKS.replay]!;
    const { log } = recordingLog();
    const context = { data: { ruleVersion: 'swing@1.0.0' }, jobId: 'trades-replay-swing@1.0.0', log, enqueue: async () => undefined, note: async () => null };
    expect(await replay({ ...context, attempt: 1, redelivered: false })).toBe('done');
    expect(await replay({ ...context, attempt: 2, redelivered: true })).toBe('done');
    setReplayOutcome('failed');
    await expect(replay({ ...context, attempt: 3, redelivered: true })).rejects.toThrow('the swing@1.0.0 replay failed; retried');
    const queued = (attempt: number) => ({ jobId: 'trades-replay-swing@1.0.0', attempt });
    expect(replays).toEqual([
      { ruleVersion: 'swing@1.0.0', queued: queued(1) },
      { ruleVersion: 'swing@1.0.0', queued: queued(2) },
      { ruleVersion: 'swing@1.0.0', queued: queued(3) },
    ]);
  });

  it('a dashboard fill that cannot reach Redis is logged, never a rejected read', async () => {
    const warnings: string[] = [];
    const broken = { enqueue: () => Promise.reject(new Error('Connection is closed.')), waitFor: () => Promise.resolve('unknown'), note: () => Promise.reject(new Error('Connection is closed.')) };
    const work = queuedWork(broken, { warn: (message) => warnings.push(message) }, { nowMs: () => 0 });
    await work.fillDashboard();
    work.close();
    expect(warnings).toEqual(['Dashboard fill failed: Connection is closed.']);
    expect(work.alertsEvaluatedAtMs()).toBeNull();
  });
});

describe.skipIf(!testRedisUrl())('jobs on BullMQ', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(label: string) {
    const settings = testRedisSettings(label);
    const queues: JobQueue[] = [];
    const workers: JobWorkers[] = [];
    cleanups.push(async () => {
      for (const worker of workers) await worker.close(2_000);
      for (const queue of queues) await queue.close();
      await settings.clear();
    });
    const queue = () => {
      const created = createJobQueue(settings);
      queues.push(created);
      return created;
    };
    const worker = (handlers: Record<string, TaskHandler>, options: { log?: ReturnType<typeof recordingLog>['log']; stalledIntervalMs?: number } = {}) => {
      const log = options.log ?? recordingLog().log;
      const created = startJobWorkers(settings, { handlers, queue: queues[0] ?? queue(), log, depthEveryMs: 0, ...(options.stalledIntervalMs ? { stalledIntervalMs: options.stalledIntervalMs } : {}) });
      workers.push(created);
      return created;
    };
    return { settings, queue, worker };
  }

  it('five processes upserting the schedule create one scheduler (and one next job) per task', async () => {
    const { queue } = setup('sched');
    const { deps } = fakeDeps();
    const five = Array.from({ length: 5 }, () => queue());
    await Promise.all(five.map((each) => scheduleTasks(each, deps)));
    const schedulers = await five[0]!.queue.getJobSchedulers(0, -1);
    expect(schedulers.map((scheduler) => scheduler.key).sort()).toEqual(['alert-custom-scans', 'alert-delivery', 'alert-idea-events', 'alert-news', 'alert-poll', 'alert-webhooks', 'jobs-tick', 'live-quotes']);
    // One next job per scheduler (an `every` task's first is due at once), plus the first registry pass at start: one for the five.
    const pending = await five[0]!.queue.getJobs(['waiting', 'delayed', 'prioritized']);
    const perTask = Object.fromEntries(periodicTasks(deps).map((task) => [task.name, pending.filter((job) => job.name === task.name).length]));
    expect(perTask).toEqual({ 'jobs-tick': 2, 'alert-poll': 1, 'alert-idea-events': 1, 'alert-news': 1, 'alert-custom-scans': 1, 'alert-delivery': 1, 'alert-webhooks': 1, 'live-quotes': 1 });
    expect(pending.filter((job) => job.id?.startsWith('jobs-tick-start-'))).toHaveLength(1);
    // A task dropped from the list loses its scheduler.
    await five[1]!.upsertSchedules(periodicTasks(deps).filter((task) => task.name !== TASKS.news));
    expect((await five[0]!.queue.getJobSchedulers(0, -1)).map((scheduler) => scheduler.key)).not.toContain('alert-news');
  });

  it('each iteration of a scheduled task runs once, on one of two workers', async () => {
    const { queue, worker } = setup('once');
    const producer = queue();
    const runs: Array<{ worker: string; jobId: string }> = [];
    const handler = (name: string): TaskHandler => async ({ jobId }) => void runs.push({ worker: name, jobId });
    worker({ tick: handler('a') });
    worker({ tick: handler('b') });
    await Promise.all([producer.upsertSchedules([{ name: 'tick', everyMs: 200 }]), queue().upsertSchedules([{ name: 'tick', everyMs: 200 }])]);
    await vi.waitFor(() => expect(runs.length).toBeGreaterThanOrEqual(6), WAIT);
    const ids = runs.map((run) => run.jobId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a job whose worker is killed mid-job is run by another worker after the stalled check', async () => {
    const { settings, queue, worker } = setup('stall');
    const producer = queue();
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../test/job-worker-child.ts', import.meta.url))], {
      env: { ...process.env, JOB_TEST_PREFIX: settings.prefix, JOB_TEST_LOCK_MS: '1500' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(async () => void child.kill('SIGKILL'));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A long job (a replay's kind) and a short one, both held by the child when it dies.
    await producer.enqueue('slow', { requestId: 'req-7' }, { jobId: 'slow-1', long: true });
    await producer.enqueue('slow', {}, { jobId: 'slow-2' });
    await vi.waitFor(() => expect(output).toContain('running slow-1'), { timeout: 30_000, interval: 50 });
    await vi.waitFor(() => expect(output).toContain('running slow-2'), { timeout: 30_000, interval: 50 });
    child.kill('SIGKILL');
    const done: string[] = [];
    const { lines, log } = recordingLog();
    worker({ slow: async ({ jobId, data, redelivered, log: jobLog }) => (done.push(`${jobId} ${String(data.requestId)} ${redelivered ? 'redelivered' : 'first'}`), jobLog.info('finished')) }, { log, stalledIntervalMs: 500 });
    // Started again, and told so (a replay takes its claim over then).
    await vi.waitFor(() => expect(done.sort()).toEqual(['slow-1 req-7 redelivered', 'slow-2 undefined redelivered']), { timeout: 20_000, interval: 100 });
    await vi.waitFor(async () => expect(await producer.queues[1]!.getJobState('slow-1')).toBe('completed'), WAIT);
    await vi.waitFor(async () => expect(await producer.queue.getJobState('slow-2')).toBe('completed'), WAIT);
    // The worker logs with the request id the job carries.
    expect(lines).toContainEqual({ bindings: { job: 'slow', jobId: 'slow-1', requestId: 'req-7' }, message: 'finished' });
  }, 60_000);

  it('long jobs run in slots of their own: replays under way never hold up the short jobs', async () => {
    const { queue, worker } = setup('long');
    const producer = queue();
    let active = 0;
    let most = 0;
    const held: Array<() => void> = [];
    const shortRuns: string[] = [];
    worker({
      replay: ({ redelivered }) =>
        new Promise<void>((resolve) => {
          active += 1;
          most = Math.max(most, active);
          held.push(() => ((active -= 1), resolve()));
          expect(redelivered).toBe(false);
        }),
      tick: async ({ jobId, redelivered }) => void shortRuns.push(`${jobId} ${redelivered}`),
    });
    for (let index = 0; index < 6; index += 1) await producer.enqueue('replay', {}, { jobId: `r${index}`, long: true });
    await vi.waitFor(() => expect(held).toHaveLength(LONG_WORKER_CONCURRENCY), WAIT);
    for (let index = 0; index < 6; index += 1) await producer.enqueue('tick', {}, { jobId: `t${index}` });
    await vi.waitFor(() => expect(shortRuns).toHaveLength(6), WAIT);
    expect(shortRuns.every((run) => run.endsWith(' false'))).toBe(true);
    expect(await producer.queues[1]!.getWaitingCount()).toBe(6 - LONG_WORKER_CONCURRENCY);
    // The long ones go on as slots free up, never more than LONG_WORKER_CONCURRENCY at once.
    for (let released = 0; released < 6; released += 1) {
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(released), WAIT);
      held[released]!();
    }
    await vi.waitFor(async () => expect(await producer.queues[1]!.getCompletedCount()).toBe(6), WAIT);
    expect(most).toBe(LONG_WORKER_CONCURRENCY);
  });

  it('the alert poll enqueues its chunks once per slot, however often it runs', async () => {
    const { queue } = setup('fan');
    const producer = queue();
    const symbols = Array.from({ length: 60 }, (_, index) => `S${String(index).padStart(2, '0')}`);
    const { deps } = fakeDeps(symbols, 1_700_000_000_000);
    const poll = taskHandlers(deps)[TASKS.alertPoll]!;
    const { log } = recordingLog();
    const context = { data: { requestId: 'req-1' }, jobId: 'p', attempt: 1, redelivered: false, log, enqueue: producer.enqueue, note: producer.note };
    expect(await poll(context)).toEqual({ symbols: 60, chunks: 3, slot: Math.floor(1_700_000_000_000 / 60_000) });
    await poll(context); // a retried poll (or the next scheduled one in the same slot)
    const jobs = await producer.queue.getWaiting();
    expect(jobs).toHaveLength(Math.ceil(60 / EVALUATION_CHUNK));
    const slot = Math.floor(1_700_000_000_000 / 60_000);
    expect(jobs.map((job) => job.id).sort()).toEqual([0, 1, 2].map((index) => `alert-evaluate-60000-${slot}-${index}`));
    const shares = jobs.map((job) => job.data as { symbols: string[]; watched: number; requestId: string });
    expect(shares.flatMap((share) => share.symbols).sort()).toEqual(symbols);
    expect(shares.every((share) => share.watched === 60 && share.requestId === 'req-1')).toBe(true);
  });

  it('kicks collapse into one waiting pass of each delivery lane, and the next kick after they ran adds another', async () => {
    const { queue, worker } = setup('kick');
    const producer = queue();
    await Promise.all([kickDelivery(producer), kickDelivery(producer), kickDelivery(producer, 'req-2')]);
    // One for SMS and e-mail, one for webhooks.
    expect(await producer.queue.getWaitingCount()).toBe(2);
    let passes = 0;
    let webhookPasses = 0;
    worker({ [TASKS.delivery]: async () => void (passes += 1), [TASKS.webhooks]: async () => void (webhookPasses += 1) });
    await vi.waitFor(() => expect([passes, webhookPasses]).toEqual([1, 1]), WAIT);
    await vi.waitFor(async () => expect(await producer.queue.getJobState('alert-delivery-kick')).toBe('unknown'), WAIT);
    await vi.waitFor(async () => expect(await producer.queue.getJobState('alert-webhooks-kick')).toBe('unknown'), WAIT);
    await kickDelivery(producer);
    await vi.waitFor(() => expect([passes, webhookPasses]).toEqual([2, 2]), WAIT);
  });

  it('a dashboard read that found its part empty waits for a registry pass on a worker, with its request id', async () => {
    const { queue, worker } = setup('fill');
    const producer = queue();
    const warnings: string[] = [];
    const work = queuedWork(producer, { warn: (message) => warnings.push(message) }, { nowMs: () => 1_700_000_000_000 });
    cleanups.push(async () => work.close());
    let finishTick = () => undefined as void;
    const ticks: string[] = [];
    const { lines, log } = recordingLog();
    worker(
      {
        [TASKS.jobsTick]: ({ data, log: jobLog }) =>
          new Promise<void>((resolve) => {
            ticks.push(String(data.requestId));
            jobLog.info('tick');
            finishTick = resolve;
          }),
      },
      { log },
    );
    let filled = false;
    const fills = [work.fillDashboard('req-a').then(() => (filled = true)), work.fillDashboard('req-b')];
    await vi.waitFor(() => expect(ticks).toEqual(['req-a']), WAIT);
    expect(filled).toBe(false); // the read waits for the pass
    finishTick();
    await Promise.all(fills);
    expect(ticks).toEqual(['req-a']); // two reads in one minute: one pass
    expect(lines).toContainEqual({ bindings: { job: 'jobs-tick', jobId: `jobs-tick-fill-${Math.floor(1_700_000_000_000 / 60_000)}`, requestId: 'req-a' }, message: 'tick' });
    expect(warnings).toEqual([]);
  });

  it('an API process reads when a worker last evaluated alerts', async () => {
    const { queue } = setup('note');
    const producer = queue();
    const work = queuedWork(producer, { warn: () => undefined }, { nowMs: () => 0 });
    cleanups.push(async () => work.close());
    expect(work.alertsEvaluatedAtMs()).toBeNull();
    await queue().note('alerts-evaluated-at', '1700000000123');
    const fresh = queuedWork(producer, { warn: () => undefined }, { nowMs: () => 0 });
    cleanups.push(async () => fresh.close());
    await vi.waitFor(() => expect(fresh.alertsEvaluatedAtMs()).toBe(1_700_000_000_123), WAIT);
  });

  it('records job durations, failures and the queue depth', async () => {
    const { queue, worker } = setup('metrics');
    const producer = queue();
    const failuresBefore = (await metrics.jobFailures.get()).values.find((value) => value.labels.job === 'm-fails')?.value ?? 0;
    worker({ 'm-works': async () => 'ok', 'm-fails': async () => Promise.reject(new Error('upstream down')) });
    await producer.enqueue('m-works', {}, { jobId: 'w1' });
    await producer.enqueue('m-fails', {}, { jobId: 'f1' });
    await vi.waitFor(async () => expect(await producer.queue.getJobState('f1')).toBe('failed'), WAIT);
    await vi.waitFor(async () => expect(await producer.queue.getJobState('w1')).toBe('completed'), WAIT);
    const durations = (await metrics.jobDuration.get()).values.filter((value) => value.metricName === 'signalboard_job_duration_seconds_count');
    expect(durations.find((value) => value.labels.job === 'm-works' && value.labels.outcome === 'done')?.value).toBe(1);
    expect(durations.find((value) => value.labels.job === 'm-fails' && value.labels.outcome === 'failed')?.value).toBe(1);
    expect((await metrics.jobFailures.get()).values.find((value) => value.labels.job === 'm-fails')?.value).toBe(failuresBefore + 1);
    expect(await producer.depth()).toMatchObject({ failed: 1, waiting: 0 });
    expect((await metrics.queueDepth.get()).values).toContainEqual(expect.objectContaining({ labels: { queue: 'jobs', state: 'failed' }, value: 1 }));
  });
});
